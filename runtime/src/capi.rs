//! Every `unsafe` and raw mlir-sys/LLVM C call of the runtime crate (the
//! host JIT on LLVM's ORC C API, and the attribute accessors melior lacks).

use melior::ir::{attribute::AttributeLike, operation::OperationLike, Module};
use mlir_sys::{mlirDenseArrayGetNumElements, mlirDenseI64ArrayGetElement, mlirDictionaryAttrGetElementByName};
use std::ffi::c_void;

/// LLVM's C API through llvm-sys, which binds llvm-c/*.h of LLVM 22.1 (its
/// `no-llvm-linking` feature: the static LLVM libraries that mlir-sys links
/// define every function, so the binaries hold one LLVM).
mod llvm {
    pub use llvm_sys::core::*;
    pub use llvm_sys::error::*;
    pub use llvm_sys::orc2::lljit::*;
    pub use llvm_sys::orc2::*;
    pub use llvm_sys::prelude::*;
    pub use llvm_sys::target::*;
    pub use llvm_sys::target_machine::*;
    pub use llvm_sys::transforms::pass_builder::*;
    pub use llvm_sys::{LLVMAttributeFunctionIndex, LLVMTypeKind};
}

/// `err` as text, consuming it (`None` for success).
fn llvm_error(err: llvm::LLVMErrorRef) -> Option<String> {
    if err.is_null() {
        return None;
    }
    // SAFETY: a non-null LLVMErrorRef is consumed by LLVMGetErrorMessage,
    // whose string is copied before it is disposed.
    unsafe {
        let m = llvm::LLVMGetErrorMessage(err);
        let s = std::ffi::CStr::from_ptr(m).to_string_lossy().into_owned();
        llvm::LLVMDisposeErrorMessage(m);
        Some(s)
    }
}

/// An LLVM-allocated message as a String (disposing it).
///
/// # Safety
/// `m` is null or a string LLVM allocated for LLVMDisposeMessage.
unsafe fn llvm_message(m: *mut std::ffi::c_char) -> String {
    if m.is_null() {
        return String::new();
    }
    // SAFETY: as promised by the caller.
    unsafe {
        let s = std::ffi::CStr::from_ptr(m).to_string_lossy().into_owned();
        llvm::LLVMDisposeMessage(m);
        s
    }
}

/// The process's one LLJIT: every host program is a JITDylib of it, so a
/// program costs its code and symbol tables, not an LLJIT, a TargetMachine
/// and an LLVMContext of its own (870 KB each with MLIR's ExecutionEngine).
struct Jit {
    lljit: llvm::LLVMOrcLLJITRef,
    session: llvm::LLVMOrcExecutionSessionRef,
    prefix: std::ffi::c_char,
    triple: std::ffi::CString,
    cpu: std::ffi::CString,
    features: std::ffi::CString,
}

// SAFETY: LLJIT and its ExecutionSession are thread-safe (ORC locks its own
// state); the strings are immutable.
unsafe impl Send for Jit {}
// SAFETY: as for Send.
unsafe impl Sync for Jit {}

/// Errors of the host JIT (LLVM's ORC): making it, compiling a host module
/// to an object, loading that object with its symbols, and loading the
/// shared libraries of `link=` files.
#[derive(Debug, Clone, thiserror::Error)]
pub enum JitError {
    #[error("cannot create the host JIT: {message}")]
    Create { message: String },
    #[error("the host module could not be translated to LLVM IR")]
    Translate,
    #[error("no LLVM target for {triple}: {message}")]
    NoTarget { triple: String, message: String },
    #[error("LLVM's optimisation of the host module failed: {message}")]
    Optimise { message: String },
    #[error("LLVM could not generate code for the host module: {message}")]
    Codegen { message: String },
    #[error("entry point '{name}' holds a NUL byte")]
    NulInEntry { name: String },
    #[error("the host module has no entry point '{name}'")]
    NoEntry { name: String },
    #[error("symbol '{name}' holds a NUL byte")]
    NulInSymbol { name: String },
    #[error("cannot define the runtime's symbols in the JIT: {message}")]
    DefineSymbols { message: String },
    #[error("cannot search the process's symbols from the JIT: {message}")]
    ProcessSymbols { message: String },
    #[error("the JIT cannot load the host object: {message}")]
    AddObject { message: String },
    #[error("the JIT cannot link the host program: {message}")]
    Link { message: String },
    #[error("the JIT lost an entry point of the host program")]
    LostEntry,
    #[error("library path '{path}' holds a NUL byte")]
    NulInPath { path: String },
    /// `dlopen` refused a `link=` library (`message`: dlerror's).
    #[error("cannot load the linked library {path}: {message}")]
    OpenLibrary { path: String, message: String },
}

