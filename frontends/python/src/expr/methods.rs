//! Methods of values: of structs (user methods) and atomics, and `astype`,
//! `view` and `reshape` of arrays and of numbers (zero-dimensional arrays).

use super::operands;
use crate::{
    ir::{Const, Val},
    lower::{describe, Item, Lowerer, R},
    types::{ArrayLayout, Space, Ty, INT64},
};
use pydev_dialect::ops::generic;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;

impl Lowerer<'_, '_, '_> {
    pub(super) fn call_method(&mut self, obj: Item, method: &str, c: &ast::ExprCall) -> R<Item> {
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
}
