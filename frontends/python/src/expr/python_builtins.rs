//! Python's built-in functions in device code: `range`, `len`, `abs`, `min`,
//! `max`, and `print` (one `gpu.printf`).

use super::operators::BinaryWriter;
use crate::{
    ir::{v, Const, Val},
    lower::{describe, Item, Lowerer, R},
    types::{promote, FloatKind, Ty, INT32, INT64},
};
use pydev_dialect::ops::generic;
use ruff_python_ast as ast;
use ruff_text_size::Ranged;

impl Lowerer<'_, '_, '_> {
    pub(super) fn builtin_call(&mut self, b: &str, c: &ast::ExprCall) -> R<Item> {
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
                    let ty = promote(&acc.ty, acc.weak, &x.ty, x.weak)
                        .map_err(|e| self.c.error(c.range(), e.to_string()))?;
                    if matches!(ty, Ty::Complex(_)) {
                        return self.err(c.range(), format!("{b}() is not defined for complex numbers"));
                    }
                    let weak = acc.weak && x.weak;
                    let (a, x) = (self.adopt(acc, &ty), self.adopt(x.clone(), &ty));
                    // Weak operands take the common type, so the op's operands
                    // promote to it by the dialect's table (its verifier checks it).
                    let (at, xt) = (a.ty.clone(), x.ty.clone());
                    let (a, x) = (self.conform(a, &xt, &ty), self.conform(x, &at, &ty));
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
}
