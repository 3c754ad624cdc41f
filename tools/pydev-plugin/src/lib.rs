//! `libpydev_plugin.so`: the pydev dialect and every pydev pass for
//! upstream MLIR tools.
//!
//! ```text
//! mlir-opt-22 --load-dialect-plugin=$(pydev-opt --print-plugin-path) \
//!             --load-pass-plugin=$(pydev-opt --print-plugin-path) \
//!             --pass-pipeline='builtin.module(pydev-lower-atomics)' in.mlir
//! ```
//!
//! The library links the shared libMLIR.so of Debian's LLVM 22, as
//! mlir-opt-22 does (build.rs says why and how). The dialect comes from
//! pydev-dialect's C++ registration; each pass of `pydev_passes::PASSES` is
//! registered by name (`cpp/Plugin.cpp`) and built from its options by
//! [`pydev_passes::create_pass`], the same entry pydev-opt uses.

mod capi;

use std::ffi::{c_char, c_void};

/// `MLIR_PLUGIN_API_VERSION` (mlir/Tools/Plugins/PassPlugin.h).
const PLUGIN_API_VERSION: u32 = 1;
const NAME: &[u8] = b"pydev\0";
const VERSION: &[u8] = concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes();

/// `mlir::DialectPluginLibraryInfo`.
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_dialect_registry_callbacks: unsafe extern "C" fn(*mut c_void),
}

/// `mlir::PassPluginLibraryInfo`.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_pass_registry_callbacks: extern "C" fn(),
}

/// The dialect plugin entry point (`--load-dialect-plugin`).
#[no_mangle]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: NAME.as_ptr().cast(),
        plugin_version: VERSION.as_ptr().cast(),
        register_dialect_registry_callbacks: capi::register_dialect,
    }
}

/// The pass plugin entry point (`--load-pass-plugin`).
#[no_mangle]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: NAME.as_ptr().cast(),
        plugin_version: VERSION.as_ptr().cast(),
        register_pass_registry_callbacks: register_passes,
    }
}

/// Registers every pydev pass by name (once, however often it is called).
extern "C" fn register_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for pass in pydev_passes::PASSES {
            capi::register_pass(pass.argument, pass.summary);
        }
    });
}

/// `pass{options}` as pydev's pass parser reads it.
fn pass_text(argument: &str, options: &str) -> String {
    let options = options.trim();
    if options.is_empty() {
        argument.to_owned()
    } else {
        format!("{argument}{{{options}}}")
    }
}
