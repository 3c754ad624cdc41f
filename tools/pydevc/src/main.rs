//! `pydevc FILE.py --kernel NAME --signature 'float32[:], int32' [--target sm_XX|host]
//! [--emit python-ast|pydev|pydev-opt|llvm|llvm-ir|ptx] [-o OUT]`
//!
//! Compiles one `@device.kernel` or `@device.func` of a Python file, through
//! the same pipeline (`pydev_passes::pipeline`) as the JIT, and writes the
//! requested stage.

use clap::Parser;
use melior::{ir::operation::OperationLike, pass::PassManager};
use pydev_passes::pipeline;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "pydevc", about = "Compile Python device code (cuda.device) to pydev IR, LLVM or PTX")]
struct Cli {
    /// The Python source file.
    file: String,
    /// The @device.kernel or @device.func to compile.
    #[arg(long)]
    kernel: String,
    /// Argument types, e.g. 'float32[:, ::1], int32, Point' (docs/signatures.md).
    #[arg(long, default_value = "")]
    signature: String,
    /// sm_70 .. sm_120, or host.
    #[arg(long, default_value = "sm_90")]
    target: String,
    /// The stage to write.
    #[arg(long, default_value = "ptx", value_parser = ["python-ast", "pydev", "pydev-opt", "llvm", "llvm-ir", "ptx"])]
    emit: String,
    /// Output file (default: standard output).
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// Print MLIR locations (the Python file:line:col of each op).
    #[arg(long)]
    debuginfo: bool,
    /// Fast math: approximate division and square root, flush denormals to zero.
    #[arg(long)]
    fast_math: bool,
    /// Emit .loc line information pointing at the Python source.
    #[arg(long)]
    line_info: bool,
    /// LLVM optimisation level, 0 to 3.
    #[arg(long, default_value_t = 3)]
    opt_level: u8,
    /// libdevice.10.bc, for CUDA math functions (default: $PYDEV_LIBDEVICE).
    #[arg(long, env = "PYDEV_LIBDEVICE", default_value = "")]
    libdevice: String,
}

fn run(cli: &Cli) -> Result<String, String> {
    let source = std::fs::read_to_string(&cli.file).map_err(|e| format!("cannot read '{}': {e}", cli.file))?;
    if cli.emit == "python-ast" {
        let parsed = ruff_python_parser::parse_module(&source).map_err(|e| format!("{}: syntax error: {}", cli.file, e.error))?;
        let def = parsed.syntax().body.iter().find(|s| matches!(s, ruff_python_ast::Stmt::FunctionDef(d) if d.name.id.as_str() == cli.kernel));
        return def.map(|d| format!("{d:#?}\n")).ok_or_else(|| format!("no function '{}' in {}", cli.kernel, cli.file));
    }
    if cli.target == "host" {
        return Err("the host target is not built yet (see the host-target issue); use --target sm_XX".into());
    }
    let mut options = pipeline::CudaOptions::parse(&format!(
        "chip={} opt-level={} fast-math={} line-info={}",
        cli.target,
        cli.opt_level,
        u8::from(cli.fast_math),
        u8::from(cli.line_info)
    ))?;
    options.libdevice = cli.libdevice.clone();
    pydev_passes::register_upstream_passes();
    let context = pydev_dialect::new_context();
    let diagnostics = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
    let sink = diagnostics.clone();
    context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().push(format!("{}: {}", d.location(), d));
        true
    });
    let mut module = pydev_frontend_python::compile(&context, &cli.file, &source, &cli.kernel, &cli.signature).map_err(|d| d.to_string().trim_end().to_owned())?;
    if cli.emit != "pydev" {
        let stage = if cli.emit == "llvm-ir" { "llvm" } else { cli.emit.as_str() };
        let pm = PassManager::new(&context);
        pipeline::add_cuda(&pm, &options, stage)?;
        if pm.run(&mut module).is_err() {
            return Err(diagnostics.borrow().join("\n"));
        }
    }
    let flags = melior::ir::operation::OperationPrintingFlags::new().enable_debug_info(cli.debuginfo, false);
    match cli.emit.as_str() {
        "ptx" => {
            let objects = pydev_passes::gpu_objects(module.as_operation());
            let ptx: String = objects.into_iter().map(|(_, b)| String::from_utf8_lossy(&b).into_owned()).collect();
            if options.libdevice.is_empty() {
                if let Some(e) = pipeline::missing_libdevice(&ptx) {
                    return Err(format!("{}: error: {e}", cli.file));
                }
            }
            Ok(ptx)
        }
        "llvm-ir" => Ok(pydev_passes::llvm_ir(module.as_operation()).into_iter().map(|(_, t)| t).collect()),
        _ => module.as_operation().to_string_with_flags(flags).map(|s| s + "\n").map_err(|e| e.to_string()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(text) => {
            if cli.output == "-" {
                print!("{text}");
            } else if let Err(e) = std::fs::write(&cli.output, text) {
                eprintln!("pydevc: error: cannot write '{}': {e}", cli.output);
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}
