//! pydev's types: the typed API generated from `pydev.td` (one struct per
//! `TypeDef`, with `new`, `from_type` and an accessor per parameter), and a
//! few conveniences over it for passes and frontends.

pub use crate::capi::defs::{ArrayType, AtomicRefType, StructType, TupleType, VectorType, WarpMaskType};

use melior::{ir::Type, Context};

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
