//! Python source to a stage's text, or to a JIT-compiled host program.

use crate::host::{HostError, HostModule, HostProgram};
use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
    Context,
};
use pydev_frontend_python::FreeNames;
use pydev_passes::pipeline::{self, CudaOptions, HostOptions, Part, PipelineError};
use std::{cell::RefCell, rc::Rc};

/// Errors of the compile driver: Python source or pydev IR to a stage's
/// text or to a host program. Compile errors of a kernel are rendered
/// diagnostics (`file:line:col: error: ...`, one per line).
#[derive(Debug, Clone, thiserror::Error)]
pub enum CompileError {
    #[error("unknown target '{target}': expected host or one of {}", pipeline::CHIPS)]
    UnknownTarget { target: String },
    #[error("unknown stage '{stage}' (known: python-ast, {known})")]
    UnknownStage { stage: String, known: String },
    #[error("unknown stage '{stage}' for pydev IR (known: {known})")]
    UnknownIrStage { stage: String, known: String },
    #[error("stage '{stage}' needs a cuda target (sm_XX), not host")]
    StageNeedsCuda { stage: String },
    /// The Python source does not parse (`python-ast`).
    #[error("{file}: syntax error: {message}")]
    Syntax { file: String, message: String },
    /// The function of a `pydev.Program` could not be found in its file.
    #[error("{file}:{line}: error: {message}")]
    Locate { file: String, line: usize, message: String },
    #[error("no function '{function}' in {file}")]
    NoFunction { function: String, file: String },
    /// The frontend's diagnostics, rendered.
    #[error("{0}")]
    Frontend(String),
    /// The pipeline could not be assembled.
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
    /// The pipeline (or the parser or verifier) failed: its diagnostics.
    #[error("{}", .0.join("\n"))]
    Diagnostics(Vec<String>),
    #[error("the pipeline failed without a diagnostic (an internal error: please report it)")]
    NoDiagnostic,
    /// The PTX calls a CUDA math function without libdevice linked
    /// (`message`: `pipeline::missing_libdevice`'s).
    #[error("{file}: error: {message}")]
    MissingLibdevice { file: String, message: String },
    #[error("{file}: error: stage 'nvvm-ir': {source}")]
    NvvmIr { file: String, source: crate::nvvm_ir::NvvmIrError },
    #[error(
        "passes at 'llvm-ir' run on the host target only: on cuda, gpu-module-to-binary runs LLVM's pipeline itself"
    )]
    LlvmIrPassesOnCuda,
    #[error("cannot translate the host module to LLVM IR")]
    HostLlvmIr,
    /// Printing or reading MLIR (melior's error).
    #[error("{0}")]
    Mlir(String),
    #[error("cannot parse the cached host module of '{kernel}'")]
    CachedModule { kernel: String },
    /// JIT-compiling or loading the host program.
    #[error(transparent)]
    Host(#[from] HostError),
    /// pydev IR that does not parse or verify, without a diagnostic.
    #[error("{file}: error: {what}")]
    Ir { file: String, what: &'static str },
    #[error("{at}: error: '{name}' has no function type")]
    NoFunctionType { at: String, name: String },
    #[error("{at}: error: '{name}' is not a kernel: a kernel is a func.func with the unit attribute pydev.kernel (func.func @{name}(...) attributes {{pydev.kernel}})")]
    NotAKernel { at: String, name: String },
    #[error("{at}: error: kernel '{name}' returns {count} value(s); a kernel returns nothing")]
    KernelReturns { at: String, name: String, count: usize },
    #[error("{file}: error: the module has {} kernels ({}): name one with kernel=", .kernels.len(), .kernels.join(", "))]
    SeveralKernels { file: String, kernels: Vec<String> },
    /// `functions`: the module's, comma-separated (`none` without any).
    #[error("{file}: error: no function '{kernel}' in the module (functions: {functions})")]
    NoIrFunction { file: String, kernel: String, functions: String },
    #[error("{file}: error: the module has no kernel (a func.func with the attribute pydev.kernel)")]
    NoKernel { file: String },
}

/// Where compiled code runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Host,
    /// `sm_70` .. `sm_121` (`pydev_passes::pipeline::CHIPS`).
    Cuda(String),
}

impl Target {
    pub fn parse(text: &str) -> Result<Self, CompileError> {
        if text == "host" {
            Ok(Target::Host)
        } else if pydev_passes::pipeline::CHIPS.split(", ").any(|c| c == text) {
            Ok(Target::Cuda(text.to_owned()))
        } else {
            Err(CompileError::UnknownTarget { target: text.to_owned() })
        }
    }
}

