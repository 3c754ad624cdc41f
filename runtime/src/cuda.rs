//! The cuda target's dispatch through the driver API (cudarc, libcuda
//! loaded at run time): PTX modules with the JIT log on failure, launches,
//! device memory, streams. Every function returns an error sentence, never
//! panics, when no driver or device exists.
//!
//! All raw driver calls are here; the handles crossing into Python are
//! plain integers (CUdeviceptr, CUstream), as the CUDA Array Interface and
//! `__cuda_stream__` carry them.

use cudarc::driver::{result, sys};
use std::ffi::{c_void, CString};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Errors of the cuda target's dispatch through the driver: finding the
/// driver and the devices, contexts, loading PTX and cubins, launches,
/// memory, copies, streams and fences. Each renders the sentence that
/// `pydev` raises (`RuntimeError`, or `pydev.LaunchError` once a kernel
/// faulted: [`context_lost`]).
#[derive(Debug, Clone, thiserror::Error)]
pub enum CudaError {
    /// A driver call failed: `call` says what it did (`cuCtxGetCurrent`,
    /// `launching kernel 'k'`), `message` is the driver's description of `code`.
    #[error("{call} failed: {code:?} ({message})")]
    Driver { call: String, code: sys::CUresult, message: String },
    /// A driver call failed because a kernel faulted: the context is lost
    /// (`lost` names the kernel and says what to do, [`CudaError::ContextLost`]).
    #[error("{call} failed: {lost}")]
    Fault { call: String, lost: String },
    /// Any call once a fault made the context unusable.
    #[error("cannot use the GPU: {lost}")]
    ContextLost { lost: String },
    /// A call of cudarc's safe layer failed (rendered as cudarc renders it).
    #[error(transparent)]
    Cudarc(#[from] result::DriverError),
    #[error("no CUDA driver: libcuda.so could not be loaded")]
    NoDriver,
    #[error("the CUDA driver did not initialise: {0}")]
    Init(result::DriverError),
    #[error("cannot count CUDA devices: {0}")]
    DeviceCount(result::DriverError),
    #[error("the CUDA driver reports no device")]
    NoDevice,
    /// `count`: the devices the driver reports.
    #[error("there is no cuda device {device}: the driver reports {count} device{} (0{})", plural(*.count), range_end(*.count))]
    NoSuchDevice { device: i32, count: i32 },
    #[error("cannot retain the primary context of device {device}: {source}")]
    RetainPrimary { device: i32, source: result::DriverError },
    /// The thread's current context is another library's, not a primary context.
    #[error(
        "the calling thread's current CUDA context is not the primary context of its device ({device}): pydev loads and launches kernels in \
         devices' primary contexts (those of the CUDA runtime, cuda.core, CuPy and PyTorch); make one current, e.g. with pydev.Device({device}).set_current()"
    )]
    NotPrimaryContext { device: i32 },
    #[error("the PTX declares no kernel '{kernel}' (.entry)")]
    NoEntry { kernel: String },
    #[error("the PTX contains a NUL byte")]
    NulInPtx,
    #[error("bad kernel name")]
    BadKernelName,
    /// The driver refused the PTX or cubin `what` (`log`: its JIT error log).
    #[error("the CUDA driver could not load the {what} of '{kernel}'{} ({code:?}):\n{log}", on_device_text(*.device))]
    Load { what: &'static str, kernel: String, device: i32, code: sys::CUresult, log: String },
    #[error("no kernel '{kernel}' in the {what}: {source}")]
    NoFunction { kernel: String, what: &'static str, source: result::DriverError },
    /// A launch whose packed arguments disagree with the PTX's parameters (byte sizes).
    #[error(
        "kernel '{kernel}' takes {} parameters of [{}] bytes, but the launch packed {} of [{}] bytes",
        .params.len(),
        sizes(.params),
        .packed.len(),
        sizes(.packed)
    )]
    ParamSizes { kernel: String, params: Vec<usize>, packed: Vec<usize> },
    #[error("cudaMalloc of {bytes} bytes failed: {source}")]
    Alloc { bytes: usize, source: result::DriverError },
    /// The device-side bounds checks' bookkeeping (`crate::cuda_check`).
    #[error(transparent)]
    BoundsCheck(#[from] crate::cuda_check::BoundsCheckError),
}