fn jit() -> Result<&'static Jit, JitError> {
    static JIT: std::sync::OnceLock<Result<Jit, JitError>> = std::sync::OnceLock::new();
    JIT.get_or_init(|| {
        // SAFETY: target initialisation is idempotent; the LLJIT is created
        // once and never disposed (programs of it may live until exit).
        unsafe {
            llvm::LLVMInitializeX86TargetInfo();
            llvm::LLVMInitializeX86Target();
            llvm::LLVMInitializeX86TargetMC();
            llvm::LLVMInitializeX86AsmPrinter();
            let mut lljit = std::ptr::null_mut();
            if let Some(e) = llvm_error(llvm::LLVMOrcCreateLLJIT(&mut lljit, llvm::LLVMOrcCreateLLJITBuilder())) {
                return Err(JitError::Create { message: e });
            }
            let text = |m| std::ffi::CString::new(llvm_message(m)).unwrap_or_default();
            Ok(Jit {
                lljit,
                session: llvm::LLVMOrcLLJITGetExecutionSession(lljit),
                prefix: llvm::LLVMOrcLLJITGetGlobalPrefix(lljit),
                triple: text(llvm::LLVMGetDefaultTargetTriple()),
                cpu: text(llvm::LLVMGetHostCPUName()),
                // Without the AVX512-BF16 / AVX-NE-CONVERT conversions: their
                // vcvtneps2bf16 flushes subnormals to zero (DAZ/FTZ implied),
                // where an fptrunc to bf16 (and a GPU's cvt.rn.bf16.f32) keeps
                // them; LLVM then rounds in software, as on other CPUs.
                features: std::ffi::CString::new(format!(
                    "{},-avx512bf16,-avxneconvert",
                    llvm_message(llvm::LLVMGetHostCPUFeatures())
                ))
                .unwrap_or_default(),
            })
        }
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// "triple cpu features" of the code [`host_object`] makes.
pub fn host_target() -> Result<String, JitError> {
    let jit = jit()?;
    Ok(format!("{} {} {}", jit.triple.to_string_lossy(), jit.cpu.to_string_lossy(), jit.features.to_string_lossy()))
}

/// `pm` without the borrow of its context, to be kept beside that context
/// across compiles (`compile::PipelineContext`).
///
/// # Safety
/// The caller drops the result before the context `pm` was made in, and
/// runs it only on modules of that context.
pub unsafe fn unbind_pass_manager(pm: melior::pass::PassManager<'_>) -> melior::pass::PassManager<'static> {
    let raw = pm.to_raw();
    std::mem::forget(pm);
    // SAFETY: `raw` is the pass manager just released from `pm` (so it is
    // owned exactly once); the caller keeps it within its context's life.
    unsafe { melior::pass::PassManager::from_raw(raw) }
}

/// Reports every pass's time on standard error when `pm` is dropped
/// (`PYDEV_MLIR_TIMING=1`; melior has no wrapper).
pub fn enable_timing(pm: &melior::pass::PassManager) {
    // SAFETY: `pm` is a live pass manager; the timing manager this creates is
    // owned by it and prints its report when the pass manager is destroyed.
    unsafe { mlir_sys::mlirPassManagerEnableTiming(pm.to_raw()) }
}

/// Compiles `module` (LLVM dialect) to a relocatable object for this host:
/// translation to LLVM IR, packed entry points `_mlir_<name>` for `entries`
/// (`void (void **args)`, as MLIR's ExecutionEngine makes them), LLVM's
/// `default<O{opt_level}>` pipeline and code generation for the host CPU.
pub fn host_object(module: &Module, opt_level: u8, entries: &[&str]) -> Result<Vec<u8>, JitError> {
    let jit = jit()?;
    // SAFETY: every LLVM object made here (context, module, builder,
    // target machine, data layout, buffer) is owned by this function and
    // disposed before it returns; `module` is a live MLIR module that the
    // translation only reads.
    unsafe {
        let ctx = llvm::LLVMContextCreate();
        let m = mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), ctx.cast())
            .cast::<llvm_sys::LLVMModule>();
        if m.is_null() {
            llvm::LLVMContextDispose(ctx);
            return Err(JitError::Translate);
        }
        let result = (|| {
            let mut target = std::ptr::null_mut();
            let mut why = std::ptr::null_mut();
            if llvm::LLVMGetTargetFromTriple(jit.triple.as_ptr(), &mut target, &mut why) != 0 {
                return Err(JitError::NoTarget {
                    triple: jit.triple.to_string_lossy().into_owned(),
                    message: llvm_message(why),
                });
            }
            let tm = llvm::LLVMCreateTargetMachine(
                target,
                jit.triple.as_ptr(),
                jit.cpu.as_ptr(),
                jit.features.as_ptr(),
                llvm::LLVMCodeGenOptLevel::LLVMCodeGenLevelDefault,
                llvm::LLVMRelocMode::LLVMRelocPIC,
                llvm::LLVMCodeModel::LLVMCodeModelJITDefault,
            );
            let dl = llvm::LLVMCreateTargetDataLayout(tm);
            llvm::LLVMSetTarget(m, jit.triple.as_ptr());
            llvm::LLVMSetModuleDataLayout(m, dl);
            llvm::LLVMDisposeTargetData(dl);
            let out = (|| {
                for name in entries {
                    add_packed_wrapper(ctx, m, name)?;
                }
                // Extra passes (`passes={"llvm-ir": ...}`), then the default pipeline.
                let extra = llvm_passes(module);
                for pipeline in
                    extra.iter().map(String::as_str).chain([format!("default<O{}>", opt_level.min(3)).as_str()])
                {
                    let passes = std::ffi::CString::new(pipeline).unwrap_or_default();
                    let options = llvm::LLVMCreatePassBuilderOptions();
                    let err = llvm::LLVMRunPasses(m, passes.as_ptr(), tm, options);
                    llvm::LLVMDisposePassBuilderOptions(options);
                    if let Some(e) = llvm_error(err) {
                        return Err(JitError::Optimise { message: format!("{e} (pipeline '{pipeline}')") });
                    }
                }
                let mut buffer = std::ptr::null_mut();
                let mut why = std::ptr::null_mut();
                if llvm::LLVMTargetMachineEmitToMemoryBuffer(
                    tm,
                    m,
                    llvm::LLVMCodeGenFileType::LLVMObjectFile,
                    &mut why,
                    &mut buffer,
                ) != 0
                {
                    return Err(JitError::Codegen { message: llvm_message(why) });
                }
                let bytes = std::slice::from_raw_parts(
                    llvm::LLVMGetBufferStart(buffer).cast::<u8>(),
                    llvm::LLVMGetBufferSize(buffer),
                )
                .to_vec();
                llvm::LLVMDisposeMemoryBuffer(buffer);
                Ok(bytes)
            })();
            llvm::LLVMDisposeTargetMachine(tm);
            out
        })();
        llvm::LLVMDisposeModule(m);
        llvm::LLVMContextDispose(ctx);
        result
    }
}

/// Adds `void _mlir_<name>(void **args)` to `m`: it loads each argument of
/// `name` through `args[i]` and stores a result through `args[n]`
/// (MLIR ExecutionEngine's packFunctionArguments).
///
/// # Safety
/// `ctx` and `m` are a live LLVM context and a module of it.
unsafe fn add_packed_wrapper(ctx: llvm::LLVMContextRef, m: llvm::LLVMModuleRef, name: &str) -> Result<(), JitError> {
    let c_name = std::ffi::CString::new(name).map_err(|_| JitError::NulInEntry { name: name.to_owned() })?;
    let wrapper = std::ffi::CString::new(format!("_mlir_{name}")).unwrap_or_default();
    // SAFETY: `ctx`/`m` are live (the caller's promise); every value built
    // here belongs to `m`, and the builder is disposed before returning.
    unsafe {
        let f = llvm::LLVMGetNamedFunction(m, c_name.as_ptr());
        if f.is_null() {
            return Err(JitError::NoEntry { name: name.to_owned() });
        }
        let fty = llvm::LLVMGlobalGetValueType(f);
        let n = llvm::LLVMCountParamTypes(fty);
        let mut params = vec![std::ptr::null_mut(); n as usize];
        llvm::LLVMGetParamTypes(fty, params.as_mut_ptr());
        let ptr = llvm::LLVMPointerTypeInContext(ctx, 0);
        let i64t = llvm::LLVMInt64TypeInContext(ctx);
        let mut wparams = [ptr];
        let wty = llvm::LLVMFunctionType(llvm::LLVMVoidTypeInContext(ctx), wparams.as_mut_ptr(), 1, 0);
        let w = llvm::LLVMAddFunction(m, wrapper.as_ptr(), wty);
        let b = llvm::LLVMCreateBuilderInContext(ctx);
        llvm::LLVMPositionBuilderAtEnd(b, llvm::LLVMAppendBasicBlockInContext(ctx, w, c"entry".as_ptr()));
        let argv = llvm::LLVMGetParam(w, 0);
        let slot = |i: u32| {
            let mut idx = [llvm::LLVMConstInt(i64t, u64::from(i), 0)];
            let gep = llvm::LLVMBuildGEP2(b, ptr, argv, idx.as_mut_ptr(), 1, c"".as_ptr());
            llvm::LLVMBuildLoad2(b, ptr, gep, c"".as_ptr())
        };
        let mut args: Vec<llvm::LLVMValueRef> =
            params.iter().enumerate().map(|(i, &t)| llvm::LLVMBuildLoad2(b, t, slot(i as u32), c"".as_ptr())).collect();
        let call = llvm::LLVMBuildCall2(b, fty, f, args.as_mut_ptr(), n, c"".as_ptr());
        if llvm::LLVMGetTypeKind(llvm::LLVMGetReturnType(fty)) != llvm::LLVMTypeKind::LLVMVoidTypeKind {
            llvm::LLVMBuildStore(b, call, slot(n));
        }
        llvm::LLVMBuildRetVoid(b);
        llvm::LLVMDisposeBuilder(b);
    }
    Ok(())
}

/// A host program loaded into the process's JIT: its own JITDylib holding
/// its object code, the runtime's symbols and the process's (libm, libc).
/// Dropping it frees the code.
pub struct Engine {
    dylib: llvm::LLVMOrcJITDylibRef,
}

// SAFETY: a JITDylib is used only through ORC calls, which lock the session.
unsafe impl Send for Engine {}
// SAFETY: as for Send.
unsafe impl Sync for Engine {}

impl Engine {
    /// Loads object file `object` (from [`host_object`]) with `symbols`
    /// resolving its external references (the runtime's entry points, the
    /// kernel's linked libraries; the rest from the process), and returns the
    /// addresses of the packed entry points of `entries`.
    pub fn load(
        object: &[u8],
        symbols: &[(&str, *mut c_void)],
        entries: &[&str],
    ) -> Result<(Self, Vec<usize>), JitError> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let jit = jit()?;
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let intern = |name: &str| {
            let c = std::ffi::CString::new(name).map_err(|_| JitError::NulInSymbol { name: name.to_owned() })?;
            // SAFETY: live LLJIT; the name is copied into its string pool
            // and the entry returned retained once for us.
            Ok::<_, JitError>(unsafe { llvm::LLVMOrcLLJITMangleAndIntern(jit.lljit, c.as_ptr()) })
        };
        let name = std::ffi::CString::new(format!("pydev-program-{id}")).unwrap_or_default();
        // SAFETY: live session; the name is unique (a process-wide counter).
        let dylib = unsafe { llvm::LLVMOrcExecutionSessionCreateBareJITDylib(jit.session, name.as_ptr()) };
        let engine = Engine { dylib };
        let mut pairs = Vec::with_capacity(symbols.len());
        for (n, p) in symbols {
            pairs.push(llvm::LLVMOrcCSymbolMapPair {
                Name: intern(n)?,
                Sym: llvm::LLVMJITEvaluatedSymbol {
                    Address: *p as u64,
                    Flags: llvm::LLVMJITSymbolFlags {
                        GenericFlags: llvm::LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsExported as u8
                            | llvm::LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsCallable as u8,
                        TargetFlags: 0,
                    },
                },
            });
        }
        // SAFETY: the pairs' names were retained for LLVMOrcAbsoluteSymbols,
        // which takes them; the unit goes to the dylib or is disposed; the
        // generator and the buffer are handed to ORC, which owns them after.
        unsafe {
            let mu = llvm::LLVMOrcAbsoluteSymbols(pairs.as_mut_ptr(), pairs.len());
            if let Some(e) = llvm_error(llvm::LLVMOrcJITDylibDefine(dylib, mu)) {
                llvm::LLVMOrcDisposeMaterializationUnit(mu);
                return Err(JitError::DefineSymbols { message: e });
            }
            let mut generator = std::ptr::null_mut();
            if let Some(e) = llvm_error(llvm::LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                &mut generator,
                jit.prefix,
                None,
                std::ptr::null_mut(),
            )) {
                return Err(JitError::ProcessSymbols { message: e });
            }
            llvm::LLVMOrcJITDylibAddGenerator(dylib, generator);
            let buffer =
                llvm::LLVMCreateMemoryBufferWithMemoryRangeCopy(object.as_ptr().cast(), object.len(), name.as_ptr());
            if let Some(e) = llvm_error(llvm::LLVMOrcLLJITAddObjectFile(jit.lljit, dylib, buffer)) {
                return Err(JitError::AddObject { message: e });
            }
        }
        let names = entries.iter().map(|e| intern(&format!("_mlir_{e}"))).collect::<Result<Vec<_>, _>>()?;
        let addresses = engine.lookup(jit, &names)?;
        Ok((engine, addresses))
    }

    /// The addresses of `names` (interned and retained for this call, which
    /// hands them to ORC), linking the program's object on first use.
    fn lookup(&self, jit: &Jit, names: &[llvm::LLVMOrcSymbolStringPoolEntryRef]) -> Result<Vec<usize>, JitError> {
        type Outcome = std::sync::Mutex<Option<Result<Vec<(usize, u64)>, String>>>;
        struct Wait {
            outcome: Outcome,
            done: std::sync::Condvar,
            names: Vec<usize>,
        }
        extern "C" fn done(
            err: llvm::LLVMErrorRef,
            result: *mut llvm::LLVMOrcCSymbolMapPair,
            n: usize,
            ctx: *mut c_void,
        ) {
            // SAFETY: `ctx` is the `Wait` that `lookup` keeps alive until this
            // callback has stored its outcome; `result` holds `n` pairs.
            unsafe {
                let wait = &*ctx.cast::<Wait>();
                let outcome = match llvm_error(err) {
                    Some(e) => Err(e),
                    None => Ok((0..n)
                        .map(|i| {
                            let p = &*result.add(i);
                            (wait.names.iter().position(|&q| q == p.Name as usize).unwrap_or(usize::MAX), p.Sym.Address)
                        })
                        .collect()),
                };
                *wait.outcome.lock().unwrap_or_else(|e| e.into_inner()) = Some(outcome);
                wait.done.notify_all();
            }
        }
        let wait = Wait {
            outcome: std::sync::Mutex::new(None),
            done: std::sync::Condvar::new(),
            names: names.iter().map(|&p| p as usize).collect(),
        };
        let mut order = [llvm::LLVMOrcCJITDylibSearchOrderElement {
            JD: self.dylib,
            JDLookupFlags: llvm::LLVMOrcJITDylibLookupFlags::LLVMOrcJITDylibLookupFlagsMatchAllSymbols,
        }];
        let mut set: Vec<llvm::LLVMOrcCLookupSetElement> = names
            .iter()
            .map(|&name| llvm::LLVMOrcCLookupSetElement {
                Name: name,
                LookupFlags: llvm::LLVMOrcSymbolLookupFlags::LLVMOrcSymbolLookupFlagsRequiredSymbol,
            })
            .collect();
        // SAFETY: `order` and `set` outlive the call (ORC copies them); the
        // names were retained for it; `wait` outlives the callback, which
        // this function waits for before returning.
        unsafe {
            llvm::LLVMOrcExecutionSessionLookup(
                jit.session,
                llvm::LLVMOrcLookupKind::LLVMOrcLookupKindStatic,
                order.as_mut_ptr(),
                order.len(),
                set.as_mut_ptr(),
                set.len(),
                done,
                (&wait as *const Wait).cast_mut().cast(),
            );
        }
        let mut outcome = wait.outcome.lock().unwrap_or_else(|e| e.into_inner());
        while outcome.is_none() {
            outcome = wait.done.wait(outcome).unwrap_or_else(|e| e.into_inner());
        }
        let found =
            outcome.take().unwrap_or_else(|| Err("no answer".into())).map_err(|message| JitError::Link { message })?;
        let mut addresses = vec![0usize; names.len()];
        for (i, a) in found {
            if let Some(slot) = addresses.get_mut(i) {
                *slot = a as usize;
            }
        }
        if addresses.contains(&0) {
            return Err(JitError::LostEntry);
        }
        Ok(addresses)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: the dylib is live (JITDylibs are never destroyed); clearing
        // it removes its code and symbols. No launch of this program runs:
        // launches hold the program.
        if let Some(e) = llvm_error(unsafe { llvm::LLVMOrcJITDylibClear(self.dylib) }) {
            eprintln!("pydev: freeing a host program's code failed: {e}");
        }
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
pub struct Library(std::mem::ManuallyDrop<libloading::os::unix::Library>);

impl Library {
    /// `dlopen(path, RTLD_NOW | RTLD_LOCAL)` (libloading), or dlerror's message.
    pub fn open(path: &str) -> Result<Self, JitError> {
        if path.contains('\0') {
            return Err(JitError::NulInPath { path: path.to_owned() });
        }
        let flags = libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL;
        // SAFETY: loading runs the library's initializers: the `link=` files
        // are the user's own code, loaded to be called by their kernels.
        let lib = unsafe { libloading::os::unix::Library::open(Some(path), flags) }
            .map_err(|e| JitError::OpenLibrary { path: path.to_owned(), message: e.to_string() })?;
        Ok(Self(std::mem::ManuallyDrop::new(lib)))
    }

    /// The address of `name` defined by the library (or the libraries it
    /// depends on), if any.
    pub fn symbol(&self, name: &str) -> Option<*mut c_void> {
        // SAFETY: the address is only read as an address (never called or
        // dereferenced here); the library is never unloaded.
        let sym = unsafe { self.0.get::<*mut c_void>(name.as_bytes()) }.ok()?;
        let p = *sym;
        (!p.is_null()).then_some(p)
    }
}

/// Read access to an LLVM module translated from a gpu.module, for the
/// NVVM IR writer (`crate::nvvm_ir`): values, types and blocks as `Copy`
/// handles that live as long as the [`LlvmModule`] they come from.
pub mod llvm_read {
    use super::llvm as s;
    use llvm_sys::{LLVMOpcode, LLVMTypeKind};
    use std::ffi::{c_char, CStr};
    use std::marker::PhantomData;

    /// An LLVM context and the module translated into it; both are
    /// disposed together.
    pub struct LlvmModule {
        context: s::LLVMContextRef,
        module: s::LLVMModuleRef,
    }

    impl LlvmModule {
        /// The LLVM module of `op` (a gpu.module of LLVM dialect ops), as
        /// `mlirTranslateModuleToLLVMIR` translates it; `None` when it cannot.
        pub fn translate(op: melior::ir::operation::OperationRef) -> Option<LlvmModule> {
            // SAFETY: `op` is a live operation; the context is created
            // here and owned by the returned value (or disposed at once).
            unsafe {
                let context = s::LLVMContextCreate();
                // mlir-sys's own opaque LLVM handle types: the same pointers.
                let module: s::LLVMModuleRef =
                    mlir_sys::mlirTranslateModuleToLLVMIR(op.to_raw(), context.cast()).cast();
                if module.is_null() {
                    s::LLVMContextDispose(context);
                    return None;
                }
                Some(LlvmModule { context, module })
            }
        }

        pub fn functions(&self) -> Vec<V<'_>> {
            // SAFETY: walks the live module's function list.
            unsafe { walk(s::LLVMGetFirstFunction(self.module), |f| s::LLVMGetNextFunction(f)) }
        }

        pub fn globals(&self) -> Vec<V<'_>> {
            // SAFETY: walks the live module's global list.
            unsafe { walk(s::LLVMGetFirstGlobal(self.module), |g| s::LLVMGetNextGlobal(g)) }
        }

        /// The kind id of the enum attribute `name` (e.g. "alignstack").
        pub fn attribute_kind(&self, name: &str) -> u32 {
            // SAFETY: reads a static table of LLVM.
            unsafe { s::LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()) }
        }
    }

    impl Drop for LlvmModule {
        fn drop(&mut self) {
            // SAFETY: owned since `translate`; the module before its context.
            unsafe {
                s::LLVMDisposeModule(self.module);
                s::LLVMContextDispose(self.context);
            }
        }
    }

    /// # Safety
    /// `first` is null or a live value whose list `next` walks.
    unsafe fn walk<'m>(first: s::LLVMValueRef, next: impl Fn(s::LLVMValueRef) -> s::LLVMValueRef) -> Vec<V<'m>> {
        let mut out = Vec::new();
        let mut v = first;
        while !v.is_null() {
            out.push(V(v, PhantomData));
            v = next(v);
        }
        out
    }

    /// # Safety
    /// `p` is null or a C string owned by LLVM that outlives the call.
    unsafe fn text(p: *const c_char, len: usize) -> String {
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len)).into_owned()
    }

    /// # Safety
    /// `p` is a string LLVM allocated for the caller to dispose.
    unsafe fn message(p: *mut c_char) -> String {
        let out = CStr::from_ptr(p).to_string_lossy().into_owned();
        s::LLVMDisposeMessage(p);
        out
    }

    /// A value (constant, argument, instruction, global, inline asm).
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub struct V<'m>(s::LLVMValueRef, PhantomData<&'m LlvmModule>);
    /// A type.
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub struct T<'m>(s::LLVMTypeRef, PhantomData<&'m LlvmModule>);
    /// A basic block.
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub struct B<'m>(s::LLVMBasicBlockRef, PhantomData<&'m LlvmModule>);

    /// The methods below that apply to one kind of value or type check it:
    /// a misuse panics instead of reaching LLVM's unchecked casts.
    fn must(ok: bool, what: &str) {
        assert!(ok, "pydev: llvm_read::{what} on another kind of value or type");
    }

    fn v<'m>(r: s::LLVMValueRef) -> V<'m> {
        V(r, PhantomData)
    }
    fn t<'m>(r: s::LLVMTypeRef) -> T<'m> {
        T(r, PhantomData)
    }
    fn b<'m>(r: s::LLVMBasicBlockRef) -> B<'m> {
        B(r, PhantomData)
    }

    // Every method below: `self.0` is a live handle of the module that `'m`
    // borrows, and a method for one kind of value or type checks the kind
    // first (`must`), so each C call gets the kind it casts to.
    impl<'m> V<'m> {
        /// Whether the value is of the kind an `LLVMIsA*` function tests.
        fn isa(self, test: unsafe extern "C" fn(s::LLVMValueRef) -> s::LLVMValueRef) -> bool {
            // SAFETY: the `LLVMIsA*` tests take any value.
            unsafe { !test(self.0).is_null() }
        }
        /// A getelementptr instruction or constant expression.
        fn is_gep(self) -> bool {
            self.isa(s::LLVMIsAGetElementPtrInst)
                || (self.is_const_expr() && self.const_opcode() == LLVMOpcode::LLVMGetElementPtr as u32)
        }
        pub fn ty(self) -> T<'m> {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { t(s::LLVMTypeOf(self.0)) }
        }
        pub fn name(self) -> String {
            let mut n = 0;
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { text(s::LLVMGetValueName2(self.0, &mut n), n) }
        }
        /// LLVM 22's own text of the value (constants: "i32 5").
        pub fn print(self) -> String {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { message(s::LLVMPrintValueToString(self.0)) }
        }
        pub fn is_function(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAFunction(self.0).is_null() }
        }
        pub fn is_global_variable(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAGlobalVariable(self.0).is_null() }
        }
        pub fn is_global(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAGlobalValue(self.0).is_null() }
        }
        pub fn is_inline_asm(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAInlineAsm(self.0).is_null() }
        }
        pub fn is_basic_block(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsABasicBlock(self.0).is_null() }
        }
        pub fn as_block(self) -> B<'m> {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { b(s::LLVMValueAsBasicBlock(self.0)) }
        }
        pub fn is_const_int(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAConstantInt(self.0).is_null() }
        }
        pub fn is_const_fp(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAConstantFP(self.0).is_null() }
        }
        pub fn is_null(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMIsNull(self.0) != 0 }
        }
        pub fn is_undef(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMIsUndef(self.0) != 0 || s::LLVMIsPoison(self.0) != 0 }
        }
        pub fn is_aggregate_zero(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAConstantAggregateZero(self.0).is_null() }
        }
        /// Constant arrays, structs and vectors (data ones included).
        pub fn is_const_aggregate(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                !s::LLVMIsAConstantDataSequential(self.0).is_null()
                    || !s::LLVMIsAConstantArray(self.0).is_null()
                    || !s::LLVMIsAConstantStruct(self.0).is_null()
                    || !s::LLVMIsAConstantVector(self.0).is_null()
            }
        }
        pub fn is_const_string(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAConstantDataSequential(self.0).is_null() && s::LLVMIsConstantString(self.0) != 0 }
        }
        pub fn string_bytes(self) -> Vec<u8> {
            must(self.is_const_string(), "string_bytes");
            let mut n = 0;
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                let p = s::LLVMGetAsString(self.0, &mut n);
                std::slice::from_raw_parts(p.cast::<u8>(), n).to_vec()
            }
        }
        pub fn element(self, i: u32) -> Option<V<'m>> {
            must(self.is_const_aggregate() || self.is_aggregate_zero() || self.is_undef(), "element");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            let e = unsafe { s::LLVMGetAggregateElement(self.0, i) };
            (!e.is_null()).then(|| v(e))
        }
        pub fn is_const_expr(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAConstantExpr(self.0).is_null() }
        }
        pub fn const_opcode(self) -> u32 {
            must(self.is_const_expr(), "const_opcode");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetConstOpcode(self.0) as u32 }
        }
        pub fn int_sext(self) -> i64 {
            must(self.is_const_int(), "int_sext");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMConstIntGetSExtValue(self.0) }
        }
        pub fn is_instruction(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAInstruction(self.0).is_null() }
        }
        pub fn is_argument(self) -> bool {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { !s::LLVMIsAArgument(self.0).is_null() }
        }
        pub fn opcode(self) -> u32 {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetInstructionOpcode(self.0) as u32 }
        }
        pub fn operands(self) -> Vec<V<'m>> {
            must(self.is_instruction() || self.is_const_expr(), "operands");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                (0..s::LLVMGetNumOperands(self.0).max(0) as u32).map(|i| v(s::LLVMGetOperand(self.0, i))).collect()
            }
        }
        pub fn icmp_predicate(self) -> u32 {
            must(self.isa(s::LLVMIsAICmpInst), "icmp_predicate");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetICmpPredicate(self.0) as u32 }
        }
        pub fn fcmp_predicate(self) -> u32 {
            must(self.isa(s::LLVMIsAFCmpInst), "fcmp_predicate");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetFCmpPredicate(self.0) as u32 }
        }
        pub fn alignment(self) -> u32 {
            must(
                self.is_global()
                    || self.isa(s::LLVMIsAAllocaInst)
                    || self.isa(s::LLVMIsALoadInst)
                    || self.isa(s::LLVMIsAStoreInst),
                "alignment",
            );
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetAlignment(self.0) }
        }
        pub fn allocated_type(self) -> T<'m> {
            must(self.isa(s::LLVMIsAAllocaInst), "allocated_type");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { t(s::LLVMGetAllocatedType(self.0)) }
        }
        pub fn gep_source_type(self) -> T<'m> {
            must(self.is_gep(), "gep_source_type");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { t(s::LLVMGetGEPSourceElementType(self.0)) }
        }
        pub fn in_bounds(self) -> bool {
            must(self.is_gep(), "in_bounds");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMIsInBounds(self.0) != 0 }
        }
        pub fn called_value(self) -> V<'m> {
            must(self.isa(s::LLVMIsACallInst), "called_value");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { v(s::LLVMGetCalledValue(self.0)) }
        }
        pub fn called_function_type(self) -> T<'m> {
            must(self.isa(s::LLVMIsACallInst), "called_function_type");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { t(s::LLVMGetCalledFunctionType(self.0)) }
        }
        pub fn arg_count(self) -> u32 {
            must(self.isa(s::LLVMIsACallInst), "arg_count");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetNumArgOperands(self.0) }
        }
        pub fn indices(self) -> Vec<u32> {
            must(self.isa(s::LLVMIsAExtractValueInst) || self.isa(s::LLVMIsAInsertValueInst), "indices");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                let n = s::LLVMGetNumIndices(self.0) as usize;
                std::slice::from_raw_parts(s::LLVMGetIndices(self.0), n).to_vec()
            }
        }
        pub fn is_volatile(self) -> bool {
            must(self.isa(s::LLVMIsALoadInst) || self.isa(s::LLVMIsAStoreInst), "is_volatile");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetVolatile(self.0) != 0 }
        }
        pub fn is_atomic(self) -> bool {
            must(self.is_instruction(), "is_atomic");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMIsAtomic(self.0) != 0 }
        }
        pub fn incoming(self) -> Vec<(V<'m>, B<'m>)> {
            must(self.isa(s::LLVMIsAPHINode), "incoming");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                (0..s::LLVMCountIncoming(self.0))
                    .map(|i| (v(s::LLVMGetIncomingValue(self.0, i)), b(s::LLVMGetIncomingBlock(self.0, i))))
                    .collect()
            }
        }
        pub fn successors(self) -> Vec<B<'m>> {
            must(self.isa(s::LLVMIsATerminatorInst), "successors");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { (0..s::LLVMGetNumSuccessors(self.0)).map(|i| b(s::LLVMGetSuccessor(self.0, i))).collect() }
        }
        pub fn is_conditional(self) -> bool {
            must(self.isa(s::LLVMIsABranchInst), "is_conditional");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMIsConditional(self.0) != 0 }
        }
        pub fn condition(self) -> V<'m> {
            must(self.isa(s::LLVMIsABranchInst) && self.is_conditional(), "condition");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { v(s::LLVMGetCondition(self.0)) }
        }
        pub fn mask(self) -> Vec<i32> {
            must(self.isa(s::LLVMIsAShuffleVectorInst), "mask");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { (0..s::LLVMGetNumMaskElements(self.0)).map(|i| s::LLVMGetMaskValue(self.0, i)).collect() }
        }
        /// Fast-math flags (LLVMFastMath* bits), 0 where none can be.
        pub fn fast_math(self) -> u32 {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                if s::LLVMCanValueUseFastMathFlags(self.0) != 0 {
                    s::LLVMGetFastMathFlags(self.0)
                } else {
                    0
                }
            }
        }
        pub fn nsw(self) -> bool {
            must(self.is_instruction() && matches!(self.opcode(), 8 | 10 | 12 | 20), "nsw");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetNSW(self.0) != 0 }
        }
        pub fn nuw(self) -> bool {
            must(self.is_instruction() && matches!(self.opcode(), 8 | 10 | 12 | 20), "nuw");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetNUW(self.0) != 0 }
        }
        pub fn exact(self) -> bool {
            must(self.is_instruction() && matches!(self.opcode(), 14 | 15 | 21 | 22), "exact");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetExact(self.0) != 0 }
        }
        /// Inline asm: (asm string, constraints, side effects, align stack).
        pub fn inline_asm(self) -> (Vec<u8>, Vec<u8>, bool, bool) {
            must(self.is_inline_asm(), "inline_asm");
            let (mut a, mut c) = (0, 0);
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                let asm = s::LLVMGetInlineAsmAsmString(self.0, &mut a);
                let cons = s::LLVMGetInlineAsmConstraintString(self.0, &mut c);
                (
                    std::slice::from_raw_parts(asm.cast::<u8>(), a).to_vec(),
                    std::slice::from_raw_parts(cons.cast::<u8>(), c).to_vec(),
                    s::LLVMGetInlineAsmHasSideEffects(self.0) != 0,
                    s::LLVMGetInlineAsmNeedsAlignedStack(self.0) != 0,
                )
            }
        }
        // Globals and functions.
        pub fn linkage(self) -> u32 {
            must(self.is_global(), "linkage");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetLinkage(self.0) as u32 }
        }
        pub fn is_declaration(self) -> bool {
            must(self.is_global(), "is_declaration");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMIsDeclaration(self.0) != 0 }
        }
        pub fn initializer(self) -> Option<V<'m>> {
            must(self.is_global_variable(), "initializer");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            let i = unsafe { s::LLVMGetInitializer(self.0) };
            (!i.is_null()).then(|| v(i))
        }
        pub fn is_constant_global(self) -> bool {
            must(self.is_global_variable(), "is_constant_global");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMIsGlobalConstant(self.0) != 0 }
        }
        pub fn value_type(self) -> T<'m> {
            must(self.is_global(), "value_type");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { t(s::LLVMGlobalGetValueType(self.0)) }
        }
        pub fn call_conv(self) -> u32 {
            must(self.is_function(), "call_conv");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetFunctionCallConv(self.0) }
        }
        pub fn params(self) -> Vec<V<'m>> {
            must(self.is_function(), "params");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { (0..s::LLVMCountParams(self.0)).map(|i| v(s::LLVMGetParam(self.0, i))).collect() }
        }
        pub fn blocks(self) -> Vec<B<'m>> {
            must(self.is_function(), "blocks");
            let mut out = Vec::new();
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                let mut bb = s::LLVMGetFirstBasicBlock(self.0);
                while !bb.is_null() {
                    out.push(b(bb));
                    bb = s::LLVMGetNextBasicBlock(bb);
                }
            }
            out
        }
        /// The integer value of enum attribute `kind` at `index` (1-based
        /// parameters), of a function or of a call site.
        pub fn enum_attribute(self, index: u32, kind: u32, call_site: bool) -> Option<u64> {
            must(if call_site { self.isa(s::LLVMIsACallInst) } else { self.is_function() }, "enum_attribute");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                let a = if call_site {
                    s::LLVMGetCallSiteEnumAttribute(self.0, index, kind)
                } else {
                    s::LLVMGetEnumAttributeAtIndex(self.0, index, kind)
                };
                (!a.is_null()).then(|| s::LLVMGetEnumAttributeValue(a))
            }
        }
        /// The value of string function attribute `key`.
        pub fn string_attribute(self, key: &str) -> Option<String> {
            must(self.is_function(), "string_attribute");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                let a = s::LLVMGetStringAttributeAtIndex(
                    self.0,
                    s::LLVMAttributeFunctionIndex,
                    key.as_ptr().cast(),
                    key.len() as u32,
                );
                if a.is_null() {
                    return None;
                }
                let mut n = 0u32;
                let p = s::LLVMGetStringAttributeValue(a, &mut n);
                Some(text(p, n as usize))
            }
        }
    }

    impl<'m> B<'m> {
        pub fn instructions(self) -> Vec<V<'m>> {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { walk(s::LLVMGetFirstInstruction(self.0), |i| s::LLVMGetNextInstruction(i)) }
        }
    }

    impl<'m> T<'m> {
        fn is(self, kind: LLVMTypeKind) -> bool {
            self.kind() == kind as u32
        }
        pub fn kind(self) -> u32 {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetTypeKind(self.0) as u32 }
        }
        pub fn int_width(self) -> u32 {
            must(self.is(LLVMTypeKind::LLVMIntegerTypeKind), "int_width");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetIntTypeWidth(self.0) }
        }
        pub fn element(self) -> T<'m> {
            must(self.is(LLVMTypeKind::LLVMArrayTypeKind) || self.is(LLVMTypeKind::LLVMVectorTypeKind), "element type");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { t(s::LLVMGetElementType(self.0)) }
        }
        pub fn array_len(self) -> u64 {
            must(self.is(LLVMTypeKind::LLVMArrayTypeKind), "array_len");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetArrayLength2(self.0) }
        }
        pub fn vector_len(self) -> u32 {
            must(self.is(LLVMTypeKind::LLVMVectorTypeKind), "vector_len");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetVectorSize(self.0) }
        }
        pub fn fields(self) -> Vec<T<'m>> {
            must(self.is(LLVMTypeKind::LLVMStructTypeKind), "fields");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                (0..s::LLVMCountStructElementTypes(self.0)).map(|i| t(s::LLVMStructGetTypeAtIndex(self.0, i))).collect()
            }
        }
        pub fn is_packed(self) -> bool {
            must(self.is(LLVMTypeKind::LLVMStructTypeKind), "is_packed");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMIsPackedStruct(self.0) != 0 }
        }
        /// The name of a named struct (None for literal structs).
        pub fn struct_name(self) -> Option<String> {
            must(self.is(LLVMTypeKind::LLVMStructTypeKind), "struct_name");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                if s::LLVMIsLiteralStruct(self.0) != 0 {
                    return None;
                }
                let p = s::LLVMGetStructName(self.0);
                (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
            }
        }
        pub fn address_space(self) -> u32 {
            must(self.is(LLVMTypeKind::LLVMPointerTypeKind), "address_space");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMGetPointerAddressSpace(self.0) }
        }
        pub fn return_type(self) -> T<'m> {
            must(self.is(LLVMTypeKind::LLVMFunctionTypeKind), "return_type");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { t(s::LLVMGetReturnType(self.0)) }
        }
        pub fn param_types(self) -> Vec<T<'m>> {
            must(self.is(LLVMTypeKind::LLVMFunctionTypeKind), "param_types");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe {
                let n = s::LLVMCountParamTypes(self.0) as usize;
                let mut out = vec![std::ptr::null_mut(); n];
                s::LLVMGetParamTypes(self.0, out.as_mut_ptr());
                out.into_iter().map(t).collect()
            }
        }
        pub fn is_var_arg(self) -> bool {
            must(self.is(LLVMTypeKind::LLVMFunctionTypeKind), "is_var_arg");
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { s::LLVMIsFunctionVarArg(self.0) != 0 }
        }
        pub fn print(self) -> String {
            // SAFETY: a live handle of the module that `'m` borrows, of the kind this call takes (checked above where it matters).
            unsafe { message(s::LLVMPrintTypeToString(self.0)) }
        }
    }
}

