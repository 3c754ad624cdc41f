//! Typed views of pydev types, for passes and frontends.

use crate::{capi, Layout, MemorySpace};
use melior::{ir::Type, Context};

/// `!pydev.array<element, rank, space, layout[, readonly]>`.
#[derive(Clone, Copy, Debug)]
pub struct ArrayType<'c> {
    pub element: Type<'c>,
    pub rank: u32,
    pub space: MemorySpace,
    pub layout: Layout,
    pub readonly: bool,
}

impl<'c> ArrayType<'c> {
    pub fn from_type(ty: Type<'c>) -> Option<Self> {
        let (element, rank, space, layout, readonly) = capi::array_parts(ty)?;
        Some(Self {
            element,
            rank,
            space: MemorySpace::from_value(space.into())?,
            layout: Layout::from_value(layout.into())?,
            readonly,
        })
    }

    pub fn to_type(self, ctx: &'c Context) -> Type<'c> {
        capi::array_type(ctx, self.element, self.rank, self.space as i32, self.layout as i32, self.readonly)
    }
}

/// `!pydev.vector<lanes x element>`, 1 to 4 lanes.
pub fn vector_type<'c>(ctx: &'c Context, lanes: u32, element: Type<'c>) -> Option<Type<'c>> {
    (1..=4).contains(&lanes).then(|| capi::vector_type(ctx, lanes, element))
}

/// (lanes, element type) of a vector type.
pub fn vector_parts(ty: Type) -> Option<(u32, Type)> {
    capi::vector_parts(ty)
}

/// `!pydev.struct<"name", {field: type, ...}[, align N]>`.
pub fn struct_type<'c>(ctx: &'c Context, name: &str, fields: &[(&str, Type<'c>)], align: u64) -> Type<'c> {
    capi::struct_type(ctx, name, fields, align)
}

/// The (name, type) fields of a struct type, in order.
pub type StructFields<'c> = Vec<(String, Type<'c>)>;

/// (name, fields, align) of a struct type.
pub fn struct_parts<'c>(ty: Type<'c>) -> Option<(String, StructFields<'c>, u64)> {
    capi::struct_parts(ty)
}

/// `!pydev.tuple<types...>`.
pub fn tuple_type<'c>(ctx: &'c Context, types: &[Type<'c>]) -> Type<'c> {
    capi::tuple_type(ctx, types)
}

pub fn tuple_parts<'c>(ty: Type<'c>) -> Option<Vec<Type<'c>>> {
    capi::tuple_parts(ty)
}

/// `!pydev.warp_mask`.
pub fn warp_mask_type(ctx: &Context) -> Type<'_> {
    capi::warp_mask_type(ctx)
}

pub fn is_warp_mask(ty: Type) -> bool {
    capi::is_warp_mask(ty)
}

/// `!pydev.atomic_ref<element[, space]>`.
pub fn atomic_ref_type<'c>(ctx: &'c Context, element: Type<'c>, space: MemorySpace) -> Type<'c> {
    capi::atomic_ref_type(ctx, element, space as i32)
}

/// (element type, space) of an atomic reference type.
pub fn atomic_ref_parts(ty: Type) -> Option<(Type, MemorySpace)> {
    let (element, space) = capi::atomic_ref_parts(ty)?;
    Some((element, MemorySpace::from_value(space.into())?))
}