fn plural(n: i32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn range_end(n: i32) -> String {
    if n == 1 {
        String::new()
    } else {
        format!(" to {}", n - 1)
    }
}

fn on_device_text(device: i32) -> String {
    if device == 0 {
        String::new()
    } else {
        format!(" on device {device}")
    }
}

fn sizes(v: &[usize]) -> String {
    v.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
}

/// The kernel launched last on each stream (and on any stream, under
/// `usize::MAX`): a fault the driver reports later, at a synchronize or a
/// copy, is the work of one of them, so errors name it.
static LAST_LAUNCHED: Mutex<Vec<(usize, Arc<str>)>> = Mutex::new(Vec::new());

/// Set once a sticky error (a fault inside a kernel) made the context
/// unusable: the sentence every later call returns.
static LOST: OnceLock<String> = OnceLock::new();

/// Whether the CUDA context is unusable after a fault in a kernel (errors
/// are then `pydev.LaunchError`s).
pub fn context_lost() -> bool {
    LOST.get().is_some()
}

fn remember_launch(stream: usize, kernel: &Arc<str>) {
    let mut last = LAST_LAUNCHED.lock().unwrap_or_else(|p| p.into_inner());
    for key in [stream, usize::MAX] {
        match last.iter_mut().find(|(s, _)| *s == key) {
            Some(entry) => entry.1 = kernel.clone(),
            None => last.push((key, kernel.clone())),
        }
    }
}

fn last_launched(stream: Option<usize>) -> Option<(Arc<str>, bool)> {
    let last = LAST_LAUNCHED.lock().unwrap_or_else(|p| p.into_inner());
    let on = |key: usize| last.iter().find(|(s, _)| *s == key).map(|(_, k)| k.clone());
    match stream.and_then(on) {
        Some(k) => Some((k, true)),
        None => on(usize::MAX).map(|k| (k, false)),
    }
}

/// Errors after which the context cannot be used again (the driver
/// returns them from every later call): faults inside a kernel.
fn is_sticky(r: sys::CUresult) -> bool {
    use sys::CUresult::*;
    matches!(
        r,
        CUDA_ERROR_ILLEGAL_ADDRESS
            | CUDA_ERROR_LAUNCH_TIMEOUT
            | CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUDA_ERROR_MISALIGNED_ADDRESS
            | CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUDA_ERROR_INVALID_PC
            | CUDA_ERROR_LAUNCH_FAILED
            | CUDA_ERROR_ECC_UNCORRECTABLE
            | CUDA_ERROR_CONTEXT_IS_DESTROYED
    )
}

fn check(r: sys::CUresult, what: &str) -> Result<(), CudaError> {
    check_on(r, what, None)
}

/// As [`check`], for a call about `stream`: a sticky error names the
/// kernel launched last on it and says the context is lost.
fn check_on(r: sys::CUresult, what: &str, stream: Option<usize>) -> Result<(), CudaError> {
    if r == sys::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let name = result::DriverError(r).error_string().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    if is_sticky(r) {
        let culprit = match last_launched(stream) {
            Some((k, true)) => {
                format!("kernel '{k}' (the last launched on stream {:#x}) faulted on the GPU", stream.unwrap_or(0))
            }
            Some((k, false)) => format!("kernel '{k}' (the last launched) faulted on the GPU"),
            None => "a kernel faulted on the GPU".to_owned(),
        };
        let lost = LOST.get_or_init(|| {
            format!(
                "{culprit}: {r:?} ({name}). The CUDA context is now unusable: every later launch, copy and allocation in this process fails; \
                 restart the process. To find the fault, rerun with bounds checks (PYDEV_BOUNDSCHECK=1: an index \
                 out of bounds is then a LaunchError naming the line, and the context survives), on the host target \
                 (PYDEV_TARGET=host PYDEV_BOUNDSCHECK=1) or under compute-sanitizer"
            )
        });
        return Err(CudaError::Fault { call: what.to_owned(), lost: lost.clone() });
    }
    Err(CudaError::Driver { call: what.to_owned(), code: r, message: name })
}

/// The error of any call once the context is lost.
fn usable() -> Result<(), CudaError> {
    match LOST.get() {
        Some(lost) => Err(CudaError::ContextLost { lost: lost.clone() }),
        None => Ok(()),
    }
}

/// How many devices the driver reports (initialising it once); an error
/// sentence when there is no driver or no device.
pub fn device_count() -> Result<i32, CudaError> {
    static COUNT: OnceLock<Result<i32, CudaError>> = OnceLock::new();
    COUNT
        .get_or_init(|| {
            // SAFETY: is_culib_present only tries to load libcuda.
            if !unsafe { sys::is_culib_present() } {
                return Err(CudaError::NoDriver);
            }
            result::init().map_err(CudaError::Init)?;
            let n = result::device::get_count().map_err(CudaError::DeviceCount)?;
            if n <= 0 {
                return Err(CudaError::NoDevice);
            }
            Ok(n.min(MAX_DEVICES as i32))
        })
        .clone()
}

/// Devices pydev addresses (more are not used).
const MAX_DEVICES: usize = 64;

/// Each device's primary context, retained on first use and kept for the
/// process (as the CUDA runtime, CuPy and PyTorch keep theirs).
static PRIMARY: [OnceLock<Result<usize, CudaError>>; MAX_DEVICES] = [const { OnceLock::new() }; MAX_DEVICES];

/// The primary context of device `dev` (retained lazily, once).
fn primary(dev: i32) -> Result<sys::CUcontext, CudaError> {
    let n = device_count()?;
    if !(0..n).contains(&dev) {
        return Err(CudaError::NoSuchDevice { device: dev, count: n });
    }
    let ctx = PRIMARY[dev as usize]
        .get_or_init(|| {
            let d = result::device::get(dev)?;
            // SAFETY: a valid device handle.
            let ctx = unsafe { result::primary_ctx::retain(d) }
                .map_err(|source| CudaError::RetainPrimary { device: dev, source })?;
            Ok(ctx as usize)
        })
        .clone()?;
    Ok(ctx as sys::CUcontext)
}

/// The device whose primary context is `ctx`, among those retained.
fn device_of_primary(ctx: sys::CUcontext, n: i32) -> Option<i32> {
    (0..n).find(|d| matches!(PRIMARY[*d as usize].get(), Some(Ok(c)) if *c == ctx as usize))
}

/// The device a launch on the calling thread runs on: that of the
/// thread's current CUDA context (which cuda.core's `set_current`, CuPy's
/// and PyTorch's device selection and `pydev.Device` set), else device 0,
/// whose primary context is then made current. One `cuCtxGetCurrent` when
/// a context is current (no `cuCtxSetCurrent`); a context that is not a
/// device's primary context is an error (pydev loads and launches in
/// primary contexts, which those libraries use).
pub fn current_device() -> Result<i32, CudaError> {
    usable()?;
    let n = device_count()?;
    let mut ctx: sys::CUcontext = std::ptr::null_mut();
    // SAFETY: an out pointer to a local.
    check(unsafe { sys::cuCtxGetCurrent(&mut ctx) }, "cuCtxGetCurrent")?;
    if ctx.is_null() {
        let c = primary(0)?;
        // SAFETY: a retained primary context.
        check(unsafe { sys::cuCtxSetCurrent(c) }, "cuCtxSetCurrent")?;
        return Ok(0);
    }
    if let Some(d) = device_of_primary(ctx, n) {
        return Ok(d);
    }
    // A context made current by another library (or by pydev on another
    // thread) before pydev retained that device's primary context.
    let mut dev: sys::CUdevice = 0;
    // SAFETY: an out pointer to a local; a context is current.
    check(unsafe { sys::cuCtxGetDevice(&mut dev) }, "cuCtxGetDevice")?;
    if primary(dev)? == ctx {
        return Ok(dev);
    }
    Err(CudaError::NotPrimaryContext { device: dev })
}

/// Makes device `dev`'s primary context current on the calling thread
/// (`pydev.Device(dev).set_current()`, as cuda.core's `Device.set_current`).
pub fn set_device(dev: i32) -> Result<(), CudaError> {
    usable()?;
    let ctx = primary(dev)?;
    // SAFETY: a retained primary context.
    check(unsafe { sys::cuCtxSetCurrent(ctx) }, "cuCtxSetCurrent")
}

/// The calling thread's current CUDA context, as an integer (0: none), to
/// restore later with [`set_context`].
pub fn current_context() -> Result<usize, CudaError> {
    device_count()?;
    let mut ctx: sys::CUcontext = std::ptr::null_mut();
    // SAFETY: an out pointer to a local.
    check(unsafe { sys::cuCtxGetCurrent(&mut ctx) }, "cuCtxGetCurrent")?;
    Ok(ctx as usize)
}

/// Makes `ctx` (from [`current_context`]; 0: none) current again.
///
/// # Safety
/// `ctx` is 0 or a context that was current on some thread and is alive.
pub unsafe fn set_context(ctx: usize) -> Result<(), CudaError> {
    device_count()?;
    // SAFETY: as the caller promises.
    check(unsafe { sys::cuCtxSetCurrent(ctx as sys::CUcontext) }, "cuCtxSetCurrent")
}

/// Runs `f` with device `dev`'s primary context current (pushed, then
/// popped, when another is current); `None`: on the current device.
pub fn with_device<T>(dev: Option<i32>, f: impl FnOnce() -> Result<T, CudaError>) -> Result<T, CudaError> {
    on_device(dev, |_| f())
}

/// As [`with_device`], handing `f` the device (current while it runs).
pub fn on_device<T>(dev: Option<i32>, f: impl FnOnce(i32) -> Result<T, CudaError>) -> Result<T, CudaError> {
    let current = current_device()?;
    let Some(dev) = dev.filter(|d| *d != current) else { return f(current) };
    let ctx = primary(dev)?;
    // SAFETY: a retained primary context, popped below.
    check(unsafe { sys::cuCtxPushCurrent_v2(ctx) }, "cuCtxPushCurrent")?;
    let r = f(dev);
    let mut popped: sys::CUcontext = std::ptr::null_mut();
    // SAFETY: pops what was pushed above.
    let pop = check(unsafe { sys::cuCtxPopCurrent_v2(&mut popped) }, "cuCtxPopCurrent");
    let r = r?;
    pop.map(|()| r)
}

/// The device whose memory `ptr` addresses, by one
/// `cuPointerGetAttributes` (memory type, device ordinal, managed): `None`
/// for memory any device reaches (managed, page-locked host memory) and
/// for addresses the driver did not allocate.
pub fn pointer_device(ptr: usize) -> Result<Option<i32>, CudaError> {
    usable()?;
    device_count()?;
    let mut kind: u32 = 0;
    let mut ordinal: i32 = -2;
    let mut managed: i32 = 0;
    let mut attributes = [
        sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
        sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
        sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_IS_MANAGED,
    ];
    let mut data = [
        (&mut kind as *mut u32).cast::<c_void>(),
        (&mut ordinal as *mut i32).cast(),
        (&mut managed as *mut i32).cast(),
    ];
    // SAFETY: three attributes, each with an out pointer to a local of its
    // type (CUmemorytype: unsigned int; ordinal and managed: int).
    let r =
        unsafe { sys::cuPointerGetAttributes(3, attributes.as_mut_ptr(), data.as_mut_ptr(), ptr as sys::CUdeviceptr) };
    check(r, "cuPointerGetAttributes")?;
    let device = sys::CUmemorytype::CU_MEMORYTYPE_DEVICE as u32;
    Ok((kind == device && managed == 0 && ordinal >= 0).then_some(ordinal))
}

/// The primary context of the current device, current on the calling
/// thread ([`current_device`]).
fn context() -> Result<sys::CUcontext, CudaError> {
    let dev = current_device()?;
    primary(dev)
}

/// Whether a driver and a device are present, and why not.
/// Creates no context: a process that works on device 3 need not hold
/// one on device 0 (the first use retains the device's).
pub fn status() -> Result<(), CudaError> {
    usable()?;
    device_count().map(|_| ())
}

/// `sm_XY` of the current device ([`current_device`]).
pub fn arch() -> Result<String, CudaError> {
    arch_of(current_device()?)
}

/// `sm_XY` of device `dev`.
pub fn arch_of(dev: i32) -> Result<String, CudaError> {
    usable()?;
    let n = device_count()?;
    if !(0..n).contains(&dev) {
        return primary(dev).map(|_| String::new()); // the error naming the devices there are
    }
    let dev = result::device::get(dev)?;
    let attr = |a| {
        // SAFETY: valid device and attribute.
        unsafe { result::device::get_attribute(dev, a) }
    };
    let major = attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
    let minor = attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
    Ok(format!("sm_{major}{minor}"))
}

/// A loaded PTX module (or linked image), per device: loaded in the
/// primary context of the device current when it is made (`device`,
/// `module`), and in another device's when one of its kernels first
/// launches there (`others`). Its [`CudaKernel`]s share it (a multi-kernel
/// `pydev.Program`: one CUmodule, a CUfunction per kernel); it is unloaded
/// when the last of them is dropped.
struct LoadedModule {
    module: usize,
    device: i32,
    /// (device, module) of the other devices it was loaded on.
    others: Mutex<Vec<(i32, usize)>>,
    /// What it loads (NUL-terminated PTX, or a cubin image) and its name
    /// in errors (its kernels).
    image: Vec<u8>,
    what: &'static str,
    name: String,
}

/// One kernel of a loaded module, per device: its function in the
/// module's context on each device it launched on, so a function is only
/// ever launched in its own context. Programs are compiled per
/// architecture (pydev._launch), so devices of one architecture share a
/// CudaKernel.
pub struct CudaKernel {
    module: Arc<LoadedModule>,
    function: usize,
    /// (device, function) of the other devices it was loaded on.
    others: Mutex<Vec<(i32, usize)>>,
    name: Arc<str>,
    /// Byte size of each parameter, as the PTX declares them: the driver
    /// copies that many bytes from each parameter pointer, so a launch
    /// whose packing disagrees is refused instead of reading past it.
    params: Vec<usize>,
    /// Whether it synchronizes its grid: launched with
    /// `cuLaunchCooperativeKernel` (all blocks resident at once, and the
    /// grid barrier's workspace), as numba-cuda decides per kernel.
    cooperative: bool,
}

/// The parameter sizes of `.entry kernel(...)` in `ptx` (pydev's own
/// output: `.param .f32 k_param_0`, `.param .align 8 .b8 k_param_1[24]`,
/// `.param .u64 .ptr .global .align 1 k_param_2`); None if not declared.
pub fn entry_params(ptx: &str, kernel: &str) -> Option<Vec<usize>> {
    let mut rest = ptx;
    let body = loop {
        let at = rest.find(".entry ")?;
        rest = &rest[at + 7..];
        let open = rest.find('(')?;
        if rest[..open].trim() == kernel {
            let close = rest[open..].find(')')? + open;
            break &rest[open + 1..close];
        }
    };
    body.split(',')
        .filter(|d| d.contains(".param"))
        .map(|decl| {
            let mut words = decl.split_whitespace();
            let scalar = words.find_map(|w| match w {
                ".b8" | ".u8" | ".s8" => Some(1),
                ".b16" | ".u16" | ".s16" | ".f16" => Some(2),
                ".b32" | ".u32" | ".s32" | ".f32" => Some(4),
                ".b64" | ".u64" | ".s64" | ".f64" => Some(8),
                _ => None,
            })?;
            let count = match decl.split_once('[') {
                Some((_, n)) => n.trim_end_matches(|c: char| c == ']' || c.is_whitespace()).parse::<usize>().ok()?,
                None => 1,
            };
            Some(scalar * count)
        })
        .collect()
}

/// Loads PTX `ptx` (or `image`, a cubin or fatbin of it linked with other
/// code, docs/interop.md) once and returns its kernels `kernels`, which
/// share the module; the parameter sizes come from the PTX in both cases.
pub fn load_module(ptx: &str, kernels: &[&str], image: Option<&[u8]>) -> Result<Vec<CudaKernel>, CudaError> {
    let device = current_device()?;
    let params = kernels
        .iter()
        .map(|k| entry_params(ptx, k).ok_or_else(|| CudaError::NoEntry { kernel: (*k).to_owned() }))
        .collect::<Result<Vec<_>, _>>()?;
    let what = if image.is_some() { "linked cubin" } else { "PTX" };
    let image = match image {
        Some(bytes) => bytes.to_vec(),
        None => CString::new(ptx).map_err(|_| CudaError::NulInPtx)?.into_bytes_with_nul(),
    };
    // The grid barrier reads the cooperative launch's workspace register.
    let cooperative = ptx.contains(pydev_passes::GRID_WORKSPACE_REGISTER);
    let name = kernels.join(", ");
    let module = LoadedModule::load_here(&image, what, &name, device)?;
    let module = Arc::new(LoadedModule { module, device, others: Mutex::new(Vec::new()), image, what, name });
    kernels
        .iter()
        .zip(params)
        .map(|(k, params)| {
            let function = module.function(module.module, k)?;
            Ok(CudaKernel {
                module: module.clone(),
                function,
                others: Mutex::new(Vec::new()),
                name: (*k).into(),
                params,
                cooperative,
            })
        })
        .collect()
}

impl LoadedModule {
    /// Loads `image` in the current context (device `device`'s).
    fn load_here(image: &[u8], what: &'static str, name: &str, device: i32) -> Result<usize, CudaError> {
        let mut log = vec![0u8; 16384];
        let mut options =
            [sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER, sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
        let mut values = [log.as_mut_ptr() as *mut c_void, log.len() as *mut c_void];
        let mut module: sys::CUmodule = std::ptr::null_mut();
        // SAFETY: NUL-terminated PTX or a cubin/fatbin image (the driver
        // reads its ELF/fatbin header for its size); the options point at
        // live buffers.
        let r = unsafe {
            sys::cuModuleLoadDataEx(&mut module, image.as_ptr().cast(), 2, options.as_mut_ptr(), values.as_mut_ptr())
        };
        if is_sticky(r) {
            return Err(check(r, &format!("loading the {what} of '{name}'")).unwrap_err());
        }
        if r != sys::CUresult::CUDA_SUCCESS {
            let end = log.iter().position(|b| *b == 0).unwrap_or(log.len());
            return Err(CudaError::Load {
                what,
                kernel: name.to_owned(),
                device,
                code: r,
                log: String::from_utf8_lossy(&log[..end]).into_owned(),
            });
        }
        Ok(module as usize)
    }

    /// Kernel `kernel`'s function in `module` (this module as loaded in the
    /// current context).
    fn function(&self, module: usize, kernel: &str) -> Result<usize, CudaError> {
        let name = CString::new(kernel).map_err(|_| CudaError::BadKernelName)?;
        // SAFETY: a module loaded in the current context.
        let function = unsafe { result::module::get_function(module as sys::CUmodule, name) }
            .map_err(|source| CudaError::NoFunction { kernel: kernel.to_owned(), what: self.what, source })?;
        // SAFETY: a module loaded in the current context (bounds checks: cuda_check.rs).
        unsafe { crate::cuda_check::loaded(module, function as usize, kernel, &self.image) }?;
        Ok(function as usize)
    }

    /// The module in device `dev`'s context (the current one), loaded there
    /// first when needed.
    fn module_on(&self, dev: i32) -> Result<usize, CudaError> {
        if dev == self.device {
            return Ok(self.module);
        }
        let mut others = self.others.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, m)) = others.iter().find(|(d, _)| *d == dev) {
            return Ok(*m);
        }
        let module = Self::load_here(&self.image, self.what, &self.name, dev)?;
        others.push((dev, module));
        Ok(module)
    }
}