/// The options of both pipelines.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    pub opt_level: u8,
    pub fast_math: bool,
    /// Multiply-add contraction allowed (default); off: each `*` and `+`
    /// rounds, as NumPy's (`fmad=False`, `PYDEV_FMAD=0`).
    pub fmad: bool,
    pub line_info: bool,
    pub libdevice: String,
    pub boundscheck: bool,
    pub ptx: String,
    /// Print MLIR stages with their locations (Python file:line:col).
    pub debuginfo: bool,
    /// Verify the module after every pass ([`verify_each`]); else once,
    /// after the last pass that produces MLIR.
    pub verify_each: bool,
    /// The optional optimizations of both pipelines (`aggregate-atomics`,
    /// `vectorize-access`).
    pub optimizations: pipeline::Optimizations,
    /// Passes added at the pipelines' points (`passes=`, `plugins=`).
    pub extra: pipeline::ExtraPasses,
}

impl Default for CompileOptions {
    fn default() -> Self {
        Self {
            opt_level: 3,
            fast_math: false,
            fmad: true,
            line_info: false,
            libdevice: std::env::var("PYDEV_LIBDEVICE").unwrap_or_default(),
            boundscheck: std::env::var("PYDEV_BOUNDSCHECK").is_ok_and(|v| v == "1"),
            ptx: String::new(),
            debuginfo: false,
            verify_each: verify_each(),
            optimizations: pipeline::Optimizations::default(),
            extra: pipeline::ExtraPasses::default(),
        }
    }
}

/// A compile request: one function of a Python file for one signature.
pub struct Source<'a> {
    pub file_name: &'a str,
    pub text: &'a str,
    pub function: &'a str,
    pub signature: &'a str,
    pub free: &'a FreeNames,
    /// The functions by identity, with their free names' values (the
    /// Python package); `None`: `function` at the file's top level.
    pub program: Option<&'a pydev_frontend_python::Program>,
}

/// Runs the frontend and the pipeline of `target` up to `stage` (`pydev`,
/// `pydev-opt`, `llvm`; `llvm-ir` and `ptx` for cuda, `llvm-ir` for host) in
/// `context`, returning the module. Errors are rendered diagnostics.
fn lower<'c>(
    context: &'c PipelineContext,
    src: &Source,
    target: &Target,
    stage: &str,
    options: &CompileOptions,
) -> Result<Module<'c>, CompileError> {
    let diagnostics = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = diagnostics.clone();
    let handler = context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().push(format!("{}: error: {}", pydev_passes::location_text(d.location()), d));
        true
    });
    let result = (|| {
        let target_name = match target {
            Target::Host => "host".to_owned(),
            Target::Cuda(chip) => chip.to_string(),
        };
        let mut module = pydev_frontend_python::compile_for(
            context,
            src.file_name,
            src.text,
            src.function,
            src.signature,
            src.free,
            Some(&target_name),
            src.program,
        )
        .map_err(|d| CompileError::Frontend(d.to_string().trim_end().to_owned()))?;
        if stage == "pydev" {
            return Ok(module);
        }
        run_pipeline(context, &mut module, target, stage, options, &diagnostics)?;
        Ok(module)
    })();
    context.detach_diagnostic_handler(handler);
    result
}

/// Whether compiles verify the module after every pass by default: in debug
/// builds (the tests' wheel) or with `PYDEV_VERIFY_EACH=1`; not in release
/// builds or with `PYDEV_VERIFY_EACH=0`. Without it, a compile verifies once,
/// after the last pass that produces MLIR (before `gpu-module-to-binary` on
/// cuda): verifying after each of the ~25 passes was about a tenth of a
/// small kernel's compile.
pub fn verify_each() -> bool {
    match std::env::var("PYDEV_VERIFY_EACH").as_deref() {
        Ok("1") => true,
        Ok("0") => false,
        _ => cfg!(debug_assertions),
    }
}

/// `PYDEV_MLIR_TIMING=1`: each pipeline run reports every pass's time on
/// standard error (as Triton's `MLIR_ENABLE_TIMING` and mlir-opt's
/// `--mlir-timing`), in the process that compiles, so caches are warm.
pub fn mlir_timing() -> bool {
    std::env::var("PYDEV_MLIR_TIMING").is_ok_and(|v| v == "1")
}

