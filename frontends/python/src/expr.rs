//! Expressions: literals, names, operators with Python semantics (recorded as
//! pydev ops before promotion), comparisons and short-circuit logic,
//! conditional expressions, subscripts and attributes of arrays, vectors,
//! tuples, structs and warp masks, and calls.

use crate::{
    ir::{v, BlockKind, Const, Val},
    lower::{describe, ClosureBody, Item, Lowerer, R},
    types::{promote, ArrayLayout, FloatKind, Space, Ty, FLOAT32, INT32, INT64},
};
use pydev_dialect::{
    ops::generic::{self, TextValue},
    CmpPredicate,
};
use ruff_python_ast::{self as ast, CmpOp, Expr, Operator, UnaryOp};
use ruff_text_size::{Ranged, TextRange};
use std::rc::Rc;

/// The type an item names when it is a dtype (a number or vector type, a
/// struct class, `device.align(...)` of one).
fn dtype_of(item: &Item) -> Option<Ty> {
    match item {
        Item::Dtype(t) => Some(t.clone()),
        Item::StructClass(def) => Some(Ty::Struct(def.clone())),
        _ => None,
    }
}

/// What a subscript keeps of one dimension of an array.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// An integer index: one element (the dimension is dropped).
    One,
    /// `:` or `::1`: the whole dimension.
    All,
    /// A unit-step slice with bounds: one run of consecutive elements.
    Run,
    /// Any other step.
    Strided,
}

/// The layout of a view of a `layout` array that keeps `keeps` of its
/// dimensions: a C-contiguous array stays C-contiguous when its trailing
/// dimensions are kept whole, the one before them is one run (or one
/// element) and the leading ones are single elements (`a[i, lo:hi]`,
/// `a[lo:hi, :]`, a unit-step slice of a contiguous 1-d array);
/// Fortran order mirrors it. Anything else is strided.
fn sliced_layout(layout: ArrayLayout, keeps: &[Keep]) -> ArrayLayout {
    let contiguous = |dims: &mut dyn Iterator<Item = Keep>| {
        let mut dims = dims.skip_while(|k| *k == Keep::All);
        match dims.next() {
            None | Some(Keep::One | Keep::Run) => dims.all(|k| k == Keep::One),
            _ => false,
        }
    };
    let keeps_order = match layout {
        ArrayLayout::C => contiguous(&mut keeps.iter().rev().copied()),
        ArrayLayout::F => contiguous(&mut keeps.iter().copied()),
        ArrayLayout::Strided => false,
    };
    // A view with no dimension left (all indices) has no layout to keep.
    if keeps_order && keeps.iter().any(|k| *k != Keep::One) {
        layout
    } else {
        ArrayLayout::Strided
    }
}

/// A writer of a binary pydev op: `(lhs, rhs, result type)` to its text.
type BinaryWriter = fn(&dyn TextValue, &dyn TextValue, &str) -> String;

/// A writer of a unary pydev op: `(operand, result type)` to its text.
type UnaryWriter = fn(&dyn TextValue, &str) -> String;

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

/// Values as the operands of a generated op writer.
fn operands(vals: &[Val]) -> Vec<&dyn TextValue> {
    vals.iter().map(|x| x as &dyn TextValue).collect()
}

