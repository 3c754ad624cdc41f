//! `pydev-opt`: mlir-opt with the pydev dialect and passes.
//!
//! Every upstream dialect and pass is available (`--pass-pipeline=...` or a
//! flag per pass, `--canonicalize`), pydev passes are flags too
//! (`--pydev-lower-atomics`), and `--pydev-pipeline=cuda{chip=sm_80}` runs the
//! whole cuda pipeline. Passes given as flags run in command-line order, as in
//! mlir-opt. `--verify-diagnostics` checks `// expected-error {{...}}`
//! comments (mlir-opt's handler is C++ only, so this is pydev's own).

mod capi;
mod diagnostics;

use clap::Parser;
use diagnostics::{Diag, Expectations, Severity};
use melior::{
    ir::operation::{OperationLike, OperationPrintingFlags},
    pass::{PassIrPrintingOptions, PassManager},
    Context,
};
use pydev_passes::{add_pipeline, create_pass, pipeline, PASSES};
use std::{cell::RefCell, io::Read, process::ExitCode, rc::Rc};

#[derive(Parser, Debug)]
#[command(
    name = "pydev-opt",
    about = "mlir-opt with the pydev dialect and passes",
    after_help = after_help(),
    disable_help_subcommand = true
)]
struct Cli {
    /// Input file (`-` or nothing: standard input).
    #[arg(default_value = "-")]
    input: String,
    /// Output file (default: standard output).
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// A textual pass pipeline, as in mlir-opt (`builtin.module(canonicalize)`).
    #[arg(long = "pass-pipeline")]
    pass_pipeline: Option<String>,
    /// Run a whole pipeline: `cuda` or `cuda{chip=sm_80 ptx=80 opt-level=3}`.
    #[arg(long = "pydev-pipeline")]
    pydev_pipeline: Option<String>,
    /// Split the input at `// -----` lines and process each chunk alone.
    #[arg(long = "split-input-file")]
    split_input_file: bool,
    /// Check diagnostics against `expected-error/-warning/-note/-remark` comments.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,
    /// Write PTX (the contents of gpu.binary objects) instead of MLIR.
    #[arg(long = "emit", value_parser = ["mlir", "ptx"], default_value = "mlir")]
    emit: String,
    /// Print locations.
    #[arg(long = "mlir-print-debuginfo")]
    print_debuginfo: bool,
    /// Print the generic op form.
    #[arg(long = "mlir-print-op-generic")]
    print_generic: bool,
    /// Do not verify the IR after parsing and each pass.
    #[arg(long = "no-verify")]
    no_verify: bool,
    /// Print the IR before every pass (to standard error).
    #[arg(long = "mlir-print-ir-before-all")]
    print_ir_before_all: bool,
    /// Print the IR after every pass (to standard error).
    #[arg(long = "mlir-print-ir-after-all")]
    print_ir_after_all: bool,
    /// Print the IR after a pass only where it changed the IR (implies
    /// --mlir-print-ir-after-all; mlir-opt needs both flags).
    #[arg(long = "mlir-print-ir-after-change")]
    print_ir_after_change: bool,
    /// Print the IR after a pass that failed (and after no other pass).
    #[arg(long = "mlir-print-ir-after-failure")]
    print_ir_after_failure: bool,
    /// Print the whole module, not only the pass's operation, in IR dumps
    /// (runs the passes on one thread, as mlir-opt requires).
    #[arg(long = "mlir-print-ir-module-scope")]
    print_ir_module_scope: bool,
    /// Run the passes on one thread.
    #[arg(long = "mlir-disable-threading")]
    disable_threading: bool,
    /// Report the time of every pass (to standard error, when done).
    #[arg(long = "mlir-timing")]
    timing: bool,
    /// Report the statistics of every pass (to standard error, after each run).
    #[arg(long = "mlir-pass-statistics")]
    pass_statistics: bool,
    /// How --mlir-pass-statistics groups its report.
    #[arg(long = "mlir-pass-statistics-display", value_parser = ["list", "pipeline"], default_value = "pipeline")]
    pass_statistics_display: String,
    /// Print the pass pipeline about to run (to standard error).
    #[arg(long = "dump-pass-pipeline")]
    dump_pass_pipeline: bool,
    /// Print the path of the pydev plugin library for upstream mlir-opt
    /// (`--load-dialect-plugin=... --load-pass-plugin=...`) and exit.
    #[arg(long = "print-plugin-path")]
    print_plugin_path: bool,
    /// Load a pass plugin (built with pydev_passes::export_plugin!, e.g.
    /// examples/pass-template): its passes are flags and pipeline names too.
    #[arg(long = "load-pass-plugin")]
    load_pass_plugin: Vec<String>,
    /// Passes to run, in order (collected from `--pydev-*` and upstream pass flags).
    #[arg(skip)]
    passes: Vec<String>,
}

