//! `pydev._pydev`: the native half of the `pydev` / `cuda.device` wheel.
//! The Python package (python/pydev, python/cuda/device) does argument
//! handling, caching and the public API; this module compiles through
//! `pydev_runtime::compile` (the driver pydevc uses), runs host programs
//! on the host SIMT runtime and cuda programs through the driver.

mod cabi_adapters;
mod capi;
mod dispatch;
mod facts;
mod ir_type_parts;
mod ir_types;
mod protocols;

use pydev_frontend_python::{
    ir::Const, module::GlobalConst, Binding, Env, Free, FreeNames, FuncKind, FuncSpec, Program, Target as Target_,
    TargetKind,
};
use pydev_runtime::{compile::Source, cuda, CompileOptions, LaunchConfig, Target};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyString, PyTuple};
use std::sync::atomic::{AtomicU64, Ordering};

create_exception!(
    _pydev,
    CompileError,
    PyException,
    "A compile error in user code; the message carries file:line:col and the source line."
);
create_exception!(
    _pydev,
    LaunchError,
    PyRuntimeError,
    "A kernel failed at run time on the host (the message names the kernel)."
);

static COMPILES: AtomicU64 = AtomicU64::new(0);
static JIT_COMPILES: AtomicU64 = AtomicU64::new(0);
static HOST_LAUNCHES: AtomicU64 = AtomicU64::new(0);
static CUDA_LAUNCHES: AtomicU64 = AtomicU64::new(0);

fn global(name: &str, v: &Bound<'_, PyAny>) -> PyResult<GlobalConst> {
    Ok(if v.is_instance_of::<PyBool>() {
        GlobalConst::Num(Const::Bool(v.extract()?))
    } else if v.is_instance_of::<PyInt>() {
        GlobalConst::Num(Const::Int(v.extract()?))
    } else if v.is_instance_of::<PyFloat>() {
        GlobalConst::Num(Const::Float(v.extract()?))
    } else if v.is_instance_of::<PyString>() {
        GlobalConst::Str(v.extract()?)
    } else if let Ok(t) = v.downcast::<PyTuple>() {
        GlobalConst::Tuple(t.iter().map(|x| global(name, &x)).collect::<PyResult<_>>()?)
    } else {
        return Err(PyTypeError::new_err(format!("global '{name}' is a {} that device code cannot use as a constant (numbers, strings and tuples of them can be)", v.get_type().name()?)));
    })
}

fn free_names(consts: Option<&Bound<'_, PyDict>>) -> PyResult<FreeNames> {
    let mut free = FreeNames::new();
    if let Some(d) = consts {
        for (k, v) in d.iter() {
            let name: String = k.extract()?;
            free.insert(name.clone(), global(&name, &v)?);
        }
    }
    Ok(free)
}

/// A constant of a program description: `("num", x)` (a Python number,
/// weak), `("typed", dtype, x)` (a NumPy scalar), `("str", s)`,
/// `("tuple", (c, ...))`.
fn program_const(name: &str, v: &Bound<'_, PyAny>) -> PyResult<GlobalConst> {
    let t = v.downcast::<PyTuple>()?;
    let tag: String = t.get_item(0)?.extract()?;
    Ok(match tag.as_str() {
        "num" | "str" => global(name, &t.get_item(1)?)?,
        "typed" => {
            let dtype: String = t.get_item(1)?.extract()?;
            let GlobalConst::Num(c) = global(name, &t.get_item(2)?)? else {
                return Err(PyValueError::new_err(format!("'{name}': a {dtype} scalar must be a number")));
            };
            GlobalConst::Typed(dtype, c)
        }
        "tuple" => GlobalConst::Tuple(
            t.get_item(1)?.downcast::<PyTuple>()?.iter().map(|x| program_const(name, &x)).collect::<PyResult<_>>()?,
        ),
        other => return Err(PyValueError::new_err(format!("'{name}': unknown constant kind {other}"))),
    })
}

/// A target description tree: `(op, sm, (operands...))`.
fn program_target(t: &Bound<'_, PyTuple>) -> PyResult<Target_> {
    let op: String = t.get_item(0)?.extract()?;
    let kind =
        TargetKind::parse(&op).ok_or_else(|| PyValueError::new_err(format!("unknown target description {op}")))?;
    let operands = t
        .get_item(2)?
        .downcast::<PyTuple>()?
        .iter()
        .map(|o| program_target(o.downcast::<PyTuple>()?))
        .collect::<PyResult<_>>()?;
    Ok(Target_ { kind, sm: t.get_item(1)?.extract()?, operands })
}

