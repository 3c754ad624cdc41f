//! The compile entry points: Python source or pydev IR to a stage's text,
//! IR kernels' signatures, host object code, C++ headers of interoperable code.

use crate::program_description::{free_names, program as decode_program};
use crate::stats::{COMPILES, JIT_COMPILES};
use crate::CompileError;
use pydev_runtime::{compile::Source, CompileOptions, ExtraPasses, Target};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::atomic::Ordering;

/// Compile options from the keywords of `compile` and `compile_ir`;
/// `libdevice` None: $PYDEV_LIBDEVICE (the package passes the path it found).
fn options(opt_level: u8, fast_math: bool, boundscheck: Option<bool>, libdevice: Option<String>) -> CompileOptions {
    let mut o = CompileOptions { opt_level, fast_math, ..Default::default() };
    if let Some(b) = boundscheck {
        o.boundscheck = b;
    }
    if let Some(path) = libdevice {
        o.libdevice = path;
    }
    o
}

/// Extra passes from `passes` (`point=pipeline;...`, the form
/// `check_passes` returns) and plugin paths; a bad point or plugin is a
/// ValueError naming it.
fn extra(passes: Option<&str>, plugins: Vec<String>) -> PyResult<ExtraPasses> {
    ExtraPasses::parse(passes.unwrap_or(""), plugins).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Checks extra passes (`passes=` as `point=pipeline;...`, `plugins=`):
/// each point exists, each plugin loads, each pass of each point exists
/// (pydev's, upstream's, a plugin's), else ValueError naming it. Returns
/// the normalized text (points in pipeline order).
#[pyfunction]
#[pyo3(signature = (passes, plugins=Vec::new()))]
pub(crate) fn check_passes(py: Python<'_>, passes: &str, plugins: Vec<String>) -> PyResult<String> {
    let extra = extra(Some(passes), plugins)?;
    py.detach(|| pydev_runtime::compile::check_extra_passes(&extra))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(extra.text())
}

/// The text of `stage` for `function` of `source` compiled for `target`.
#[pyfunction]
#[pyo3(signature = (filename, source, function, signature, consts=None, target="host", stage="llvm", opt_level=3, fast_math=false, boundscheck=None, libdevice=None, program=None, line_info=false, debuginfo=false, fmad=true, passes=None, plugins=Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn compile(
    py: Python<'_>,
    filename: &str,
    source: &str,
    function: &str,
    signature: &str,
    consts: Option<&Bound<'_, PyDict>>,
    target: &str,
    stage: &str,
    opt_level: u8,
    fast_math: bool,
    boundscheck: Option<bool>,
    libdevice: Option<String>,
    program: Option<&Bound<'_, PyAny>>,
    line_info: bool,
    debuginfo: bool,
    fmad: bool,
    passes: Option<&str>,
    plugins: Vec<String>,
) -> PyResult<String> {
    let extra = extra(passes, plugins)?;
    let free = free_names(consts)?;
    let program = program.map(decode_program).transpose()?;
    let target = Target::parse(target).map_err(|e| PyValueError::new_err(e.to_string()))?;
    // `.file`/`.loc` in the PTX (the cuda pipeline; the host ignores it).
    // `debuginfo`: MLIR stages printed with their locations (the `pydev`
    // stage a kernel's pydev.Program is made from).
    let options =
        CompileOptions { line_info, debuginfo, fmad, extra, ..options(opt_level, fast_math, boundscheck, libdevice) };
    COMPILES.fetch_add(1, Ordering::Relaxed);
    py.detach(|| {
        let src =
            Source { file_name: filename, text: source, function, signature, free: &free, program: program.as_ref() };
        pydev_runtime::compile_stage(&src, &target, stage, &options)
    })
    .map_err(|e| CompileError::new_err(e.to_string()))
}

/// An external declaration: (name, [parameter type], [result type], site).
type IrExternal = (String, Vec<String>, Vec<String>, Option<String>);

/// `(symbol, [parameter type, ...], externals)` of kernel `kernel` (None:
/// the only one) of pydev IR `text`, which is parsed and verified: errors
/// are CompileError with the IR's locations (`file:line:col: error: ...`).
/// `externals`: `(name, [parameter type], [result type], "file:line" or
/// None)` of each external function the module declares (a top-level
/// `func.func private` without a body), in order.
#[pyfunction]
#[pyo3(signature = (text, kernel=None, filename="<pydev ir>"))]
pub(crate) fn ir_kernel(
    py: Python<'_>,
    text: &str,
    kernel: Option<&str>,
    filename: &str,
) -> PyResult<(String, Vec<String>, Vec<IrExternal>)> {
    let k = py
        .detach(|| pydev_runtime::compile::ir_kernel(text, kernel, filename))
        .map_err(|e| CompileError::new_err(e.to_string()))?;
    let externals = k.externals.into_iter().map(|e| (e.name, e.params, e.results, e.site)).collect();
    Ok((k.name, k.params, externals))
}

