//! Expressions: the dispatch over the kinds of Python expression. Literals,
//! names, tuples and lambdas are lowered here, the others in the submodules.

mod attributes;
mod calls;
mod compare;
mod conditional;
mod convert;
mod methods;
mod operators;
mod python_builtins;
mod store;
mod subscript;

use crate::{
    ir::{Const, Val},
    lower::{ClosureBody, Item, Lowerer, R},
    types::{Ty, FLOAT32},
};
use pydev_dialect::ops::generic::TextValue;
use ruff_python_ast::{self as ast, Expr, Operator};
use ruff_text_size::Ranged;
use std::rc::Rc;

/// Values as the operands of a generated op writer.
fn operands(vals: &[Val]) -> Vec<&dyn TextValue> {
    vals.iter().map(|x| x as &dyn TextValue).collect()
}

impl Lowerer<'_, '_, '_> {
    /// What an expression evaluates to: a value or a compile-time object.
    pub(crate) fn expr(&mut self, e: &Expr) -> R<Item> {
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
                    return Ok(Item::Target(crate::target::Target::node(kind, vec![x.clone(), y.clone()])));
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

    /// An expression as an SSA value (see [`Self::materialize`]).
    pub(crate) fn value(&mut self, e: &Expr) -> R<Val> {
        let item = self.expr(e)?;
        self.materialize(&item, e.range())
    }
}