impl Drop for LoadedModule {
    fn drop(&mut self) {
        let others = std::mem::take(self.others.get_mut().unwrap_or_else(|p| p.into_inner()));
        for (dev, module) in [(self.device, self.module)].into_iter().chain(others) {
            crate::cuda_check::unloaded(module);
            // SAFETY: each module loaded once, unloaded once, in its own context.
            let _ = with_device(Some(dev), || Ok(unsafe { result::module::unload(module as sys::CUmodule) }?));
        }
    }
}

impl CudaKernel {
    pub fn load(ptx: &str, kernel: &str) -> Result<Self, CudaError> {
        Self::load_image(ptx, kernel, None)
    }

    /// As [`load`](Self::load), loading `image` (a cubin or fatbin: the
    /// kernel's PTX linked with other code, docs/interop.md) instead of the
    /// PTX text when given; the parameter sizes come from the kernel's own
    /// PTX `ptx` in both cases.
    pub fn load_image(ptx: &str, kernel: &str, image: Option<&[u8]>) -> Result<Self, CudaError> {
        let mut kernels = load_module(ptx, &[kernel], image)?;
        Ok(kernels.remove(0))
    }

    /// The device it was first loaded on.
    pub fn device(&self) -> i32 {
        self.module.device
    }

    /// Its function in device `dev`'s context, loading the module there
    /// first when needed (`dev` is the current device).
    fn function_on(&self, dev: i32) -> Result<usize, CudaError> {
        if dev == self.module.device {
            return Ok(self.function);
        }
        let mut others = self.others.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, f)) = others.iter().find(|(d, _)| *d == dev) {
            return Ok(*f);
        }
        let module = self.module.module_on(dev)?;
        let function = self.module.function(module, &self.name)?;
        others.push((dev, function));
        Ok(function)
    }

    /// Byte size of each parameter.
    pub fn param_sizes(&self) -> &[usize] {
        &self.params
    }

    /// Whether it is launched cooperatively (it synchronizes its grid).
    pub fn cooperative(&self) -> bool {
        self.cooperative
    }

    /// Launches asynchronously on `stream` (0: the legacy default stream).
    ///
    /// # Safety
    /// `stream` is 0, 1, 2 or a live stream handle of this context, and
    /// every device address the arguments carry (array descriptors) points
    /// at device memory holding what the kernel reaches, alive until the
    /// launch completes.
    pub unsafe fn launch(
        &self,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        stream: usize,
        args: &[&[u8]],
    ) -> Result<(), CudaError> {
        let dev = current_device()?;
        // SAFETY: as the caller promises; `dev` is the current device.
        unsafe { self.launch_on(dev, grid, block, shared, stream, args) }
    }

    /// As [`launch`](Self::launch) on `dev`, the current device (which the
    /// caller has just read with [`current_device`]).
    ///
    /// # Safety
    /// As [`launch`](Self::launch), and `dev` is the current device.
    pub unsafe fn launch_on(
        &self,
        dev: i32,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        stream: usize,
        args: &[&[u8]],
    ) -> Result<(), CudaError> {
        usable()?;
        let function = self.function_on(dev)?;
        if args.len() != self.params.len() || args.iter().zip(&self.params).any(|(a, n)| a.len() != *n) {
            return Err(CudaError::ParamSizes {
                kernel: self.name.to_string(),
                params: self.params.clone(),
                packed: args.iter().map(|a| a.len()).collect(),
            });
        }
        // The driver copies each parameter from these pointers at launch
        // (on the stack for the usual few: no allocation per launch).
        let mut stack = [std::ptr::null_mut::<c_void>(); 16];
        let mut heap = Vec::new();
        let params: &mut [*mut c_void] = if args.len() <= stack.len() {
            &mut stack[..args.len()]
        } else {
            heap.resize(args.len(), std::ptr::null_mut());
            &mut heap
        };
        for (p, a) in params.iter_mut().zip(args) {
            *p = a.as_ptr() as *mut c_void;
        }
        // SAFETY: `function` came from a module loaded in the current
        // context; `params` holds one pointer per kernel parameter, each to
        // as many bytes as the PTX declares (checked above).
        let r = if self.cooperative {
            // SAFETY: as above; a cooperative launch takes no `extra`.
            unsafe {
                sys::cuLaunchCooperativeKernel(
                    function as sys::CUfunction,
                    grid[0],
                    grid[1],
                    grid[2],
                    block[0],
                    block[1],
                    block[2],
                    shared,
                    stream as sys::CUstream,
                    params.as_mut_ptr(),
                )
            }
        } else {
            // SAFETY: as above.
            unsafe {
                sys::cuLaunchKernel(
                    function as sys::CUfunction,
                    grid[0],
                    grid[1],
                    grid[2],
                    block[0],
                    block[1],
                    block[2],
                    shared,
                    stream as sys::CUstream,
                    params.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            }
        };
        remember_launch(stream, &self.name);
        crate::cuda_check::launched(function, stream);
        if r == sys::CUresult::CUDA_SUCCESS {
            return Ok(()); // no message to format on every launch
        }
        check_on(r, &format!("launching kernel '{}'", self.name), Some(stream))
    }
}