/// The value of a free name in a program description (see
/// `pydev._launch._Function._program`).
fn program_free(name: &str, v: &Bound<'_, PyAny>) -> PyResult<Free> {
    let t = v.downcast::<PyTuple>()?;
    let tag: String = t.get_item(0)?.extract()?;
    let text = || -> PyResult<String> { t.get_item(1)?.extract() };
    Ok(match tag.as_str() {
        "const" => Free::Const(program_const(name, &t.get_item(1)?)?),
        "func" => Free::Func(t.get_item(1)?.extract()?),
        "struct" => Free::Struct(text()?),
        "dtype" => Free::Dtype(text()?),
        "device" => Free::Device(text()?),
        "module" => Free::Module(match text()?.as_str() {
            "device" => Binding::DeviceModule,
            "cuda" => Binding::CudaPackage,
            "math" => Binding::MathModule,
            "numpy" => Binding::NumpyModule,
            other => return Err(PyValueError::new_err(format!("'{name}': unknown module {other}"))),
        }),
        "target" => Free::Target(program_target(t.get_item(1)?.downcast::<PyTuple>()?)?),
        "host" => Free::HostOnly(text()?),
        other => return Err(PyValueError::new_err(format!("'{name}': unknown kind of value {other}"))),
    })
}

/// `[(line, qualname, kind, interop, ((name, value), ...), ((index, constant), ...)), ...]`,
/// the root first; the last part holds the root kernel's ConstExpr arguments.
fn program(p: &Bound<'_, PyAny>) -> PyResult<Program> {
    let mut funcs = Vec::new();
    for f in p.try_iter()? {
        let f = f?;
        let f = f.downcast::<PyTuple>()?;
        let kind = match f.get_item(2)?.extract::<String>()?.as_str() {
            "kernel" => FuncKind::Kernel,
            "func" => FuncKind::Func,
            other => return Err(PyValueError::new_err(format!("unknown function kind {other}"))),
        };
        let mut env = Env::new();
        for item in f.get_item(4)?.try_iter()? {
            let item = item?;
            let (name, value): (String, Bound<'_, PyAny>) = item.extract()?;
            let v = program_free(&name, &value)?;
            env.insert(name, v);
        }
        let mut const_args = Vec::new();
        if f.len() > 5 {
            for item in f.get_item(5)?.try_iter()? {
                let (i, c): (usize, Bound<'_, PyAny>) = item?.extract()?;
                let value = match program_const("a ConstExpr argument", &c)? {
                    GlobalConst::Num(v) | GlobalConst::Typed(_, v) => v,
                    _ => return Err(PyValueError::new_err("a ConstExpr argument must be a number")),
                };
                const_args.push((i, value));
            }
        }
        funcs.push(FuncSpec {
            line: f.get_item(0)?.extract()?,
            qualname: f.get_item(1)?.extract()?,
            kind,
            interop: f.get_item(3)?.extract()?,
            env,
            const_args,
        });
    }
    if funcs.is_empty() {
        return Err(PyValueError::new_err("a program has at least its root function"));
    }
    Ok(Program { funcs })
}

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

/// The text of `stage` for `function` of `source` compiled for `target`.
#[pyfunction]
#[pyo3(signature = (filename, source, function, signature, consts=None, target="host", stage="llvm", opt_level=3, fast_math=false, boundscheck=None, libdevice=None, program=None, line_info=false, debuginfo=false))]
#[allow(clippy::too_many_arguments)]
fn compile(
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
) -> PyResult<String> {
    let free = free_names(consts)?;
    let program = program.map(self::program).transpose()?;
    let target = Target::parse(target).map_err(|e| PyValueError::new_err(e.to_string()))?;
    // `.file`/`.loc` in the PTX (the cuda pipeline; the host ignores it).
    // `debuginfo`: MLIR stages printed with their locations (the `pydev`
    // stage a kernel's pydev.Program is made from).
    let options = CompileOptions { line_info, debuginfo, ..options(opt_level, fast_math, boundscheck, libdevice) };
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
fn ir_kernel(
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

/// The pydev IR type of each `pydevc` signature type (None where it names
/// a `@device.struct` class, which only its Python file defines).
#[pyfunction]
fn signature_ir_types(py: Python<'_>, types: Vec<String>) -> Vec<Option<String>> {
    py.detach(|| pydev_runtime::compile::signature_ir_types(&types))
}

/// The text of `stage` of kernel `kernel` of pydev IR `text` compiled for
/// `target` (`pydev.Program.compile`). On the host, calls of the external
/// functions `host_adapters` go to their C-ABI adapters
/// (`pydev-host-adapters`).
#[pyfunction]
#[pyo3(signature = (text, kernel, target="host", stage="llvm", opt_level=3, fast_math=false, boundscheck=None, libdevice=None, filename="<pydev ir>", debuginfo=false, line_info=false, host_adapters=Vec::new()))]
#[allow(clippy::too_many_arguments)]
fn compile_ir(
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
) -> PyResult<String> {
    let target = Target::parse(target).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut options = options(opt_level, fast_math, boundscheck, libdevice);
    options.debuginfo = debuginfo;
    options.line_info = line_info; // `.file`/`.loc` from the IR's locations (cuda)
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
fn host_object<'py>(py: Python<'py>, llvm_text: &str, kernel: &str, opt_level: u8) -> PyResult<Bound<'py, PyBytes>> {
    JIT_COMPILES.fetch_add(1, Ordering::Relaxed);
    let object = py
        .detach(|| pydev_runtime::host_object_from_text(llvm_text, kernel, opt_level))
        .map_err(|e| CompileError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &object))
}

/// "triple cpu features" that host object code is compiled for.
#[pyfunction]
fn host_target() -> PyResult<String> {
    pydev_runtime::host::host_target().map_err(|e| CompileError::new_err(e.to_string()))
}

/// A kernel JIT-compiled for the host from the `llvm` stage text.
#[pyclass(frozen, module = "pydev._pydev")]
struct HostProgram {
    inner: pydev_runtime::HostProgram,
}

#[pymethods]
impl HostProgram {
    #[new]
    #[pyo3(signature = (llvm_text, kernel, opt_level=3, libraries=Vec::new(), object=None))]
    fn new(
        py: Python<'_>,
        llvm_text: &str,
        kernel: &str,
        opt_level: u8,
        libraries: Vec<String>,
        object: Option<&[u8]>,
    ) -> PyResult<Self> {
        if object.is_none() {
            JIT_COMPILES.fetch_add(1, Ordering::Relaxed);
        }
        // `libraries`: shared libraries built from the kernel's link= files;
        // `object`: the kernel's image from `host_object` (a disk cache's),
        // loaded without parsing `llvm_text`.
        let inner = py
            .detach(|| pydev_runtime::host_program_linked(llvm_text, kernel, opt_level, &libraries, object))
            .map_err(|e| CompileError::new_err(e.to_string()))?;
        Ok(Self { inner })
    }

    /// Byte size of each parameter.
    #[getter]
    fn param_sizes(&self) -> Vec<usize> {
        self.inner.param_sizes().to_vec()
    }

    /// Runs the kernel (synchronously) on `grid` blocks of `block` threads.
    /// `keep`: the objects the array descriptors among `args` point into;
    /// their buffer exports (those that have one) are held until the
    /// launch returns, so that no other thread resizes or frees the memory
    /// while the kernel runs without the GIL.
    #[pyo3(signature = (grid, block, shared, args, keep=Vec::new()))]
    fn launch(
        &self,
        py: Python<'_>,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: usize,
        args: Vec<Bound<'_, PyAny>>,
        keep: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let bytes: Vec<Vec<u8>> = args
            .iter()
            .enumerate()
            .map(|(i, a)| capi::buffer_bytes(a, &format!("argument {i}")))
            .collect::<PyResult<_>>()?;
        // A tuple keeps several objects (an array's owner and its view).
        let mut held: Vec<capi::HeldBuffer> = Vec::with_capacity(keep.len());
        for k in &keep {
            match k.downcast::<PyTuple>() {
                Ok(t) => held.extend(t.iter().filter_map(|x| capi::HeldBuffer::hold(&x))),
                Err(_) => held.extend(capi::HeldBuffer::hold(k)),
            }
        }
        // SAFETY: the descriptors are pydev._launch's packing of the
        // arguments, whose memory `keep` (alive in the caller) owns, with
        // the exports held here for the launch.
        let result = unsafe { self.run(py, grid, block, shared, bytes) };
        drop(held);
        result
    }
}

impl HostProgram {
    /// # Safety
    /// As `pydev_runtime::HostProgram::launch`: every array descriptor in
    /// `bytes` addresses live memory that stays put until this returns.
    unsafe fn run(
        &self,
        py: Python<'_>,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: usize,
        bytes: Vec<Vec<u8>>,
    ) -> PyResult<()> {
        let config = LaunchConfig { grid: [grid.0, grid.1, grid.2], block: [block.0, block.1, block.2], shared };
        HOST_LAUNCHES.fetch_add(1, Ordering::Relaxed);
        // Ctrl-C stops launches made from the main thread (which runs
        // Python's signal handlers).
        let interruptible = pydev_runtime::host::interrupt::on_main_thread();
        let result = py.detach(|| {
            let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
            // SAFETY: as the caller promises.
            unsafe { self.inner.launch_with(config, &refs, interruptible) }
        });
        match result {
            Ok(()) => Ok(()),
            Err(pydev_runtime::Failure::Error(e)) => Err(LaunchError::new_err(e.to_string())),
            Err(pydev_runtime::Failure::Interrupted) => {
                // Python's handler ran: KeyboardInterrupt (or what the
                // program's own SIGINT handler raises).
                py.check_signals()?;
                Err(LaunchError::new_err(format!(
                    "kernel '{}' was interrupted by SIGINT before it finished: its outputs are incomplete",
                    self.inner.kernel()
                )))
            }
        }
    }
}

/// A kernel loaded from PTX through the CUDA driver.
#[pyclass(frozen, module = "pydev._pydev")]
struct CudaProgram {
    inner: cuda::CudaKernel,
}

#[pymethods]
impl CudaProgram {
    /// Kernel `kernel` of PTX text `ptx`; with `image` (bytes: a cubin or
    /// fatbin of that PTX linked with other code) the driver loads the
    /// image, and the parameter sizes still come from the PTX.
    #[new]
    #[pyo3(signature = (ptx, kernel, image=None))]
    fn new(ptx: &str, kernel: &str, image: Option<&[u8]>) -> PyResult<Self> {
        Ok(Self { inner: cuda::CudaKernel::load_image(ptx, kernel, image).map_err(cuda_error)? })
    }

    /// Byte size of each parameter (as the PTX declares them).
    #[getter]
    fn param_sizes(&self) -> Vec<usize> {
        self.inner.param_sizes().to_vec()
    }

    /// The device it was first loaded on (it loads on another device's
    /// context when it first launches there).
    #[getter]
    fn device(&self) -> i32 {
        self.inner.device()
    }

    /// Launches asynchronously on stream handle `stream`, on the current device.
    fn launch(
        &self,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: usize,
        stream: usize,
        args: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let bytes: Vec<Vec<u8>> = args
            .iter()
            .enumerate()
            .map(|(i, a)| capi::buffer_bytes(a, &format!("argument {i}")))
            .collect::<PyResult<_>>()?;
        let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
        // SAFETY: pydev._launch packs the descriptors of arrays it keeps
        // alive on the stream until it has run the launch (`keep_alive`), and the
        // handle of the launch's stream.
        unsafe { self.run(grid, block, shared, stream, &refs, None) }
    }
}

impl CudaProgram {
    /// Launches on the current device; `device`: that device, when the
    /// caller has just read it (`cuda::current_device`).
    ///
    /// # Safety
    /// As `pydev_runtime::cuda::CudaKernel::launch`.
    unsafe fn run(
        &self,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: usize,
        stream: usize,
        args: &[&[u8]],
        device: Option<i32>,
    ) -> PyResult<()> {
        let shared = u32::try_from(shared).map_err(|_| {
            PyValueError::new_err(format!("{shared} bytes of dynamic shared memory is more than a launch can ask for"))
        })?;
        CUDA_LAUNCHES.fetch_add(1, Ordering::Relaxed);
        let (grid, block) = ([grid.0, grid.1, grid.2], [block.0, block.1, block.2]);
        // SAFETY: as the caller promises (`device` is the current device).
        unsafe {
            match device {
                Some(d) => self.inner.launch_on(d, grid, block, shared, stream, args),
                None => self.inner.launch(grid, block, shared, stream, args),
            }
        }
        .map_err(cuda_error)
    }
}

/// A driver error as a Python exception: `pydev.LaunchError` once a fault
/// in a kernel made the context unusable (the message names the kernel),
/// else RuntimeError.
pub(crate) fn cuda_error(e: cuda::CudaError) -> PyErr {
    if cuda::context_lost() {
        LaunchError::new_err(e.to_string())
    } else {
        PyRuntimeError::new_err(e.to_string())
    }
}

fn rt<T>(r: Result<T, cuda::CudaError>) -> PyResult<T> {
    r.map_err(cuda_error)
}

/// Waits for `stream` without blocking Ctrl-C: polls the driver without
/// the GIL for up to 20 ms at a time, then runs Python's signal handlers
/// (KeyboardInterrupt propagates; the queued work goes on).
///
/// `device`: the stream's device (None: the current one).
///
/// # Safety
/// `stream` is 0, 1, 2 or a live stream handle.
unsafe fn wait_stream(py: Python<'_>, stream: usize, device: Option<i32>) -> PyResult<()> {
    // SAFETY: as the caller promises.
    interruptible(py, |budget| cuda::with_device(device, || unsafe { cuda::stream_poll(stream, budget) }))?;
    bounds_failure(py, Some(stream), device)
}

/// Calls `poll` (without the GIL; 20 ms a call) until it says the work is
/// done, checking for Ctrl-C (KeyboardInterrupt) between calls.
fn interruptible(
    py: Python<'_>,
    poll: impl Fn(std::time::Duration) -> Result<bool, cuda::CudaError> + Send + Sync,
) -> PyResult<()> {
    while !rt(py.detach(|| poll(std::time::Duration::from_millis(20))))? {
        py.check_signals()?;
    }
    Ok(())
}

/// `pydev.LaunchError` for the first index out of bounds that a kernel
/// compiled with `PYDEV_BOUNDSCHECK=1` recorded on the GPU since `stream`
/// (None: every stream) last synchronized (runtime/src/cuda_check.rs).
fn bounds_failure(py: Python<'_>, stream: Option<usize>, device: Option<i32>) -> PyResult<()> {
    // SAFETY: the stream's work is done (just synchronized); pydev passes
    // driver stream handles.
    match rt(py.detach(|| cuda::with_device(device, || unsafe { pydev_runtime::cuda_check::take_failure(stream) })))? {
        Some(message) => Err(LaunchError::new_err(message)),
        None => Ok(()),
    }
}

#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// (True, "") with a CUDA driver and a device, else (False, why).
#[pyfunction]
fn cuda_status() -> (bool, String) {
    match cuda::status() {
        Ok(()) => (true, String::new()),
        Err(e) => (false, e.to_string()),
    }
}

/// `sm_XY` of `device` (None: the current device).
#[pyfunction]
#[pyo3(signature = (device=None))]
fn cuda_arch(device: Option<i32>) -> PyResult<String> {
    rt(match device {
        Some(d) => cuda::arch_of(d),
        None => cuda::arch(),
    })
}

/// How many devices the driver reports.
#[pyfunction]
fn cuda_device_count() -> PyResult<i32> {
    rt(cuda::device_count())
}

/// The device a launch on this thread runs on (`cuda::current_device`).
#[pyfunction]
fn cuda_current_device() -> PyResult<i32> {
    rt(cuda::current_device())
}

/// Makes `device`'s primary context current on this thread.
#[pyfunction]
fn cuda_set_device(device: i32) -> PyResult<()> {
    rt(cuda::set_device(device))
}

/// This thread's current CUDA context (0: none), to restore with cuda_set_context.
#[pyfunction]
fn cuda_current_context() -> PyResult<usize> {
    rt(cuda::current_context())
}

#[pyfunction]
fn cuda_set_context(ctx: usize) -> PyResult<()> {
    // SAFETY: pydev.Device restores the context cuda_current_context gave
    // it on the same thread (this private function has no other caller).
    rt(unsafe { cuda::set_context(ctx) })
}

/// The device whose memory `ptr` addresses (None: managed or host memory,
/// or an address the driver did not allocate).
#[pyfunction]
fn cuda_pointer_device(ptr: usize) -> PyResult<Option<i32>> {
    rt(cuda::pointer_device(ptr))
}

#[pyfunction]
#[pyo3(signature = (nbytes, device=None))]
fn cuda_alloc(nbytes: usize, device: Option<i32>) -> PyResult<usize> {
    rt(cuda::with_device(device, || cuda::alloc(nbytes)))
}

#[pyfunction]
#[pyo3(signature = (ptr, device=None))]
fn cuda_free(ptr: usize, device: Option<i32>) -> PyResult<()> {
    // SAFETY: pydev.DeviceArray frees the pointer cuda_alloc gave it, once,
    // when it dies (this private function has no other caller).
    rt(cuda::with_device(device, || unsafe { cuda::free(ptr) }))
}

/// (host address, device address or 0) of `nbytes` of page-locked host
/// memory (`mapped`: mapped into the device's address space).
#[pyfunction]
#[pyo3(signature = (nbytes, mapped=false))]
fn cuda_host_alloc(nbytes: usize, mapped: bool) -> PyResult<(usize, usize)> {
    rt(cuda::host_alloc(nbytes, mapped))
}

#[pyfunction]
fn cuda_host_free(ptr: usize) -> PyResult<()> {
    // SAFETY: pydev.numba's pinned buffers free the address cuda_host_alloc
    // gave them, once, when they die (this private function has no other caller).
    rt(unsafe { cuda::host_free(ptr) })
}

#[pyfunction]
#[pyo3(signature = (dst, src_buffer, nbytes, stream=0, device=None))]
fn cuda_memcpy_htod(
    py: Python<'_>,
    dst: usize,
    src_buffer: &Bound<'_, PyAny>,
    nbytes: usize,
    stream: usize,
    device: Option<i32>,
) -> PyResult<()> {
    let bytes = capi::buffer_bytes(src_buffer, "the source")?;
    if bytes.len() < nbytes {
        return Err(PyValueError::new_err(format!("the source has {} bytes, {nbytes} requested", bytes.len())));
    }
    // The work queued before the copy first (interruptible): a pageable
    // copy would wait for it inside the driver, where Ctrl-C cannot reach.
    // SAFETY: pydev passes the stream handle of the copy.
    unsafe { wait_stream(py, stream, device) }?;
    // SAFETY: pydev passes a device array's address with its size in bytes
    // (`nbytes`) and the stream handle of the copy.
    rt(cuda::with_device(device, || unsafe { cuda::memcpy_htod(dst, &bytes[..nbytes], stream) }))
}

#[pyfunction]
#[pyo3(signature = (dst_buffer, src, nbytes, stream=0, device=None))]
fn cuda_memcpy_dtoh(
    py: Python<'_>,
    dst_buffer: &Bound<'_, PyAny>,
    src: usize,
    nbytes: usize,
    stream: usize,
    device: Option<i32>,
) -> PyResult<()> {
    // The work queued before the copy first (interruptible), then the copy
    // itself, which is then quick: a pageable copy blocks in the driver.
    // SAFETY: pydev passes the stream handle of the copy.
    unsafe { wait_stream(py, stream, device) }?;
    rt(capi::with_writable(dst_buffer, nbytes, |dst| {
        cuda::with_device(device, || {
            // SAFETY: pydev passes a device array's address with its size in bytes.
            unsafe { cuda::memcpy_dtoh(dst, src, stream) }
        })
    })?)
}

#[pyfunction]
#[pyo3(signature = (device=None))]
fn cuda_stream_create(device: Option<i32>) -> PyResult<usize> {
    rt(cuda::with_device(device, cuda::stream_create))
}

/// Waits for the work queued on `handle`; Ctrl-C raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (handle, device=None))]
fn cuda_stream_synchronize(py: Python<'_>, handle: usize, device: Option<i32>) -> PyResult<()> {
    // SAFETY: pydev.Stream and the stream protocols pass driver handles.
    unsafe { wait_stream(py, handle, device) }
}

#[pyfunction]
#[pyo3(signature = (waiter, waited, device=None))]
fn cuda_stream_wait(waiter: usize, waited: usize, device: Option<i32>) -> PyResult<()> {
    // SAFETY: pydev passes the handles of the launch's stream and of a
    // stream a producer named.
    rt(cuda::on_device(device, |d| unsafe { cuda::stream_wait_on(d, waiter, waited) }))
}

/// A fence on stream `handle` (`cuda::fence`): the event's handle.
#[pyfunction]
#[pyo3(signature = (handle, device=None))]
fn cuda_fence(handle: usize, device: Option<i32>) -> PyResult<usize> {
    // SAFETY: pydev.Stream passes its own driver handle and device.
    rt(cuda::on_device(device, |d| unsafe { cuda::fence(d, handle) }))
}

/// Whether the work before `fence` is done (then the fence is released
/// and must not be used again); `wait`: until it is, Ctrl-C raising
/// KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (fence, device, wait=false))]
fn cuda_fence_done(py: Python<'_>, fence: usize, device: i32, wait: bool) -> PyResult<bool> {
    // SAFETY: pydev.Stream passes fences of `cuda_fence` it has not released.
    let poll = |budget| cuda::on_device(Some(device), |_| unsafe { cuda::fence_poll(fence, budget) });
    if wait {
        interruptible(py, poll)?;
    } else if !rt(poll(std::time::Duration::ZERO))? {
        return Ok(false);
    }
    cuda::release_event(device, fence);
    Ok(true)
}

/// Gives back a fence whose stream no longer needs it (a synchronized or
/// collected pydev.Stream).
#[pyfunction]
fn cuda_fence_release(fence: usize, device: i32) {
    cuda::release_event(device, fence);
}

#[pyfunction]
#[pyo3(signature = (device=None))]
fn cuda_synchronize(py: Python<'_>, device: Option<i32>) -> PyResult<()> {
    rt(cuda::with_device(device, cuda::synchronize))?;
    bounds_failure(py, None, device)
}

/// Native counters: compiles (frontend + pipeline), JIT compiles, launches.
#[pyfunction]
fn stats(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("native_compiles", COMPILES.load(Ordering::Relaxed))?;
    d.set_item("jit_compiles", JIT_COMPILES.load(Ordering::Relaxed))?;
    d.set_item("mlir_contexts", pydev_runtime::compile::CONTEXTS_MADE.load(Ordering::Relaxed))?;
    d.set_item("kept_modules", pydev_runtime::compile::KEPT_MODULES_TAKEN.load(Ordering::Relaxed))?;
    d.set_item("host_launches", HOST_LAUNCHES.load(Ordering::Relaxed))?;
    d.set_item("cuda_launches", CUDA_LAUNCHES.load(Ordering::Relaxed))?;
    d.set_item("fast_launches", dispatch::FAST_LAUNCHES.load(Ordering::Relaxed))?;
    Ok(d)
}

/// A DLPack capsule of the memory at `data` (`pydev._dlpack.make_capsule`,
/// natively): `dtype` is (type code, bits, lanes), `device` (DLDeviceType,
/// id), `strides` in elements or None for C order; `owner` stays alive
/// until the consumer calls the deleter or the capsule dies unconsumed.
#[pyfunction]
#[pyo3(signature = (data, shape, dtype, device, owner, strides=None, readonly=false, versioned=false))]
#[allow(clippy::too_many_arguments)] // the DLTensor's fields, as Python passes them
fn dlpack_capsule<'py>(
    py: Python<'py>,
    data: u64,
    shape: Vec<i64>,
    dtype: (u8, u8, u16),
    device: (i32, i32),
    owner: Py<PyAny>,
    strides: Option<Vec<i64>>,
    readonly: bool,
    versioned: bool,
) -> PyResult<Bound<'py, PyAny>> {
    capi::dlpack_capsule(py, capi::ExportSpec { data, shape, strides, dtype, device, readonly, versioned }, owner)
}

