//! Constant folding with Python semantics, for constant expressions
//! (`N = 32 * 4`, `shared_array(N + 1, ...)`). Integers fold exactly; a
//! result that the device type cannot hold is left to the caller to report.

use crate::{ir::Const, types::FloatKind};
use pydev_dialect::float;
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

/// `c` as a value of the float type `kind` (rounded to it, as a run-time
/// conversion to the operation's type does).
pub fn to_float(c: &Const, kind: FloatKind) -> Const {
    Const::Float(round_float(as_float(c), kind).1)
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

/// `x` rounded (to nearest, ties to even) to a float type: the bit pattern
/// and the value it stands for. Too-large values become infinity, or NaN in
/// float8e4m3 (which has no infinity), as a run-time conversion does
/// (`pydev_dialect::float`, the one rounding of small floats); a NaN
/// constant is the format's canonical NaN.
pub fn round_float(x: f64, kind: FloatKind) -> (u64, f64) {
    let format = match kind {
        FloatKind::F64 => return (x.to_bits(), x),
        FloatKind::F32 => return (u64::from((x as f32).to_bits()), f64::from(x as f32)),
        FloatKind::F16 => float::FLOAT16,
        FloatKind::BF16 => float::BFLOAT16,
        FloatKind::F8E5M2 => float::FLOAT8E5M2,
        FloatKind::F8E4M3 => float::FLOAT8E4M3,
    };
    if x.is_nan() {
        return (format.nan(), f64::NAN);
    }
    let bits = format.round(x);
    (bits, format.value(bits))
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

    #[test]
    fn narrow_float_bits() {
        assert_eq!(round_float(1.0, FloatKind::F16), (0x3C00, 1.0));
        assert_eq!(round_float(-2.0, FloatKind::F16), (0xC000, -2.0));
        assert_eq!(round_float(65504.0, FloatKind::F16), (0x7BFF, 65504.0));
        assert_eq!(round_float(1e10, FloatKind::F16).0, 0x7C00);
        assert_eq!(round_float(5.960464477539063e-8, FloatKind::F16), (0x0001, 5.960464477539063e-8));
        assert_eq!(round_float(0.1, FloatKind::F16).0, 0x2E66);
        assert_eq!(round_float(1.0, FloatKind::BF16), (0x3F80, 1.0));
        assert_eq!(round_float(1.00390625, FloatKind::BF16).0, 0x3F80); // a tie rounds to even
        assert_eq!(round_float(448.0, FloatKind::F8E4M3), (0x7E, 448.0));
        assert_eq!(round_float(1000.0, FloatKind::F8E4M3).0, 0x7F);
        assert_eq!(round_float(-1.5, FloatKind::F8E4M3), (0xBC, -1.5));
        assert_eq!(round_float(57344.0, FloatKind::F8E5M2), (0x7B, 57344.0));
        assert_eq!(round_float(f64::INFINITY, FloatKind::F8E5M2).0, 0x7C);
        assert_eq!(round_float(0.1, FloatKind::F32).1, f64::from(0.1f32));
    }
}
