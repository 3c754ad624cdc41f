//! `pydevc FILE.py --kernel NAME --signature 'float32[:], int32' [--target sm_XX|host]
//! [--emit python-ast|pydev|pydev-opt|llvm|llvm-ir|ptx] [-o OUT]`;
//! `pydevc FILE.py --emit cxx-header [--kernel NAME]`: a C++ header of the
//! file's @device.struct classes and interoperable functions and kernels.
//!
//! Compiles one `@device.kernel` or `@device.func` of a Python file, through
//! the compile driver the Python package uses (`pydev_runtime::compile`), and writes the
//! requested stage.

use clap::Parser;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "pydevc", about = "Compile Python device code (cuda.device) to pydev IR, LLVM or PTX")]
struct Cli {
    /// The Python source file.
    file: String,
    /// The @device.kernel or @device.func to compile (with --emit
    /// cxx-header: the one struct or function to declare; default all).
    #[arg(long, default_value = "")]
    kernel: String,
    /// Argument types, e.g. 'float32[:, ::1], int32, Point' (docs/signatures.md).
    #[arg(long, default_value = "")]
    signature: String,
    /// sm_70 .. sm_121, or host.
    #[arg(long, default_value = "sm_90")]
    target: String,
    /// The stage to write.
    #[arg(long, default_value = "ptx", value_parser = ["python-ast", "pydev", "pydev-opt", "llvm", "llvm-ir", "nvvm-ir", "ptx", "cxx-header"])]
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

/// Why pydevc stops (printed as it is on standard error).
#[derive(Debug, thiserror::Error)]
enum PydevcError {
    #[error("pydevc: error: cannot read '{path}': {source}")]
    Read { path: String, source: std::io::Error },
    #[error(transparent)]
    CxxHeader(#[from] pydev_runtime::cxx_header::CxxHeaderError),
    #[error("pydevc: error: --kernel NAME is required (except with --emit cxx-header)")]
    NoKernel,
    #[error("pydevc: error: {0}")]
    Target(pydev_runtime::compile::CompileError),
    #[error(transparent)]
    Compile(pydev_runtime::compile::CompileError),
}

fn run(cli: &Cli) -> Result<String, PydevcError> {
    let source =
        std::fs::read_to_string(&cli.file).map_err(|source| PydevcError::Read { path: cli.file.clone(), source })?;
    if cli.emit == "cxx-header" {
        // The C++ header of the file's structs and interoperable functions (docs/interop.md).
        let names = [cli.kernel.clone()];
        return pydev_runtime::cxx_header::cxx_header(
            &cli.file,
            &source,
            (!cli.kernel.is_empty()).then_some(&names[..]),
        )
        .map_err(PydevcError::from);
    }
    if cli.kernel.is_empty() {
        return Err(PydevcError::NoKernel);
    }
    let target = pydev_runtime::Target::parse(&cli.target).map_err(PydevcError::Target)?;
    let options = pydev_runtime::CompileOptions {
        opt_level: cli.opt_level,
        fast_math: cli.fast_math,
        line_info: cli.line_info,
        libdevice: cli.libdevice.clone(),
        debuginfo: cli.debuginfo,
        ..Default::default()
    };
    let free = pydev_frontend_python::FreeNames::new();
    let src = pydev_runtime::compile::Source {
        file_name: &cli.file,
        text: &source,
        function: &cli.kernel,
        signature: &cli.signature,
        free: &free,
        program: None,
    };
    pydev_runtime::compile_stage(&src, &target, &cli.emit, &options).map_err(PydevcError::Compile)
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
