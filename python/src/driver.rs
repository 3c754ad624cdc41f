//! The CUDA driver for Python: the `cuda_*` functions (devices, contexts,
//! memory, copies, streams, fences), driver errors as Python exceptions,
//! and waits that Ctrl-C interrupts.

use crate::{capi, LaunchError};
use pydev_runtime::cuda;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

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

pub(crate) fn rt<T>(r: Result<T, cuda::CudaError>) -> PyResult<T> {
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
pub(crate) unsafe fn wait_stream(py: Python<'_>, stream: usize, device: Option<i32>) -> PyResult<()> {
    // SAFETY: as the caller promises.
    interruptible(py, |budget| cuda::with_device(device, || unsafe { cuda::stream_poll(stream, budget) }))?;
    bounds_failure(py, Some(stream), device)
}

/// Calls `poll` (without the GIL; 20 ms a call) until it says the work is
/// done, checking for Ctrl-C (KeyboardInterrupt) between calls.
pub(crate) fn interruptible(
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
/// (None: every stream) last synchronized (runtime/src/cuda_check.rs), or
/// the first exception raised in device code ([`raised_error`]).
pub(crate) fn bounds_failure(py: Python<'_>, stream: Option<usize>, device: Option<i32>) -> PyResult<()> {
    // SAFETY: the stream's work is done (just synchronized); pydev passes
    // driver stream handles.
    match rt(py.detach(|| cuda::with_device(device, || unsafe { pydev_runtime::cuda_check::take_failure(stream) })))? {
        Some((message, Some(raised))) => Err(raised_error(py, message, &raised)),
        Some((message, None)) => Err(LaunchError::new_err(message)),
        None => Ok(()),
    }
}

/// `pydev.LaunchError(message)` for a Python exception raised in device
/// code, with `raised = (id, (tx, ty, tz), (bx, by, bz))`: the frontend that
/// compiled the kernel raises the exception of its table's entry `id`
/// instead (pydev.numba, `debug=True`).
pub(crate) fn raised_error(py: Python<'_>, message: String, raised: &pydev_runtime::Raised) -> PyErr {
    let err = LaunchError::new_err(message);
    let value = (
        raised.id,
        (raised.thread[0], raised.thread[1], raised.thread[2]),
        (raised.block[0], raised.block[1], raised.block[2]),
    );
    if let Err(e) = err.value(py).setattr("raised", value) {
        return e;
    }
    err
}

/// (True, "") with a CUDA driver and a device, else (False, why).
#[pyfunction]
pub(crate) fn cuda_status() -> (bool, String) {
    match cuda::status() {
        Ok(()) => (true, String::new()),
        Err(e) => (false, e.to_string()),
    }
}

/// `sm_XY` of `device` (None: the current device).
#[pyfunction]
#[pyo3(signature = (device=None))]
pub(crate) fn cuda_arch(device: Option<i32>) -> PyResult<String> {
    rt(match device {
        Some(d) => cuda::arch_of(d),
        None => cuda::arch(),
    })
}

/// How many devices the driver reports.
#[pyfunction]
pub(crate) fn cuda_device_count() -> PyResult<i32> {
    rt(cuda::device_count())
}

/// The device a launch on this thread runs on (`cuda::current_device`).
#[pyfunction]
pub(crate) fn cuda_current_device() -> PyResult<i32> {
    rt(cuda::current_device())
}

/// Makes `device`'s primary context current on this thread.
#[pyfunction]
pub(crate) fn cuda_set_device(device: i32) -> PyResult<()> {
    rt(cuda::set_device(device))
}

/// This thread's current CUDA context (0: none), to restore with cuda_set_context.
#[pyfunction]
pub(crate) fn cuda_current_context() -> PyResult<usize> {
    rt(cuda::current_context())
}

#[pyfunction]
pub(crate) fn cuda_set_context(ctx: usize) -> PyResult<()> {
    // SAFETY: pydev.Device restores the context cuda_current_context gave
    // it on the same thread (this private function has no other caller).
    rt(unsafe { cuda::set_context(ctx) })
}

/// The device whose memory `ptr` addresses (None: managed or host memory,
/// or an address the driver did not allocate).
#[pyfunction]
pub(crate) fn cuda_pointer_device(ptr: usize) -> PyResult<Option<i32>> {
    rt(cuda::pointer_device(ptr))
}

#[pyfunction]
#[pyo3(signature = (nbytes, device=None))]
pub(crate) fn cuda_alloc(nbytes: usize, device: Option<i32>) -> PyResult<usize> {
    rt(cuda::with_device(device, || cuda::alloc(nbytes)))
}

#[pyfunction]
#[pyo3(signature = (ptr, device=None))]
pub(crate) fn cuda_free(ptr: usize, device: Option<i32>) -> PyResult<()> {
    // SAFETY: pydev.DeviceArray frees the pointer cuda_alloc gave it, once,
    // when it dies (this private function has no other caller).
    rt(cuda::with_device(device, || unsafe { cuda::free(ptr) }))
}

/// (host address, device address or 0) of `nbytes` of page-locked host
/// memory (`mapped`: mapped into the device's address space).
#[pyfunction]
#[pyo3(signature = (nbytes, mapped=false))]
pub(crate) fn cuda_host_alloc(nbytes: usize, mapped: bool) -> PyResult<(usize, usize)> {
    rt(cuda::host_alloc(nbytes, mapped))
}

#[pyfunction]
pub(crate) fn cuda_host_free(ptr: usize) -> PyResult<()> {
    // SAFETY: pydev.numba's pinned buffers free the address cuda_host_alloc
    // gave them, once, when they die (this private function has no other caller).
    rt(unsafe { cuda::host_free(ptr) })
}

#[pyfunction]
#[pyo3(signature = (dst, src_buffer, nbytes, stream=0, device=None))]
pub(crate) fn cuda_memcpy_htod(
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
pub(crate) fn cuda_memcpy_dtoh(
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
pub(crate) fn cuda_stream_create(device: Option<i32>) -> PyResult<usize> {
    rt(cuda::with_device(device, cuda::stream_create))
}

/// Waits for the work queued on `handle`; Ctrl-C raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (handle, device=None))]
pub(crate) fn cuda_stream_synchronize(py: Python<'_>, handle: usize, device: Option<i32>) -> PyResult<()> {
    // SAFETY: pydev.Stream and the stream protocols pass driver handles.
    unsafe { wait_stream(py, handle, device) }
}

#[pyfunction]
#[pyo3(signature = (waiter, waited, device=None))]
pub(crate) fn cuda_stream_wait(waiter: usize, waited: usize, device: Option<i32>) -> PyResult<()> {
    // SAFETY: pydev passes the handles of the launch's stream and of a
    // stream a producer named.
    rt(cuda::on_device(device, |d| unsafe { cuda::stream_wait_on(d, waiter, waited) }))
}

/// A fence on stream `handle` (`cuda::fence`): the event's handle.
#[pyfunction]
#[pyo3(signature = (handle, device=None))]
pub(crate) fn cuda_fence(handle: usize, device: Option<i32>) -> PyResult<usize> {
    // SAFETY: pydev.Stream passes its own driver handle and device.
    rt(cuda::on_device(device, |d| unsafe { cuda::fence(d, handle) }))
}

/// Whether the work before `fence` is done (then the fence is released
/// and must not be used again); `wait`: until it is, Ctrl-C raising
/// KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (fence, device, wait=false))]
pub(crate) fn cuda_fence_done(py: Python<'_>, fence: usize, device: i32, wait: bool) -> PyResult<bool> {
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
pub(crate) fn cuda_fence_release(fence: usize, device: i32) {
    cuda::release_event(device, fence);
}

#[pyfunction]
#[pyo3(signature = (device=None))]
pub(crate) fn cuda_synchronize(py: Python<'_>, device: Option<i32>) -> PyResult<()> {
    rt(cuda::with_device(device, cuda::synchronize))?;
    bounds_failure(py, None, device)
}
