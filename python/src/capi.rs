//! The crate's only `unsafe`: byte views of Python buffers.

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A copy of a C-contiguous buffer's bytes.
pub fn buffer_bytes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    let buf: PyBuffer<u8> = PyBuffer::get(obj).map_err(|_| PyValueError::new_err(format!("{what} must be a bytes-like object")))?;
    buf.to_vec(obj.py()).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// Runs `f` on the writable bytes of `obj` (at least `len` of them).
pub fn with_writable<R>(obj: &Bound<'_, PyAny>, len: usize, f: impl FnOnce(&mut [u8]) -> R) -> PyResult<R> {
    let buf: PyBuffer<u8> = PyBuffer::get(obj).map_err(|_| PyValueError::new_err("the destination must support the buffer protocol"))?;
    if buf.readonly() || !buf.is_c_contiguous() || buf.len_bytes() < len {
        return Err(PyValueError::new_err(format!("the destination must be a writable, C-contiguous buffer of at least {len} bytes")));
    }
    // Safety: the buffer is writable, contiguous and at least `len` bytes,
    // and stays alive (held by `buf`) while `f` runs with the GIL held.
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr().cast::<u8>(), len) };
    Ok(f(bytes))
}