/// Runs the pipeline of `target` on `module` up to `stage` (`pydev-opt`,
/// `llvm`, `llvm-ir`, `ptx`); on failure, the diagnostics that the
/// context's handler collected in `diagnostics`. The pass managers are the
/// context's (`PipelineContext::run_kept`) but for convert-math-to-funcs'
/// (`pipeline::Part`), and all of them made now under `PYDEV_MLIR_TIMING=1`
/// (a pass manager prints its report when it is dropped).
fn run_pipeline(
    context: &PipelineContext,
    module: &mut Module,
    target: &Target,
    stage: &str,
    options: &CompileOptions,
    diagnostics: &RefCell<Vec<String>>,
) -> Result<(), CompileError> {
    let stage = if stage == "llvm-ir" || stage == "nvvm-ir" { "llvm" } else { stage };
    let each = options.verify_each;
    // Without verification after each pass, the module is verified before it is serialized.
    let (mlir_stage, serialize) = if stage == "ptx" && !each { ("llvm", true) } else { (stage, false) };
    let cuda = match target {
        Target::Host => None,
        Target::Cuda(chip) => {
            let mut cuda = CudaOptions::parse(&format!("chip={chip} opt-level={}", options.opt_level))?;
            cuda.fast_math = options.fast_math;
            cuda.fmad = options.fmad;
            cuda.line_info = options.line_info;
            cuda.boundscheck = options.boundscheck;
            cuda.libdevice = options.libdevice.clone();
            cuda.ptx = options.ptx.clone();
            cuda.optimizations = options.optimizations;
            cuda.extra = options.extra.clone();
            if options.extra.at("llvm-ir").is_some() {
                return Err(CompileError::LlvmIrPassesOnCuda);
            }
            Some(cuda)
        }
    };
    let build = |pm: &PassManager, part: Part| {
        pm.enable_verifier(each);
        match &cuda {
            None => pipeline::add_host_part(
                pm,
                &HostOptions {
                    opt_level: options.opt_level,
                    fast_math: options.fast_math,
                    fmad: options.fmad,
                    boundscheck: options.boundscheck,
                    optimizations: options.optimizations,
                    extra: options.extra.clone(),
                },
                mlir_stage,
                part,
            ),
            Some(cuda) => pipeline::add_cuda_part(pm, cuda, mlir_stage, part),
        }
    };
    let timed = mlir_timing();
    // The pass manager kept under `key`, or (no key, or timing) one made now.
    let run = |module: &mut Module,
               key: Option<String>,
               add: &dyn Fn(&PassManager) -> Result<(), PipelineError>|
     -> Result<bool, CompileError> {
        match key.filter(|_| !timed) {
            Some(key) => Ok(context.run_kept(&key, module, add)?),
            None => {
                let pm = PassManager::new(context);
                if timed {
                    crate::capi::enable_timing(&pm);
                }
                add(&pm)?;
                Ok(pm.run(module).is_ok())
            }
        }
    };
    let failed = || {
        let d = diagnostics.borrow();
        Err(if d.is_empty() { CompileError::NoDiagnostic } else { CompileError::Diagnostics(d.clone()) })
    };
    let ran = if timed {
        run(module, None, &|pm| build(pm, Part::All))?
    } else {
        let key = format!("{target:?} {mlir_stage} {options:?}");
        run(module, Some(format!("{key} before")), &|pm| build(pm, Part::Before))?
            && run(module, None, &|pm| build(pm, Part::MathToFuncs))?
            && run(module, Some(format!("{key} after")), &|pm| build(pm, Part::After))?
    };
    if !ran {
        return failed();
    }
    if !each && !module.as_operation().verify() {
        return failed();
    }
    // The host's LLVM IR passes travel with the `llvm` stage's text, which
    // is what the host object is compiled from (`crate::host::host_object`).
    if let (Some(passes), None, true) = (options.extra.at("llvm-ir"), &cuda, mlir_stage == "llvm") {
        crate::capi::set_llvm_passes(module, passes);
    }
    let serialized = |pm: &PassManager| {
        pm.enable_verifier(false); // its input was just verified; its output is a gpu.binary
        pipeline::add_cuda_serialization(pm)
    };
    if serialize && !run(module, Some("serialize".into()), &serialized)? {
        return failed();
    }
    Ok(())
}

/// Compiles one context serves before a fresh one replaces it: its uniqued
/// types, attributes and locations accumulate, so reuse is bounded.
const CONTEXT_USES: u32 = 64;

/// Pass managers one context keeps: two per pipeline (target, stage and
/// options) a process uses, of which there are few, and the serializer's.
const PIPELINES_KEPT: usize = 16;