pub fn alloc(bytes: usize) -> Result<usize, CudaError> {
    context()?;
    // SAFETY: plain allocation (at least 1 byte: zero-size arrays get one).
    unsafe { result::malloc_sync(bytes.max(1)) }
        .map(|p| p as usize)
        .map_err(|source| CudaError::Alloc { bytes, source })
}

/// Frees an allocation.
///
/// # Safety
/// `ptr` came from [`alloc`], is freed once, and no queued work uses it.
pub unsafe fn free(ptr: usize) -> Result<(), CudaError> {
    context()?;
    // SAFETY: a pointer from `alloc`, freed once by its owner.
    Ok(unsafe { result::free_sync(ptr as sys::CUdeviceptr) }?)
}

/// Page-locked host memory of `bytes` bytes (`cuMemHostAlloc`; with
/// `mapped`, also mapped into the device's address space): (host address,
/// device address, 0 when not mapped). `pydev.numba`'s `pinned_array` and
/// `mapped_array`.
pub fn host_alloc(bytes: usize, mapped: bool) -> Result<(usize, usize), CudaError> {
    context()?;
    let flags = if mapped {
        sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE
    } else {
        sys::CU_MEMHOSTALLOC_PORTABLE
    };
    let mut p: *mut c_void = std::ptr::null_mut();
    // SAFETY: an out pointer to a local.
    check(unsafe { sys::cuMemHostAlloc(&mut p, bytes.max(1), flags) }, &format!("cuMemHostAlloc of {bytes} bytes"))?;
    let mut dev: sys::CUdeviceptr = 0;
    if mapped {
        // SAFETY: `p` was just allocated with DEVICEMAP.
        if let Err(e) = check(unsafe { sys::cuMemHostGetDevicePointer_v2(&mut dev, p, 0) }, "cuMemHostGetDevicePointer")
        {
            // SAFETY: freed once, unused.
            unsafe { sys::cuMemFreeHost(p) };
            return Err(e);
        }
    }
    Ok((p as usize, dev as usize))
}

