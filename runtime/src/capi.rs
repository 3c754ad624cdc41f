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
// SAFETY: as for Send: shared use is symbol lookups, serialised by LLJIT.
unsafe impl Sync for Engine {}

impl Engine {
    /// JIT-compiles `module` (LLVM dialect) at `opt_level`; `None` if MLIR
    /// cannot translate it (the diagnostic went to the context's handler).
    pub fn new(module: &Module, opt_level: i32, symbols: &[(&str, *mut c_void)]) -> Option<Self> {
        // Safety: `module` is a live module of LLVM dialect ops; the engine
        // translates it to LLVM IR before returning and keeps no reference
        // to it. Registering symbols before the first lookup is what
        // resolves the module's external declarations to them.
        unsafe {
            let raw = mlirExecutionEngineCreate(module.to_raw(), opt_level, 0, std::ptr::null(), false, false);
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
    // SAFETY: `f` is the address of a packed wrapper (the caller's promise),
    // whose C signature is `void (void **)`.
    let f: unsafe extern "C" fn(*mut *mut c_void) = unsafe { std::mem::transmute(f) };
    // SAFETY: `args` matches the wrapped function's parameters (as promised).
    unsafe { f(args) }
}

/// A shared library loaded with `RTLD_LOCAL` (its symbols are not visible to
/// other libraries or JIT modules: two kernels may link files defining the
/// same name). Never unloaded: JIT code keeps its addresses.
pub struct Library(*mut c_void);

// Safety: a dlopen handle may be used from any thread (dlsym is thread-safe).
unsafe impl Send for Library {}
// SAFETY: as for Send: dlsym on a shared handle is thread-safe.
unsafe impl Sync for Library {}

impl Library {
    /// `dlopen(path, RTLD_NOW | RTLD_LOCAL)`, or dlerror's message.
    pub fn open(path: &str) -> Result<Self, String> {
        let c = std::ffi::CString::new(path).map_err(|_| format!("library path '{path}' holds a NUL byte"))?;
        // Safety: `c` is a NUL-terminated path; dlerror's string is copied
        // before any other dl call on this thread.
        unsafe {
            let h = libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if h.is_null() {
                let e = libc::dlerror();
                let why = if e.is_null() { "unknown error".to_owned() } else { std::ffi::CStr::from_ptr(e).to_string_lossy().into_owned() };
                return Err(format!("cannot load the linked library {path}: {why}"));
            }
            Ok(Self(h))
        }
    }

    /// The address of `name` defined by the library (or the libraries it
    /// depends on), if any.
    pub fn symbol(&self, name: &str) -> Option<*mut c_void> {
        let c = std::ffi::CString::new(name).ok()?;
        // Safety: live handle (never closed), NUL-terminated name.
        let p = unsafe { libc::dlsym(self.0, c.as_ptr()) };
        (!p.is_null()).then_some(p)
    }
}