/// Parses and verifies pydev IR `text` (`pydev.ir.Module.verify`): the
/// names of its kernels; errors are CompileError at the IR's locations.
#[pyfunction]
#[pyo3(signature = (text, filename="<pydev ir>"))]
pub(crate) fn verify_ir(py: Python<'_>, text: &str, filename: &str) -> PyResult<Vec<String>> {
    py.detach(|| pydev_runtime::compile::verify_ir(text, filename)).map_err(|e| CompileError::new_err(e.to_string()))
}

/// The pydev IR type of each `pydevc` signature type (None where it names
/// a `@device.struct` class, which only its Python file defines).
#[pyfunction]
pub(crate) fn signature_ir_types(py: Python<'_>, types: Vec<String>) -> Vec<Option<String>> {
    py.detach(|| pydev_runtime::compile::signature_ir_types(&types))
}

/// The text of `stage` of kernel `kernel` of pydev IR `text` compiled for
/// `target` (`pydev.Program.compile`). On the host, calls of the external
/// functions `host_adapters` go to their C-ABI adapters
/// (`pydev-host-adapters`).
#[pyfunction]
#[pyo3(signature = (text, kernel, target="host", stage="llvm", opt_level=3, fast_math=false, boundscheck=None, libdevice=None, filename="<pydev ir>", debuginfo=false, line_info=false, host_adapters=Vec::new(), fmad=true, passes=None, plugins=Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn compile_ir(
    py: Python<'_>,
    text: &str,
    kernel: &str,
    target: &str,
    stage: &str,
    opt_level: u8,
    fast_math: bool,
    boundscheck: Option<bool>,
    libdevice: Option<String>,
    filename: &str,
    debuginfo: bool,
    line_info: bool,
    host_adapters: Vec<String>,
    fmad: bool,
    passes: Option<&str>,
    plugins: Vec<String>,
) -> PyResult<String> {
    let target = Target::parse(target).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut options = options(opt_level, fast_math, boundscheck, libdevice);
    options.extra = extra(passes, plugins)?;
    options.debuginfo = debuginfo;
    options.line_info = line_info; // `.file`/`.loc` from the IR's locations (cuda)
    options.fmad = fmad;
    COMPILES.fetch_add(1, Ordering::Relaxed);
    py.detach(|| {
        pydev_runtime::compile::compile_ir_stage(text, filename, kernel, &target, stage, &options, &host_adapters)
    })
    .map_err(|e| CompileError::new_err(e.to_string()))
}

/// The host image of kernel `kernel` of host `llvm` stage text (bytes: its
/// object code and the module's metadata), for `HostProgram(..., object=...)`;
/// a disk cache keeps it beside the text (keyed with `host_target()`) so that
/// a new process loads the kernel with no MLIR context and no LLVM compile.
#[pyfunction]
#[pyo3(signature = (llvm_text, kernel, opt_level=3))]
pub(crate) fn host_object<'py>(
    py: Python<'py>,
    llvm_text: &str,
    kernel: &str,
    opt_level: u8,
) -> PyResult<Bound<'py, PyBytes>> {
    JIT_COMPILES.fetch_add(1, Ordering::Relaxed);
    let object = py
        .detach(|| pydev_runtime::host_object_from_text(llvm_text, kernel, opt_level))
        .map_err(|e| CompileError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &object))
}

/// "triple cpu features" that host object code is compiled for.
#[pyfunction]
pub(crate) fn host_target() -> PyResult<String> {
    pydev_runtime::host::host_target().map_err(|e| CompileError::new_err(e.to_string()))
}

/// The C++ header of the `@device.struct` classes and interoperable
/// functions `names` (None: all) of Python file `filename`
/// (`pydev.cxx_header`, `pydevc --emit cxx-header`; docs/interop.md).
#[pyfunction]
#[pyo3(signature = (filename, source, names=None))]
pub(crate) fn cxx_header(py: Python<'_>, filename: &str, source: &str, names: Option<Vec<String>>) -> PyResult<String> {
    py.detach(|| pydev_runtime::cxx_header::cxx_header(filename, source, names.as_deref()))
        .map_err(|e| CompileError::new_err(e.to_string()))
}

/// The C++ names of pydev IR types and the declarations they need, as the
/// header generator names them (`pydev._interop`'s C ABI shims).
#[pyfunction]
pub(crate) fn cxx_types(py: Python<'_>, types: Vec<String>) -> PyResult<(String, Vec<String>)> {
    py.detach(|| pydev_runtime::cxx_header::cxx_types(&types)).map_err(|e| CompileError::new_err(e.to_string()))
}