/// Frees page-locked host memory.
///
/// # Safety
/// `ptr` came from [`host_alloc`], is freed once, and no queued work uses it.
pub unsafe fn host_free(ptr: usize) -> Result<(), CudaError> {
    context()?;
    // SAFETY: as the caller promises.
    check(unsafe { sys::cuMemFreeHost(ptr as *mut c_void) }, "cuMemFreeHost")
}

/// Copies `src` to device address `dst` and waits for it.
///
/// # Safety
/// `dst` addresses at least `src.len()` bytes of live device memory;
/// `stream` is 0, 1, 2 or a live stream handle of this context.
pub unsafe fn memcpy_htod(dst: usize, src: &[u8], stream: usize) -> Result<(), CudaError> {
    context()?;
    // SAFETY: `dst` holds at least `src.len()` bytes (the caller's array);
    // synchronised before returning, so `src` may be freed afterwards.
    unsafe {
        check_on(
            sys::cuMemcpyHtoDAsync_v2(dst as sys::CUdeviceptr, src.as_ptr().cast(), src.len(), stream as sys::CUstream),
            "copy to device",
            Some(stream),
        )?;
        check_on(sys::cuStreamSynchronize(stream as sys::CUstream), "stream synchronize", Some(stream))
    }
}

/// Copies `dst.len()` bytes from device address `src` and waits for it.
///
/// # Safety
/// `src` addresses at least `dst.len()` bytes of live device memory;
/// `stream` is 0, 1, 2 or a live stream handle of this context.
pub unsafe fn memcpy_dtoh(dst: &mut [u8], src: usize, stream: usize) -> Result<(), CudaError> {
    context()?;
    // SAFETY: as for `memcpy_htod`.
    unsafe {
        check_on(
            sys::cuMemcpyDtoHAsync_v2(
                dst.as_mut_ptr().cast(),
                src as sys::CUdeviceptr,
                dst.len(),
                stream as sys::CUstream,
            ),
            "copy to host",
            Some(stream),
        )?;
        check_on(sys::cuStreamSynchronize(stream as sys::CUstream), "stream synchronize", Some(stream))
    }
}