/// The module attribute that carries the LLVM IR passes of `passes=`
/// (`llvm-ir`) from the `llvm` stage to the host object's compile.
const LLVM_PASSES: &str = "pydev.llvm_passes";

/// Sets [`LLVM_PASSES`] on `module`.
pub fn set_llvm_passes(module: &mut Module, passes: &str) {
    use melior::ir::operation::OperationMutLike;
    let context = module.context();
    // SAFETY: the module's context outlives this call, which `context` borrows.
    let attr = melior::ir::attribute::StringAttribute::new(unsafe { context.to_ref() }, passes);
    module.as_operation_mut().set_attribute(LLVM_PASSES, attr.into());
}

/// The [`LLVM_PASSES`] of `module`, if any.
fn llvm_passes(module: &Module) -> Option<String> {
    let attr = module.as_operation().attribute(LLVM_PASSES).ok()?;
    melior::ir::attribute::StringAttribute::try_from(attr).ok().map(|s| s.value().to_owned())
}

/// Checks an LLVM new-pass-manager pipeline text (`passes={"llvm-ir": ...}`)
/// by running it on an empty module: LLVM's parse error, if any.
pub fn check_llvm_passes(pipeline: &str) -> Result<(), String> {
    let passes = std::ffi::CString::new(pipeline).map_err(|e| e.to_string())?;
    // SAFETY: the context, module and options are made and disposed here;
    // LLVMRunPasses takes a null target machine.
    unsafe {
        let ctx = llvm::LLVMContextCreate();
        let m = llvm::LLVMModuleCreateWithNameInContext(c"check".as_ptr(), ctx);
        let options = llvm::LLVMCreatePassBuilderOptions();
        let err = llvm::LLVMRunPasses(m, passes.as_ptr(), std::ptr::null_mut(), options);
        llvm::LLVMDisposePassBuilderOptions(options);
        llvm::LLVMDisposeModule(m);
        llvm::LLVMContextDispose(ctx);
        match llvm_error(err) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    /// llvm-sys 221.1 declares llvm-c/*.h of LLVM 22.1, including the
    /// enums that LLVM returns (a value outside a Rust enum is undefined
    /// behaviour): the LLVM that mlir-sys links must be that release.
    #[test]
    fn linked_llvm_is_the_release_llvm_sys_declares() {
        let (mut major, mut minor, mut patch) = (0, 0, 0);
        // SAFETY: writes three integers through the pointers it is given.
        unsafe { llvm_sys::core::LLVMGetVersion(&mut major, &mut minor, &mut patch) };
        assert_eq!((major, minor), (22, 1), "pydev links LLVM {major}.{minor}.{patch}; llvm-sys 221 binds LLVM 22.1");
    }
}
