//! Constant folding with Python semantics, for constant expressions
//! (`N = 32 * 4`, `shared_array(N + 1, ...)`). Integers fold exactly; a
//! result that the device type cannot hold is left to the caller to report.

use crate::ir::Const;
use ruff_python_ast::Operator;

/// Python's `//` on integers: rounds toward minus infinity.
pub fn floordiv(x: i128, y: i128) -> Option<i128> {
    if y == 0 {
        return None;
    }
    let q = x / y;
    Some(if x % y != 0 && ((x < 0) != (y < 0)) { q - 1 } else { q })
}

/// Python's `%` on integers: the sign of the divisor.
pub fn pymod(x: i128, y: i128) -> Option<i128> {
    floordiv(x, y).map(|q| x - q * y)
}

fn as_float(c: &Const) -> f64 {
    match c {
        Const::Int(i) => *i as f64,
        Const::Float(f) => *f,
        Const::Bool(b) => f64::from(u8::from(*b)),
    }
}

fn as_int(c: &Const) -> Option<i128> {
    match c {
        Const::Int(i) => Some(*i),
        Const::Bool(b) => Some(i128::from(*b)),
        Const::Float(_) => None,
    }
}

/// `x op y` on constants, `None` when it does not fold (division by zero,
/// an operator on floats that needs the device, a huge shift).
pub fn fold_binary(op: Operator, x: &Const, y: &Const) -> Option<Const> {
    if let (Some(a), Some(b)) = (as_int(x), as_int(y)) {
        return Some(Const::Int(match op {
            Operator::Add => a.checked_add(b)?,
            Operator::Sub => a.checked_sub(b)?,
            Operator::Mult => a.checked_mul(b)?,
            Operator::FloorDiv => floordiv(a, b)?,
            Operator::Mod => pymod(a, b)?,
            Operator::Pow if (0..128).contains(&b) => a.checked_pow(u32::try_from(b).ok()?)?,
            Operator::LShift if (0..64).contains(&b) => a.checked_shl(u32::try_from(b).ok()?)?,
            Operator::RShift if (0..128).contains(&b) => a >> b,
            Operator::BitAnd => a & b,
            Operator::BitOr => a | b,
            Operator::BitXor => a ^ b,
            Operator::Div if b != 0 => return Some(Const::Float(a as f64 / b as f64)),
            _ => return None,
        }));
    }
    let (a, b) = (as_float(x), as_float(y));
    Some(Const::Float(match op {
        Operator::Add => a + b,
        Operator::Sub => a - b,
        Operator::Mult => a * b,
        Operator::Div if b != 0.0 => a / b,
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_floor_semantics() {
        assert_eq!(floordiv(7, 2), Some(3));
        assert_eq!(floordiv(-7, 2), Some(-4));
        assert_eq!(floordiv(7, -2), Some(-4));
        assert_eq!(pymod(-7, 2), Some(1));
        assert_eq!(pymod(7, -2), Some(-1));
        assert_eq!(floordiv(1, 0), None);
        assert_eq!(fold_binary(Operator::Div, &Const::Int(1), &Const::Int(2)), Some(Const::Float(0.5)));
    }
}