pub fn stream_create() -> Result<usize, CudaError> {
    context()?;
    Ok(result::stream::create(result::stream::StreamKind::NonBlocking).map(|s| s as usize)?)
}

/// Waits (blocking, uninterruptibly) for the work queued on `stream`.
///
/// # Safety
/// `stream` is 0, 1, 2 or a live stream handle of this context.
pub unsafe fn stream_synchronize(stream: usize) -> Result<(), CudaError> {
    context()?;
    // SAFETY: a stream handle from the driver (or 0, 1, 2).
    unsafe { check_on(sys::cuStreamSynchronize(stream as sys::CUstream), "stream synchronize", Some(stream)) }
}

/// Waits at most about `budget` for the work queued on `stream`: whether
/// it is done. Polls `cuStreamQuery`, yielding the core for the first
/// 200 us and then sleeping 10 us growing to 100 us between queries (work
/// that ends is seen within about 0.1 ms), so that a caller can check for
/// Ctrl-C between calls (a blocking `cuStreamSynchronize` cannot be
/// interrupted).
///
/// # Safety
/// `stream` is 0, 1, 2 or a live stream handle of this context.
pub unsafe fn stream_poll(stream: usize, budget: Duration) -> Result<bool, CudaError> {
    context()?;
    // SAFETY: a stream handle from the driver (or 0, 1, 2), as the caller promises.
    match poll(budget, || unsafe { sys::cuStreamQuery(stream as sys::CUstream) }) {
        Some(r) => check_on(r, "stream synchronize", Some(stream)).map(|()| true),
        None => Ok(false),
    }
}

