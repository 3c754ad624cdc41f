//! Every `unsafe` and raw C API call of the plugin.
//!
//! # Safety
//!
//! MLIR calls these with live objects: the dialect registry of
//! `registerDialectRegistryCallbacks`, the op pass manager a pipeline is
//! being built in. The strings registered with MLIR are `'static` (the pass
//! registry keeps them), and the plugin stays loaded for the life of the
//! process (MLIR loads plugins permanently).

use melior::{pass::OperationPassManager, StringRef};
use mlir_sys::{
    mlirDialectHandleInsertDialect, MlirDialectHandle, MlirDialectRegistry, MlirOpPassManager, MlirStringCallback,
    MlirStringRef,
};
use std::ffi::c_void;

// Keeps pydev-dialect (its C++ registration) linked.
use pydev_dialect as _;

extern "C" {
    /// pydev-dialect's C++ (dialect/cpp/CAPI.cpp).
    fn mlirGetDialectHandle__pydev__() -> MlirDialectHandle;
    /// cpp/Plugin.cpp.
    fn pydevPluginRegisterPass(argument: MlirStringRef, summary: MlirStringRef);
}

/// `registerDialectRegistryCallbacks`: inserts the pydev dialect into
/// `registry` (a `mlir::DialectRegistry *`, which is what an
/// `MlirDialectRegistry` wraps).
pub unsafe extern "C" fn register_dialect(registry: *mut c_void) {
    // Safety: MLIR passes a live registry; the handle is pydev's.
    unsafe { mlirDialectHandleInsertDialect(mlirGetDialectHandle__pydev__(), MlirDialectRegistry { ptr: registry }) }
}

/// Names the pass `argument` in MLIR's pass registry.
pub fn register_pass(argument: &'static str, summary: &'static str) {
    // Safety: both strings are 'static, as the registry needs.
    unsafe { pydevPluginRegisterPass(StringRef::new(argument).to_raw(), StringRef::new(summary).to_raw()) }
}

/// The text of a C string reference; an empty `StringRef` may have a null
/// pointer, which a Rust slice may not.
///
/// # Safety
///
/// `raw` points at `length` valid bytes, or `length` is 0.
unsafe fn text(raw: MlirStringRef) -> String {
    if raw.data.is_null() || raw.length == 0 {
        return String::new();
    }
    // Safety: non-null with `length` valid bytes.
    let bytes = unsafe { std::slice::from_raw_parts(raw.data.cast::<u8>(), raw.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Called by cpp/Plugin.cpp when a pipeline names a pydev pass: builds it
/// from its options and adds it to `pm`, or reports why not.
///
/// # Safety
///
/// `pm` is the live op pass manager MLIR is filling; `argument` and
/// `options` are valid for the call; `error` is called with `user_data`.
#[no_mangle]
pub unsafe extern "C" fn pydevPluginAddPass(
    pm: MlirOpPassManager,
    argument: MlirStringRef,
    options: MlirStringRef,
    error: MlirStringCallback,
    user_data: *mut c_void,
) -> bool {
    // Safety: see above.
    let (argument, options) = unsafe { (text(argument), text(options)) };
    let text = super::pass_text(&argument, &options);
    match pydev_passes::create_pass(&text) {
        Ok(pass) => {
            // Safety: `pm` is live for the call.
            unsafe { OperationPassManager::from_raw(pm) }.add_pass(pass);
            true
        }
        Err(message) => {
            if let Some(error) = error {
                // Safety: the message outlives the call.
                unsafe { error(StringRef::new(&message.to_string()).to_raw(), user_data) };
            }
            false
        }
    }
}