/// A thread's pipeline context between compiles.
struct Slot {
    /// The pass managers built in `context`, by key, the most recently used
    /// last. Declared first: dropped before the context.
    pipelines: RefCell<Vec<(String, PassManager<'static>)>>,
    context: Context,
    /// Compiles it served.
    uses: u32,
    /// The process that made it.
    pid: u32,
}

thread_local! {
    static CONTEXT: RefCell<Option<Slot>> = const { RefCell::new(None) };
}

/// A pipeline context for one compile. Making one (every dialect loaded)
/// cost 2-4 ms, a third of a small kernel's compile, so the thread's
/// context is reused: this takes it and gives it back when dropped. Every
/// module of the compile is dropped before it (it borrows the context), and
/// every diagnostic handler is detached by the code that attached it; a
/// compile that panics drops its context instead of giving it back. A
/// process forked after a compile does not reuse its parent's context (its
/// locks may have been held by another of the parent's threads at the
/// fork): the child forgets it and makes its own.
///
/// The context also keeps the pass managers it built, so that a pipeline
/// is parsed and its passes initialized (the canonicalizer's pattern set,
/// for one) once per context rather than once per compile. pydev's passes
/// keep no state between runs, nor do the upstream ones of the pipelines
/// but convert-math-to-funcs, which runs in a pass manager of its own made
/// for each compile (`pipeline::Part`).
pub(crate) struct PipelineContext(Option<Slot>);

impl std::ops::Deref for PipelineContext {
    type Target = Context;
    fn deref(&self) -> &Context {
        &self.0.as_ref().expect("a context until dropped").context
    }
}

impl PipelineContext {
    /// Runs the pass manager this context keeps under `key` on `module`, or
    /// one that `build` fills now (then kept); whether it succeeded (the
    /// diagnostics are the context's).
    fn run_kept(
        &self,
        key: &str,
        module: &mut Module,
        build: impl FnOnce(&PassManager) -> Result<(), PipelineError>,
    ) -> Result<bool, PipelineError> {
        let slot = self.0.as_ref().expect("a context until dropped");
        // Taken out while it runs: no borrow of the list is held meanwhile.
        let kept = {
            let mut pipelines = slot.pipelines.borrow_mut();
            pipelines.iter().position(|(k, _)| k == key).map(|i| pipelines.remove(i).1)
        };
        let pm = match kept {
            Some(pm) => pm,
            None => {
                let pm = PassManager::new(&slot.context);
                build(&pm)?;
                // SAFETY: the pass manager is kept in `slot.pipelines`, which
                // is dropped before `slot.context` (field order), and runs
                // only on modules of this context (those of the compile that
                // holds this PipelineContext).
                unsafe { crate::capi::unbind_pass_manager(pm) }
            }
        };
        let ok = pm.run(module).is_ok();
        let mut pipelines = slot.pipelines.borrow_mut();
        if pipelines.len() == PIPELINES_KEPT {
            pipelines.remove(0);
        }
        pipelines.push((key.to_owned(), pm));
        Ok(ok)
    }
}

impl Drop for PipelineContext {
    fn drop(&mut self) {
        if let Some(slot) = self.0.take() {
            if slot.uses < CONTEXT_USES && !std::thread::panicking() {
                // A thread that is exiting has no slot left: the context is dropped.
                let _ = CONTEXT.try_with(|kept| *kept.borrow_mut() = Some(slot));
            }
        }
    }
}

/// MLIR contexts made by this process's pipelines (`pydev.stats()`'s
/// "mlir_contexts": a cached host kernel's launch in a new process makes none).
pub static CONTEXTS_MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub(crate) fn context() -> PipelineContext {
    pydev_passes::register_pipeline_passes();
    let pid = std::process::id();
    let reused = match CONTEXT.try_with(|kept| kept.borrow_mut().take()).ok().flatten() {
        Some(slot) if slot.pid != pid => {
            std::mem::forget(slot); // the parent's, across fork(): see PipelineContext
            None
        }
        other => other,
    };
    let mut slot = reused.unwrap_or_else(|| {
        CONTEXTS_MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Slot { pipelines: RefCell::new(Vec::new()), context: pydev_dialect::new_pipeline_context(), uses: 0, pid }
    });
    slot.uses += 1;
    PipelineContext(Some(slot))
}

/// Checks extra passes (`passes=`): every MLIR point's pipeline builds (its
/// passes exist, pydev's, upstream's or a plugin's) and the `llvm-ir`
/// pipeline parses; the error names the point and the pass.
pub fn check_extra_passes(extra: &pipeline::ExtraPasses) -> Result<(), CompileError> {
    let context = context();
    extra.check(&context)?;
    if let Some(passes) = extra.at("llvm-ir") {
        crate::capi::check_llvm_passes(passes).map_err(|message| {
            CompileError::Pipeline(PipelineError::ExtraPasses { point: "llvm-ir".into(), message })
        })?;
    }
    Ok(())
}

/// The text of `stage` for `src` compiled for `target`.
pub fn compile_stage(
    src: &Source,
    target: &Target,
    stage: &str,
    options: &CompileOptions,
) -> Result<String, CompileError> {
    if stage == "python-ast" {
        let parsed = ruff_python_parser::parse_module(src.text)
            .map_err(|e| CompileError::Syntax { file: src.file_name.to_owned(), message: e.error.to_string() })?;
        let body = &parsed.syntax().body;
        if let Some(root) = src.program.and_then(|p| p.funcs.first()) {
            let file = pydev_frontend_python::SourceFile::new(src.file_name, src.text);
            let def =
                pydev_frontend_python::module::Module::locate(body, &file, &root.qualname, root.line).map_err(|e| {
                    CompileError::Locate { file: src.file_name.to_owned(), line: root.line, message: e.to_string() }
                })?;
            return Ok(format!("{def:#?}\n"));
        }
        let def = body
            .iter()
            .find(|s| matches!(s, ruff_python_ast::Stmt::FunctionDef(d) if d.name.id.as_str() == src.function));
        return def.map(|d| format!("{d:#?}\n")).ok_or_else(|| CompileError::NoFunction {
            function: src.function.to_owned(),
            file: src.file_name.to_owned(),
        });
    }
    if (stage == "ptx" || stage == "nvvm-ir") && *target == Target::Host {
        return Err(CompileError::StageNeedsCuda { stage: stage.to_owned() });
    }
    let known = ["pydev", "pydev-opt", "llvm", "llvm-ir", "nvvm-ir", "ptx"];
    if !known.contains(&stage) {
        return Err(CompileError::UnknownStage { stage: stage.to_owned(), known: known.join(", ") });
    }
    let context = context();
    let module = lower(&context, src, target, stage, options)?;
    stage_text(&module, target, stage, options, src.file_name)
}

/// The text of `stage` of a lowered `module` (`file_name` names it in errors).
fn stage_text(
    module: &Module,
    target: &Target,
    stage: &str,
    options: &CompileOptions,
    file_name: &str,
) -> Result<String, CompileError> {
    match (stage, target) {
        ("ptx", _) => {
            let ptx: String = pydev_passes::gpu_objects(module.as_operation())
                .into_iter()
                .map(|(_, b)| String::from_utf8_lossy(&b).into_owned())
                .collect();
            if options.libdevice.is_empty() {
                if let Some(e) = pipeline::missing_libdevice(&ptx) {
                    return Err(CompileError::MissingLibdevice { file: file_name.to_owned(), message: e });
                }
            }
            Ok(ptx)
        }
        ("llvm-ir", Target::Cuda(_)) => {
            Ok(pydev_passes::llvm_ir(module.as_operation()).into_iter().map(|(_, t)| t).collect())
        }
        ("nvvm-ir", Target::Cuda(chip)) => {
            nvvm_ir(module, chip).map_err(|source| CompileError::NvvmIr { file: file_name.to_owned(), source })
        }
        ("llvm-ir", Target::Host) => {
            pydev_passes::module_llvm_ir(module.as_operation()).ok_or(CompileError::HostLlvmIr)
        }
        _ => {
            let flags =
                melior::ir::operation::OperationPrintingFlags::new().enable_debug_info(options.debuginfo, false);
            module
                .as_operation()
                .to_string_with_flags(flags)
                .map(|s| s + "\n")
                .map_err(|e| CompileError::Mlir(e.to_string()))
        }
    }
}

/// The NVVM IR (LLVM 7 text, `crate::nvvm_ir`) of the gpu.modules of a
/// module at the `llvm` stage.
fn nvvm_ir(module: &Module, chip: &str) -> Result<String, crate::nvvm_ir::NvvmIrError> {
    let sm = chip
        .trim_start_matches("sm_")
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .map_err(|_| crate::nvvm_ir::NvvmIrError::Chip { chip: chip.to_owned() })?;
    use melior::ir::BlockLike;
    let mut out = String::new();
    let body = module.body();
    let mut op = body.first_operation();
    while let Some(o) = op {
        if o.name().as_string_ref().as_str() == Ok("gpu.module") {
            let llvm =
                crate::capi::llvm_read::LlvmModule::translate(o).ok_or(crate::nvvm_ir::NvvmIrError::Translate)?;
            out += &crate::nvvm_ir::write(&llvm, sm)?;
        }
        op = o.next_in_block();
    }
    Ok(out)
}

/// Compiles `src` for the host and JIT-compiles it.
pub fn compile_host(src: &Source, options: &CompileOptions) -> Result<HostProgram, CompileError> {
    let context = context();
    let module = lower(&context, src, &Target::Host, "llvm", options)?;
    Ok(HostProgram::new(&module, src.function, options.opt_level)?)
}

/// JIT-compiles the `llvm` stage text of the host pipeline (a cached compile).
pub fn host_program_from_text(text: &str, kernel: &str, opt_level: u8) -> Result<HostProgram, CompileError> {
    host_program_linked(text, kernel, opt_level, &[], None)
}

/// [`host_program_from_text`] with the shared libraries that the kernel's
/// `link=` files were built into (`python/pydev/_host_link.py`), and the
/// kernel's host image from [`host_object_from_text`] when a cache has it:
/// then neither the text nor MLIR is touched (a new process's first launch
/// of a cached kernel makes no MLIR context and compiles nothing).
pub fn host_program_linked(
    text: &str,
    kernel: &str,
    opt_level: u8,
    libraries: &[String],
    object: Option<&[u8]>,
) -> Result<HostProgram, CompileError> {
    if let Some(image) = object.filter(|o| crate::host::image::is_image(o)) {
        return Ok(HostProgram::from_image(image, kernel, libraries)?);
    }
    let context = context();
    let module =
        Module::parse(&context, text).ok_or_else(|| CompileError::CachedModule { kernel: kernel.to_owned() })?;
    Ok(HostProgram::with_libraries(&module, kernel, opt_level, libraries, object)?)
}

/// The kernels `kernels` of the `llvm` stage text of a multi-kernel module
/// (`pydev.Program(m)`) JIT-compiled into one object, or loaded from
/// `object` (a host image of them, [`host_object_from_text`]) with no MLIR
/// and no LLVM compile; `libraries` as for [`host_program_linked`].
pub fn host_module_linked(
    text: &str,
    kernels: &[&str],
    opt_level: u8,
    libraries: &[String],
    object: Option<&[u8]>,
) -> Result<HostModule, CompileError> {
    if let Some(image) = object.filter(|o| crate::host::image::is_image(o)) {
        return Ok(HostModule::from_image(image, libraries)?);
    }
    let context = context();
    let module =
        Module::parse(&context, text).ok_or_else(|| CompileError::CachedModule { kernel: kernels.join(", ") })?;
    Ok(HostModule::with_libraries(&module, kernels, opt_level, libraries, object)?)
}

/// The host image of the kernels `kernels` of the `llvm` stage text `text`
/// for this machine (`crate::host::host_target` says for what): their
/// object code and metadata (`crate::host::image`), what a disk cache keeps
/// so that a new process loads them without MLIR or LLVM compiling.
pub fn host_object_from_text(text: &str, kernels: &[&str], opt_level: u8) -> Result<Vec<u8>, CompileError> {
    let context = context();
    let module =
        Module::parse(&context, text).ok_or_else(|| CompileError::CachedModule { kernel: kernels.join(", ") })?;
    Ok(crate::host::host_image(&module, kernels, opt_level)?)
}

// --- pydev IR from other frameworks (`pydev.Program`) ----------------------------------------

/// One diagnostic as `file:line:col: error: message`, with the IR's own
/// location; a syntax error's location (in the unnamed text buffer) is
/// given `file_name`.
fn render_ir_diagnostic(d: &melior::diagnostic::Diagnostic, file_name: &str) -> String {
    let mut at = pydev_passes::location_text(d.location());
    if at.starts_with(':') || at.starts_with("-:") {
        at = format!("{file_name}{}", at.trim_start_matches('-'));
    }
    format!("{at}: error: {d}")
}

/// Runs `f` with a handler on `context` that renders every diagnostic into
/// the returned error when `f` fails (with `f`'s own message when none came).
fn with_ir_diagnostics<'c, T>(
    context: &'c Context,
    file_name: &str,
    f: impl FnOnce(&RefCell<Vec<String>>) -> Result<T, CompileError>,
) -> Result<T, CompileError> {
    let diagnostics = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = diagnostics.clone();
    let name = file_name.to_owned();
    let handler = context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().push(render_ir_diagnostic(&d, &name));
        true
    });
    let result = f(&diagnostics);
    context.detach_diagnostic_handler(handler);
    result
}