/// Calls `query` until it returns something else than
/// CUDA_ERROR_NOT_READY (that result) or about `budget` has passed
/// (`None`): yielding the core for the first 200 us, then sleeping 10 us
/// growing to 100 us between calls, so work that ends is seen within about
/// 0.1 ms.
fn poll(budget: Duration, query: impl Fn() -> sys::CUresult) -> Option<sys::CUresult> {
    let start = Instant::now();
    let mut pause = Duration::from_micros(10);
    loop {
        let r = query();
        if r != sys::CUresult::CUDA_ERROR_NOT_READY {
            return Some(r);
        }
        let waited = start.elapsed();
        if waited >= budget {
            return None;
        }
        if waited < Duration::from_micros(200) {
            std::thread::yield_now();
        } else {
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_micros(100));
        }
    }
}

/// Makes `waiter` wait for the work queued so far on `waited`.
///
/// # Safety
/// Both are 0, 1, 2 or live stream handles of this context.
pub unsafe fn stream_wait(waiter: usize, waited: usize) -> Result<(), CudaError> {
    let dev = current_device()?;
    // SAFETY: as the caller promises; `dev` is the current device.
    unsafe { stream_wait_on(dev, waiter, waited) }
}

/// As [`stream_wait`] on `dev`, the current device (just read with
/// [`current_device`]).
///
/// # Safety
/// As [`stream_wait`], and `dev` is the current device.
pub unsafe fn stream_wait_on(dev: i32, waiter: usize, waited: usize) -> Result<(), CudaError> {
    usable()?;
    crate::cuda_check::waits(waiter, waited);
    // An event of the current context from the pool: a wait uses the
    // event's state when it is enqueued, so the event can be recorded again
    // for the next wait once this one is queued. Two calls a wait (record,
    // wait) instead of four (create, record, wait, destroy).
    let event = pooled_event(dev)?;
    // SAFETY: live event and stream handles.
    let r = unsafe {
        result::event::record(event, waited as sys::CUstream)
            .map_err(CudaError::from)
            .and_then(|()| check(sys::cuStreamWaitEvent(waiter as sys::CUstream, event, 0), "stream wait"))
    };
    release_event(dev, event as usize);
    r
}

