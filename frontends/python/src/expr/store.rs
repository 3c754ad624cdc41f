//! Stores into subscripts and attributes (`a[i] = v`, `a[i] += v`, `v.x = e`,
//! `s.f = e`): arrays are written in memory; vectors, warp masks and structs,
//! which are values, are rebound to an updated copy.

use super::operands;
use crate::{
    ir::{v, Const, Val},
    lower::{describe, Item, Lowerer, R},
    types::{Ty, INT32},
};
use pydev_dialect::ops::generic;
use ruff_python_ast::{self as ast, Expr, Operator};
use ruff_text_size::{Ranged, TextRange};

impl Lowerer<'_, '_, '_> {
    /// `x[i] = v`: stores into arrays; rebinds vectors and warp masks (values).
    pub(crate) fn store_subscript(&mut self, s: &ast::ExprSubscript, value: Item) -> R<()> {
        if let Some(new) = self.store_subscript_value(s, value)? {
            return self.assign_rebind(&s.value, new);
        }
        Ok(())
    }

    /// `a[i] op= v` on an array: the element is loaded and stored at indices
    /// evaluated once (Python evaluates the target's subexpressions once).
    /// `None` when the target is not an array element.
    pub(crate) fn aug_store_subscript(
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

    /// `s.f = v` on a struct value rebinds `s` to a copy with `f` replaced.
    pub(crate) fn store_attribute(&mut self, a: &ast::ExprAttribute, value: Item) -> R<()> {
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

    fn assign_rebind(&mut self, target: &Expr, new: Item) -> R<()> {
        match target {
            Expr::Name(n) => self.assign_name(n.id.as_str(), new, n.range()),
            Expr::Attribute(a) => self.store_attribute(a, new),
            Expr::Subscript(s) => self.store_subscript(s, new),
            other => self.err(other.range(), "cannot update this expression in place"),
        }
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
}
