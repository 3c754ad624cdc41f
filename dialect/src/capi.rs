//! The C API of `cpp/CAPI.cpp`: every `unsafe` and raw mlir-sys call of this
//! crate lives here, behind safe functions.

use melior::{
    dialect::DialectHandle,
    ir::{Attribute, AttributeLike, Type, TypeLike},
    Context, StringRef,
};
use mlir_sys::{MlirAttribute, MlirContext, MlirDialectHandle, MlirStringRef, MlirType};

unsafe extern "C" {
    fn mlirGetDialectHandle__pydev__() -> MlirDialectHandle;
    fn pydevRegisterPipelineDialects(registry: mlir_sys::MlirDialectRegistry);
    fn pydevTypeGetLayout(ty: MlirType, size: *mut u64, align: *mut u64) -> bool;
    fn pydevTypeGetStorageLayout(ty: MlirType, size: *mut u64, align: *mut u64) -> bool;
    fn pydevTypeGetFieldOffset(ty: MlirType, index: u32, offset: *mut u64) -> bool;
    fn pydevTypeIsArray(ty: MlirType) -> bool;
    fn pydevArrayTypeGet(
        ctx: MlirContext,
        element: MlirType,
        rank: u32,
        space: i32,
        layout: i32,
        readonly: bool,
    ) -> MlirType;
    fn pydevArrayTypeGetElementType(ty: MlirType) -> MlirType;
    fn pydevArrayTypeGetRank(ty: MlirType) -> u32;
    fn pydevArrayTypeGetSpace(ty: MlirType) -> i32;
    fn pydevArrayTypeGetLayout(ty: MlirType) -> i32;
    fn pydevArrayTypeIsReadonly(ty: MlirType) -> bool;
    fn pydevTypeIsVector(ty: MlirType) -> bool;
    fn pydevVectorTypeGet(ctx: MlirContext, lanes: u32, element: MlirType) -> MlirType;
    fn pydevVectorTypeGetLanes(ty: MlirType) -> u32;
    fn pydevVectorTypeGetElementType(ty: MlirType) -> MlirType;
    fn pydevTypeIsStruct(ty: MlirType) -> bool;
    fn pydevStructTypeGet(
        ctx: MlirContext,
        name: MlirStringRef,
        n: isize,
        names: *const MlirStringRef,
        types: *const MlirType,
        align: u64,
    ) -> MlirType;
    fn pydevStructTypeGetName(ty: MlirType) -> MlirStringRef;
    fn pydevStructTypeGetNumFields(ty: MlirType) -> isize;
    fn pydevStructTypeGetFieldName(ty: MlirType, i: isize) -> MlirStringRef;
    fn pydevStructTypeGetFieldType(ty: MlirType, i: isize) -> MlirType;
    fn pydevStructTypeGetAlign(ty: MlirType) -> u64;
    fn pydevTypeIsTuple(ty: MlirType) -> bool;
    fn pydevTupleTypeGet(ctx: MlirContext, n: isize, types: *const MlirType) -> MlirType;
    fn pydevTupleTypeGetNumTypes(ty: MlirType) -> isize;
    fn pydevTupleTypeGetType(ty: MlirType, i: isize) -> MlirType;
    fn pydevTypeIsWarpMask(ty: MlirType) -> bool;
    fn pydevWarpMaskTypeGet(ctx: MlirContext) -> MlirType;
    fn pydevTypeIsAtomicRef(ty: MlirType) -> bool;
    fn pydevAtomicRefTypeGet(ctx: MlirContext, element: MlirType, space: i32) -> MlirType;
    fn pydevAtomicRefTypeGetElementType(ty: MlirType) -> MlirType;
    fn pydevAtomicRefTypeGetSpace(ty: MlirType) -> i32;
    fn pydevEnumAttrGetValue(attr: MlirAttribute) -> i64;
    fn pydevAttributeIsTarget(attr: MlirAttribute) -> bool;
    fn pydevTargetAttrGetKind(attr: MlirAttribute) -> i32;
    fn pydevTargetAttrGetSm(attr: MlirAttribute) -> u32;
    fn pydevTargetAttrGetNumOperands(attr: MlirAttribute) -> isize;
    fn pydevTargetAttrGetOperand(attr: MlirAttribute, i: isize) -> MlirAttribute;
}

