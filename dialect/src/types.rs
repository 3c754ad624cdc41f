//! pydev's types: the typed API generated from `pydev.td` (one struct per
//! `TypeDef`, with `new`, `from_type` and an accessor per parameter), and a
//! few conveniences over it for passes and frontends.

pub use crate::capi::defs::{ArrayType, AtomicRefType, StructType, TupleType, VectorType, WarpMaskType};

use melior::{
    ir::{Type, TypeLike},
    Context,
};

/// `!pydev.vector<lanes x element>`, 1 to 4 lanes.
pub fn vector_type<'c>(ctx: &'c Context, lanes: u32, element: Type<'c>) -> Option<Type<'c>> {
    VectorType::new(ctx, lanes, element).map(Into::into)
}

/// (lanes, element type) of a vector type.
pub fn vector_parts(ty: Type) -> Option<(u32, Type)> {
    VectorType::from_type(ty).map(|v| (v.lanes(), v.element_type()))
}

/// `!pydev.struct<"name", {field: type, ...}[, align N]>`; `None` when the
/// verifier rejects it (duplicate field names, a bad alignment).
pub fn struct_type<'c>(ctx: &'c Context, name: &str, fields: &[(&str, Type<'c>)], align: u64) -> Option<Type<'c>> {
    let names: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
    let types: Vec<Type<'c>> = fields.iter().map(|(_, t)| *t).collect();
    StructType::new(ctx, name, &names, &types, align).map(Into::into)
}

/// The (name, type) fields of a struct type, in order.
pub type StructFields<'c> = Vec<(String, Type<'c>)>;

/// (name, fields, align) of a struct type.
pub fn struct_parts<'c>(ty: Type<'c>) -> Option<(String, StructFields<'c>, u64)> {
    let s = StructType::from_type(ty)?;
    Some((s.name(), s.field_names().into_iter().zip(s.field_types()).collect(), s.align()))
}

/// `!pydev.tuple<types...>`.
pub fn tuple_type<'c>(ctx: &'c Context, types: &[Type<'c>]) -> Type<'c> {
    TupleType::new(ctx, types).into()
}

/// The element types of a tuple type.
pub fn tuple_parts<'c>(ty: Type<'c>) -> Option<Vec<Type<'c>>> {
    TupleType::from_type(ty).map(|t| t.types())
}

/// `!pydev.warp_mask`.
pub fn warp_mask_type(ctx: &Context) -> Type<'_> {
    WarpMaskType::new(ctx).into()
}

pub fn is_warp_mask(ty: Type) -> bool {
    WarpMaskType::from_type(ty).is_some()
}

/// `!pydev.atomic_ref<element[, space]>`.
pub fn atomic_ref_type<'c>(ctx: &'c Context, element: Type<'c>, space: crate::MemorySpace) -> Type<'c> {
    AtomicRefType::new(ctx, element, space).expect("an atomic reference to a verified element type").into()
}

/// (element type, space) of an atomic reference type.
pub fn atomic_ref_parts(ty: Type) -> Option<(Type, crate::MemorySpace)> {
    AtomicRefType::from_type(ty).map(|a| (a.element_type(), a.space()))
}

/// The element type of a `complex<...>` type.
pub fn complex_element(ty: Type) -> Option<Type> {
    crate::capi::complex_element(ty)
}

/// Every scalar (integer, float or complex) of a plain-data type (a
/// scalar, vector, struct or tuple of them) with its byte offset in the
/// CUDA C++ layout ([`crate::type_layout`], [`crate::field_offset`]), in
/// order; `None` for a type with something else in it (arrays, atomic
/// references, warp masks, index) or without a layout.
pub fn scalar_leaves<'c>(ty: Type<'c>) -> Option<Vec<(u64, Type<'c>)>> {
    fn walk<'c>(ty: Type<'c>, base: u64, out: &mut Vec<(u64, Type<'c>)>) -> Option<()> {
        if let Some((lanes, element)) = vector_parts(ty) {
            let (size, _) = crate::type_layout(element)?;
            for k in 0..u64::from(lanes) {
                walk(element, base + k * size, out)?;
            }
            return Some(());
        }
        let members = match StructType::from_type(ty) {
            Some(s) => Some(s.field_types()),
            None => tuple_parts(ty),
        };
        if let Some(members) = members {
            for (i, member) in members.into_iter().enumerate() {
                walk(member, base + crate::field_offset(ty, u32::try_from(i).ok()?)?, out)?;
            }
            return Some(());
        }
        if (ty.is_integer() || ty.is_float() || ty.is_complex()) && crate::type_layout(ty).is_some() {
            out.push((base, ty));
            return Some(());
        }
        None
    }
    let mut out = Vec::new();
    walk(ty, 0, &mut out)?;
    Some(out)
}

/// Whether `a` and `b` are the same type up to the names of the structs in
/// them: structs match by their fields (names and types, in order) and
/// alignment, as an argument's type matches a `pydev.Program`'s parameter.
pub fn same_up_to_struct_names(a: Type, b: Type) -> bool {
    if a == b {
        return true;
    }
    if let (Some(x), Some(y)) = (StructType::from_type(a), StructType::from_type(b)) {
        let (xt, yt) = (x.field_types(), y.field_types());
        return x.align() == y.align()
            && x.field_names() == y.field_names()
            && xt.len() == yt.len()
            && xt.iter().zip(&yt).all(|(p, q)| same_up_to_struct_names(*p, *q));
    }
    if let (Some((m, p)), Some((n, q))) = (vector_parts(a), vector_parts(b)) {
        return m == n && same_up_to_struct_names(p, q);
    }
    if let (Some(x), Some(y)) = (tuple_parts(a), tuple_parts(b)) {
        return x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| same_up_to_struct_names(*p, *q));
    }
    if let (Some(x), Some(y)) = (ArrayType::from_type(a), ArrayType::from_type(b)) {
        return x.rank() == y.rank()
            && x.space() == y.space()
            && x.layout() == y.layout()
            && x.readonly() == y.readonly()
            && same_up_to_struct_names(x.element_type(), y.element_type());
    }
    if let (Some((p, s)), Some((q, t))) = (atomic_ref_parts(a), atomic_ref_parts(b)) {
        return s == t && same_up_to_struct_names(p, q);
    }
    false
}
