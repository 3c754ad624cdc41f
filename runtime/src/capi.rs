//! Every `unsafe` and raw mlir-sys call of the runtime crate (the
//! ExecutionEngine and the attribute accessors melior lacks).

use melior::ir::{attribute::AttributeLike, operation::OperationLike, Module};
use mlir_sys::{
    mlirDenseArrayGetNumElements, mlirDenseI64ArrayGetElement, mlirDictionaryAttrGetElementByName,
    mlirExecutionEngineCreate, mlirExecutionEngineDestroy, mlirExecutionEngineLookup, mlirExecutionEngineRegisterSymbol,
    MlirExecutionEngine,
};
use std::ffi::c_void;

/// A JIT-compiled module (MLIR's ExecutionEngine, LLVM ORC underneath).
pub struct Engine(MlirExecutionEngine);

// Safety: after creation the engine is only used for symbol lookups, which
// LLVM ORC's LLJIT serialises internally; the compiled code is immutable.
unsafe impl Send for Engine {}
unsafe impl Sync for Engine {}

impl Engine {
    /// JIT-compiles `module` (LLVM dialect) at `opt_level`; `None` if MLIR
    /// cannot translate it (the diagnostic went to the context's handler).
    pub fn new(module: &Module, opt_level: i32, symbols: &[(&str, *mut c_void)]) -> Option<Self> {
        Self::with_libraries(module, opt_level, symbols, &[])
    }

    /// [`Engine::new`] with shared libraries (`link=` files built into one,
    /// `python/pydev/_interop.py`) whose symbols the module's external
    /// declarations resolve to (the engine loads them for good).
    pub fn with_libraries(module: &Module, opt_level: i32, symbols: &[(&str, *mut c_void)], libraries: &[String]) -> Option<Self> {
        let paths: Vec<melior::StringRef> = libraries.iter().map(|l| melior::StringRef::new(l)).collect();
        let raw_paths: Vec<mlir_sys::MlirStringRef> = paths.iter().map(|p| p.to_raw()).collect();
        // Safety: `module` is a live module of LLVM dialect ops; the engine
        // translates it to LLVM IR before returning and keeps no reference
        // to it. Registering symbols before the first lookup is what
        // resolves the module's external declarations to them. The library
        // paths are copied by the engine (`paths` outlives the call).
        unsafe {
            let raw = mlirExecutionEngineCreate(module.to_raw(), opt_level, raw_paths.len() as i32, if raw_paths.is_empty() { std::ptr::null() } else { raw_paths.as_ptr() }, false, false);
            if raw.ptr.is_null() {
                return None;
            }
            for (name, ptr) in symbols {
                mlirExecutionEngineRegisterSymbol(raw, melior::StringRef::new(name).to_raw(), *ptr);
            }
            Some(Self(raw))
        }
    }

    /// The address of symbol `name`, compiling it on first use.
    pub fn lookup(&self, name: &str) -> Option<*mut c_void> {
        // Safety: live engine; the name is copied by the call.
        let p = unsafe { mlirExecutionEngineLookup(self.0, melior::StringRef::new(name).to_raw()) };
        (!p.is_null()).then_some(p)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Safety: created by `mlirExecutionEngineCreate`, destroyed once.
        unsafe { mlirExecutionEngineDestroy(self.0) }
    }
}

/// `module.attributes[dict][key]` as a dense i64 array.
pub fn dict_i64_array(module: &Module, dict: &str, key: &str) -> Option<Vec<i64>> {
    let attr = module.as_operation().attribute(dict).ok()?;
    // Safety: live attributes of the module's context; the accessors check
    // kinds by returning a null attribute, which is tested before use.
    unsafe {
        let entry = mlirDictionaryAttrGetElementByName(attr.to_raw(), melior::StringRef::new(key).to_raw());
        if entry.ptr.is_null() {
            return None;
        }
        let n = mlirDenseArrayGetNumElements(entry);
        Some((0..n).map(|i| mlirDenseI64ArrayGetElement(entry, i)).collect())
    }
}

/// `module.attributes[dict][key]` as an integer.
pub fn dict_i64(module: &Module, dict: &str, key: &str) -> Option<i64> {
    let attr = module.as_operation().attribute(dict).ok()?;
    // Safety: as in `dict_i64_array`; the entry is checked to be an integer.
    unsafe {
        let entry = mlirDictionaryAttrGetElementByName(attr.to_raw(), melior::StringRef::new(key).to_raw());
        if entry.ptr.is_null() || !mlir_sys::mlirAttributeIsAInteger(entry) {
            return None;
        }
        Some(mlir_sys::mlirIntegerAttrGetValueInt(entry))
    }
}

/// Calls a packed entry point (`void _mlir_f(void **args)`).
///
/// # Safety
/// `f` must be a packed wrapper from the engine and `args` must hold one
/// pointer per parameter of the wrapped function, each to a value of that
/// parameter's LLVM type.
pub unsafe fn call_packed(f: usize, args: *mut *mut c_void) {
    let f: unsafe extern "C" fn(*mut *mut c_void) = unsafe { std::mem::transmute(f) };
    unsafe { f(args) }
}
