//! Device-side bounds checks on cuda (`PYDEV_BOUNDSCHECK=1`), and Python
//! exceptions raised in device code: the runtime's half of
//! `pydev-cuda-boundscheck` (passes/src/cuda_boundscheck.rs).
//!
//! A module compiled with the checks has an error buffer `__pydev_error`
//! (layout: `pydev_passes::error_record`) where the first thread whose index
//! is out of bounds records what, where and who, and then exits (the context
//! stays usable). `cuda.rs` tells this module when such a module is loaded,
//! launched and unloaded; when a stream is synchronized (its work is done),
//! [`take_failure`] reads the buffer of every checked module launched on it
//! since, resets it, and describes the first recorded failure, which the
//! Python binding raises as `pydev.LaunchError` (for an exception, with the
//! [`crate::Raised`] that the frontend turns into its Python exception). Modules without the checks
//! cost nothing: they are never registered.

use cudarc::driver::sys;
use pydev_passes::error_record as rec;
use std::ffi::CString;
use std::sync::{
    atomic::{AtomicBool, Ordering},
    Arc, Mutex,
};

/// Errors of the bounds checks' bookkeeping: finding a checked module's
/// error buffer when it loads, reading and resetting it after a synchronize.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BoundsCheckError {
    #[error(
        "kernel '{kernel}' was compiled with bounds checks, but the driver does not find its error buffer {} ({code:?})",
        rec::SYMBOL
    )]
    NoBuffer { kernel: String, code: sys::CUresult },
    #[error("kernel '{kernel}': the error buffer {} has {bytes} bytes, {} expected", rec::SYMBOL, rec::WORDS * 4)]
    SmallBuffer { kernel: String, bytes: usize },
    #[error("reading the bounds-check error buffer failed: {code:?}")]
    Read { code: sys::CUresult },
    #[error("resetting the bounds-check error buffer failed: {code:?}")]
    Reset { code: sys::CUresult },
}

struct Checked {
    module: usize,
    function: usize,
    kernel: Arc<str>,
    /// Device address of `__pydev_error`.
    buffer: usize,
    /// Streams it was launched on since its buffer was last read.
    pending: Vec<usize>,
}

static CHECKED: Mutex<Vec<Checked>> = Mutex::new(Vec::new());

/// Whether a module with checks was ever loaded: until then a launch or a
/// synchronize does not even take the lock.
static ANY: AtomicBool = AtomicBool::new(false);

fn checked() -> std::sync::MutexGuard<'static, Vec<Checked>> {
    CHECKED.lock().unwrap_or_else(|p| p.into_inner())
}

/// The device address and size of module global `name`.
///
/// # Safety
/// `module` is a loaded module of the current context.
unsafe fn global(module: usize, name: &str) -> Result<(usize, usize), sys::CUresult> {
    let c = CString::new(name).expect("symbol names have no NUL");
    let (mut ptr, mut bytes): (sys::CUdeviceptr, usize) = (0, 0);
    // SAFETY: a loaded module (the caller's promise), a NUL-terminated name
    // and two live out-parameters.
    let r = unsafe { sys::cuModuleGetGlobal_v2(&mut ptr, &mut bytes, module as sys::CUmodule, c.as_ptr()) };
    if r == sys::CUresult::CUDA_SUCCESS {
        Ok((ptr as usize, bytes))
    } else {
        Err(r)
    }
}

/// Registers a module just loaded from `image` (PTX text or a linked
/// cubin) and its kernel's `function`, if it was compiled with bounds
/// checks (it names the error buffer).
///
/// # Safety
/// `module` is a module of the current context, just loaded.
pub unsafe fn loaded(module: usize, function: usize, kernel: &str, image: &[u8]) -> Result<(), BoundsCheckError> {
    let symbol = rec::SYMBOL.as_bytes();
    if !image.windows(symbol.len() + 1).any(|w| w.starts_with(symbol) && matches!(w[symbol.len()], b'[' | 0)) {
        return Ok(());
    }
    // SAFETY: as the caller promises.
    let (buffer, bytes) = unsafe { global(module, rec::SYMBOL) }
        .map_err(|code| BoundsCheckError::NoBuffer { kernel: kernel.to_owned(), code })?;
    if bytes < rec::WORDS * 4 {
        return Err(BoundsCheckError::SmallBuffer { kernel: kernel.to_owned(), bytes });
    }
    checked().push(Checked { module, function, kernel: kernel.into(), buffer, pending: Vec::new() });
    ANY.store(true, Ordering::Release);
    Ok(())
}

/// Notes a launch of kernel `function` on `stream`.
pub fn launched(function: usize, stream: usize) {
    if !ANY.load(Ordering::Acquire) {
        return;
    }
    let mut all = checked();
    if let Some(c) = all.iter_mut().find(|c| c.function == function) {
        if !c.pending.contains(&stream) {
            c.pending.push(stream);
        }
    }
}

/// Notes that `waiter` waits for the work queued so far on `waited`
/// (`cuStreamWaitEvent`): once `waiter` is synchronized, the launches on
/// `waited` before it are done too, so their failures are reported then.
pub fn waits(waiter: usize, waited: usize) {
    if !ANY.load(Ordering::Acquire) {
        return;
    }
    for c in checked().iter_mut() {
        if c.pending.contains(&waited) && !c.pending.contains(&waiter) {
            c.pending.push(waiter);
        }
    }
}