/// (size, alignment) of the MLIR type `text` in the CUDA C++ layout, from
/// the dialect's one definition (`pydev_dialect::type_layout`), or None
/// when it has none: `pydev._types.c_layout` is tested against it.
#[pyfunction]
fn c_layout(text: &str) -> PyResult<Option<(u64, u64)>> {
    ir_types::with_type(text, pydev_dialect::type_layout)
}

/// The fast path's layout key of an array (`dispatch::contiguity`: 1 C, 2
/// Fortran, 0 strided; strides in elements): `pydev._arrays.dims` is tested
/// against it.
#[pyfunction]
fn array_layout(shape: Vec<i64>, strides: Vec<i64>) -> PyResult<u8> {
    if shape.len() != strides.len() {
        return Err(PyValueError::new_err("shape and strides differ in length"));
    }
    Ok(dispatch::contiguity(&shape, &strides))
}

/// The C++ header of the `@device.struct` classes and interoperable
/// functions `names` (None: all) of Python file `filename`
/// (`pydev.cxx_header`, `pydevc --emit cxx-header`; docs/interop.md).
#[pyfunction]
#[pyo3(signature = (filename, source, names=None))]
fn cxx_header(py: Python<'_>, filename: &str, source: &str, names: Option<Vec<String>>) -> PyResult<String> {
    py.detach(|| pydev_runtime::cxx_header::cxx_header(filename, source, names.as_deref()))
        .map_err(|e| CompileError::new_err(e.to_string()))
}