/// Parses and verifies pydev IR `text` (the pydev dialect with the upstream
/// dialects the pipelines accept). Errors are the verifier's and parser's
/// diagnostics at the IR's locations (`loc("f.py":12:4)` gives `f.py:12:4`).
fn parse_ir<'c>(
    context: &'c Context,
    text: &str,
    file_name: &str,
    diagnostics: &RefCell<Vec<String>>,
) -> Result<Module<'c>, CompileError> {
    let failed = |what: &'static str| {
        let d = diagnostics.borrow();
        if d.is_empty() {
            CompileError::Ir { file: file_name.to_owned(), what }
        } else {
            CompileError::Diagnostics(d.clone())
        }
    };
    let module = Module::parse(context, text).ok_or_else(|| failed("the text is not a valid MLIR module"))?;
    if !module.as_operation().verify() {
        return Err(failed("the module does not verify"));
    }
    Ok(module)
}

/// A kernel of a pydev IR module: its symbol and its parameter types (MLIR
/// text), with the external functions its module declares.
#[derive(Clone, Debug)]
pub struct IrKernel {
    pub name: String,
    pub params: Vec<String>,
    pub externals: Vec<IrExternal>,
}

/// An external function a pydev IR module declares (a top-level
/// `func.func private` without a body: a C function that link files define).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrExternal {
    pub name: String,
    /// Parameter and result types (MLIR text).
    pub params: Vec<String>,
    pub results: Vec<String>,
    /// `file:line` of the declaration when the IR gives it a file location.
    pub site: Option<String>,
}