/// Forgets a module about to be unloaded.
pub fn unloaded(module: usize) {
    if !ANY.load(Ordering::Acquire) {
        return;
    }
    checked().retain(|c| c.module != module);
}

/// Copies `dst.len()` bytes from device address `src` on `stream` and waits.
///
/// # Safety
/// `src` holds that many bytes; `stream` is idle (it was just synchronized).
unsafe fn read(dst: &mut [u8], src: usize, stream: usize) -> Result<(), BoundsCheckError> {
    // SAFETY: as the caller promises; the copy ends before returning.
    unsafe {
        let r = sys::cuMemcpyDtoHAsync_v2(
            dst.as_mut_ptr().cast(),
            src as sys::CUdeviceptr,
            dst.len(),
            stream as sys::CUstream,
        );
        let r = if r == sys::CUresult::CUDA_SUCCESS { sys::cuStreamSynchronize(stream as sys::CUstream) } else { r };
        if r == sys::CUresult::CUDA_SUCCESS {
            Ok(())
        } else {
            Err(BoundsCheckError::Read { code: r })
        }
    }
}

/// The `file:line:col` of location `index` of a module (its
/// `__pydev_error_locations` table).
///
/// # Safety
/// As [`take_failure`].
unsafe fn location(module: usize, index: u32, stream: usize) -> String {
    // SAFETY: a registered module is loaded.
    let Ok((ptr, bytes)) = (unsafe { global(module, rec::LOCATIONS) }) else { return "an unknown location".into() };
    let mut table = vec![0u8; bytes];
    // SAFETY: the global holds `bytes` bytes.
    if unsafe { read(&mut table, ptr, stream) }.is_err() {
        return "an unknown location".into();
    }
    table
        .split(|b| *b == 0)
        .nth(index as usize)
        .map_or_else(|| "an unknown location".into(), |t| String::from_utf8_lossy(t).into_owned())
}

/// The description of the first failure recorded by a kernel launched on
/// `stream` (`None`: on any stream, after a context synchronize) since the
/// last call, resetting each buffer it read; None when there was none. An
/// index out of bounds, or a Python exception raised in device code (kind
/// `EXCEPTION`: then the [`crate::Raised`] too, for the frontend to raise).
///
/// # Safety
/// `stream` is 0, 1, 2 or a live stream handle of the current context, and
/// its work is done (it was just synchronized).
pub unsafe fn take_failure(
    stream: Option<usize>,
) -> Result<Option<(String, Option<crate::Raised>)>, crate::cuda::CudaError> {
    if !ANY.load(Ordering::Acquire) {
        return Ok(None);
    }
    let mut all = checked();
    let mut first = None;
    for c in all.iter_mut() {
        if !match stream {
            Some(s) => c.pending.contains(&s),
            None => !c.pending.is_empty(),
        } {
            continue;
        }
        match stream {
            Some(s) => c.pending.retain(|p| *p != s),
            None => c.pending.clear(),
        }
        let on = stream.unwrap_or(0);
        let mut words = [0u8; rec::WORDS * 4];
        // SAFETY: the buffer holds WORDS words (checked at load); the
        // stream is idle.
        unsafe { read(&mut words, c.buffer, on) }?;
        let word = |i: usize| u32::from_le_bytes(words[4 * i..4 * i + 4].try_into().expect("4 bytes"));
        let wide = |i: usize| i64::from_le_bytes(words[4 * i..4 * i + 8].try_into().expect("8 bytes"));
        if word(rec::CLAIM) == 0 || word(rec::READY) == 0 {
            continue; // nothing recorded, or a record still being written by a launch on another stream
        }
        let zeros = [0u8; rec::WORDS * 4];
        // SAFETY: as above; synchronized before returning.
        unsafe {
            let r = sys::cuMemcpyHtoDAsync_v2(
                c.buffer as sys::CUdeviceptr,
                zeros.as_ptr().cast(),
                zeros.len(),
                on as sys::CUstream,
            );
            let r = if r == sys::CUresult::CUDA_SUCCESS { sys::cuStreamSynchronize(on as sys::CUstream) } else { r };
            if r != sys::CUresult::CUDA_SUCCESS {
                return Err(BoundsCheckError::Reset { code: r }.into());
            }
        }
        if first.is_some() {
            continue;
        }
        let (t, b) = (rec::THREAD, rec::BLOCK);
        if word(rec::KIND) as i32 == rec::EXCEPTION {
            let raised = crate::Raised {
                id: wide(rec::INDEX) as u32,
                thread: [word(t), word(t + 1), word(t + 2)],
                block: [word(b), word(b + 1), word(b + 2)],
            };
            first = Some((format!("kernel '{}': {raised}", c.kernel), Some(raised)));
            continue;
        }
        // SAFETY: as above.
        let at = unsafe { location(c.module, word(rec::LOCATION), on) };
        first = Some((
            format!(
                "kernel '{}' failed on the GPU: index {} is out of bounds for axis {} of extent {} ({}) at {at} \
             (thread ({}, {}, {}) of block ({}, {}, {})); that thread stopped there, the others ran to the end \
             (PYDEV_BOUNDSCHECK=1); the CUDA context is still usable",
                c.kernel,
                wide(rec::INDEX),
                word(rec::AXIS),
                wide(rec::EXTENT),
                rec::kind_text(word(rec::KIND) as i32),
                word(t),
                word(t + 1),
                word(t + 2),
                word(b),
                word(b + 1),
                word(b + 2),
            ),
            None,
        ));
    }
    Ok(first)
}
