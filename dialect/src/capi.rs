//! The C API of `cpp/CAPI.cpp`: every `unsafe` and raw mlir-sys call of this
//! crate lives here, behind safe functions.

use melior::{
    dialect::DialectHandle,
    ir::{OperationRef, Type, TypeLike},
};
use mlir_sys::{MlirDialectHandle, MlirType};

unsafe extern "C" {
    fn mlirGetDialectHandle__pydev__() -> MlirDialectHandle;
    fn pydevRegisterPipelineDialects(registry: mlir_sys::MlirDialectRegistry);
    fn pydevRegisterResearchDialects(registry: mlir_sys::MlirDialectRegistry);
    fn pydevRegisterPipelinePasses();
    fn pydevTypeGetLayout(ty: MlirType, size: *mut u64, align: *mut u64) -> bool;
    fn pydevTypeGetStorageLayout(ty: MlirType, size: *mut u64, align: *mut u64) -> bool;
    fn pydevTypeGetFieldOffset(ty: MlirType, index: u32, offset: *mut u64) -> bool;
    fn pydevLowerMathLibm(root: mlir_sys::MlirOperation) -> bool;
    fn pydevConvertStructuralTypes(
        root: mlir_sys::MlirOperation,
        count: isize,
        from: *const MlirType,
        to: *const MlirType,
    ) -> bool;
}

// # Safety (for every function below)
// The C++ side requires live handles: each `MlirType` comes from a melior
// value borrowed from a live context, and the layout queries test the kind of
// the type themselves.

pub fn dialect_handle() -> DialectHandle {
    // Safety: returns a static handle owned by the library.
    unsafe { DialectHandle::from_raw(mlirGetDialectHandle__pydev__()) }
}

/// Adds the dialects, interfaces and translations the pipelines need.
pub fn register_pipeline_dialects(registry: &melior::dialect::DialectRegistry) {
    // Safety: a live registry; the C++ side only inserts into it.
    unsafe { pydevRegisterPipelineDialects(registry.to_raw()) }
}

/// Adds the PDL, PDL-interpreter and transform dialects (loaded on use).
pub fn register_research_dialects(registry: &melior::dialect::DialectRegistry) {
    // Safety: a live registry; the C++ side only inserts into it.
    unsafe { pydevRegisterResearchDialects(registry.to_raw()) }
}

/// Registers, in MLIR's textual registry, only the upstream passes the
/// `cuda` and `host` pipelines name (the wheel links nothing else;
/// idempotent per pass).
pub fn register_pipeline_passes() {
    // Safety: takes no arguments; MLIR's pass registry is process-wide.
    unsafe { pydevRegisterPipelinePasses() }
}

/// Scalar `math.expm1` and `math.log1p` under `root` as calls of libm's
/// `expm1`/`log1p` (f32: `expm1f`/`log1pf`; f16 and bf16 through f32), by
/// upstream's MathToLibm patterns; the functions are declared in the nearest
/// symbol table. False if one could not be converted (its error is emitted).
pub fn lower_math_libm(root: OperationRef) -> bool {
    // Safety: a live operation that the calling pass runs on; the conversion
    // rewrites only under it and the symbol table above it that the pass owns.
    unsafe { pydevLowerMathLibm(root.to_raw()) }
}

/// The block arguments of `cf` successors, and the results, iter_args and
/// region arguments of `scf` ops, under `root` whose type is the first of a
/// pair of `conversions` become the second, by upstream's structural type
/// conversions (`cf`/`scf` `populate*StructuralTypeConversionsAndLegality`);
/// values cross the types through `unrealized_conversion_cast`. False if one
/// could not be converted (its error is emitted).
pub fn convert_structural_types(root: OperationRef, conversions: &[(Type, Type)]) -> bool {
    let from: Vec<MlirType> = conversions.iter().map(|(f, _)| f.to_raw()).collect();
    let to: Vec<MlirType> = conversions.iter().map(|(_, t)| t.to_raw()).collect();
    // Safety: a live operation that the calling pass runs on, and live types
    // of its context; the two arrays have `from.len()` elements each and
    // outlive the call, which only rewrites under `root`.
    unsafe { pydevConvertStructuralTypes(root.to_raw(), from.len() as isize, from.as_ptr(), to.as_ptr()) }
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

/// The element type of a builtin `complex<...>` type.
pub fn complex_element(ty: Type) -> Option<Type> {
    if !ty.is_complex() {
        return None;
    }
    // SAFETY: a live complex type (checked above); the element type it
    // returns lives in the same context, for as long as `ty` does.
    Some(unsafe { Type::from_raw(mlir_sys::mlirComplexTypeGetElementType(ty.to_raw())) })
}

pub fn field_offset(ty: Type, index: u32) -> Option<u64> {
    let mut offset = 0;
    // Safety: live type; out-pointer is a valid local; C++ checks the kind.
    unsafe { pydevTypeGetFieldOffset(ty.to_raw(), index, &mut offset) }.then_some(offset)
}

/// The typed API of every pydev type and attribute, generated from
/// pydev.td (see `build/defs.rs`); re-exported by `types` and `attrs`.
pub mod defs {
    use melior::{
        ir::{Attribute, AttributeLike, Type, TypeLike},
        Context, StringRef,
    };
    use mlir_sys::{MlirAttribute, MlirContext, MlirStringRef, MlirType};

    include!(concat!(env!("OUT_DIR"), "/defs.rs"));
}
