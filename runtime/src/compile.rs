//! Python source to a stage's text, or to a JIT-compiled host program.

use crate::host::HostProgram;
use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
    Context,
};
use pydev_frontend_python::FreeNames;
use pydev_passes::pipeline::{self, CudaOptions, HostOptions};
use std::{cell::RefCell, rc::Rc};

/// Where compiled code runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Host,
    /// `sm_70` .. `sm_121` (`pydev_passes::pipeline::CHIPS`).
    Cuda(String),
}

impl Target {
    pub fn parse(text: &str) -> Result<Self, String> {
        if text == "host" {
            Ok(Target::Host)
        } else if pydev_passes::pipeline::CHIPS.split(", ").any(|c| c == text) {
            Ok(Target::Cuda(text.to_owned()))
        } else {
            Err(format!("unknown target '{text}': expected host or one of {}", pydev_passes::pipeline::CHIPS))
        }
    }
}

/// The options of both pipelines.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    pub opt_level: u8,
    pub fast_math: bool,
    pub line_info: bool,
    pub libdevice: String,
    pub boundscheck: bool,
    pub ptx: String,
    /// Print MLIR stages with their locations (Python file:line:col).
    pub debuginfo: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        Self {
            opt_level: 3,
            fast_math: false,
            line_info: false,
            libdevice: std::env::var("PYDEV_LIBDEVICE").unwrap_or_default(),
            boundscheck: std::env::var("PYDEV_BOUNDSCHECK").is_ok_and(|v| v == "1"),
            ptx: String::new(),
            debuginfo: false,
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
fn lower<'c>(context: &'c Context, src: &Source, target: &Target, stage: &str, options: &CompileOptions) -> Result<Module<'c>, String> {
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
        let mut module = pydev_frontend_python::compile_for(context, src.file_name, src.text, src.function, src.signature, src.free, Some(&target_name), src.program)
            .map_err(|d| d.to_string().trim_end().to_owned())?;
        if stage == "pydev" {
            return Ok(module);
        }
        let stage = if stage == "llvm-ir" { "llvm" } else { stage };
        let pm = PassManager::new(context);
        match target {
            Target::Host => {
                let host = HostOptions { opt_level: options.opt_level, fast_math: options.fast_math, boundscheck: options.boundscheck };
                pipeline::add_host(&pm, &host, stage)?
            }
            Target::Cuda(chip) => {
                let mut cuda = CudaOptions::parse(&format!("chip={chip} opt-level={}", options.opt_level))?;
                cuda.fast_math = options.fast_math;
                cuda.line_info = options.line_info;
                cuda.libdevice = options.libdevice.clone();
                cuda.ptx = options.ptx.clone();
                pipeline::add_cuda(&pm, &cuda, stage)?
            }
        }
        if pm.run(&mut module).is_err() {
            return Err(diagnostics.borrow().join("\n"));
        }
        Ok(module)
    })();
    context.detach_diagnostic_handler(handler);
    result
}

fn context() -> Context {
    pydev_passes::register_pipeline_passes();
    pydev_dialect::new_pipeline_context()
}

/// The text of `stage` for `src` compiled for `target`.
pub fn compile_stage(src: &Source, target: &Target, stage: &str, options: &CompileOptions) -> Result<String, String> {
    if stage == "python-ast" {
        let parsed = ruff_python_parser::parse_module(src.text).map_err(|e| format!("{}: syntax error: {}", src.file_name, e.error))?;
        let body = &parsed.syntax().body;
        if let Some(root) = src.program.and_then(|p| p.funcs.first()) {
            let file = pydev_frontend_python::SourceFile::new(src.file_name, src.text);
            let def = pydev_frontend_python::module::Module::locate(body, &file, &root.qualname, root.line).map_err(|e| format!("{}:{}: error: {e}", src.file_name, root.line))?;
            return Ok(format!("{def:#?}\n"));
        }
        let def = body.iter().find(|s| matches!(s, ruff_python_ast::Stmt::FunctionDef(d) if d.name.id.as_str() == src.function));
        return def.map(|d| format!("{d:#?}\n")).ok_or_else(|| format!("no function '{}' in {}", src.function, src.file_name));
    }
    if stage == "ptx" && *target == Target::Host {
        return Err("stage 'ptx' needs a cuda target (sm_XX), not host".into());
    }
    let known = ["pydev", "pydev-opt", "llvm", "llvm-ir", "ptx"];
    if !known.contains(&stage) {
        return Err(format!("unknown stage '{stage}' (known: python-ast, {})", known.join(", ")));
    }
    let context = context();
    let module = lower(&context, src, target, stage, options)?;
    match (stage, target) {
        ("ptx", _) => {
            let ptx: String = pydev_passes::gpu_objects(module.as_operation()).into_iter().map(|(_, b)| String::from_utf8_lossy(&b).into_owned()).collect();
            if options.libdevice.is_empty() {
                if let Some(e) = pipeline::missing_libdevice(&ptx) {
                    return Err(format!("{}: error: {e}", src.file_name));
                }
            }
            Ok(ptx)
        }
        ("llvm-ir", Target::Cuda(_)) => Ok(pydev_passes::llvm_ir(module.as_operation()).into_iter().map(|(_, t)| t).collect()),
        ("llvm-ir", Target::Host) => pydev_passes::module_llvm_ir(module.as_operation()).ok_or_else(|| "cannot translate the host module to LLVM IR".into()),
        _ => {
            let flags = melior::ir::operation::OperationPrintingFlags::new().enable_debug_info(options.debuginfo, false);
            module.as_operation().to_string_with_flags(flags).map(|s| s + "\n").map_err(|e| e.to_string())
        }
    }
}

/// Compiles `src` for the host and JIT-compiles it.
pub fn compile_host(src: &Source, options: &CompileOptions) -> Result<HostProgram, String> {
    let context = context();
    let module = lower(&context, src, &Target::Host, "llvm", options)?;
    HostProgram::new(&module, src.function, options.opt_level)
}

/// JIT-compiles the `llvm` stage text of the host pipeline (a cached compile).
pub fn host_program_from_text(text: &str, kernel: &str, opt_level: u8) -> Result<HostProgram, String> {
    let context = context();
    let module = Module::parse(&context, text).ok_or_else(|| format!("cannot parse the cached host module of '{kernel}'"))?;
    HostProgram::new(&module, kernel, opt_level)
}