/// `file:line` of a `file:line:col` location written in the IR (not the
/// parser's own, whose file is the unnamed buffer).
fn declaration_site(location: melior::ir::Location) -> Option<String> {
    let at = pydev_passes::location_text(location);
    let mut parts = at.rsplitn(3, ':');
    let (_col, line, file) = (parts.next()?, parts.next()?, parts.next()?);
    let numbers = !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit());
    (numbers && !file.is_empty() && file != "-").then(|| format!("{file}:{line}"))
}

/// The kernel `kernel` of `module` (a top-level `func.func` with the
/// `pydev.kernel` attribute), or its only kernel when `kernel` is None.
fn find_ir_kernel(module: &Module, kernel: Option<&str>, file_name: &str) -> Result<IrKernel, CompileError> {
    use melior::ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        r#type::FunctionType,
        RegionLike,
    };
    let mut kernels = Vec::new();
    let mut functions = Vec::new();
    let mut externals = Vec::new();
    let mut found = None;
    let body = module.body();
    let mut op = body.first_operation();
    while let Some(o) = op {
        if o.name().as_string_ref().as_str() == Ok("func.func") {
            let name = o
                .attribute("sym_name")
                .ok()
                .and_then(|a| StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_owned())
                .unwrap_or_default();
            let is_kernel = o.has_attribute(pydev_dialect::abi::attr::KERNEL);
            let ty = o
                .attribute("function_type")
                .ok()
                .and_then(|a| TypeAttribute::try_from(a).ok())
                .and_then(|t| FunctionType::try_from(t.value()).ok());
            if is_kernel {
                kernels.push(name.clone());
            }
            if let (Some(ty), true) = (ty, o.region(0).ok().is_none_or(|r| r.first_block().is_none())) {
                let texts = |types: Vec<Result<melior::ir::Type, melior::Error>>| {
                    types
                        .into_iter()
                        .map(|t| t.map(|t| t.to_string()).map_err(|e| CompileError::Mlir(e.to_string())))
                        .collect::<Result<Vec<_>, _>>()
                };
                externals.push(IrExternal {
                    name: name.clone(),
                    params: texts((0..ty.input_count()).map(|i| ty.input(i)).collect())?,
                    results: texts((0..ty.result_count()).map(|i| ty.result(i)).collect())?,
                    site: declaration_site(o.location()),
                });
            }
            functions.push(name.clone());
            let wanted = match kernel {
                Some(k) => k == name,
                None => is_kernel,
            };
            if wanted && found.is_none() {
                let at = pydev_passes::location_text(o.location());
                let ty = ty.ok_or_else(|| CompileError::NoFunctionType { at: at.clone(), name: name.clone() })?;
                if !is_kernel {
                    return Err(CompileError::NotAKernel { at, name });
                }
                if ty.result_count() != 0 {
                    return Err(CompileError::KernelReturns { at, name, count: ty.result_count() });
                }
                let params = (0..ty.input_count())
                    .map(|i| ty.input(i).map(|t| t.to_string()).map_err(|e| CompileError::Mlir(e.to_string())))
                    .collect::<Result<_, _>>()?;
                found = Some(IrKernel { name, params, externals: Vec::new() });
            }
        }
        op = o.next_in_block();
    }
    if kernel.is_none() && kernels.len() > 1 {
        return Err(CompileError::SeveralKernels { file: file_name.to_owned(), kernels });
    }
    found.map(|k| IrKernel { externals, ..k }).ok_or_else(|| match kernel {
        Some(k) => CompileError::NoIrFunction {
            file: file_name.to_owned(),
            kernel: k.to_owned(),
            functions: if functions.is_empty() { "none".into() } else { functions.join(", ") },
        },
        None => CompileError::NoKernel { file: file_name.to_owned() },
    })
}

