//! The `cuda.device` builtins of one family in device code. Atomics:
//! `atomic_ref(array, index)` and `Atomic(dtype, align)` (a zeroed local cell
//! and an atomic reference to it).

use super::*;

impl Lowerer<'_, '_, '_> {
    /// Lowers call `device.name(...)` `c` of this family (atomics); `device_call`
    /// routes only its names here.
    pub(super) fn atomic_call(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let r = c.range();
        let what = &format!("device.{name}");
        match name {
            "atomic_ref" => {
                let [a_e, i] = self.bind_all(c, what, ["array", "index"])?;
                let a = self.value(a_e)?;
                let Ty::Array { dtype, ndim, readonly, space, .. } = a.ty.clone() else {
                    return self.err(a_e.range(), format!("{what}() needs an array, got {}", a.ty));
                };
                if readonly {
                    return self.err_help(
                        a_e.range(),
                        format!("{what}() of a read-only array"),
                        "atomics may write; pass a writable array",
                    );
                }
                if dtype.size() > 16 {
                    return self.err(
                        a_e.range(),
                        format!("atomics work on objects of at most 16 bytes, {dtype} has {}", dtype.size()),
                    );
                }
                let idx_item = self.expr(i)?;
                let items = match idx_item {
                    Item::Tuple(items) => items,
                    Item::Val(t) if matches!(t.ty, Ty::Tuple(_)) => self.tuple_elements(&Item::Val(t), i.range())?,
                    other => vec![other],
                };
                if items.len() != ndim as usize {
                    return self.err_help(
                        i.range(),
                        format!("{what}() needs one index per dimension: the array has {ndim}, {} given", items.len()),
                        "index an n-d array with a tuple, e.g. atomic_ref(a, (i, j))",
                    );
                }
                let mut idx = Vec::new();
                for (d, it) in items.into_iter().enumerate() {
                    let x = self.index_value(it, i.range())?;
                    // Python indexing: a negative index counts from the end.
                    idx.push(self.wrap_index(&a, d as u32, x, i.range())?);
                }
                let ty = Ty::AtomicRef { dtype, space };
                let indices: Vec<&dyn TextValue> = idx.iter().map(|x| x as &dyn TextValue).collect();
                self.at(r);
                Ok(Item::Val(self.b.op1(&generic::atomic_ref(&a, &indices, None, &ty.mlir()), ty)))
            }
            // Atomic(t) => local_array((1,), t) holding a zero, and an atomic_ref to its element.
            "Atomic" => {
                let [dtype_e, align_e] = self.bind(c, what, &["dtype", "align"], 1)?[..] else { unreachable!() };
                let dtype_e = dtype_e.expect("required");
                let dtype = self.dtype_arg(dtype_e, &format!("the dtype of {what}()"))?;
                if dtype.size() > 16 {
                    return self.err(
                        dtype_e.range(),
                        format!("atomics work on objects of at most 16 bytes, {dtype} has {}", dtype.size()),
                    );
                }
                if !dtype.is_number() {
                    return self.err_help(
                        dtype_e.range(),
                        format!("the dtype of {what}() must be a number type, got {dtype}"),
                        "e.g. device.Atomic(device.int32)",
                    );
                }
                let align = match align_e {
                    Some(e) => {
                        let a = self.const_int_arg(e, "the align of an Atomic")?;
                        if a <= 0 || (a & (a - 1)) != 0 || a > i128::from(u32::MAX) {
                            return self.err_help(
                                e.range(),
                                format!("the align of {what}() must be a power of two, got {a}"),
                                "e.g. align=16",
                            );
                        }
                        a as i64
                    }
                    None => 0,
                };
                self.at(r);
                let cell = Ty::Array {
                    dtype: Box::new(dtype.clone()),
                    ndim: 1,
                    layout: ArrayLayout::C,
                    readonly: false,
                    space: Space::Local,
                };
                let a = self.b.op1(&generic::local_array(&[1], "C", align, &cell.mlir()), cell.clone());
                let zero = self.typed_const(&Const::Int(0), &crate::types::INT64);
                let init = self.typed_const(&Const::Int(0), &dtype);
                self.b.op(&[], &generic::array_store(&init, &a, &[&zero]));
                let ty = Ty::AtomicRef { dtype: Box::new(dtype), space: Space::Local };
                Ok(Item::Val(self.b.op1(&generic::atomic_ref(&a, &[&zero], None, &ty.mlir()), ty)))
            }
            _ => unreachable!("device.{name} is not one of the atomics builtins"),
        }
    }
}