fn after_help() -> String {
    let mut text = String::from("pydev passes (each also a flag, e.g. --pydev-lower-atomics):\n");
    for pass in PASSES {
        text.push_str(&format!("  --{:<28} {}\n", pass.argument, pass.summary));
        for option in pass.options {
            text.push_str(&format!("      {{{}=...}}  {} (default: {})\n", option.name, option.help, option.default));
        }
    }
    text.push_str("\npipelines:\n  --pydev-pipeline=cuda{chip=sm_90 ptx= opt-level=3 fast-math=0 line-info=0 boundscheck=0}   Python-level pydev IR to PTX\n  --pydev-pipeline=host{opt-level=3 fast-math=0 boundscheck=0}   Python-level pydev IR to host LLVM (JIT by the runtime)\n");
    text.push_str("\nEvery upstream MLIR pass is also accepted as a flag (--canonicalize, --cse, ...).\n");
    text
}

/// Splits argv into clap's options and pass flags, keeping the pass order.
fn parse_args() -> Cli {
    let known = [
        "--pass-pipeline",
        "--pydev-pipeline",
        "--split-input-file",
        "--verify-diagnostics",
        "--emit",
        "--mlir-print-debuginfo",
        "--mlir-print-op-generic",
        "--no-verify",
        "--help",
        "--version",
        "--mlir-print-ir-before-all",
        "--mlir-print-ir-after-all",
        "--mlir-print-ir-after-change",
        "--mlir-print-ir-after-failure",
        "--mlir-print-ir-module-scope",
        "--mlir-disable-threading",
        "--mlir-timing",
        "--mlir-pass-statistics",
        "--mlir-pass-statistics-display",
        "--dump-pass-pipeline",
        "--print-plugin-path",
        "--load-pass-plugin",
    ];
    let mut clap_args = vec!["pydev-opt".to_owned()];
    let mut passes = Vec::new();
    let mut args = std::env::args().skip(1).peekable();
    while let Some(arg) = args.next() {
        let name = arg.split(['=', '{']).next().unwrap_or("").to_owned();
        if arg.starts_with("--") && !known.contains(&name.as_str()) {
            passes.push(arg.trim_start_matches('-').to_owned());
        } else {
            let takes_value = (arg == "-o"
                || known[..2].contains(&arg.as_str())
                || arg == "--emit"
                || arg == "--load-pass-plugin"
                || arg == "--mlir-pass-statistics-display")
                && !arg.contains('=');
            clap_args.push(arg);
            if takes_value {
                if let Some(value) = args.next() {
                    clap_args.push(value);
                }
            }
        }
    }
    let mut cli = Cli::parse_from(clap_args);
    cli.passes = passes;
    cli
}

