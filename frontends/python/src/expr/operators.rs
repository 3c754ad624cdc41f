//! Arithmetic, bitwise and unary operators with Python semantics: the operands
//! are promoted to a common type (Python scalars are weak, as in the Array
//! API), constants fold, the rest are recorded as pydev ops.

use crate::{
    ir::{Const, Val},
    lower::{describe, Item, Lowerer, R},
    types::{promote, FloatKind, Ty, INT32},
};
use pydev_dialect::ops::generic::{self, TextValue};
use pydev_dialect::promotion::OpKind;
use ruff_python_ast::{self as ast, Expr, Operator, UnaryOp};
use ruff_text_size::{Ranged, TextRange};

/// A writer of a binary pydev op: `(lhs, rhs, result type)` to its text.
pub(super) type BinaryWriter = fn(&dyn TextValue, &dyn TextValue, &str) -> String;

/// A writer of a unary pydev op: `(operand, result type)` to its text.
pub(super) type UnaryWriter = fn(&dyn TextValue, &str) -> String;

/// The pydev op of a binary operator (`generic::add` for `+`).
fn binary_writer(op: Operator) -> Option<BinaryWriter> {
    Some(match op {
        Operator::Add => generic::add,
        Operator::Sub => generic::sub,
        Operator::Mult => generic::mul,
        Operator::Div => generic::truediv,
        Operator::FloorDiv => generic::floordiv,
        Operator::Mod => generic::r#mod,
        Operator::Pow => generic::pow,
        Operator::BitAnd => generic::and,
        Operator::BitOr => generic::or,
        Operator::BitXor => generic::xor,
        Operator::LShift => generic::lshift,
        Operator::RShift => generic::rshift,
        Operator::MatMult => return None,
    })
}