// # Safety (for every function below)
// The C++ side requires live handles of the right kind: each `MlirType` and
// `MlirAttribute` comes from a melior value borrowed from a live context, and
// every accessor of a specific type is only called after the matching
// `pydevTypeIs*`/`pydevAttributeIs*` check (the `cast<>` in C++ would abort
// otherwise). Indices are checked against the counts first.

pub fn dialect_handle() -> DialectHandle {
    // Safety: returns a static handle owned by the library.
    unsafe { DialectHandle::from_raw(mlirGetDialectHandle__pydev__()) }
}

/// Adds the dialects, interfaces and translations the pipelines need.
pub fn register_pipeline_dialects(registry: &melior::dialect::DialectRegistry) {
    // Safety: a live registry; the C++ side only inserts into it.
    unsafe { pydevRegisterPipelineDialects(registry.to_raw()) }
}

pub fn type_layout(ty: Type) -> Option<(u64, u64)> {
    let (mut size, mut align) = (0, 0);
    // Safety: live type; out-pointers are valid locals.
    unsafe { pydevTypeGetLayout(ty.to_raw(), &mut size, &mut align) }.then_some((size, align))
}

/// (size, alignment) of a value of an LLVM-storable type in host memory
/// (`getStorageLayout` in dialect/cpp/PydevDialect.cpp).
pub fn storage_layout(ty: Type) -> Option<(u64, u64)> {
    let (mut size, mut align) = (0, 0);
    // Safety: live type; out-pointers are valid locals.
    unsafe { pydevTypeGetStorageLayout(ty.to_raw(), &mut size, &mut align) }.then_some((size, align))
}

pub fn field_offset(ty: Type, index: u32) -> Option<u64> {
    let mut offset = 0;
    // Safety: live type; out-pointer is a valid local; C++ checks the kind.
    unsafe { pydevTypeGetFieldOffset(ty.to_raw(), index, &mut offset) }.then_some(offset)
}

macro_rules! is {
    ($name:ident, $f:ident) => {
        pub fn $name(ty: Type) -> bool {
            // Safety: live type; the C++ side only tests its kind.
            unsafe { $f(ty.to_raw()) }
        }
    };
}
is!(is_array, pydevTypeIsArray);
is!(is_vector, pydevTypeIsVector);
is!(is_struct, pydevTypeIsStruct);
is!(is_tuple, pydevTypeIsTuple);
is!(is_warp_mask, pydevTypeIsWarpMask);
is!(is_atomic_ref, pydevTypeIsAtomicRef);

pub fn array_type<'c>(
    ctx: &'c Context,
    element: Type<'c>,
    rank: u32,
    space: i32,
    layout: i32,
    readonly: bool,
) -> Type<'c> {
    // Safety: live context and type; enum values come from the typed wrappers in lib.rs.
    unsafe {
        Type::from_raw(pydevArrayTypeGet(
            ctx.to_raw(),
            element.to_raw(),
            rank,
            space,
            layout,
            readonly,
        ))
    }
}

/// (element type, rank, space, layout, readonly) of an array type.
pub fn array_parts(ty: Type) -> Option<(Type, u32, i32, i32, bool)> {
    let raw = ty.to_raw();
    // Safety: kind checked first.
    is_array(ty).then(|| unsafe {
        (
            Type::from_raw(pydevArrayTypeGetElementType(raw)),
            pydevArrayTypeGetRank(raw),
            pydevArrayTypeGetSpace(raw),
            pydevArrayTypeGetLayout(raw),
            pydevArrayTypeIsReadonly(raw),
        )
    })
}

pub fn vector_type<'c>(ctx: &'c Context, lanes: u32, element: Type<'c>) -> Type<'c> {
    // Safety: live context and type. Invalid lanes abort in C++: lib.rs checks them.
    unsafe { Type::from_raw(pydevVectorTypeGet(ctx.to_raw(), lanes, element.to_raw())) }
}

pub fn vector_parts(ty: Type) -> Option<(u32, Type)> {
    // Safety: kind checked first.
    is_vector(ty).then(|| unsafe {
        (
            pydevVectorTypeGetLanes(ty.to_raw()),
            Type::from_raw(pydevVectorTypeGetElementType(ty.to_raw())),
        )
    })
}