/// Why pydev-opt stops before or after running its passes (printed after
/// "pydev-opt: error: ").
#[derive(Debug, thiserror::Error)]
enum OptError {
    #[error("cannot find pydev-opt's own path: {0}")]
    OwnPath(std::io::Error),
    #[error("pydev-opt has no directory")]
    NoDirectory,
    #[error("{} not found: run `make build` (cargo build -p pydev-plugin)", .0.display())]
    NoPlugin(std::path::PathBuf),
    #[error("cannot read standard input: {0}")]
    ReadStdin(std::io::Error),
    #[error("cannot read '{path}': {source}")]
    Read { path: String, source: std::io::Error },
    #[error("cannot write '{path}': {source}")]
    Write { path: String, source: std::io::Error },
    #[error("--pass-pipeline must be builtin.module(...), got '{0}'")]
    PassPipeline(String),
    #[error("unknown pass or option '--{pass}': {source}")]
    UnknownPass { pass: String, source: pydev_passes::AddPipelineError },
    #[error("unterminated pipeline options")]
    UnterminatedOptions,
    #[error("unknown pipeline '{0}', expected cuda or host")]
    UnknownPipeline(String),
    #[error(transparent)]
    AddPipeline(#[from] pydev_passes::AddPipelineError),
    #[error(transparent)]
    Pass(#[from] pydev_passes::PassError),
    #[error(transparent)]
    Pipeline(#[from] pipeline::PipelineError),
    #[error(transparent)]
    Print(#[from] melior::Error),
    #[error(transparent)]
    Plugin(#[from] pydev_passes::plugin::PluginError),
    #[error("{0}")]
    Passes(String),
}

fn build_pass_manager<'c>(context: &'c Context, cli: &Cli) -> Result<PassManager<'c>, OptError> {
    let pm = PassManager::new(context);
    pm.enable_verifier(!cli.no_verify);
    let plugins = cli.load_pass_plugin.iter().map(|p| pydev_passes::plugin::load(p)).collect::<Result<Vec<_>, _>>()?;
    if let Some(text) = &cli.pass_pipeline {
        let inner = text
            .strip_prefix("builtin.module(")
            .and_then(|t| t.strip_suffix(')'))
            .ok_or_else(|| OptError::PassPipeline(text.clone()))?;
        pydev_passes::plugin::add_passes(&pm, inner, &plugins).map_err(OptError::Passes)?;
    }
    for pass in &cli.passes {
        // Pass flags written --name=options are mlir-opt's --name{options}.
        let pass = match pass.split_once('=') {
            Some((name, options)) if !pass.contains('{') => format!("{name}{{{options}}}"),
            _ => pass.clone(),
        };
        let name = pass.split('{').next().unwrap_or(&pass);
        if plugins.iter().any(|p| p.passes.iter().any(|n| n == name)) {
            pydev_passes::plugin::add_passes(&pm, &pass, &plugins).map_err(OptError::Passes)?;
        } else if pass.starts_with("pydev-") {
            pm.add_pass(create_pass(&pass)?);
        } else {
            add_pipeline(pm.as_operation_pass_manager(), &pass)
                .map_err(|source| OptError::UnknownPass { pass: pass.clone(), source })?;
        }
    }
    if let Some(spec) = &cli.pydev_pipeline {
        let (name, body) = match spec.split_once('{') {
            Some((name, rest)) => (name, rest.strip_suffix('}').ok_or(OptError::UnterminatedOptions)?),
            None => (spec.as_str(), ""),
        };
        match name {
            "cuda" => pipeline::CudaOptions::parse(body).and_then(|o| pipeline::add_cuda(&pm, &o, "ptx")),
            "host" => pipeline::HostOptions::parse(body).and_then(|o| pipeline::add_host(&pm, &o, "llvm")),
            other => return Err(OptError::UnknownPipeline(other.to_owned())),
        }?;
    }
    observe(context, &pm, cli);
    Ok(pm)
}

/// mlir-opt's observability flags: IR dumps, timing, statistics and the
/// printed pipeline (all on standard error, as in mlir-opt).
fn observe(context: &Context, pm: &PassManager, cli: &Cli) {
    // The C API prints after a pass only under after_all, which the change
    // and failure filters then narrow (mlir-opt's flags combine the same way).
    let after_all = cli.print_ir_after_all || cli.print_ir_after_change || cli.print_ir_after_failure;
    if cli.print_ir_before_all || after_all {
        if cli.print_ir_module_scope {
            context.enable_multi_threading(false);
        }
        let mut flags = OperationPrintingFlags::new().enable_debug_info(cli.print_debuginfo, false);
        if cli.print_generic {
            flags = flags.print_generic_operation_form();
        }
        pm.enable_ir_printing(&PassIrPrintingOptions {
            before_all: cli.print_ir_before_all,
            after_all,
            module_scope: cli.print_ir_module_scope,
            on_change: cli.print_ir_after_change,
            on_failure: cli.print_ir_after_failure,
            flags,
            tree_printing_path: Default::default(),
        });
    }
    if cli.disable_threading {
        context.enable_multi_threading(false);
    }
    if cli.pass_statistics {
        capi::enable_statistics(pm, cli.pass_statistics_display == "list");
    }
    if cli.timing {
        capi::enable_timing(pm);
    }
    if cli.dump_pass_pipeline {
        let (count, text) = format_pipeline(&pm.as_operation_pass_manager().to_string());
        eprintln!("Pass Manager with {count} passes:\n{text}\n");
    }
}

/// Lays a textual pipeline out as mlir-opt's `--dump-pass-pipeline` does,
/// one pass a line, nested pipelines indented, and counts the top-level
/// passes. pydev-opt's pass manager is op-agnostic, so the anchor is `any`.
fn format_pipeline(text: &str) -> (usize, String) {
    if text.ends_with("()") {
        return (0, text.to_owned());
    }
    let (mut out, mut depth, mut braces, mut count) = (String::new(), 0usize, 0usize, 0usize);
    let indent = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    for c in text.chars() {
        match c {
            '{' => {
                braces += 1;
                out.push(c);
            }
            '}' => {
                braces = braces.saturating_sub(1);
                out.push(c);
            }
            '(' if braces == 0 => {
                depth += 1;
                out.push(c);
                indent(&mut out, depth);
                if depth == 1 {
                    count += 1;
                }
            }
            ')' if braces == 0 => {
                depth = depth.saturating_sub(1);
                indent(&mut out, depth);
                out.push(c);
            }
            ',' if braces == 0 => {
                out.push(c);
                indent(&mut out, depth);
                if depth == 1 {
                    count += 1;
                }
            }
            _ => out.push(c),
        }
    }
    (count, out)
}

/// The pydev plugin library: `libpydev_plugin.so` next to this binary
/// (`make build` puts both in target/<profile>).
fn plugin_path() -> Result<std::path::PathBuf, OptError> {
    let exe = std::env::current_exe().map_err(OptError::OwnPath)?;
    let dir = exe.parent().ok_or(OptError::NoDirectory)?;
    let path = dir.join("libpydev_plugin.so");
    if !path.exists() {
        return Err(OptError::NoPlugin(path));
    }
    Ok(path)
}

/// Splits the input into (first line number, chunk) at `// -----` lines.
fn split(source: &str, enabled: bool) -> Vec<(usize, String)> {
    if !enabled {
        return vec![(0, source.to_owned())];
    }
    let mut chunks = vec![(0, String::new())];
    for (n, line) in source.lines().enumerate() {
        if line.trim_start().starts_with("// -----") {
            chunks.push((n + 1, String::new()));
        } else {
            let chunk = &mut chunks.last_mut().expect("one chunk").1;
            chunk.push_str(line);
            chunk.push('\n');
        }
    }
    chunks
}

fn run() -> Result<bool, OptError> {
    let cli = parse_args();
    if cli.print_plugin_path {
        println!("{}", plugin_path()?.display());
        return Ok(true);
    }
    let source = if cli.input == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(OptError::ReadStdin)?;
        s
    } else {
        std::fs::read_to_string(&cli.input).map_err(|source| OptError::Read { path: cli.input.clone(), source })?
    };
    let file_name = if cli.input == "-" { "<stdin>".to_owned() } else { cli.input.clone() };

    pydev_passes::register_upstream_passes();
    let context = pydev_dialect::new_context();
    let diags: Rc<RefCell<Vec<Diag>>> = Rc::default();
    let sink = diags.clone();
    context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().push(Diag::from_melior(&d));
        true
    });
    let pm = build_pass_manager(&context, &cli)?;