impl Lowerer<'_, '_, '_> {
    /// A numeric operand, or an error naming what it is instead.
    pub(super) fn number(&mut self, item: Item, range: TextRange, what: &str) -> R<Val> {
        match item {
            Item::Val(v) if v.ty.is_number() => Ok(v),
            Item::Val(m) if m.ty == Ty::WarpMask => Ok(self.b.op1(&generic::cast(&m, &INT32.mlir()), INT32)),
            other => self.err(range, format!("{what} needs numbers, got {}", describe(&other))),
        }
    }

    /// `l op r` on numbers: a pydev op whose result type is the promoted
    /// type. `operands`: the ranges of the operands' source (None: the
    /// whole expression's), where an error about one points.
    pub(crate) fn binary_at(
        &mut self,
        op: Operator,
        l: Item,
        r: Item,
        range: TextRange,
        operands: Option<(TextRange, TextRange)>,
    ) -> R<Item> {
        let Some(write) = binary_writer(op) else {
            return self.err(range, "the @ operator is not supported in device code");
        };
        let sym = op.as_str();
        let l = self.number(l, range, &format!("'{sym}'"))?;
        let r = self.number(r, range, &format!("'{sym}'"))?;
        let common = promote(&l.ty, l.weak, &r.ty, r.weak).map_err(|e| self.c.error(range, e.to_string()))?;
        // A Python int meeting a fixed-format integer takes its type (Array
        // API weak scalars), which the standard requires only of an int
        // within that type's bounds; NumPy 2 raises OverflowError for one
        // outside them (`np.uint16(5) % -8`). A constant one that does not
        // fit is an error here, rather than wrapping (-8 as uint16 is 65528).
        for (k, (x, y)) in [(&l, &r), (&r, &l)].into_iter().enumerate() {
            if let (true, false, Some(Const::Int(v)), Ty::Int { bits, signed }) = (x.weak, y.weak, &x.konst, &common) {
                let (lo, hi) = if *signed {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                if y.ty == common && (*v < lo || *v > hi) {
                    let at = operands.map_or(range, |(a, b)| if k == 0 { a } else { b });
                    return self.err_help(
                        at,
                        format!("the Python int {v} does not fit in {common}, the type of the other operand of '{sym}' (it would wrap to {})", wrap(*v, *bits, *signed)),
                        format!("a Python int takes the type of the fixed-format number it meets, and must be within its range {lo}..{hi} (Array API; NumPy raises OverflowError); convert one operand explicitly, e.g. device.int32(x) {sym} {v}"),
                    );
                }
            }
        }
        let (l, r) = (self.adopt(l, &common), self.adopt(r, &common));
        let (lt, rt) = (l.ty.clone(), r.ty.clone());
        let (l, r) = (self.conform(l, &rt, &common), self.conform(r, &lt, &common));
        let weak = l.weak && r.weak;
        let zero_divisor = matches!(&r.konst, Some(Const::Int(0) | Const::Bool(false)))
            || matches!(&r.konst, Some(Const::Float(f)) if *f == 0.0);
        if zero_divisor && matches!(op, Operator::Div | Operator::FloorDiv | Operator::Mod) {
            return self.err_help(
                range,
                format!("'{sym}' by a constant zero"),
                "Python raises ZeroDivisionError here; device code has no exceptions, so check the divisor",
            );
        }
        let bitwise =
            matches!(op, Operator::BitAnd | Operator::BitOr | Operator::BitXor | Operator::LShift | Operator::RShift);
        if bitwise && !matches!(common, Ty::Int { .. } | Ty::Bool) {
            return self.err(range, format!("'{sym}' needs integers or bools, got {} and {}", l.ty, r.ty));
        }
        if matches!(common, Ty::Complex(_)) && matches!(op, Operator::FloorDiv | Operator::Mod) {
            return self.err(range, format!("'{sym}' is not defined for complex numbers"));
        }
        // The op's result type: the dialect's table (its verifier checks it).
        let kind = match op {
            Operator::Div => OpKind::TrueDiv,
            Operator::BitAnd | Operator::BitOr | Operator::BitXor => OpKind::Bitwise,
            Operator::LShift | Operator::RShift => OpKind::Shift,
            _ => OpKind::Arith,
        };
        let result = common
            .promotion_number()
            .and_then(|n| pydev_dialect::promotion::result_of(kind, n))
            .map(Ty::of_promotion_number)
            .unwrap_or_else(|| common.clone());
        if let (Some(x), Some(y)) = (&l.konst, &r.konst) {
            // A float operation folds on the values of its type, rounded
            // to it, as it runs: a Python float is a float32, so `0.1 * 3`
            // is float32(0.1) * 3 in float32 (0.30000001192...). A Python
            // float literal met by a fixed float type has adopted it above
            // with its exact value. Integers fold exactly.
            let (x, y) = match &common {
                Ty::Float(k) => (crate::consts::to_float(x, *k), crate::consts::to_float(y, *k)),
                _ => (x.clone(), y.clone()),
            };
            if let Some(folded) = crate::consts::fold_binary(op, &x, &y) {
                let fits = match (&folded, &result) {
                    (Const::Int(i), Ty::Int { bits, signed: true }) => {
                        *i >= -(1i128 << (bits - 1)) && *i < (1i128 << (bits - 1))
                    }
                    (Const::Int(i), Ty::Int { bits, signed: false }) => *i >= 0 && *i < (1i128 << bits),
                    (Const::Float(_), Ty::Float(_)) => true,
                    _ => false,
                };
                if fits {
                    // The result is a value of its type (typed_const rounds).
                    let mut c = self.typed_const(&folded, &result);
                    c.weak = weak;
                    return Ok(Item::Val(c));
                }
            }
        }
        let mut out = self.b.op1(&write(&l, &r, &result.mlir()), result);
        out.weak = weak;
        Ok(Item::Val(out))
    }

    /// A weak operand (a Python scalar) `x` whose own type would promote
    /// with the other operand's, `other`, to another type than `common` takes `common`: a
    /// constant is made of that type (the caller checked that it fits), any
    /// other value is cast. The op's operands then promote to `common` by
    /// the dialect's table (`int8 + 1` is `si8, si8 -> si8`, not `si8, si32`).
    pub(super) fn conform(&mut self, x: Val, other: &Ty, common: &Ty) -> Val {
        if !x.weak || promote(&x.ty, false, other, false).is_ok_and(|t| t == *common) {
            return x;
        }
        // An integer constant outside `common`'s range (`min(int8, 300)`) is
        // cast: it wraps, as the conversion did before.
        let fits = match (&x.konst, common) {
            (Some(Const::Int(v)), Ty::Int { bits, signed: true }) => {
                (-(1i128 << (bits - 1))..(1i128 << (bits - 1))).contains(v)
            }
            (Some(Const::Int(v)), Ty::Int { bits, signed: false }) => (0..(1i128 << bits)).contains(v),
            _ => true,
        };
        match &x.konst {
            Some(k) if fits => {
                let k = k.clone();
                Val { weak: true, ..self.typed_const(&k, common) }
            }
            _ => Val { weak: true, ..self.b.op1(&generic::cast(&x, &common.mlir()), common.clone()) },
        }
    }

    /// A Python float constant takes the type of the fixed-format operand it
    /// meets (Array API weak scalars): in `x + 0.1` with `x` a float64, 0.1
    /// is the float64 nearest 0.1, not a float32 widened.
    pub(super) fn adopt(&mut self, x: Val, common: &Ty) -> Val {
        let ty = match common {
            Ty::Float(_) => common.clone(),
            Ty::Complex(64) => Ty::Float(FloatKind::F64),
            _ => return x,
        };
        match &x.konst {
            Some(k @ Const::Float(_)) if x.weak && x.ty != ty => {
                let k = k.clone();
                Val { weak: true, ..self.typed_const(&k, &ty) }
            }
            _ => x,
        }
    }

    pub(super) fn unary(&mut self, u: &ast::ExprUnaryOp) -> R<Item> {
        // `-2147483648` is an int32 literal although 2147483648 is not.
        if let (UnaryOp::USub, Expr::NumberLiteral(ast::ExprNumberLiteral { value: ast::Number::Int(i), .. })) =
            (u.op, u.operand.as_ref())
        {
            if let Some(i) = i.as_u64() {
                return self.constant(Const::Int(-i128::from(i)), u.range()).map(Item::Val);
            }
        }
        let operand = self.expr(&u.operand)?;
        self.at(u.range());
        if let (UnaryOp::Invert, Item::Target(t)) = (u.op, &operand) {
            return Ok(Item::Target(crate::target::Target::node(pydev_dialect::TargetKind::Not, vec![t.clone()])));
        }
        if u.op == UnaryOp::Not {
            let t = self.truth(operand, u.operand.range())?;
            let konst = match t.konst {
                Some(Const::Bool(b)) => Some(Const::Bool(!b)),
                _ => None,
            };
            let mut r = self.b.op1(&generic::not(&t, &Ty::Bool.mlir()), Ty::Bool);
            r.konst = konst;
            if let Some(k) = self.target_known.get(&t.id).copied() {
                self.target_known.insert(r.id, !k);
            }
            return Ok(Item::Val(r));
        }
        let x = self.number(operand, u.range(), &format!("unary '{}'", u.op.as_str()))?;
        let (write, ty): (UnaryWriter, Ty) = match u.op {
            UnaryOp::USub => (generic::neg, if x.ty == Ty::Bool { INT32 } else { x.ty.clone() }),
            UnaryOp::UAdd => (generic::pos, if x.ty == Ty::Bool { INT32 } else { x.ty.clone() }),
            UnaryOp::Invert => {
                if !matches!(x.ty, Ty::Int { .. } | Ty::Bool) {
                    return self.err(u.range(), format!("'~' needs an integer, got {}", x.ty));
                }
                (generic::invert, if x.ty == Ty::Bool { INT32 } else { x.ty.clone() })
            }
            UnaryOp::Not => unreachable!("handled above"),
        };
        if let (UnaryOp::USub, Some(Const::Int(i))) = (u.op, &x.konst) {
            let mut c = self.typed_const(&Const::Int(-i), &ty);
            c.weak = x.weak;
            return Ok(Item::Val(c));
        }
        if let (UnaryOp::USub, Some(Const::Float(f))) = (u.op, &x.konst) {
            let mut c = self.typed_const(&Const::Float(-f), &ty);
            c.weak = x.weak;
            if x.weak {
                // A Python float keeps its exact value (see `constant`).
                c.konst = Some(Const::Float(-f));
            }
            return Ok(Item::Val(c));
        }
        let mut r = self.b.op1(&write(&x, &ty.mlir()), ty);
        r.weak = x.weak;
        Ok(Item::Val(r))
    }
}

/// `v` wrapped to a `bits`-bit integer (what a conversion would give).
fn wrap(v: i128, bits: u32, signed: bool) -> i128 {
    let m = v.rem_euclid(1i128 << bits);
    if signed && m >= 1i128 << (bits - 1) {
        m - (1i128 << bits)
    } else {
        m
    }
}
