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

/// The kernel ABI descriptor `{T* data; u64 shape[n]; i64 strides[n]}`
/// (strides in elements) of an object exporting a strided buffer (a NumPy
/// array on the host), read through the buffer protocol: the launch fast
/// path's way to skip `__array_interface__` dictionaries.
pub fn array_descriptor(obj: &Bound<'_, PyAny>, position: usize) -> PyResult<Vec<u8>> {
    use pyo3::ffi;
    let mut view = std::mem::MaybeUninit::<ffi::Py_buffer>::zeroed();
    // Safety: `obj` is a live object and `view` a writable Py_buffer; on
    // success the view is released below before it goes out of scope.
    if unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), view.as_mut_ptr(), ffi::PyBUF_RECORDS_RO) } != 0 {
        return Err(PyErr::fetch(obj.py()));
    }
    // Safety: PyObject_GetBuffer succeeded, so the view is initialised; with
    // PyBUF_STRIDES, `shape` and `strides` hold `ndim` entries each.
    let out = unsafe {
        let v = view.assume_init_mut();
        let n = usize::try_from(v.ndim).unwrap_or(0);
        let item = v.itemsize as i64;
        let shape = if n > 0 { std::slice::from_raw_parts(v.shape, n) } else { &[][..] };
        let strides = if n > 0 { std::slice::from_raw_parts(v.strides, n) } else { &[][..] };
        let result = if item <= 0 || strides.iter().any(|s| (*s as i64) % item != 0) {
            Err(PyValueError::new_err(format!("argument {position}: strides {strides:?} are not multiples of the item size {item}")))
        } else {
            let mut out = Vec::with_capacity(8 + 16 * n);
            out.extend_from_slice(&(v.buf as u64).to_le_bytes());
            for d in shape {
                out.extend_from_slice(&(*d as u64).to_le_bytes());
            }
            for st in strides {
                out.extend_from_slice(&((*st as i64) / item).to_le_bytes());
            }
            Ok(out)
        };
        ffi::PyBuffer_Release(v);
        result
    };
    out
}