    let mut outputs = Vec::new();
    let mut ok = true;
    for (first_line, chunk) in split(&source, cli.split_input_file) {
        diags.borrow_mut().clear();
        // Leading newlines keep line numbers those of the whole file.
        let padded = format!("{}{}", "\n".repeat(first_line), chunk);
        let mut module = capi::parse(&context, &padded, &file_name);
        let several_ops =
            diags.borrow().iter().any(|d| d.message.contains("must contain a single top-level operation"));
        if module.is_none() && several_ops {
            diags.borrow_mut().clear();
            module = capi::parse(&context, &capi::wrap_in_module(&padded), &file_name);
        }
        let mut chunk_ok = module.is_some();
        let mut text = String::new();
        if let Some(mut module) = module {
            // An input that does not verify is not run through the passes.
            if (!cli.no_verify && !module.as_operation().verify()) || pm.run(&mut module).is_err() {
                chunk_ok = false;
            } else if cli.emit == "ptx" {
                let objects = pydev_passes::gpu_objects(module.as_operation());
                if objects.is_empty() {
                    diags.borrow_mut().push(Diag::error_without_location(
                        "--emit=ptx: no gpu.binary in the output; run the cuda pipeline",
                    ));
                    chunk_ok = false;
                }
                for (_, bytes) in objects {
                    text.push_str(&String::from_utf8_lossy(&bytes));
                }
            } else {
                let mut flags = OperationPrintingFlags::new().enable_debug_info(cli.print_debuginfo, false);
                if cli.print_generic {
                    flags = flags.print_generic_operation_form();
                }
                text = module.as_operation().to_string_with_flags(flags)?;
            }
        }
        let emitted = std::mem::take(&mut *diags.borrow_mut());
        if cli.verify_diagnostics {
            let expected = Expectations::parse(&padded);
            let errors = expected.check(&emitted, &file_name);
            for e in &errors {
                eprintln!("{e}");
            }
            ok &= errors.is_empty();
        } else {
            for d in &emitted {
                eprint!("{}", d.render(&source));
            }
            if !chunk_ok && emitted.iter().all(|d| d.severity != Severity::Error) {
                eprintln!("{file_name}: error: processing failed");
            }
            ok &= chunk_ok;
        }
        if chunk_ok {
            outputs.push(text);
        }
    }
    {
        let joined = outputs.join("// -----\n");
        if cli.output == "-" {
            print!("{joined}");
        } else {
            std::fs::write(&cli.output, joined)
                .map_err(|source| OptError::Write { path: cli.output.clone(), source })?;
        }
    }
    Ok(ok)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("pydev-opt: error: {message}");
            ExitCode::FAILURE
        }
    }
}