impl Lowerer<'_, '_, '_> {
    pub fn expr(&mut self, e: &Expr) -> R<Item> {
        self.at(e.range());
        match e {
            Expr::NumberLiteral(n) => match &n.value {
                ast::Number::Int(i) => match i.as_u64() {
                    Some(i) => self.constant(Const::Int(i128::from(i)), n.range()).map(Item::Val),
                    None => self.err_help(
                        n.range(),
                        format!("integer literal {i} is too large for device code"),
                        "the widest device integers are int64 and uint64",
                    ),
                },
                ast::Number::Float(f) => self.constant(Const::Float(*f), n.range()).map(Item::Val),
                ast::Number::Complex { real, imag } => {
                    let mut c = self.b.op1(
                        &format!(
                            "complex.constant [{} : f32, {} : f32] : complex<f32>",
                            crate::lower::float_attr(*real, &FLOAT32),
                            crate::lower::float_attr(*imag, &FLOAT32)
                        ),
                        Ty::Complex(32),
                    );
                    c.weak = true;
                    Ok(Item::Val(c))
                }
            },
            Expr::BooleanLiteral(b) => Ok(Item::Val(self.bool_const(b.value))),
            Expr::NoneLiteral(_) => Ok(Item::NoneV),
            Expr::StringLiteral(s) => Ok(Item::Str(s.value.to_str().to_owned())),
            Expr::Name(n) => self.read_name(n.id.as_str(), n.range()),
            Expr::Tuple(t) => Ok(Item::Tuple(t.elts.iter().map(|e| self.expr(e)).collect::<R<_>>()?)),
            Expr::BinOp(b) => {
                let l = self.expr(&b.left)?;
                let r = self.expr(&b.right)?;
                self.at(b.range());
                if let (Item::Target(x), Item::Target(y)) = (&l, &r) {
                    let kind = match b.op {
                        Operator::BitAnd => pydev_dialect::TargetKind::And,
                        Operator::BitOr => pydev_dialect::TargetKind::Or,
                        _ => return self.err(b.range(), "target descriptions combine only with &, | and ~"),
                    };
                    return Ok(Item::Target(crate::lower::Target::node(kind, vec![x.clone(), y.clone()])));
                }
                self.binary_at(b.op, l, r, b.range(), Some((b.left.range(), b.right.range())))
            }
            Expr::UnaryOp(u) => self.unary(u),
            Expr::BoolOp(b) => self.bool_op(b),
            Expr::Compare(c) => self.compare(c),
            Expr::If(i) => self.if_expr(i),
            Expr::Lambda(l) => {
                if l.parameters.as_ref().is_some_and(|p| {
                    !p.args.is_empty()
                        || !p.posonlyargs.is_empty()
                        || p.vararg.is_some()
                        || !p.kwonlyargs.is_empty()
                        || p.kwarg.is_some()
                }) {
                    return self.err_help(
                        l.range(),
                        "lambdas in device code take no parameters",
                        "lambdas are predicates for syncthreads_count, all_sync and friends",
                    );
                }
                Ok(Item::Closure(Rc::new(ClosureBody::Lambda((*l.body).clone()))))
            }
            Expr::Call(c) => self.call(c),
            Expr::Attribute(a) => {
                let base = self.expr(&a.value)?;
                self.at(a.range());
                self.attribute(base, a.attr.id.as_str(), a.range())
            }
            Expr::Subscript(s) => {
                let base = self.expr(&s.value)?;
                self.at(s.range());
                self.subscript(base, &s.slice, s.range())
            }
            Expr::Dict(_) | Expr::DictComp(_) => {
                self.err_help(e.range(), "dicts are not supported in device code", "use a tuple, a struct or an array")
            }
            Expr::Set(_) | Expr::SetComp(_) => self.err(e.range(), "sets are not supported in device code"),
            Expr::List(_) | Expr::ListComp(_) => self.err_help(
                e.range(),
                "lists are not supported in device code",
                "use a tuple, or device.local_array for a mutable array",
            ),
            Expr::Generator(_) => self.err(e.range(), "generator expressions are not supported in device code"),
            Expr::Yield(_) | Expr::YieldFrom(_) => self.err(e.range(), "yield is not supported in device code"),
            Expr::Await(_) => self.err(e.range(), "await is not supported in device code"),
            Expr::Starred(_) => self.err(e.range(), "*args unpacking is not supported in device code"),
            Expr::Named(_) => self.err(e.range(), "assignment expressions (:=) are not supported in device code"),
            Expr::FString(_) | Expr::TString(_) | Expr::BytesLiteral(_) => {
                self.err(e.range(), "strings are not values in device code")
            }
            Expr::Slice(_) => self.err(e.range(), "a slice is only valid inside []"),
            Expr::EllipsisLiteral(_) | Expr::IpyEscapeCommand(_) => {
                self.err(e.range(), "this expression is not supported in device code")
            }
        }
    }

    pub fn value(&mut self, e: &Expr) -> R<Val> {
        let item = self.expr(e)?;
        self.materialize(&item, e.range())
    }

    /// A numeric operand, or an error naming what it is instead.
    fn number(&mut self, item: Item, range: TextRange, what: &str) -> R<Val> {
        match item {
            Item::Val(v) if v.ty.is_number() => Ok(v),
            Item::Val(m) if m.ty == Ty::WarpMask => Ok(self.b.op1(&generic::cast(&m, &INT32.mlir()), INT32)),
            other => self.err(range, format!("{what} needs numbers, got {}", describe(&other))),
        }
    }

    /// `l op r` on numbers: a pydev op whose result type is the promoted
    /// type. `operands`: the ranges of the operands' source (None: the
    /// whole expression's), where an error about one points.
    pub fn binary_at(
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
        let common = promote(&l.ty, l.weak, &r.ty, r.weak).map_err(|e| self.c.error(range, e))?;
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
        let mut result = match (op, &common) {
            (Operator::Div, Ty::Int { bits: 64, .. }) => Ty::Float(FloatKind::F64),
            (Operator::Div, Ty::Int { .. } | Ty::Bool) => FLOAT32,
            (Operator::LShift | Operator::RShift, Ty::Bool) => INT32,
            (Operator::BitAnd | Operator::BitOr | Operator::BitXor, Ty::Bool) => Ty::Bool,
            (_, Ty::Bool) => INT32,
            _ => common.clone(),
        };
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
        if result == Ty::Bool && !bitwise {
            result = INT32;
        }
        let mut out = self.b.op1(&write(&l, &r, &result.mlir()), result);
        out.weak = weak;
        Ok(Item::Val(out))
    }

    /// A Python float constant takes the type of the fixed-format operand it
    /// meets (Array API weak scalars): in `x + 0.1` with `x` a float64, 0.1
    /// is the float64 nearest 0.1, not a float32 widened.
    fn adopt(&mut self, x: Val, common: &Ty) -> Val {
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

    fn unary(&mut self, u: &ast::ExprUnaryOp) -> R<Item> {
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
            return Ok(Item::Target(crate::lower::Target::node(pydev_dialect::TargetKind::Not, vec![t.clone()])));
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
        let common = promote(&l.ty, l.weak, &r.ty, r.weak).map_err(|e| self.c.error(range, e))?;
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
    fn compare(&mut self, c: &ast::ExprCompare) -> R<Item> {
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
                let cur = self.b.cur.ok_or(())?;
                self.b.write(&name, cur, result);
                self.b.br(merge);
            } else {
                let cur = self.b.cur.ok_or(())?;
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
        let out = self.b.read(&name).ok_or(())?;
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

    /// `a and b` / `a or b` with Python's value semantics and short-circuit.
    fn bool_op(&mut self, b: &ast::ExprBoolOp) -> R<Item> {
        let merge = self.b.new_block(BlockKind::Merge);
        let name = format!(".bool{}", b.range().start().to_u32());
        let n = b.values.len();
        for (i, e) in b.values.iter().enumerate() {
            let item = self.expr(e)?;
            let val = match item {
                Item::Val(v) => v,
                Item::Tuple(_) => self.materialize(&item, e.range())?,
                other => {
                    return self.err(e.range(), format!("'{}' needs values, got {}", b.op.as_str(), describe(&other)))
                }
            };
            let cur = self.b.cur.ok_or(())?;
            self.b.write(&name, cur, val.clone());
            if i + 1 == n {
                self.b.br(merge);
            } else {
                let t = self.truth(Item::Val(val), e.range())?;
                // A constant operand decides at compile time (dtype tests):
                // it is the result, or the next operand is.
                if let Some(Const::Bool(k)) = t.konst {
                    if k == (b.op == ast::BoolOp::Or) {
                        self.b.br(merge);
                        break;
                    }
                    continue;
                }
                let next = self.b.new_block(BlockKind::Plain);
                match b.op {
                    ast::BoolOp::And => self.b.cond_br(t.id, next, merge),
                    ast::BoolOp::Or => self.b.cond_br(t.id, merge, next),
                }
                self.b.seal(next);
                self.b.switch_to(next);
            }
        }
        self.b.seal(merge);
        self.b.switch_to(merge);
        let before = self.b.errors.len();
        let out = self.b.read(&name).ok_or(())?;
        if self.b.errors.len() > before {
            let e = self.b.errors.pop().expect("error just pushed");
            return self
                .err(b.range(), format!("'{}' of {} and {} has no common type", b.op.as_str(), e.first, e.second));
        }
        Ok(Item::Val(out))
    }

    fn if_expr(&mut self, i: &ast::ExprIf) -> R<Item> {
        let cond = self.expr(&i.test)?;
        let cond = self.truth(cond, i.test.range())?;
        if let Some(Const::Bool(k)) = cond.konst {
            return self.expr(if k { &i.body } else { &i.orelse });
        }
        let name = format!(".ifexp{}", i.range().start().to_u32());
        let (then, otherwise, merge) = (
            self.b.new_block(BlockKind::Plain),
            self.b.new_block(BlockKind::Plain),
            self.b.new_block(BlockKind::Merge),
        );
        self.b.cond_br(cond.id, then, otherwise);
        self.b.seal(then);
        self.b.seal(otherwise);
        for (block, e) in [(then, &i.body), (otherwise, &i.orelse)] {
            self.b.switch_to(block);
            let val = self.value(e)?;
            let cur = self.b.cur.ok_or(())?;
            self.b.write(&name, cur, val);
            self.b.br(merge);
        }
        self.b.seal(merge);
        self.b.switch_to(merge);
        let before = self.b.errors.len();
        let out = self.b.read(&name).ok_or(())?;
        if self.b.errors.len() > before {
            let e = self.b.errors.pop().expect("error just pushed");
            return self.err(
                i.range(),
                format!("the branches of this conditional expression are {} and {}", e.first, e.second),
            );
        }
        Ok(Item::Val(out))
    }

    /// Converts a value to `ty` (explicit conversions, arguments, stores).
    pub fn convert(&mut self, x: &Val, ty: &Ty, range: TextRange) -> R<Val> {
        // `device.align(t, n)` values are `t` values.
        if &x.ty != ty {
            if x.ty.aligned_value().is_some() {
                let inner = self.unwrap_aligned(x.clone());
                return self.convert(&inner, ty, range);
            }
            if let Some(inner) = ty.aligned_value().cloned() {
                let inner = self.convert(x, &inner, range)?;
                self.at(range);
                return Ok(self.b.op1(&generic::struct_create(&[&inner], &ty.mlir()), ty.clone()));
            }
            // `device.align(S, n)` of a struct is S with a larger alignment:
            // the same fields, moved into the other layout.
            if let (Ty::Struct(from), Ty::Struct(to)) = (&x.ty, ty) {
                if from.name == to.name && from.fields == to.fields {
                    self.at(range);
                    let mut fields = Vec::new();
                    for (field, fty) in &from.fields {
                        fields.push(self.b.op1(&generic::struct_extract(x, field, &fty.mlir()), fty.clone()));
                    }
                    return Ok(self.b.op1(&generic::struct_create(&operands(&fields), &ty.mlir()), ty.clone()));
                }
            }
        }
        if &x.ty == ty {
            // A Python float's exact value becomes the value of the type.
            let konst = match (&x.konst, ty) {
                (Some(Const::Float(f)), Ty::Float(k)) => Some(Const::Float(crate::consts::round_float(*f, *k).1)),
                (k, _) => k.clone(),
            };
            return Ok(Val { weak: false, konst, ..x.clone() });
        }
        if let Some(k) = &x.konst {
            if ty.is_number() && !matches!(ty, Ty::Complex(_)) {
                if let Ty::Int { bits, signed } = ty {
                    let i = match k {
                        Const::Int(i) => Some(*i),
                        Const::Bool(b) => Some(i128::from(*b)),
                        Const::Float(f) => f.is_finite().then(|| f.trunc() as i128),
                    };
                    let (lo, hi) = if *signed {
                        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                    } else {
                        (0, (1i128 << bits) - 1)
                    };
                    if !i.is_some_and(|i| (lo..=hi).contains(&i)) {
                        let shown = match k {
                            Const::Float(f) => format!("{f:?}"),
                            other => i.map_or_else(|| format!("{other:?}"), |i| i.to_string()),
                        };
                        return self.err_help(
                            range,
                            format!("{shown} does not fit in {ty}"),
                            format!("{ty} holds {lo} to {hi}"),
                        );
                    }
                }
                return Ok(self.typed_const(k, ty));
            }
        }
        // As in Python, a complex does not convert to a real number.
        let complex_to_real = matches!(x.ty, Ty::Complex(_)) && !matches!(ty, Ty::Complex(_));
        let ok = (x.ty.is_number() && ty.is_number() && !complex_to_real)
            || (x.ty == Ty::WarpMask && ty.is_integer())
            || (x.ty.is_integer() && *ty == Ty::WarpMask);
        if !ok {
            return self.err(range, format!("cannot convert {} to {ty}", x.ty));
        }
        if *ty == Ty::Bool {
            return self.truth(Item::Val(x.clone()), range);
        }
        // A warp mask is an int32: other integers convert through int32
        // (device.int64(mask); the passes lower only int32 <-> warp_mask).
        if (x.ty == Ty::WarpMask && *ty != INT32) || (*ty == Ty::WarpMask && x.ty != INT32) {
            let i = self.convert(x, &INT32, range)?;
            return self.convert(&i, ty, range);
        }
        Ok(self.b.op1(&generic::cast(x, &ty.mlir()), ty.clone()))
    }

    /// Converts an argument to a parameter type: Python scalars adopt it,
    /// other values must already have it.
    pub fn coerce(&mut self, x: &Val, ty: &Ty, range: TextRange, what: &str) -> R<Val> {
        // A Python scalar adopts a number type of its kind or a higher one
        // (1 for a float32, not 1.5 for an int32).
        let adopts = |t: &Ty| {
            x.weak && x.ty.is_number() && t.is_number() && promote(&x.ty, true, t, false).is_ok_and(|p| p == *t)
        };
        if &x.ty == ty || adopts(ty) {
            return self.convert(x, ty, range);
        }
        if let Some(inner) = ty.aligned_value() {
            if x.ty == *inner || adopts(inner) {
                return self.convert(x, ty, range);
            }
        }
        if let (Ty::Struct(from), Ty::Struct(to)) = (&x.ty, ty) {
            if from.name == to.name && from.fields == to.fields {
                return self.convert(x, ty, range);
            }
        }
        let help = match ty {
            Ty::Bool => "convert it explicitly, e.g. bool(...)".to_owned(),
            t if t.is_number() => format!("convert it explicitly, e.g. device.{ty}(...)"),
            _ => format!("pass a {ty}"),
        };
        self.err_help(range, format!("{what} must be {ty}, got {}", x.ty), help)
    }

    pub fn index_value(&mut self, item: Item, range: TextRange) -> R<Val> {
        match item {
            Item::Val(v) if v.ty.is_integer() || v.ty == Ty::Bool => Ok(v),
            other => self.err(range, format!("indices must be integers, got {}", describe(&other))),
        }
    }

    /// The `t` value of a `device.align(t, n)` value (other values as they are).
    pub fn unwrap_aligned(&mut self, x: Val) -> Val {
        match x.ty.aligned_value().cloned() {
            Some(inner) => self.b.op1(&generic::struct_extract(&x, "value", &inner.mlir()), inner),
            None => x,
        }
    }

    /// A vector index with Python's negative indices: constants are checked
    /// against the lanes, signed run-time indices wrap like array indices.
    fn lane_index(&mut self, i: Val, lanes: u32, vec: &Ty, range: TextRange) -> R<Val> {
        match (&i.konst, &i.ty) {
            (Some(Const::Int(k)), _) => {
                let j = if *k < 0 { k + i128::from(lanes) } else { *k };
                if !(0..i128::from(lanes)).contains(&j) {
                    return self.err_help(
                        range,
                        format!("index {k} is out of range for a {vec} ({lanes} lanes)"),
                        format!("use an index from 0 to {}", lanes - 1),
                    );
                }
                Ok(self.typed_const(&Const::Int(j), &INT32))
            }
            (None, Ty::Int { signed: true, .. }) => {
                let zero = self.typed_const(&Const::Int(0), &i.ty);
                let n = self.typed_const(&Const::Int(i128::from(lanes)), &i.ty);
                let t = i.ty.mlir();
                let neg = self.b.op1(&generic::cmp(CmpPredicate::Lt, &i, &zero, &Ty::Bool.mlir()), Ty::Bool);
                let wrapped = self.b.op1(&generic::add(&i, &n, &t), i.ty.clone());
                Ok(self
                    .b
                    .op1(&format!("arith.select {}, {}, {} : {t}", v(neg.id), v(wrapped.id), v(i.id)), i.ty.clone()))
            }
            _ => Ok(i),
        }
    }

    pub fn vector_lane(&mut self, vec: &Val, lane: u32, range: TextRange) -> R<Val> {
        let Ty::Vector { elem, lanes } = &vec.ty else { return self.err(range, "not a vector") };
        if lane >= *lanes {
            return self.err(range, format!("{} has {lanes} lanes; lane {lane} does not exist", vec.ty));
        }
        let elem = (**elem).clone();
        let idx = self.typed_const(&Const::Int(i128::from(lane)), &INT32);
        Ok(self.b.op1(&generic::vector_extract(vec, &idx, &elem.mlir()), elem))
    }

    pub fn attribute(&mut self, base: Item, attr: &str, range: TextRange) -> R<Item> {
        match base {
            Item::DeviceModule => self.device_attr(attr, range),
            Item::CudaPackage if attr == "device" => Ok(Item::DeviceModule),
            Item::MathModule => Ok(Item::Math(attr.to_owned())),
            Item::NumpyModule => self.numpy_attr(attr, range),
            Item::Device(name) if matches!(name.as_str(), "thread_idx" | "block_idx" | "block_dim" | "grid_dim") => {
                // A Dim3 is a uint32x3 (spec: Thread Positioning): also its size and dtype.
                if matches!(attr, "size" | "dtype") {
                    let x = self.dim3_value(&name, range)?;
                    return self.value_attr(x, attr, range);
                }
                self.dim3_component(&name, attr, range)
            }
            Item::Val(x) => self.value_attr(x, attr, range),
            Item::Dtype(t) if attr == "dtype" => Ok(Item::Dtype(t)),
            // NumPy's dtype attributes: its size in bytes and its name.
            Item::Dtype(t) if attr == "itemsize" => {
                Ok(Item::Val(self.constant(Const::Int(i128::from(t.size())), range)?))
            }
            Item::Dtype(t) if attr == "name" => Ok(Item::Str(t.to_string())),
            other => self.err(range, format!("{} has no attribute '{attr}' in device code", describe(&other))),
        }
    }

    fn value_attr(&mut self, x: Val, attr: &str, range: TextRange) -> R<Item> {
        match (&x.ty, attr) {
            (Ty::Vector { lanes, .. }, "x" | "y" | "z" | "w") => {
                let lane = "xyzw".find(attr).expect("lane letter") as u32;
                if lane >= *lanes {
                    let all =
                        "xyzw"[..*lanes as usize].chars().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ");
                    return self.err_help(
                        range,
                        format!("a {} has no lane '{attr}'", x.ty),
                        format!("its lanes are {all}"),
                    );
                }
                Ok(Item::Val(self.vector_lane(&x, lane, range)?))
            }
            (Ty::Vector { lanes, .. }, "size") => Ok(Item::Val(self.constant(Const::Int(i128::from(*lanes)), range)?)),
            (Ty::Vector { elem, .. }, "dtype") => Ok(Item::Dtype((**elem).clone())),
            (Ty::Struct(def), field) if def.fields.iter().any(|(n, _)| n == field) => {
                let ty = def.fields.iter().find(|(n, _)| n == field).expect("field").1.clone();
                let value = self.b.op1(&generic::struct_extract(&x, field, &ty.mlir()), ty);
                Ok(Item::Val(self.unwrap_aligned(value)))
            }
            (Ty::Struct(def), method)
                if self.c.m.structs.get(&def.name).is_some_and(|s| s.methods.contains_key(method)) =>
            {
                Ok(Item::Method(Box::new(Item::Val(x)), method.to_owned()))
            }
            (Ty::StructRef { def, .. }, field) if def.fields.iter().any(|(n, _)| n == field) => {
                self.struct_ref_field(x, field, range)
            }
            (Ty::StructRef { def, .. }, method)
                if self.c.m.structs.get(&def.name).is_some_and(|s| s.methods.contains_key(method)) =>
            {
                Ok(Item::Method(Box::new(Item::Val(x)), method.to_owned()))
            }
            (Ty::Array { .. }, _) => self.array_attr(x, attr, range),
            (Ty::AtomicRef { dtype, .. }, "dtype") => Ok(Item::Dtype((**dtype).clone())),
            (Ty::AtomicRef { .. }, m) if crate::builtins::ATOMIC_METHODS.contains(&m) => {
                Ok(Item::Method(Box::new(Item::Val(x)), m.to_owned()))
            }
            (t, "dtype") if t.is_number() => Ok(Item::Dtype(t.clone())),
            // Fixed-format numbers behave as zero-dimensional arrays (spec).
            (t, "shape" | "strides") if t.is_number() => Ok(Item::Tuple(vec![])),
            (t, "ndim" | "ndims") if t.is_number() => Ok(Item::Val(self.constant(Const::Int(0), range)?)),
            (t, "size") if t.is_number() => Ok(Item::Val(self.constant(Const::Int(1), range)?)),
            (t, "astype" | "view" | "reshape") if t.is_number() => {
                Ok(Item::Method(Box::new(Item::Val(x)), attr.to_owned()))
            }
            (Ty::Complex(bits), "real" | "imag") => {
                let part = Ty::Float(if *bits == 64 { FloatKind::F64 } else { FloatKind::F32 });
                let op = if attr == "real" { "re" } else { "im" };
                Ok(Item::Val(self.b.op1(&format!("complex.{op} {} : {}", v(x.id), x.ty.mlir()), part)))
            }
            (t, _) => self.err(range, format!("a {t} has no attribute '{attr}'")),
        }
    }

    fn array_attr(&mut self, a: Val, attr: &str, range: TextRange) -> R<Item> {
        let Ty::Array { dtype, ndim, .. } = &a.ty else { unreachable!("array") };
        let (dtype, ndim) = ((**dtype).clone(), *ndim);
        let tuple_ty = Ty::Tuple(vec![INT64; ndim as usize]);
        match attr {
            "shape" | "strides" => {
                let write: UnaryWriter = if attr == "shape" { generic::array_shape } else { generic::array_strides };
                let t = self.b.op1(&write(&a, &tuple_ty.mlir()), tuple_ty);
                Ok(Item::Val(t))
            }
            "size" => Ok(Item::Val(self.b.op1(&generic::array_size(&a, &INT64.mlir()), INT64))),
            "ndim" | "ndims" => Ok(Item::Val(self.constant(Const::Int(i128::from(ndim)), range)?)),
            "dtype" => Ok(Item::Dtype(dtype)),
            "view" | "reshape" | "astype" => Ok(Item::Method(Box::new(Item::Val(a)), attr.to_owned())),
            _ => self.err_help(
                range,
                format!("arrays have no attribute '{attr}' in device code"),
                "device code can read .shape, .strides, .size, .ndim and .dtype, and call view, reshape and astype",
            ),
        }
    }

    fn subscript(&mut self, base: Item, slice: &Expr, range: TextRange) -> R<Item> {
        match base {
            Item::Tuple(items) => {
                let i = self.const_index(slice, items.len(), "tuple")?;
                Ok(items[i].clone())
            }
            Item::Val(x) => match &x.ty {
                Ty::Tuple(types) => {
                    let n = types.len();
                    let i = self.const_index(slice, n, "tuple")?;
                    if let Some(items) = self.tuple_items.get(&x.id) {
                        return Ok(items[i].clone());
                    }
                    // Only the element asked for.
                    let t = types[i].clone();
                    self.at(range);
                    Ok(Item::Val(self.b.op1(&generic::tuple_extract(&x, i as i64, &t.mlir()), t)))
                }
                Ty::Vector { elem, lanes } => {
                    let (elem, lanes) = ((**elem).clone(), *lanes);
                    let idx = self.expr(slice)?;
                    let idx = self.index_value(idx, slice.range())?;
                    let idx = self.lane_index(idx, lanes, &x.ty, slice.range())?;
                    self.at(range);
                    Ok(Item::Val(self.b.op1(&generic::vector_extract(&x, &idx, &elem.mlir()), elem)))
                }
                Ty::Array { .. } => self.array_subscript(x, slice, range),
                Ty::WarpMask => {
                    let i = self.mask_index(slice)?;
                    self.mask_bit(&x, &i, range).map(Item::Val)
                }
                // A number is a zero-dimensional array: `x[()]` is `x`.
                t if t.is_number() => match slice {
                    Expr::Tuple(e) if e.elts.is_empty() => Ok(Item::Val(x)),
                    _ => self.err_help(
                        range,
                        format!("a {t} is a zero-dimensional array: its only index is ()"),
                        "write x[()] (or just x)",
                    ),
                },
                other => self.err(range, format!("a {other} cannot be indexed")),
            },
            Item::Device(name) if name == "ConstExpr" => Ok(Item::Device(name)),
            // A Dim3 is a uint32x3 (spec: Thread Positioning).
            Item::Device(name) if matches!(name.as_str(), "thread_idx" | "block_idx" | "block_dim" | "grid_dim") => {
                let x = self.dim3_value(&name, range)?;
                self.subscript(Item::Val(x), slice, range)
            }
            other => self.err(range, format!("{} cannot be indexed", describe(&other))),
        }
    }

    /// A constant, in-range index into something of length `n`.
    fn const_index(&mut self, slice: &Expr, n: usize, what: &str) -> R<usize> {
        let item = self.expr(slice)?;
        match item {
            Item::Val(Val { konst: Some(Const::Int(i)), .. }) => {
                let j = if i < 0 { i + n as i128 } else { i };
                if j < 0 || j >= n as i128 {
                    return self.err(slice.range(), format!("index {i} is out of range for a {what} of {n} elements"));
                }
                Ok(j as usize)
            }
            _ => self.err_help(
                slice.range(),
                format!("{what} indices must be constant"),
                format!("{what}s are heterogeneous, so the element must be known at compile time"),
            ),
        }
    }

    /// `(mask >> i) & 1 != 0`.
    pub fn mask_bit(&mut self, mask: &Val, i: &Val, range: TextRange) -> R<Val> {
        let m = self.convert(mask, &INT32, range)?;
        let i = self.convert(i, &INT32, range)?;
        let shifted = self.b.op1(&generic::rshift(&m, &i, &INT32.mlir()), INT32);
        let one = self.typed_const(&Const::Int(1), &INT32);
        let bit = self.b.op1(&generic::and(&shifted, &one, &INT32.mlir()), INT32);
        self.truth(Item::Val(bit), range)
    }

    fn store_subscript_value(&mut self, s: &ast::ExprSubscript, value: Item) -> R<Option<Item>> {
        let base = self.expr(&s.value)?;
        let Item::Val(x) = base else { return self.err(s.range(), format!("cannot assign into {}", describe(&base))) };
        match &x.ty {
            Ty::Array { .. } => {
                self.array_store(x, &s.slice, value, s.range())?;
                Ok(None)
            }
            Ty::Vector { elem, lanes } => {
                let (elem, lanes) = ((**elem).clone(), *lanes);
                let idx = self.expr(&s.slice)?;
                let idx = self.index_value(idx, s.slice.range())?;
                let idx = self.lane_index(idx, lanes, &x.ty, s.slice.range())?;
                let val = self.materialize(&value, s.range())?;
                // Spec: the value is assignable to the element type.
                let val = self.convert(&val, &elem, s.range())?;
                self.at(s.range());
                let new = self.b.op1(&generic::vector_insert(&val, &x, &idx, &x.ty.mlir()), x.ty.clone());
                Ok(Some(Item::Val(new)))
            }
            Ty::WarpMask => {
                let i = self.mask_index(&s.slice)?;
                let set = self.truth(value, s.range())?;
                let m = self.convert(&x, &INT32, s.range())?;
                let i = self.convert(&i, &INT32, s.range())?;
                let one = self.typed_const(&Const::Int(1), &INT32);
                let si32 = INT32.mlir();
                let bit = self.b.op1(&generic::lshift(&one, &i, &si32), INT32);
                let with = self.b.op1(&generic::or(&m, &bit, &si32), INT32);
                let nbit = self.b.op1(&generic::invert(&bit, &si32), INT32);
                let without = self.b.op1(&generic::and(&m, &nbit, &si32), INT32);
                let sel =
                    self.b.op1(&format!("arith.select {}, {}, {} : si32", v(set.id), v(with.id), v(without.id)), INT32);
                let mask = self.convert(&sel, &Ty::WarpMask, s.range())?;
                Ok(Some(Item::Val(mask)))
            }
            Ty::Tuple(_) => self.err_help(s.range(), "tuples are immutable", "build a new tuple, e.g. t = (x, t[1])"),
            other => self.err(s.range(), format!("a {other} does not support item assignment")),
        }
    }

    /// `a[i] op= v` on an array: the element is loaded and stored at indices
    /// evaluated once (Python evaluates the target's subexpressions once).
    /// `None` when the target is not an array element.
    pub fn aug_store_subscript(
        &mut self,
        s: &ast::ExprSubscript,
        op: Operator,
        rhs: &Expr,
        range: TextRange,
    ) -> R<Option<()>> {
        if matches!(s.slice.as_ref(), Expr::Slice(_))
            || matches!(s.slice.as_ref(), Expr::Tuple(t) if t.elts.iter().any(|e| matches!(e, Expr::Slice(_))))
        {
            return Ok(None);
        }
        let base = self.expr(&s.value)?;
        let Item::Val(a) = base else { return Ok(None) };
        if !matches!(a.ty, Ty::Array { .. }) {
            return Ok(None);
        }
        let idx = self.store_indices(&a, &s.slice, s.range())?;
        let Ty::Array { dtype, .. } = &a.ty else { unreachable!("array") };
        self.at(s.range());
        let old = self.b.op1(&generic::array_load(&a, &operands(&idx), &dtype.mlir()), (**dtype).clone());
        let old = self.unwrap_aligned(old);
        let rhs_range = rhs.range();
        let rhs = self.expr(rhs)?;
        let new = self.binary_at(op, Item::Val(old), rhs, range, Some((s.range(), rhs_range)))?;
        self.array_store_at(&a, &idx, new, s.range()).map(Some)
    }

    /// `x[i] = v`: stores into arrays; rebinds vectors and warp masks (values).
    pub fn store_subscript(&mut self, s: &ast::ExprSubscript, value: Item) -> R<()> {
        if let Some(new) = self.store_subscript_value(s, value)? {
            return self.assign_rebind(&s.value, new);
        }
        Ok(())
    }

    /// `s.f = v` on a struct value rebinds `s` to a copy with `f` replaced.
    pub fn store_attribute(&mut self, a: &ast::ExprAttribute, value: Item) -> R<()> {
        let base = self.expr(&a.value)?;
        let Item::Val(x) = base else {
            return self.err(a.range(), format!("cannot set attributes of {}", describe(&base)));
        };
        let field = a.attr.id.as_str();
        if let Ty::Vector { elem, lanes } = &x.ty {
            // `v.y = e` is `v[1] = e`: a new vector rebinds `v`.
            let names = &"xyzw"[..*lanes as usize];
            let Some(lane) = names.find(field).filter(|_| field.len() == 1) else {
                let all = names.chars().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ");
                return self.err_help(
                    a.range(),
                    format!("a {} has no lane '{field}'", x.ty),
                    format!("its lanes are {all}"),
                );
            };
            let elem = (**elem).clone();
            let val = self.materialize(&value, a.range())?;
            let val = self.convert(&val, &elem, a.range())?;
            let idx = self.typed_const(&Const::Int(lane as i128), &INT32);
            self.at(a.range());
            let new = self.b.op1(&generic::vector_insert(&val, &x, &idx, &x.ty.mlir()), x.ty.clone());
            return self.assign_rebind(&a.value, Item::Val(new));
        }
        if let Ty::StructRef { def, .. } = &x.ty {
            return self.err_help(
                a.range(),
                format!(
                    "cannot assign field '{field}' of '{}', a struct in memory that holds device.Atomic fields",
                    def.short_name()
                ),
                "store through the atomic: m.f.store(value)",
            );
        }
        let Ty::Struct(def) = &x.ty else {
            return self.err(a.range(), format!("cannot set attribute '{field}' of a {}", x.ty));
        };
        let Some((_, fty)) = def.fields.iter().find(|(n, _)| n == field).cloned() else {
            return self.err_help(
                a.range(),
                format!("struct '{}' has no field '{field}'", def.short_name()),
                "attributes cannot be added to a struct",
            );
        };
        let val = self.materialize(&value, a.range())?;
        let val = self.coerce(&val, &fty, a.range(), &format!("field '{field}'"))?;
        self.at(a.range());
        let new = self.b.op1(&generic::struct_insert(&val, &x, field, &x.ty.mlir()), x.ty.clone());
        self.assign_rebind(&a.value, Item::Val(new))
    }

    fn assign_rebind(&mut self, target: &Expr, new: Item) -> R<()> {
        match target {
            Expr::Name(n) => self.assign_name(n.id.as_str(), new, n.range()),
            Expr::Attribute(a) => self.store_attribute(a, new),
            Expr::Subscript(s) => self.store_subscript(s, new),
            other => self.err(other.range(), "cannot update this expression in place"),
        }
    }

    /// Indexing and slicing of arrays.
    fn array_subscript(&mut self, a: Val, slice: &Expr, range: TextRange) -> R<Item> {
        let Ty::Array { dtype, ndim, layout, readonly, space } = a.ty.clone() else { unreachable!("array") };
        let parts: Vec<&Expr> = match slice {
            Expr::Tuple(t) => t.elts.iter().collect(),
            other => vec![other],
        };
        if parts.len() > ndim as usize {
            return self.err_help(
                range,
                format!(
                    "too many indices: the array has {ndim} dimension{}, {} given",
                    if ndim == 1 { "" } else { "s" },
                    parts.len()
                ),
                "give at most one index per dimension",
            );
        }
        let any_slice = parts.iter().any(|p| matches!(p, Expr::Slice(_)));
        if !any_slice {
            // Integer indices, possibly fewer than ndim (a view of the rest).
            let mut idx = Vec::new();
            for (d, p) in parts.iter().enumerate() {
                let item = self.expr(p)?;
                let item = self.index_tuple(item, p.range())?;
                if let Item::Tuple(items) = &item {
                    // a[t] with t a tuple value: index by its elements.
                    if parts.len() == 1 {
                        for (dd, it) in items.iter().enumerate() {
                            let i = self.index_value(it.clone(), p.range())?;
                            idx.push(self.wrap_index(&a, dd as u32, i, p.range())?);
                        }
                        continue;
                    }
                }
                let i = self.index_value(item, p.range())?;
                idx.push(self.wrap_index(&a, d as u32, i, p.range())?);
            }
            if idx.len() > ndim as usize {
                return self.err_help(
                    range,
                    format!(
                        "too many indices: the array has {ndim} dimension{}, {} given",
                        if ndim == 1 { "" } else { "s" },
                        idx.len()
                    ),
                    "give at most one index per dimension",
                );
            }
            self.at(range);
            if idx.len() == ndim as usize {
                if let Ty::Struct(def) = &*dtype {
                    if def.holds_atomics() {
                        return self.struct_ref(&a, def.clone(), idx, range);
                    }
                }
                let x = self.b.op1(&generic::array_load(&a, &operands(&idx), &dtype.mlir()), (*dtype).clone());
                return Ok(Item::Val(self.unwrap_aligned(x)));
            }
            let rest = Ty::Array {
                dtype,
                ndim: ndim - idx.len() as u32,
                layout: if layout == ArrayLayout::C { ArrayLayout::C } else { ArrayLayout::Strided },
                readonly,
                space,
            };
            return Ok(Item::Val(self.b.op1(&generic::array_index(&a, &operands(&idx), &rest.mlir()), rest)));
        }
        // Slices: one kind per dimension (missing trailing dimensions are `:`).
        let mut kinds = Vec::new();
        // What each dimension keeps, for the contiguity of the view.
        let mut keeps = Vec::new();
        let (mut starts, mut stops, mut steps) = (Vec::new(), Vec::new(), Vec::new());
        for d in 0..ndim as usize {
            match parts.get(d) {
                Some(Expr::Slice(sl)) => {
                    kinds.push(1);
                    let step = match &sl.step {
                        Some(e) => {
                            let s = self.expr(e)?;
                            self.index_value(s, e.range())?
                        }
                        None => self.typed_const(&Const::Int(1), &INT64),
                    };
                    let negative = match &step.konst {
                        Some(Const::Int(k)) if *k == 0 => return self.err(sl.range(), "slice step cannot be zero"),
                        Some(Const::Int(k)) => *k < 0,
                        _ if sl.lower.is_none() || sl.upper.is_none() => {
                            return self.err_help(
                                sl.range(),
                                "a slice with a run-time step needs explicit bounds",
                                "write a[lo:hi:step]",
                            )
                        }
                        _ => false,
                    };
                    let start = match &sl.lower {
                        Some(e) => {
                            let s = self.expr(e)?;
                            self.index_value(s, e.range())?
                        }
                        // Python: 0, or the last element for a negative step.
                        None => self.typed_const(&Const::Int(if negative { -1 } else { 0 }), &INT64),
                    };
                    let stop = match &sl.upper {
                        Some(e) => {
                            let s = self.expr(e)?;
                            self.index_value(s, e.range())?
                        }
                        None if negative => {
                            // Before the first element: -(n + 1) after normalisation.
                            let n = self.dim_extent(&a, d as u32, range)?;
                            let one = self.typed_const(&Const::Int(1), &INT64);
                            let n1 = self.b.op1(&generic::add(&n, &one, &INT64.mlir()), INT64);
                            self.b.op1(&generic::neg(&n1, &INT64.mlir()), INT64)
                        }
                        None => self.dim_extent(&a, d as u32, range)?,
                    };
                    let unit = step.konst == Some(Const::Int(1));
                    keeps.push(match (unit, sl.lower.is_none() && sl.upper.is_none()) {
                        (true, true) => Keep::All,
                        (true, false) => Keep::Run,
                        (false, _) => Keep::Strided,
                    });
                    starts.push(start);
                    stops.push(stop);
                    steps.push(step);
                }
                Some(p) => {
                    kinds.push(0);
                    keeps.push(Keep::One);
                    let item = self.expr(p)?;
                    let i = self.index_value(item, p.range())?;
                    starts.push(self.wrap_index(&a, d as u32, i, p.range())?);
                }
                None => {
                    kinds.push(1);
                    keeps.push(Keep::All);
                    starts.push(self.typed_const(&Const::Int(0), &INT64));
                    stops.push(self.dim_extent(&a, d as u32, range)?);
                    steps.push(self.typed_const(&Const::Int(1), &INT64));
                }
            }
        }
        let result = Ty::Array {
            dtype,
            ndim: kinds.iter().filter(|k| **k == 1).count() as u32,
            layout: sliced_layout(layout, &keeps),
            readonly,
            space,
        };
        self.at(range);
        Ok(Item::Val(self.b.op1(
            &generic::array_slice(&a, &kinds, &operands(&starts), &operands(&stops), &operands(&steps), &result.mlir()),
            result,
        )))
    }

    /// `a[i, .., j]` of a struct that holds `device.Atomic` fields: a
    /// reference to the element (the view `a[i, .., j:j+1]`), not a copy.
    fn struct_ref(&mut self, a: &Val, def: Rc<crate::types::StructDef>, idx: Vec<Val>, range: TextRange) -> R<Item> {
        let Ty::Array { space, readonly, ndim, .. } = a.ty else { unreachable!("array") };
        if readonly {
            return self.err_help(
                range,
                format!("an element of a read-only array of '{}', which holds device.Atomic fields", def.short_name()),
                "atomics may write; pass a writable array",
            );
        }
        let mut starts = Vec::new();
        for i in &idx {
            starts.push(self.convert(i, &INT64, range)?);
        }
        let last = starts.last().expect("one index per dimension").clone();
        let one = self.typed_const(&Const::Int(1), &INT64);
        let stop = self.b.op1(&generic::add(&last, &one, &INT64.mlir()), INT64);
        let ty = Ty::StructRef { def, space };
        let kinds: Vec<i32> = (0..ndim).map(|d| if d + 1 == ndim { 1 } else { 0 }).collect();
        self.at(range);
        Ok(Item::Val(
            self.b.op1(&generic::array_slice(a, &kinds, &operands(&starts), &[&stop], &[&one], &ty.mlir()), ty),
        ))
    }

    /// `r.f` of a struct in memory: an `AtomicInterface` for a
    /// `device.Atomic` field, else the field's value.
    fn struct_ref_field(&mut self, r: Val, field: &str, range: TextRange) -> R<Item> {
        let Ty::StructRef { def, space } = r.ty.clone() else { unreachable!("struct ref") };
        let ty = def.fields.iter().find(|(n, _)| n == field).expect("field").1.clone();
        let zero = self.typed_const(&Const::Int(0), &INT64);
        self.at(range);
        if let Some(inner) = ty.atomic_cell_value() {
            let atomic = Ty::AtomicRef { dtype: Box::new(inner.clone()), space };
            return Ok(Item::Val(
                self.b.op1(&generic::atomic_ref(&r, &[&zero], Some(&[field, "value"]), &atomic.mlir()), atomic),
            ));
        }
        let whole = Ty::Struct(def);
        let x = self.b.op1(&generic::array_load(&r, &[&zero], &whole.mlir()), whole.clone());
        let value = self.b.op1(&generic::struct_extract(&x, field, &ty.mlir()), ty);
        Ok(Item::Val(self.unwrap_aligned(value)))
    }

    /// A tuple value used as an index (`a[t]`, `t` a tuple argument) as its
    /// elements.
    fn index_tuple(&mut self, item: Item, range: TextRange) -> R<Item> {
        match item {
            Item::Val(t) if matches!(t.ty, Ty::Tuple(_)) => Ok(Item::Tuple(self.tuple_elements(&Item::Val(t), range)?)),
            other => Ok(other),
        }
    }

    /// `a.shape[d]` as int64.
    pub fn dim_extent(&mut self, a: &Val, d: u32, _range: TextRange) -> R<Val> {
        let Ty::Array { ndim, .. } = &a.ty else { unreachable!("array") };
        let tuple_ty = Ty::Tuple(vec![INT64; *ndim as usize]);
        let shape = self.b.op1(&generic::array_shape(a, &tuple_ty.mlir()), tuple_ty.clone());
        Ok(self.b.op1(&generic::tuple_extract(&shape, i64::from(d), &INT64.mlir()), INT64))
    }

    /// Python negative indices: `i < 0 ? i + n : i` (constants fold; unsigned
    /// indices need nothing).
    pub fn wrap_index(&mut self, a: &Val, d: u32, i: Val, range: TextRange) -> R<Val> {
        match (&i.konst, &i.ty) {
            (Some(Const::Int(k)), _) if *k >= 0 => return Ok(i),
            (_, Ty::Int { signed: false, .. }) | (_, Ty::Bool) => return Ok(i),
            _ => {}
        }
        let n = self.dim_extent(a, d, range)?;
        let i64v = self.convert(&i, &INT64, range)?;
        if let Some(Const::Int(_)) = &i.konst {
            return Ok(self.b.op1(&generic::add(&i64v, &n, &INT64.mlir()), INT64));
        }
        let zero = self.typed_const(&Const::Int(0), &INT64);
        let neg = self.b.op1(&generic::cmp(CmpPredicate::Lt, &i64v, &zero, &Ty::Bool.mlir()), Ty::Bool);
        let wrapped = self.b.op1(&generic::add(&i64v, &n, &INT64.mlir()), INT64);
        Ok(self.b.op1(&format!("arith.select {}, {}, {} : si64", v(neg.id), v(wrapped.id), v(i64v.id)), INT64))
    }

    fn array_store(&mut self, a: Val, slice: &Expr, value: Item, range: TextRange) -> R<()> {
        let idx = self.store_indices(&a, slice, range)?;
        self.array_store_at(&a, &idx, value, range)
    }

    /// The indices of an element that is written, one per dimension
    /// (negative ones wrapped), after checking that the array is writable.
    fn store_indices(&mut self, a: &Val, slice: &Expr, range: TextRange) -> R<Vec<Val>> {
        let Ty::Array { ndim, readonly, .. } = a.ty.clone() else { unreachable!("array") };
        if readonly {
            return self.err_help(
                range,
                "cannot write to a read-only array",
                "this argument was passed read-only (CAI data[1] or DLPack read-only flag)",
            );
        }
        let parts: Vec<&Expr> = match slice {
            Expr::Tuple(t) => t.elts.iter().collect(),
            other => vec![other],
        };
        let mut idx = Vec::new();
        for (d, p) in parts.iter().enumerate() {
            if matches!(p, Expr::Slice(_)) {
                return self.err_help(
                    p.range(),
                    "slice assignment is not supported in device code",
                    "assign elements in a loop",
                );
            }
            let item = self.expr(p)?;
            let item = self.index_tuple(item, p.range())?;
            if let (Item::Tuple(items), 1) = (&item, parts.len()) {
                for (dd, it) in items.iter().enumerate() {
                    let i = self.index_value(it.clone(), p.range())?;
                    idx.push(self.wrap_index(a, dd as u32, i, p.range())?);
                }
                continue;
            }
            let i = self.index_value(item, p.range())?;
            idx.push(self.wrap_index(a, d as u32, i, p.range())?);
        }
        if idx.len() != ndim as usize {
            return self.err(
                range,
                format!("assignment needs one index per dimension: the array has {ndim}, {} given", idx.len()),
            );
        }
        Ok(idx)
    }

    /// `a[idx] = value`, converting numbers to the array's dtype.
    fn array_store_at(&mut self, a: &Val, idx: &[Val], value: Item, range: TextRange) -> R<()> {
        let Ty::Array { dtype, .. } = a.ty.clone() else { unreachable!("array") };
        let val = self.materialize(&value, range)?;
        // A WarpMask is an int32 (spec: WarpMask).
        let val =
            if val.ty == Ty::WarpMask && *dtype != Ty::WarpMask { self.convert(&val, &INT32, range)? } else { val };
        // Numbers convert, also into and out of `device.align(t, n)` types.
        let numeric = |t: &Ty| t.is_number() || t.aligned_value().is_some_and(Ty::is_number);
        // A struct S converts to and from `device.align(S, n)` (same fields).
        let same_struct =
            matches!((&val.ty, &*dtype), (Ty::Struct(f), Ty::Struct(t)) if f.name == t.name && f.fields == t.fields);
        let val = if val.ty == *dtype {
            val
        } else if numeric(&val.ty) && numeric(&dtype) || same_struct {
            self.convert(&val, &dtype, range)?
        } else {
            return self.err(range, format!("cannot store a {} into an array of {dtype}", val.ty));
        };
        self.at(range);
        self.b.op(&[], &generic::array_store(&val, a, &operands(idx)));
        Ok(())
    }

    pub fn call(&mut self, c: &ast::ExprCall) -> R<Item> {
        let callee = self.expr(&c.func)?;
        self.at(c.range());
        match callee {
            Item::Closure(body) => {
                if !c.arguments.args.is_empty() || !c.arguments.keywords.is_empty() {
                    let what = match body.as_ref() {
                        ClosureBody::Def(f) => format!("local function '{}'", f.name.id),
                        ClosureBody::Lambda(_) => "this lambda".to_owned(),
                    };
                    return self.err_help(
                        c.range(),
                        format!("{what} takes no arguments"),
                        "local functions see the locals of the enclosing function; call it without arguments",
                    );
                }
                self.call_closure(&body, c.range())
            }
            Item::Func(name) => {
                let def = self.c.m.funcs.get(&name).map(|f| f.def);
                let args = match def {
                    Some(def) => self.bind_user_args(def, 0, c)?,
                    None => self.positional_values(c)?,
                };
                self.call_user(&name, None, args, c.range())
            }
            Item::Method(obj, method) => self.call_method(*obj, &method, c),
            Item::StructClass(def) => self.construct_struct(&def, c),
            // `device.align(S, n)` of a struct class constructs like `S`.
            Item::Dtype(Ty::Struct(def)) if Ty::Struct(def.clone()).aligned_value().is_none() => {
                self.construct_struct(&def, c)
            }
            Item::Device(name) => self.device_call(&name, c),
            Item::Dtype(t) => self.dtype_call(&t, c),
            Item::Builtin(b) => self.builtin_call(b, c),
            Item::Math(f) => self.math_call(&f, c),
            other => self.err(c.func.range(), format!("{} is not callable in device code", describe(&other))),
        }
    }

    /// The arguments of a call to a `@device.func` (or a method, whose
    /// `self` is `skip`ped) in parameter order: positional arguments, then
    /// keywords by parameter name, then the defaults (constant expressions)
    /// of the parameters left. Too many positional arguments are left to
    /// the arity check of the callee.
    fn bind_user_args(&mut self, def: &ast::StmtFunctionDef, skip: usize, c: &ast::ExprCall) -> R<Vec<Val>> {
        let p = &def.parameters;
        if p.vararg.is_some() || p.kwarg.is_some() || !p.kwonlyargs.is_empty() || !p.posonlyargs.is_empty() {
            return self.err_help(
                p.range(),
                format!("'{}' may only have plain positional parameters", def.name.id),
                "*args, **kwargs and keyword-only parameters are not supported in device code",
            );
        }
        let params: Vec<&ast::ParameterWithDefault> = p.args.iter().skip(skip).collect();
        // Which parameters are ConstExpr (they also take tuples of constants as such).
        let const_expr: Vec<bool> =
            params.iter().map(|p| p.parameter.annotation.as_deref().is_some_and(|a| self.c.is_const_expr(a))).collect();
        let is_const = |i: usize| const_expr.get(i).copied().unwrap_or(false);
        let given = &c.arguments.args;
        if c.arguments.keywords.is_empty() && given.len() >= params.len() {
            return c.arguments.args.iter().enumerate().map(|(i, a)| self.argument(a, is_const(i))).collect();
        }
        let what = if skip == 0 { def.name.id.to_string() } else { format!("method {}", def.name.id) };
        let mut slots: Vec<Option<Val>> = vec![None; params.len().max(given.len())];
        for (i, a) in given.iter().enumerate() {
            slots[i] = Some(self.argument(a, is_const(i))?);
        }
        for k in &c.arguments.keywords {
            let Some(name) = k.arg.as_ref().map(|a| a.id.as_str()) else {
                return self.err(k.range(), "**kwargs unpacking is not supported in device code");
            };
            let Some(i) = params.iter().position(|p| p.parameter.name.id.as_str() == name) else {
                let names: Vec<String> = params.iter().map(|p| format!("'{}'", p.parameter.name.id)).collect();
                return self.err_help(
                    k.range(),
                    format!("{what}() has no parameter '{name}'"),
                    format!(
                        "its parameters are {}",
                        if names.is_empty() { "none".to_owned() } else { names.join(", ") }
                    ),
                );
            };
            if slots[i].is_some() {
                return self.err(k.range(), format!("{what}() got two values for parameter '{name}'"));
            }
            slots[i] = Some(self.argument(&k.value, is_const(i))?);
        }
        let mut out = Vec::new();
        for (i, (slot, p)) in slots.into_iter().zip(params.iter().map(Some).chain(std::iter::repeat(None))).enumerate()
        {
            match (slot, p) {
                (Some(x), _) => out.push(x),
                (None, Some(p)) => {
                    let name = &p.parameter.name.id;
                    let Some(default) = &p.default else {
                        return self.err_help(
                            c.range(),
                            format!("{what}() is missing a value for parameter '{name}'"),
                            "pass it positionally or by keyword",
                        );
                    };
                    let Some(value) = self.c.m.const_expr(default) else {
                        return self.err_help(
                            default.range(),
                            format!("the default value of parameter '{name}' of {what}() is not a constant expression"),
                            "use a literal or a module-level constant",
                        );
                    };
                    let item = self.global_value(&value, c.range())?;
                    out.push(self.pass_item(item, is_const(i), c.range())?);
                }
                (None, None) => unreachable!("a slot per parameter or positional argument"),
            }
        }
        Ok(out)
    }

    /// A call argument of a `@device.func`: a value, or `None`, which is
    /// passed as nothing (the callee is specialised for NoneType and sees
    /// the constant None), or a compile-time object (see [`Self::pass_item`]).
    fn argument(&mut self, e: &Expr, const_expr: bool) -> R<Val> {
        let item = self.expr(e)?;
        self.pass_item(item, const_expr, e.range())
    }

    /// How an item is passed to a parameter. Target descriptions, dtypes,
    /// strings and SM selectors are compile-time objects with no run-time
    /// value: they are passed as a [`Ty::Static`] (nothing in IR) and the
    /// callee is specialised on them, so a `ConstExpr` parameter can be a
    /// `target(...)` description or a dtype. A tuple of constants passed to
    /// a `ConstExpr` parameter is one too (a shape); numbers keep their
    /// constant value through the ConstExpr specialisation.
    fn pass_item(&mut self, item: Item, const_expr: bool, range: TextRange) -> R<Val> {
        if matches!(item, Item::NoneV) {
            return Ok(Val { id: self.b.fresh(), ty: Ty::None, weak: false, konst: None });
        }
        let by_object = match &item {
            Item::Val(_) => false,
            Item::Tuple(_) => const_expr,
            _ => true,
        };
        if by_object {
            if let Some(obj) = crate::lower::static_obj(&item) {
                return Ok(Val { id: self.b.fresh(), ty: Ty::Static(Rc::new(obj)), weak: false, konst: None });
            }
        }
        self.materialize(&item, range)
    }

    pub fn positional_values(&mut self, c: &ast::ExprCall) -> R<Vec<Val>> {
        if let Some(k) = c.arguments.keywords.first() {
            return self.err(k.range(), "keyword arguments are not supported in this call");
        }
        c.arguments.args.iter().map(|a| self.value(a)).collect()
    }

    /// [`Self::positional_values`] with WarpMasks as the int32s they are
    /// (spec: WarpMask), for the builtins that take numbers.
    fn positional_numbers(&mut self, c: &ast::ExprCall) -> R<Vec<Val>> {
        let vals = self.positional_values(c)?;
        vals.into_iter()
            .map(|x| if x.ty == Ty::WarpMask { self.convert(&x, &INT32, c.range()) } else { Ok(x) })
            .collect()
    }

    pub fn call_user(&mut self, name: &str, self_struct: Option<&str>, args: Vec<Val>, range: TextRange) -> R<Item> {
        if self_struct.is_none() && self.c.m.funcs.get(name).is_some_and(|f| f.kind == crate::module::FuncKind::Kernel)
        {
            return self.err_help(
                range,
                format!("'{name}' is a kernel and cannot be called from device code"),
                "launch kernels from the host with device.launch",
            );
        }
        // A declared interoperable function (body `...`): a C call (interop.rs).
        if let Some(item) = self.call_declared(name, self_struct, &args, range) {
            return item;
        }
        let types: Vec<Ty> = args.iter().map(|a| a.ty.clone()).collect();
        let m = self.c.m;
        let class = self_struct.and_then(|s| m.structs.get(s));
        // A compile-time object is constant (its type is the object, on
        // which the callee is specialised): the ConstExpr check takes it.
        let consts: Vec<Option<Const>> = args.iter().map(|a| a.konst.clone()).collect();
        let (symbol, ret) = self.c.specialize(name, class, &types, &consts, range)?;
        self.at(range);
        // None is passed as nothing, or to an interop function as a null void*.
        let interop = self_struct.is_none() && m.funcs.get(name).is_some_and(|f| f.interop);
        let mut names = Vec::new();
        let mut arg_types = Vec::new();
        for a in args.iter().filter(|a| !matches!(a.ty, Ty::Static(_))) {
            if a.ty != Ty::None {
                names.push(v(a.id));
                arg_types.push(a.ty.mlir());
            } else if interop {
                let null = self.b.op1("llvm.mlir.zero : !llvm.ptr", Ty::Raw("!llvm.ptr"));
                names.push(v(null.id));
                arg_types.push("!llvm.ptr".to_owned());
            }
        }
        match ret {
            None => {
                self.b
                    .op(&[], &format!("func.call @{symbol}({}) : ({}) -> ()", names.join(", "), arg_types.join(", ")));
                Ok(Item::NoneV)
            }
            Some(t) => Ok(Item::Val(self.b.op1(
                &format!("func.call @{symbol}({}) : ({}) -> {}", names.join(", "), arg_types.join(", "), t.mlir()),
                t,
            ))),
        }
    }

    fn construct_struct(&mut self, def: &Rc<crate::types::StructDef>, c: &ast::ExprCall) -> R<Item> {
        if def.holds_atomics() {
            return self.err_help(c.range(), format!("struct '{}' holds device.Atomic fields, so it lives in memory and cannot be built as a value in device code", def.short_name()), "keep it in an array (global or device.shared_array) and use m = array[i]");
        }
        let n = def.fields.len();
        let mut slots: Vec<Option<Val>> = vec![None; n];
        if c.arguments.args.len() > n {
            return self.err(
                c.range(),
                format!(
                    "struct '{}' has {n} fields but {} arguments were given",
                    def.short_name(),
                    c.arguments.args.len()
                ),
            );
        }
        for (i, a) in c.arguments.args.iter().enumerate() {
            slots[i] = Some(self.value(a)?);
        }
        for k in &c.arguments.keywords {
            let Some(name) = &k.arg else { return self.err(k.range(), "**kwargs is not supported in device code") };
            let Some(i) = def.fields.iter().position(|(f, _)| f == name.id.as_str()) else {
                return self.err(k.range(), format!("struct '{}' has no field '{}'", def.name, name.id));
            };
            if slots[i].is_some() {
                return self.err(k.range(), format!("field '{}' is given twice", name.id));
            }
            slots[i] = Some(self.value(&k.value)?);
        }
        let mut vals = Vec::new();
        for (i, (field, ty)) in def.fields.iter().enumerate() {
            let x = match slots[i].take() {
                Some(x) => x,
                None => {
                    let m = self.c.m;
                    let Some(default) = m.structs.get(&def.name).and_then(|s| s.defaults.get(field)) else {
                        return self.err_help(
                            c.range(),
                            format!("struct '{}' needs a value for field '{field}'", def.short_name()),
                            format!("pass it positionally or as {field}=..."),
                        );
                    };
                    let Some(value) = m.const_expr(default) else {
                        return self.err_help(
                            default.range(),
                            format!(
                                "the default of field '{field}' of struct '{}' is not a constant expression",
                                def.short_name()
                            ),
                            "use a literal or a module-level constant",
                        );
                    };
                    let item = self.global_value(&value, c.range())?;
                    self.materialize(&item, c.range())?
                }
            };
            vals.push(self.coerce(&x, ty, c.range(), &format!("field '{field}'"))?);
        }
        let ty = Ty::Struct(def.clone());
        self.at(c.range());
        Ok(Item::Val(self.b.op1(&generic::struct_create(&operands(&vals), &ty.mlir()), ty)))
    }

    /// `float32(x)`, `int8(x)`, `float32x4(a, b, c, d)`, `int(x)`...
    fn dtype_call(&mut self, t: &Ty, c: &ast::ExprCall) -> R<Item> {
        if let Ty::Vector { elem, lanes } = t {
            let args = self.positional_values(c)?;
            if args.len() != *lanes as usize {
                return self.err(c.range(), format!("{t} takes {lanes} values, {} given", args.len()));
            }
            // Spec: each element is constructible from its argument.
            let vals = args.iter().map(|a| self.convert(a, elem, c.range())).collect::<R<Vec<_>>>()?;
            self.at(c.range());
            return Ok(Item::Val(self.b.op1(&generic::vector_create(&operands(&vals), &t.mlir()), t.clone())));
        }
        // `device.uint64(2**63)`, `device.int64(-3000000000)`: an integer
        // constant expression beyond int32 converts exactly.
        if let ([arg], [], Ty::Int { .. } | Ty::Float(_)) = (&*c.arguments.args, &*c.arguments.keywords, t) {
            if let Some(i) = self.wide_int(arg).filter(|i| i32::try_from(*i).is_err()) {
                if i < i128::from(i64::MIN) || i > i128::from(u64::MAX) {
                    return self.err(arg.range(), format!("{i} does not fit in {t}"));
                }
                let wide = if i > i128::from(i64::MAX) { Ty::Int { bits: 64, signed: false } } else { INT64 };
                let x = self.typed_const(&Const::Int(i), &wide);
                return Ok(Item::Val(self.convert(&x, t, c.range())?));
            }
        }
        let args = self.positional_values(c)?;
        // `complex(re, im)`, as in Python: each part converts to the
        // element type, then the two make the number.
        if let (Ty::Complex(bits), [re, im]) = (t, args.as_slice()) {
            let part = Ty::Float(if *bits == 64 { FloatKind::F64 } else { FloatKind::F32 });
            if matches!(re.ty, Ty::Complex(_)) || matches!(im.ty, Ty::Complex(_)) {
                return self.err(c.range(), format!("{t}(re, im) takes two real numbers"));
            }
            let (re, im) = (self.convert(re, &part, c.range())?, self.convert(im, &part, c.range())?);
            self.at(c.range());
            let z = self.b.op1(&format!("complex.create {}, {} : {}", v(re.id), v(im.id), t.mlir()), t.clone());
            let builtin = matches!(&c.func.as_ref(), Expr::Name(n) if n.id.as_str() == "complex");
            return Ok(Item::Val(Val { weak: builtin, ..z }));
        }
        let [x] = args.as_slice() else {
            let takes = if matches!(t, Ty::Complex(_)) { "one value or two (re, im)" } else { "one value" };
            return self.err(c.range(), format!("{t}() takes {takes}"));
        };
        // A value of `device.align(t, n)` is a `t`: alignment matters only
        // where it is stored.
        let t = t.aligned_value().unwrap_or(t);
        // A constant out of the type's range is reported by convert.
        let out = self.convert(x, t, c.range())?;
        // `int(x)` and `float(x)` give Python scalars.
        let builtin =
            matches!(&c.func.as_ref(), Expr::Name(n) if matches!(n.id.as_str(), "int" | "float" | "bool" | "complex"));
        Ok(Item::Val(Val { weak: builtin, ..out }))
    }

    /// The value of an integer constant expression (literals, module
    /// constants, operators) without the int32 limit of Python ints in
    /// device code; `None` for anything else.
    fn wide_int(&self, e: &Expr) -> Option<i128> {
        match e {
            Expr::NumberLiteral(ast::ExprNumberLiteral { value: ast::Number::Int(i), .. }) => {
                i.as_u64().map(i128::from)
            }
            Expr::UnaryOp(u) if u.op == UnaryOp::USub => self.wide_int(&u.operand).map(|i| -i),
            Expr::UnaryOp(u) if u.op == UnaryOp::UAdd => self.wide_int(&u.operand),
            Expr::BinOp(b) => match crate::consts::fold_binary(
                b.op,
                &Const::Int(self.wide_int(&b.left)?),
                &Const::Int(self.wide_int(&b.right)?),
            )? {
                Const::Int(i) => Some(i),
                _ => None,
            },
            Expr::Name(n) if !self.is_local(n.id.as_str()) => match self.const_global(n.id.as_str())? {
                crate::module::GlobalConst::Num(Const::Int(i)) => Some(i),
                _ => None,
            },
            _ => None,
        }
    }

    fn builtin_call(&mut self, b: &str, c: &ast::ExprCall) -> R<Item> {
        match b {
            "range" => {
                let args = self.positional_values(c)?;
                if !(1..=3).contains(&args.len()) {
                    return self.err(c.range(), format!("range() takes 1 to 3 arguments, {} given", args.len()));
                }
                for (a, e) in args.iter().zip(c.arguments.args.iter()) {
                    if !a.ty.is_integer() {
                        return self.err(e.range(), format!("range() needs integers, got {}", a.ty));
                    }
                }
                Ok(Item::Range(args))
            }
            "len" => {
                let [arg] = &*c.arguments.args else { return self.err(c.range(), "len() takes one argument") };
                let item = self.expr(arg)?;
                let item = self.dim3_as_vector(item, arg.range())?;
                let n = match &item {
                    Item::Tuple(items) => items.len() as i128,
                    Item::Val(x) => match &x.ty {
                        Ty::Tuple(t) => t.len() as i128,
                        Ty::Vector { lanes, .. } => i128::from(*lanes),
                        Ty::Array { .. } => {
                            let n = self.dim_extent(x, 0, c.range())?;
                            return Ok(Item::Val(n));
                        }
                        other => return self.err(arg.range(), format!("a {other} has no len()")),
                    },
                    other => return self.err(arg.range(), format!("{} has no len()", describe(other))),
                };
                Ok(Item::Val(self.constant(Const::Int(n), c.range())?))
            }
            "abs" => {
                let args = self.positional_numbers(c)?;
                let [x] = args.as_slice() else { return self.err(c.range(), "abs() takes one argument") };
                if !x.ty.is_number() {
                    return self.err(c.range(), format!("abs() needs a number, got {}", x.ty));
                }
                let ty = match &x.ty {
                    Ty::Complex(b) => Ty::Float(if *b == 64 { FloatKind::F64 } else { FloatKind::F32 }),
                    Ty::Bool => INT32,
                    t => t.clone(),
                };
                let mut r = self.b.op1(&generic::abs(x, &ty.mlir()), ty);
                r.weak = x.weak;
                Ok(Item::Val(r))
            }
            "min" | "max" => {
                let write: BinaryWriter = if b == "min" { generic::min } else { generic::max };
                let args = self.positional_numbers(c)?;
                if args.len() < 2 {
                    return self.err(c.range(), format!("{b}() takes two or more numbers in device code"));
                }
                let mut acc = args[0].clone();
                for x in &args[1..] {
                    let ty = promote(&acc.ty, acc.weak, &x.ty, x.weak).map_err(|e| self.c.error(c.range(), e))?;
                    if matches!(ty, Ty::Complex(_)) {
                        return self.err(c.range(), format!("{b}() is not defined for complex numbers"));
                    }
                    let weak = acc.weak && x.weak;
                    let (a, x) = (self.adopt(acc, &ty), self.adopt(x.clone(), &ty));
                    acc = a;
                    acc = self.b.op1(&write(&acc, &x, &ty.mlir()), ty);
                    acc.weak = weak;
                }
                Ok(Item::Val(acc))
            }
            "print" => self.print(c),
            "numpy.dtype" => self.numpy_dtype_call(c),
            _ => self.err(c.range(), format!("{b}() is not supported in device code")),
        }
    }

    /// `print(a, b, ...)`: one `gpu.printf` with Python's spacing and newline
    /// (vprintf on the GPU, the C library's printf on the host). Integers
    /// print as C's %d/%u/%lld/%llu, floats as %g (after widening to
    /// float64, as C varargs require), strings and None as text.
    fn print(&mut self, c: &ast::ExprCall) -> R<Item> {
        if let Some(k) = c.arguments.keywords.first() {
            return self.err_help(
                k.range(),
                "print() keywords (sep, end, file, flush) are not supported in device code",
                "format the line with its positional arguments",
            );
        }
        let mut fmt = String::new();
        let mut operands: Vec<Val> = Vec::new();
        for (k, arg) in c.arguments.args.iter().enumerate() {
            if k > 0 {
                fmt.push(' ');
            }
            match self.expr(arg)? {
                Item::Str(s) => fmt.push_str(&s.replace('%', "%%")),
                Item::NoneV => fmt.push_str("None"),
                Item::Val(x) => match x.ty.clone() {
                    Ty::Int { bits, signed } => {
                        let (ty, spec) = match (bits > 32, signed) {
                            (false, true) => (INT32, "%d"),
                            (false, false) => (crate::types::UINT32, "%u"),
                            (true, true) => (INT64, "%lld"),
                            (true, false) => (Ty::Int { bits: 64, signed: false }, "%llu"),
                        };
                        operands.push(self.convert(&x, &ty, arg.range())?);
                        fmt.push_str(spec);
                    }
                    Ty::Float(_) => {
                        operands.push(self.convert(&x, &Ty::Float(crate::types::FloatKind::F64), arg.range())?);
                        fmt.push_str("%g");
                    }
                    other => {
                        return self.err_help(
                            arg.range(),
                            format!("print() of a {other} is not supported in device code"),
                            "print its numbers (for a bool, int(flag))",
                        );
                    }
                },
                other => return self.err(arg.range(), format!("print() cannot print {}", describe(&other))),
            }
        }
        fmt.push('\n');
        let escaped: String = fmt
            .bytes()
            .map(|b| {
                if b.is_ascii_graphic() && b != b'"' && b != b'\\' || b == b' ' {
                    (b as char).to_string()
                } else {
                    format!("\\{b:02X}")
                }
            })
            .collect();
        let args = operands.iter().map(|o| v(o.id)).collect::<Vec<_>>().join(", ");
        let types = operands.iter().map(|o| o.ty.mlir()).collect::<Vec<_>>().join(", ");
        self.at(c.range());
        if operands.is_empty() {
            self.b.op(&[], &format!("gpu.printf \"{escaped}\""));
        } else {
            self.b.op(&[], &format!("gpu.printf \"{escaped}\", {args} : {types}"));
        }
        Ok(Item::NoneV)
    }

    fn call_method(&mut self, obj: Item, method: &str, c: &ast::ExprCall) -> R<Item> {
        let Item::Val(x) = obj else { return self.err(c.range(), "methods need a value") };
        match &x.ty {
            Ty::Struct(def) | Ty::StructRef { def, .. } => {
                let name = def.name.clone();
                let m = self.c.m;
                let mut args = vec![x.clone()];
                match m.structs.get(&name).and_then(|s| s.methods.get(method)) {
                    Some(def) => args.extend(self.bind_user_args(def, 1, c)?),
                    None => args.extend(self.positional_values(c)?),
                }
                self.call_user(method, Some(&name), args, c.range())
            }
            Ty::AtomicRef { .. } => self.atomic_method(x, method, c),
            Ty::Array { .. } => self.array_method(x, method, c),
            t if t.is_number() && method == "astype" => {
                let [d] = &*c.arguments.args else {
                    return self.err_help(c.range(), "astype() takes one dtype", "e.g. x.astype(device.float64)");
                };
                if let Some(k) =
                    c.arguments.keywords.iter().find(|k| k.arg.as_ref().is_none_or(|a| a.as_str() != "copy"))
                {
                    return self.err(k.range(), "astype() of a number takes a dtype and copy=");
                }
                let Item::Dtype(t) = self.expr(d)? else {
                    return self.err_help(d.range(), "astype() needs a dtype", "e.g. device.float64");
                };
                Ok(Item::Val(self.convert(&x, &t, c.range())?))
            }
            t if t.is_number() && method == "view" => {
                // Like a zero-dimensional NumPy array: the same bytes read
                // as another number type of the same size. Stored in a
                // one-element local cell and read back through a view
                // (LLVM folds the cell away into a bitcast).
                let t = t.clone();
                let [d] = &*c.arguments.args else {
                    return self.err_help(c.range(), "view() takes one dtype", "e.g. x.view(device.int32)");
                };
                if let Some(k) = c.arguments.keywords.first() {
                    return self.err(k.range(), "view() of a number takes only a dtype");
                }
                let target = match self.expr(d)? {
                    Item::Dtype(u) if u.is_number() => u,
                    other => {
                        return self.err_help(
                            d.range(),
                            format!("view() of a number needs a number dtype, got {}", describe(&other)),
                            "e.g. device.int32",
                        )
                    }
                };
                if target.size() != t.size() {
                    return self.err_help(c.range(), format!("view({target}) of a {t} changes the size ({} to {} bytes), which a zero-dimensional array cannot", t.size(), target.size()), "view it as a type of the same size");
                }
                if target == t {
                    return Ok(Item::Val(x));
                }
                self.at(c.range());
                let cell = Ty::Array {
                    dtype: Box::new(t.clone()),
                    ndim: 1,
                    layout: ArrayLayout::C,
                    readonly: false,
                    space: Space::Local,
                };
                let viewed = Ty::Array {
                    dtype: Box::new(target.clone()),
                    ndim: 1,
                    layout: ArrayLayout::C,
                    readonly: false,
                    space: Space::Local,
                };
                let a = self.b.op1(&generic::local_array(&[1], "C", 0, &cell.mlir()), cell.clone());
                let zero = self.typed_const(&Const::Int(0), &INT64);
                self.b.op(&[], &generic::array_store(&x, &a, &[&zero]));
                let w = self.b.op1(&generic::array_view(&a, &viewed.mlir()), viewed.clone());
                Ok(Item::Val(self.b.op1(&generic::array_load(&w, &[&zero], &target.mlir()), target)))
            }
            t if t.is_number() && method == "reshape" => {
                // Only to the empty shape: any other shape would need memory.
                let t = t.clone();
                if let Some(k) =
                    c.arguments.keywords.iter().find(|k| k.arg.as_ref().is_none_or(|a| a.as_str() != "order"))
                {
                    return self.err(k.range(), "reshape() of a number takes a shape and order=");
                }
                let empty = match c.arguments.args.as_ref() {
                    [] => true,
                    [one] => matches!(self.expr(one)?, Item::Tuple(items) if items.is_empty()),
                    _ => false,
                };
                if !empty {
                    return self.err_help(c.range(), format!("reshape() of a {t} (a zero-dimensional array) to a non-empty shape would make an array, which needs memory"), "reshape(()) keeps the number; store it in a device.local_array to index it");
                }
                Ok(Item::Val(x))
            }
            other => self.err(c.range(), format!("a {other} has no method '{method}'")),
        }
    }

    fn array_method(&mut self, a: Val, method: &str, c: &ast::ExprCall) -> R<Item> {
        let Ty::Array { dtype, ndim, layout, readonly, space } = a.ty.clone() else { unreachable!("array") };
        match method {
            "view" | "astype" => {
                let [arg] = &*c.arguments.args else { return self.err(c.range(), format!("{method}() takes a dtype")) };
                let target = match self.expr(arg)? {
                    Item::Dtype(t) => t,
                    Item::StructClass(s) => Ty::Struct(s),
                    other => {
                        return self.err(arg.range(), format!("{method}() needs a dtype, got {}", describe(&other)))
                    }
                };
                if method == "astype" {
                    let copy =
                        c.arguments.keywords.iter().find(|k| k.arg.as_ref().is_some_and(|a| a.id.as_str() == "copy"));
                    let no_copy = matches!(copy.map(|k| &k.value), Some(Expr::BooleanLiteral(b)) if !b.value);
                    if !no_copy {
                        return self.err_help(
                            c.range(),
                            "astype() would allocate a copy, which device code cannot do",
                            "pass copy=False (allowed when no copy is needed)",
                        );
                    }
                    if target != *dtype {
                        return self.err_help(
                            c.range(),
                            format!("astype({target}, copy=False) of a {dtype} array needs a copy"),
                            "device code can only reinterpret in place: use view()",
                        );
                    }
                    return Ok(Item::Val(a));
                }
                if target.size() != dtype.size() && layout != ArrayLayout::C {
                    return self.err_help(
                        c.range(),
                        format!("view({target}) changes the element size, which needs a C-contiguous array"),
                        "declare the argument C-contiguous (e.g. float32[:, ::1]); a slice stays contiguous only with unit steps over whole trailing dimensions (a[i, lo:hi], a[lo:hi, :])",
                    );
                }
                let result = Ty::Array { dtype: Box::new(target), ndim, layout, readonly, space };
                Ok(Item::Val(self.b.op1(&generic::array_view(&a, &result.mlir()), result)))
            }
            "reshape" => {
                if layout == ArrayLayout::Strided {
                    return self.err_help(
                        c.range(),
                        "reshape() without a copy needs a contiguous array",
                        "declare the argument C-contiguous (e.g. float32[::1])",
                    );
                }
                // NumPy's order=: 'C' (the default), 'F', or 'A' (the array's).
                let mut want = ArrayLayout::C;
                for k in &c.arguments.keywords {
                    match (k.arg.as_ref().map(|a| a.id.as_str()), &k.value) {
                        (Some("order"), Expr::StringLiteral(o)) if matches!(o.value.to_str(), "C" | "F" | "A") => {
                            want = match o.value.to_str() {
                                "C" => ArrayLayout::C,
                                "F" => ArrayLayout::F,
                                _ => layout,
                            }
                        }
                        (Some("order"), other) => {
                            return self.err_help(
                                other.range(),
                                "the order of reshape() must be 'C', 'F' or 'A'",
                                "e.g. a.reshape(4, 8, order='F')",
                            )
                        }
                        (name, _) => {
                            return self.err_help(
                                k.range(),
                                format!("reshape() has no keyword argument '{}'", name.unwrap_or("**")),
                                "the only keyword is order='C'|'F'|'A'",
                            )
                        }
                    }
                }
                if layout != want {
                    // A view keeps the layout of its array (`generic::array_reshape`).
                    let (have, asked) = if layout == ArrayLayout::C { ("C", "F") } else { ("Fortran", "C") };
                    let why = if ndim > 1 {
                        "needs a copy, which device code cannot make"
                    } else {
                        "is not supported in device code"
                    };
                    return self.err_help(
                        c.range(),
                        format!("reshape() in {asked} order of a {have}-ordered array {why}"),
                        format!(
                            "reshape in the array's own order (order='{}')",
                            if layout == ArrayLayout::C { "C" } else { "F" }
                        ),
                    );
                }
                let dims: Vec<Item> = match c.arguments.args.as_ref() {
                    [] => return self.err_help(c.range(), "reshape() needs the new shape", "e.g. a.reshape(4, 8)"),
                    [one] => match self.expr(one)? {
                        Item::Tuple(items) => items,
                        other => vec![other],
                    },
                    many => many.iter().map(|e| self.expr(e)).collect::<R<_>>()?,
                };
                let mut dims = dims.into_iter().map(|d| self.index_value(d, c.range())).collect::<R<Vec<_>>>()?;
                // One extent may be -1: the size divided by the others.
                let unknown: Vec<usize> = dims
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| matches!(d.konst, Some(Const::Int(k)) if k < 0))
                    .map(|(i, _)| i)
                    .collect();
                if let Some(&i) = unknown.first() {
                    if unknown.len() > 1 || dims[i].konst != Some(Const::Int(-1)) {
                        return self.err_help(
                            c.range(),
                            "reshape() extents must be positive, except for one -1",
                            "-1 stands for the extent that keeps the size",
                        );
                    }
                    self.at(c.range());
                    let mut known = self.typed_const(&Const::Int(1), &INT64);
                    for d in dims.clone().iter().enumerate().filter(|(j, _)| *j != i).map(|(_, d)| d) {
                        let d64 = self.convert(d, &INT64, c.range())?;
                        known = self.b.op1(&generic::mul(&known, &d64, &INT64.mlir()), INT64);
                    }
                    let size = self.b.op1(&generic::array_size(&a, &INT64.mlir()), INT64);
                    dims[i] = self.b.op1(&generic::floordiv(&size, &known, &INT64.mlir()), INT64);
                }
                let result = Ty::Array { dtype, ndim: dims.len() as u32, layout: want, readonly, space };
                self.at(c.range());
                Ok(Item::Val(self.b.op1(&generic::array_reshape(&a, &operands(&dims), &result.mlir()), result)))
            }
            _ => self.err(c.range(), format!("arrays have no method '{method}' in device code")),
        }
    }

    /// The value of a `Dim3` entity (`thread_idx` ...) as a uint32x3 vector.
    pub fn dim3_value(&mut self, name: &str, range: TextRange) -> R<Val> {
        let lanes = ["x", "y", "z"]
            .iter()
            .map(|c| self.dim3_component(name, c, range).and_then(|i| self.materialize(&i, range)))
            .collect::<R<Vec<_>>>()?;
        let ty = Ty::Vector { elem: Box::new(crate::types::UINT32), lanes: 3 };
        Ok(self.b.op1(&generic::vector_create(&operands(&lanes), &ty.mlir()), ty))
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
