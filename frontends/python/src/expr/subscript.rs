//! Reading subscripts: constant indices of tuples, lanes of vectors, bits of
//! warp masks, and indexing and slicing of arrays (Python's negative indices,
//! the layout a view keeps).

use super::operands;
use crate::{
    ir::{v, Const, Val},
    lower::{describe, Item, Lowerer, R},
    types::{ArrayLayout, Ty, INT32, INT64},
};
use pydev_dialect::{ops::generic, CmpPredicate};
use ruff_python_ast::Expr;
use ruff_text_size::{Ranged, TextRange};
use std::rc::Rc;

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

impl Lowerer<'_, '_, '_> {
    pub(super) fn subscript(&mut self, base: Item, slice: &Expr, range: TextRange) -> R<Item> {
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

    pub(crate) fn index_value(&mut self, item: Item, range: TextRange) -> R<Val> {
        match item {
            Item::Val(v) if v.ty.is_integer() || v.ty == Ty::Bool => Ok(v),
            other => self.err(range, format!("indices must be integers, got {}", describe(&other))),
        }
    }

    /// A vector index with Python's negative indices: constants are checked
    /// against the lanes, signed run-time indices wrap like array indices.
    pub(super) fn lane_index(&mut self, i: Val, lanes: u32, vec: &Ty, range: TextRange) -> R<Val> {
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

    /// `(mask >> i) & 1 != 0`.
    fn mask_bit(&mut self, mask: &Val, i: &Val, range: TextRange) -> R<Val> {
        let m = self.convert(mask, &INT32, range)?;
        let i = self.convert(i, &INT32, range)?;
        let shifted = self.b.op1(&generic::rshift(&m, &i, &INT32.mlir()), INT32);
        let one = self.typed_const(&Const::Int(1), &INT32);
        let bit = self.b.op1(&generic::and(&shifted, &one, &INT32.mlir()), INT32);
        self.truth(Item::Val(bit), range)
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

    /// A tuple value used as an index (`a[t]`, `t` a tuple argument) as its
    /// elements.
    pub(super) fn index_tuple(&mut self, item: Item, range: TextRange) -> R<Item> {
        match item {
            Item::Val(t) if matches!(t.ty, Ty::Tuple(_)) => Ok(Item::Tuple(self.tuple_elements(&Item::Val(t), range)?)),
            other => Ok(other),
        }
    }

    /// `a.shape[d]` as int64.
    pub(super) fn dim_extent(&mut self, a: &Val, d: u32, _range: TextRange) -> R<Val> {
        let Ty::Array { ndim, .. } = &a.ty else { unreachable!("array") };
        let tuple_ty = Ty::Tuple(vec![INT64; *ndim as usize]);
        let shape = self.b.op1(&generic::array_shape(a, &tuple_ty.mlir()), tuple_ty.clone());
        Ok(self.b.op1(&generic::tuple_extract(&shape, i64::from(d), &INT64.mlir()), INT64))
    }

    /// Python negative indices: `i < 0 ? i + n : i` (constants fold; unsigned
    /// indices need nothing).
    pub(crate) fn wrap_index(&mut self, a: &Val, d: u32, i: Val, range: TextRange) -> R<Val> {
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
}
