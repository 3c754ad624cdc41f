//! Conversions between types: the implicit ones of arguments, fields and
//! stores, and the explicit calls of dtypes (`device.float32(x)`, `int(x)`,
//! `float32x4(a, b, c, d)`, `complex(re, im)`).

use super::operands;
use crate::{
    ir::{v, Const, Val},
    lower::{Item, Lowerer, R},
    types::{promote, FloatKind, Ty, INT32, INT64},
};
use pydev_dialect::ops::generic;
use ruff_python_ast::{self as ast, Expr, UnaryOp};
use ruff_text_size::{Ranged, TextRange};

impl Lowerer<'_, '_, '_> {
    /// Converts a value to `ty` (explicit conversions, arguments, stores).
    pub(crate) fn convert(&mut self, x: &Val, ty: &Ty, range: TextRange) -> R<Val> {
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
    pub(crate) fn coerce(&mut self, x: &Val, ty: &Ty, range: TextRange, what: &str) -> R<Val> {
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

    /// The `t` value of a `device.align(t, n)` value (other values as they are).
    pub(super) fn unwrap_aligned(&mut self, x: Val) -> Val {
        match x.ty.aligned_value().cloned() {
            Some(inner) => self.b.op1(&generic::struct_extract(&x, "value", &inner.mlir()), inner),
            None => x,
        }
    }

    /// `float32(x)`, `int8(x)`, `float32x4(a, b, c, d)`, `int(x)`...
    pub(super) fn dtype_call(&mut self, t: &Ty, c: &ast::ExprCall) -> R<Item> {
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
}