pub fn struct_type<'c>(
    ctx: &'c Context,
    name: &str,
    fields: &[(&str, Type<'c>)],
    align: u64,
) -> Type<'c> {
    let names: Vec<MlirStringRef> = fields.iter().map(|(n, _)| StringRef::new(n).to_raw()).collect();
    let types: Vec<MlirType> = fields.iter().map(|(_, t)| t.to_raw()).collect();
    // Safety: the string refs borrow `name` and `fields`, alive for the call;
    // the C++ side copies them into the context.
    unsafe {
        Type::from_raw(pydevStructTypeGet(
            ctx.to_raw(),
            StringRef::new(name).to_raw(),
            fields.len() as isize,
            names.as_ptr(),
            types.as_ptr(),
            align,
        ))
    }
}

/// (name, fields, align) of a struct type.
pub fn struct_parts<'c>(ty: Type<'c>) -> Option<(String, crate::types::StructFields<'c>, u64)> {
    if !is_struct(ty) {
        return None;
    }
    let raw = ty.to_raw();
    let text = |s: MlirStringRef| {
        // Safety: the string is owned by the context, which outlives this call.
        unsafe { StringRef::from_raw(s) }.as_str().unwrap_or_default().to_owned()
    };
    // Safety: kind checked above; indices below the count.
    unsafe {
        let fields = (0..pydevStructTypeGetNumFields(raw))
            .map(|i| {
                (
                    text(pydevStructTypeGetFieldName(raw, i)),
                    Type::from_raw(pydevStructTypeGetFieldType(raw, i)),
                )
            })
            .collect();
        Some((text(pydevStructTypeGetName(raw)), fields, pydevStructTypeGetAlign(raw)))
    }
}

pub fn tuple_type<'c>(ctx: &'c Context, types: &[Type<'c>]) -> Type<'c> {
    let raw: Vec<MlirType> = types.iter().map(|t| t.to_raw()).collect();
    // Safety: the array is alive for the call; the C++ side copies it.
    unsafe { Type::from_raw(pydevTupleTypeGet(ctx.to_raw(), raw.len() as isize, raw.as_ptr())) }
}

pub fn tuple_parts<'c>(ty: Type<'c>) -> Option<Vec<Type<'c>>> {
    let raw = ty.to_raw();
    // Safety: kind checked first; indices below the count.
    is_tuple(ty).then(|| unsafe {
        (0..pydevTupleTypeGetNumTypes(raw))
            .map(|i| Type::from_raw(pydevTupleTypeGetType(raw, i)))
            .collect()
    })
}

pub fn warp_mask_type(ctx: &Context) -> Type<'_> {
    // Safety: live context.
    unsafe { Type::from_raw(pydevWarpMaskTypeGet(ctx.to_raw())) }
}

pub fn atomic_ref_type<'c>(ctx: &'c Context, element: Type<'c>, space: i32) -> Type<'c> {
    // Safety: live context and type.
    unsafe { Type::from_raw(pydevAtomicRefTypeGet(ctx.to_raw(), element.to_raw(), space)) }
}

pub fn atomic_ref_parts(ty: Type) -> Option<(Type, i32)> {
    // Safety: kind checked first.
    is_atomic_ref(ty).then(|| unsafe {
        (
            Type::from_raw(pydevAtomicRefTypeGetElementType(ty.to_raw())),
            pydevAtomicRefTypeGetSpace(ty.to_raw()),
        )
    })
}

pub fn enum_value(attr: Attribute) -> Option<i64> {
    // Safety: live attribute; the C++ side tests its kind.
    let v = unsafe { pydevEnumAttrGetValue(attr.to_raw()) };
    (v >= 0).then_some(v)
}

/// (kind, sm, operands) of a target description.
pub fn target_parts<'c>(attr: Attribute<'c>) -> Option<(i32, u32, Vec<Attribute<'c>>)> {
    let raw = attr.to_raw();
    // Safety: live attribute, kind checked first; indices below the count.
    unsafe {
        pydevAttributeIsTarget(raw).then(|| {
            let operands = (0..pydevTargetAttrGetNumOperands(raw))
                .map(|i| Attribute::from_raw(pydevTargetAttrGetOperand(raw, i)))
                .collect();
            (pydevTargetAttrGetKind(raw), pydevTargetAttrGetSm(raw), operands)
        })
    }
}