/// Parses and verifies pydev IR `text`: the names of its kernels, in order
/// (`pydev.ir.Module.verify`). Errors carry the IR's own locations.
pub fn verify_ir(text: &str, file_name: &str) -> Result<Vec<String>, CompileError> {
    let context = context();
    with_ir_diagnostics(&context, file_name, |diagnostics| {
        let module = parse_ir(&context, text, file_name, diagnostics)?;
        kernel_names(&module, file_name)
    })
}

/// The names of the kernels of `module`, in order.
fn kernel_names(module: &Module, file_name: &str) -> Result<Vec<String>, CompileError> {
    match find_ir_kernel(module, None, file_name) {
        Ok(k) => Ok(vec![k.name]),
        Err(CompileError::SeveralKernels { kernels, .. }) => Ok(kernels),
        Err(CompileError::NoKernel { .. }) => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

/// Parses and verifies pydev IR `text` and describes each of its kernels,
/// in order (a multi-kernel `pydev.Program`); each carries the module's
/// external functions.
pub fn ir_kernels(text: &str, file_name: &str) -> Result<Vec<IrKernel>, CompileError> {
    let context = context();
    with_ir_diagnostics(&context, file_name, |diagnostics| {
        let module = parse_ir(&context, text, file_name, diagnostics)?;
        kernel_names(&module, file_name)?.iter().map(|k| find_ir_kernel(&module, Some(k), file_name)).collect()
    })
}

/// Parses and verifies pydev IR `text` and describes its kernel `kernel`
/// (or its only one).
pub fn ir_kernel(text: &str, kernel: Option<&str>, file_name: &str) -> Result<IrKernel, CompileError> {
    let context = context();
    with_ir_diagnostics(&context, file_name, |diagnostics| {
        let module = parse_ir(&context, text, file_name, diagnostics)?;
        find_ir_kernel(&module, kernel, file_name)
    })
}

/// The text of `stage` (`pydev`: as parsed and verified, `pydev-opt`,
/// `llvm`, `llvm-ir`, `ptx`) of kernel `kernel` of pydev IR `text`
/// compiled for `target` (`kernel` empty: every kernel of the module, in
/// one module): the pipeline Python kernels take from their `pydev` stage on. On the host, calls of the external functions
/// `host_adapters` (declared by the module) go to their C-ABI adapters
/// (`pydev-host-adapters`, from the `pydev` stage on).
pub fn compile_ir_stage(
    text: &str,
    file_name: &str,
    kernel: &str,
    target: &Target,
    stage: &str,
    options: &CompileOptions,
    host_adapters: &[String],
) -> Result<String, CompileError> {
    let known = ["pydev", "pydev-opt", "llvm", "llvm-ir", "nvvm-ir", "ptx"];
    if !known.contains(&stage) {
        return Err(CompileError::UnknownIrStage { stage: stage.to_owned(), known: known.join(", ") });
    }
    if (stage == "ptx" || stage == "nvvm-ir") && *target == Target::Host {
        return Err(CompileError::StageNeedsCuda { stage: stage.to_owned() });
    }
    let context = context();
    with_ir_diagnostics(&context, file_name, |diagnostics| {
        let mut module = parse_ir(&context, text, file_name, diagnostics)?;
        if !kernel.is_empty() {
            find_ir_kernel(&module, Some(kernel), file_name)?;
        }
        // Only what `kernel` reaches is compiled (the pipeline's symbol-dce
        // drops the other kernels once private), and on the host calls of
        // declared functions go to their C-ABI adapters (from the `pydev`
        // stage on).
        let adapters = *target == Target::Host && !host_adapters.is_empty();
        let select = stage != "pydev"; // the `pydev` stage is the module as parsed
        if select || adapters {
            let pm = PassManager::new(&context);
            if select {
                pm.add_pass(pydev_passes::select_kernel::pass(kernel.to_owned()));
            }
            if adapters {
                pm.add_pass(pydev_passes::host_adapters::pass(host_adapters.to_vec()));
            }
            if pm.run(&mut module).is_err() {
                let d = diagnostics.borrow();
                return Err(if d.is_empty() {
                    CompileError::NoDiagnostic
                } else {
                    CompileError::Diagnostics(d.clone())
                });
            }
        }
        if stage != "pydev" {
            run_pipeline(&context, &mut module, target, stage, options, diagnostics)?;
        }
        stage_text(&module, target, stage, options, file_name)
    })
}

/// The pydev IR type (MLIR text, as the IR prints it) of each type of the
/// `pydevc` signature syntax in `types` (`float32[::1]`, `(int32, float32)`,
/// `{x: float32}`); None for a type the syntax resolves only in a Python
/// file (a `@device.struct` class's name) or cannot read.
pub fn signature_ir_types(types: &[String]) -> Vec<Option<String>> {
    let file = pydev_frontend_python::SourceFile::new("<signature>", "");
    let m = pydev_frontend_python::module::Module::scan(file, &[]);
    let context = context();
    types
        .iter()
        .map(|t| {
            let ty = pydev_frontend_python::signature::parse_signature(&m, t).ok()?;
            let [ty] = ty.as_slice() else { return None };
            melior::ir::Type::parse(&context, &ty.mlir()).map(|t| t.to_string())
        })
        .collect()
}