/// Events of the current contexts, with their device, while no stream
/// wait or fence uses them (made once, then reused).
static EVENTS: Mutex<Vec<(i32, usize)>> = Mutex::new(Vec::new());

/// An event of device `dev` (current) from [`EVENTS`], or a new one.
fn pooled_event(dev: i32) -> Result<sys::CUevent, CudaError> {
    let pooled = {
        let mut pool = EVENTS.lock().unwrap_or_else(|p| p.into_inner());
        pool.iter().position(|(d, _)| *d == dev).map(|i| pool.swap_remove(i).1)
    };
    match pooled {
        Some(e) => Ok(e as sys::CUevent),
        None => Ok(result::event::create(sys::CUevent_flags::CU_EVENT_DISABLE_TIMING)?),
    }
}

/// Gives an event of device `dev` back to [`EVENTS`]. Recording it again
/// while the work of its last record is pending is allowed: a record
/// captures the stream's work at the time it is called.
pub fn release_event(dev: i32, event: usize) {
    EVENTS.lock().unwrap_or_else(|p| p.into_inner()).push((dev, event));
}

/// A fence on `stream`: an event recorded after the work queued on it so
/// far, for [`fence_poll`] (a pydev.Stream lets go of the arguments of the
/// launches before a fence once it is passed).
///
/// # Safety
/// `stream` is 0, 1, 2 or a live stream handle of device `dev`'s context,
/// which is current.
pub unsafe fn fence(dev: i32, stream: usize) -> Result<usize, CudaError> {
    usable()?;
    let event = pooled_event(dev)?;
    // SAFETY: a live event; the stream as the caller promises.
    match unsafe { result::event::record(event, stream as sys::CUstream) } {
        Ok(()) => Ok(event as usize),
        Err(e) => {
            release_event(dev, event as usize);
            Err(e.into())
        }
    }
}

/// Waits at most about `budget` (zero: one query) for the work before
/// fence `event`: whether it is done. Polls `cuEventQuery` as
/// [`stream_poll`] polls its stream ([`poll`]), so a caller can check for
/// Ctrl-C.
///
/// # Safety
/// `event` is a fence of [`fence`] not yet released.
pub unsafe fn fence_poll(event: usize, budget: Duration) -> Result<bool, CudaError> {
    // SAFETY: a live event, as the caller promises.
    match poll(budget, || unsafe { sys::cuEventQuery(event as sys::CUevent) }) {
        Some(r) => check(r, "fence query").map(|()| true),
        None => Ok(false),
    }
}

pub fn synchronize() -> Result<(), CudaError> {
    context()?;
    // SAFETY: the context is current (above).
    check(unsafe { sys::cuCtxSynchronize() }, "context synchronize")
}

#[cfg(test)]
mod tests {
    use super::entry_params;
    use crate::{compile::Source, compile_stage, CompileOptions, Target};
    use pydev_frontend_python::FreeNames;

    const SOURCE: &str = "import cuda.device as device\n\
@device.struct\nclass P:\n    x: device.float32\n    y: device.float64\n\n\
@device.kernel\ndef k(a, x, v, p, n):\n    i = device.tid(1)\n    if i < x.shape[0]:\n        x[i, 0] = a + v.x + p.x + n\n";

    #[test]
    fn parameter_sizes_are_read_from_the_ptx_entry() {
        let free = FreeNames::new();
        let src = Source {
            file_name: "k.py",
            text: SOURCE,
            function: "k",
            signature: "float32, float32[:, ::1], float32x3, P, int64",
            free: &free,
            program: None,
        };
        let ptx = compile_stage(&src, &Target::Cuda("sm_90".into()), "ptx", &CompileOptions::default()).unwrap();
        // a float, a 2-d descriptor {ptr, shape[2], strides[2]}, float3 (12
        // bytes, CUDA's layout), the struct (16), an int64.
        assert_eq!(entry_params(&ptx, "k"), Some(vec![4, 40, 12, 16, 8]), "{ptx}");
        assert_eq!(entry_params(&ptx, "missing"), None);
        assert_eq!(entry_params(".entry e(\n)\n{", "e"), Some(vec![]));
    }
}