/// The C++ names of pydev IR types and the declarations they need, as the
/// header generator names them (`pydev._interop`'s C ABI shims).
#[pyfunction]
fn cxx_types(py: Python<'_>, types: Vec<String>) -> PyResult<(String, Vec<String>)> {
    py.detach(|| pydev_runtime::cxx_header::cxx_types(&types)).map_err(|e| CompileError::new_err(e.to_string()))
}

/// How many tensors `dlpack_capsule` exported are still alive (tests).
#[pyfunction]
fn dlpack_live_exports() -> usize {
    capi::live_exports()
}

#[pymodule]
fn _pydev(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CompileError", m.py().get_type::<CompileError>())?;
    m.add("LaunchError", m.py().get_type::<LaunchError>())?;
    m.add_class::<HostProgram>()?;
    m.add_class::<CudaProgram>()?;
    m.add_class::<dispatch::Dispatch>()?;
    m.add_function(wrap_pyfunction!(dispatch::launch_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::fast_launch, m)?)?;
    m.add("ARG_KINDS", dispatch::kind_names())?;
    m.add_function(wrap_pyfunction!(facts::facts, m)?)?;
    m.add_function(wrap_pyfunction!(facts::small_float_bits, m)?)?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(host_object, m)?)?;
    m.add_function(wrap_pyfunction!(host_target, m)?)?;
    m.add_function(wrap_pyfunction!(compile_ir, m)?)?;
    m.add_function(wrap_pyfunction!(ir_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(signature_ir_types, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_status, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_arch, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_device_count, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_current_device, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_set_device, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_current_context, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_set_context, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_pointer_device, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_alloc, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_free, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_host_alloc, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_host_free, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_memcpy_htod, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_memcpy_dtoh, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_stream_create, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_stream_synchronize, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_stream_wait, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_fence, m)?)?;
    m.add("STREAM_GENERATION", dispatch::STREAM_GENERATION)?;
    m.add_function(wrap_pyfunction!(cuda_fence_done, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_fence_release, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_synchronize, m)?)?;
    m.add_function(wrap_pyfunction!(stats, m)?)?;
    m.add_function(wrap_pyfunction!(dlpack_capsule, m)?)?;
    m.add_function(wrap_pyfunction!(dlpack_live_exports, m)?)?;
    m.add_function(wrap_pyfunction!(protocols::cai_read, m)?)?;
    m.add_function(wrap_pyfunction!(protocols::dlpack_read, m)?)?;
    m.add_function(wrap_pyfunction!(c_layout, m)?)?;
    m.add_function(wrap_pyfunction!(ir_type_parts::ir_type_parts, m)?)?;
    m.add_function(wrap_pyfunction!(ir_types::ir_type_layout, m)?)?;
    m.add_function(wrap_pyfunction!(ir_types::ir_types_match, m)?)?;
    m.add_function(wrap_pyfunction!(cxx_header, m)?)?;
    m.add_function(wrap_pyfunction!(cxx_types, m)?)?;
    m.add_function(wrap_pyfunction!(cabi_adapters::cabi_host_adapters, m)?)?;
    m.add_function(wrap_pyfunction!(cabi_adapters::cabi_reverse_adapter, m)?)?;
    m.add_function(wrap_pyfunction!(cabi_adapters::cabi_cxx_signatures, m)?)?;
    m.add_function(wrap_pyfunction!(array_layout, m)?)?;
    Ok(())
}
