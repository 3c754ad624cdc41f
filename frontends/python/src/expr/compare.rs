//! Comparisons: chained `a < b < c` with short-circuit, numbers compared by
//! pydev ops, and `is None`, `== None` and dtype equality known at compile time.

use crate::{
    ir::{BlockKind, Const, Val},
    lower::{describe, Item, Lowerer, Reported, R},
    types::{promote, Ty},
};
use pydev_dialect::{ops::generic, CmpPredicate};
use ruff_python_ast::{self as ast, CmpOp};
use ruff_text_size::{Ranged, TextRange};

/// The type an item names when it is a dtype (a number or vector type, a
/// struct class, `device.align(...)` of one).
fn dtype_of(item: &Item) -> Option<Ty> {
    match item {
        Item::Dtype(t) => Some(t.clone()),
        Item::StructClass(def) => Some(Ty::Struct(def.clone())),
        _ => None,
    }
}

impl Lowerer<'_, '_, '_> {
    fn cmp(&mut self, op: CmpOp, l: &Val, r: &Val, range: TextRange) -> R<Val> {
        let pred = match op {
            CmpOp::Eq => CmpPredicate::Eq,
            CmpOp::NotEq => CmpPredicate::Ne,
            CmpOp::Lt => CmpPredicate::Lt,
            CmpOp::LtE => CmpPredicate::Le,
            CmpOp::Gt => CmpPredicate::Gt,
            CmpOp::GtE => CmpPredicate::Ge,
            CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn => {
                return self.err(range, format!("'{}' is not supported in device code", op.as_str()))
            }
        };
        let common = promote(&l.ty, l.weak, &r.ty, r.weak).map_err(|e| self.c.error(range, e.to_string()))?;
        let (l, r) = (&self.adopt(l.clone(), &common), &self.adopt(r.clone(), &common));
        if (matches!(l.ty, Ty::Complex(_)) || matches!(r.ty, Ty::Complex(_))) && !matches!(op, CmpOp::Eq | CmpOp::NotEq)
        {
            return self.err(range, format!("'{}' is not defined for complex numbers", op.as_str()));
        }
        let konst = match (&l.konst, &r.konst) {
            (Some(Const::Int(a)), Some(Const::Int(b))) => Some(Const::Bool(match op {
                CmpOp::Eq => a == b,
                CmpOp::NotEq => a != b,
                CmpOp::Lt => a < b,
                CmpOp::LtE => a <= b,
                CmpOp::Gt => a > b,
                _ => a >= b,
            })),
            _ => None,
        };
        let mut out = self.b.op1(&generic::cmp(pred, l, r, &Ty::Bool.mlir()), Ty::Bool);
        out.konst = konst;
        Ok(out)
    }

    /// `a < b < c`: `a < b and b < c`, `b` evaluated once, short-circuit.
    pub(super) fn compare(&mut self, c: &ast::ExprCompare) -> R<Item> {
        // `x is None`, `x is not None`: None has its own type, so identity
        // with None is known at compile time.
        if let ([op @ (CmpOp::Is | CmpOp::IsNot)], [right]) = (&c.ops[..], &c.comparators[..]) {
            let l = self.expr(&c.left)?;
            let r = self.expr(right)?;
            if matches!(l, Item::NoneV) || matches!(r, Item::NoneV) {
                let same = matches!(l, Item::NoneV) && matches!(r, Item::NoneV);
                return Ok(Item::Val(self.bool_const(if *op == CmpOp::Is { same } else { !same })));
            }
            return self.err_help(
                c.range(),
                format!("'{}' compares with None in device code", op.as_str()),
                "compare numbers with == and !=",
            );
        }
        if let Some(op) = c.ops.iter().find(|op| matches!(op, CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn)) {
            let help = if matches!(op, CmpOp::Is | CmpOp::IsNot) {
                "compare numbers with == and !="
            } else {
                "compare with each value, e.g. x == a or x == b"
            };
            return self.err_help(c.range(), format!("'{}' is not supported in device code", op.as_str()), help);
        }
        let mut left = self.expr(&c.left)?;
        if c.ops.len() == 1 {
            if let (Item::Str(a), CmpOp::Eq | CmpOp::NotEq) = (&left, c.ops[0]) {
                // String constants compare at compile time (machine_representation()).
                match self.expr(&c.comparators[0])? {
                    Item::Str(b) => {
                        let eq = *a == b;
                        return Ok(Item::Val(self.bool_const(if c.ops[0] == CmpOp::Eq { eq } else { !eq })));
                    }
                    r @ (Item::Dtype(_) | Item::StructClass(_)) => return self.compare_dtypes(c, left, r),
                    _ => {}
                }
            }
        }
        if c.ops.len() == 1 {
            let r_item = self.expr(&c.comparators[0])?;
            if dtype_of(&left).is_some() || dtype_of(&r_item).is_some() {
                return self.compare_dtypes(c, left, r_item);
            }
            // `==` / `!=` with None (spec: None): None equals only None, and
            // a number, vector, tuple or struct is never None (Python's
            // answer), known at compile time. NumPy compares arrays
            // element-wise, which needs an array result: not here.
            if matches!(c.ops[0], CmpOp::Eq | CmpOp::NotEq)
                && (matches!(left, Item::NoneV) || matches!(r_item, Item::NoneV))
            {
                let eq = match (&left, &r_item) {
                    (Item::NoneV, Item::NoneV) => true,
                    (Item::NoneV, Item::Val(x)) | (Item::Val(x), Item::NoneV) if !matches!(x.ty, Ty::Array { .. }) => {
                        false
                    }
                    (Item::NoneV, other) | (other, Item::NoneV) => {
                        return self.err_help(
                            c.range(),
                            format!("{} cannot be compared with None in device code", describe(other)),
                            "test for None with 'is None'",
                        );
                    }
                    _ => unreachable!("one side is None"),
                };
                return Ok(Item::Val(self.bool_const(if c.ops[0] == CmpOp::Eq { eq } else { !eq })));
            }
            let l = self.number(left, c.range(), "comparison")?;
            let r = self.number(r_item, c.comparators[0].range(), "comparison")?;
            self.at(c.range());
            return self.cmp(c.ops[0], &l, &r, c.range()).map(Item::Val);
        }
        let merge = self.b.new_block(BlockKind::Merge);
        let name = format!(".cmp{}", c.range().start().to_u32());
        let n = c.ops.len();
        for (i, (op, right)) in c.ops.iter().zip(c.comparators.iter()).enumerate() {
            let l = self.number(left, c.range(), "comparison")?;
            let r_item = self.expr(right)?;
            let r = self.number(r_item, right.range(), "comparison")?;
            self.at(c.range());
            let result = self.cmp(*op, &l, &r, c.range())?;
            if i + 1 == n {
                let cur = self.b.cur.ok_or(Reported)?;
                self.b.write(&name, cur, result);
                self.b.br(merge);
            } else {
                let cur = self.b.cur.ok_or(Reported)?;
                self.b.write(&name, cur, result.clone());
                let next = self.b.new_block(BlockKind::Plain);
                self.b.cond_br(result.id, next, merge);
                self.b.seal(next);
                self.b.switch_to(next);
            }
            left = Item::Val(r);
        }
        self.b.seal(merge);
        self.b.switch_to(merge);
        let out = self.b.read(&name).ok_or(Reported)?;
        Ok(Item::Val(out))
    }

    /// `a.dtype == device.int8`, `x.dtype != np.float32`: dtypes are
    /// compile-time objects, so their equality is a constant bool (an `if`
    /// on it lowers only the branch taken). As in NumPy, a dtype also
    /// equals its name (`a.dtype == "float32"`).
    fn compare_dtypes(&mut self, c: &ast::ExprCompare, l: Item, r: Item) -> R<Item> {
        let op = c.ops[0];
        if !matches!(op, CmpOp::Eq | CmpOp::NotEq) {
            return self.err_help(
                c.range(),
                format!("dtypes compare only with == and !=, not '{}'", op.as_str()),
                "e.g. a.dtype == device.float32",
            );
        }
        let as_dtype = |item: &Item| match item {
            Item::Str(s) => Ty::from_dtype_name(s).or_else(|| Ty::from_vector_name(s)),
            other => dtype_of(other),
        };
        let (Some(a), Some(b)) = (as_dtype(&l), as_dtype(&r)) else {
            let other = if dtype_of(&l).is_some() { &r } else { &l };
            return self.err_help(
                c.range(),
                format!("a dtype cannot be compared with {} in device code", describe(other)),
                "compare dtypes with dtypes, e.g. a.dtype == device.float32 or x.dtype != np.int8",
            );
        };
        let eq = a == b;
        Ok(Item::Val(self.bool_const(if op == CmpOp::Eq { eq } else { !eq })))
    }
}
