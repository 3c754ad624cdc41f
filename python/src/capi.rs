//! The crate's only `unsafe`: byte views of Python buffers and DLPack
//! capsules.

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

/// What the launch fast path reads of a host array through the buffer
/// protocol: its type key (element format, rank, layout, read-only) and the
/// kernel ABI descriptor `{T* data; u64 shape[n]; i64 strides[n]}` (strides
/// in elements), without `__array_interface__` dictionaries.
pub struct ArrayView {
    pub format: String,
    pub ndim: usize,
    /// 1: C-contiguous, 2: Fortran-contiguous (rank > 1), 0: strided (as
    /// the signature's `::1` marks, python/pydev/_arrays.py `dims`).
    pub layout: u8,
    pub readonly: bool,
    pub descriptor: Vec<u8>,
}

/// The [`ArrayView`] of an object exporting a strided buffer; `None` when it
/// exports none (the general launch path then says why).
pub fn array_view(obj: &Bound<'_, PyAny>, position: usize) -> PyResult<Option<ArrayView>> {
    use pyo3::ffi;
    let mut view = std::mem::MaybeUninit::<ffi::Py_buffer>::zeroed();
    // Safety: `obj` is a live object and `view` a writable Py_buffer; on
    // success the view is released below before it goes out of scope.
    if unsafe { ffi::PyObject_GetBuffer(obj.as_ptr(), view.as_mut_ptr(), ffi::PyBUF_RECORDS_RO) } != 0 {
        // Safety: clears the error PyObject_GetBuffer set, with the GIL held.
        unsafe { ffi::PyErr_Clear() };
        return Ok(None);
    }
    // Safety: PyObject_GetBuffer succeeded, so the view is initialised; with
    // PyBUF_RECORDS_RO, `format` is a C string and `shape` and `strides` hold
    // `ndim` entries each.
    unsafe {
        let v = view.assume_init_mut();
        let n = usize::try_from(v.ndim).unwrap_or(0);
        let item = v.itemsize as i64;
        let shape: &[ffi::Py_ssize_t] = if n > 0 { std::slice::from_raw_parts(v.shape, n) } else { &[] };
        let strides: &[ffi::Py_ssize_t] = if n > 0 { std::slice::from_raw_parts(v.strides, n) } else { &[] };
        let format = if v.format.is_null() { "B".to_owned() } else { std::ffi::CStr::from_ptr(v.format).to_string_lossy().into_owned() };
        let result = if item <= 0 || strides.iter().any(|s| (*s as i64) % item != 0) {
            Err(PyValueError::new_err(format!("argument {position}: strides {strides:?} are not multiples of the item size {item}")))
        } else {
            let dense = |k: usize, extent: i64| shape[k] <= 1 || strides[k] as i64 == item * extent;
            let c = (0..n).all(|k| dense(k, shape[k + 1..].iter().map(|d| *d as i64).product()));
            let f = n > 1 && (0..n).all(|k| dense(k, shape[..k].iter().map(|d| *d as i64).product()));
            let mut descriptor = Vec::with_capacity(8 + 16 * n);
            descriptor.extend_from_slice(&(v.buf as u64).to_le_bytes());
            for d in shape {
                descriptor.extend_from_slice(&(*d as u64).to_le_bytes());
            }
            for st in strides {
                descriptor.extend_from_slice(&((*st as i64) / item).to_le_bytes());
            }
            Ok(Some(ArrayView { format, ndim: n, layout: if c { 1 } else if f { 2 } else { 0 }, readonly: v.readonly != 0, descriptor }))
        };
        ffi::PyBuffer_Release(v);
        result
    }
}

/// What the cuda launch fast path reads of a DLPack capsule (from a
/// producer's `__dlpack__`): where the memory is, its type key and the
/// kernel ABI descriptor, as `pydev._dlpack.DLPackTensor` reads them.
pub struct DlpackView {
    /// (DLDeviceType, device id).
    pub device: (i32, i32),
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
    pub ndim: usize,
    /// As [`ArrayView::layout`].
    pub layout: u8,
    pub readonly: bool,
    pub descriptor: Vec<u8>,
}

#[repr(C)]
struct DLTensor {
    data: *mut u8,
    device_type: i32,
    device_id: i32,
    ndim: i32,
    code: u8,
    bits: u8,
    lanes: u16,
    shape: *const i64,
    strides: *const i64,
    byte_offset: u64,
}

#[repr(C)]
struct DLManagedTensorVersioned {
    major: u32,
    minor: u32,
    manager_ctx: *mut u8,
    deleter: *mut u8,
    flags: u64,
    dl_tensor: DLTensor,
}

const DLPACK_FLAG_READ_ONLY: u64 = 1;

/// The [`DlpackView`] of an unconsumed DLPack capsule ("dltensor_versioned"
/// of DLPack 1.x, or "dltensor"); `None` for anything else. The capsule is
/// not renamed: while it lives, the tensor does, and when it is freed its
/// producer's destructor calls the deleter, as for any capsule not consumed.
pub fn dlpack_view(capsule: &Bound<'_, PyAny>) -> Option<DlpackView> {
    use pyo3::ffi;
    const VERSIONED: &std::ffi::CStr = c"dltensor_versioned";
    const LEGACY: &std::ffi::CStr = c"dltensor";
    let cap = capsule.as_ptr();
    // Safety: PyCapsule_IsValid accepts any object and only reads it; a
    // valid capsule of these names holds a DLManagedTensorVersioned or a
    // DLManagedTensor (whose first member is its DLTensor), alive while the
    // capsule is. Its shape (and strides, when not null) hold ndim entries.
    unsafe {
        let (tensor, flags) = if ffi::PyCapsule_IsValid(cap, VERSIONED.as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(cap, VERSIONED.as_ptr()).cast::<DLManagedTensorVersioned>();
            if m.is_null() || (*m).major != 1 {
                ffi::PyErr_Clear();
                return None;
            }
            (&(*m).dl_tensor, (*m).flags)
        } else if ffi::PyCapsule_IsValid(cap, LEGACY.as_ptr()) == 1 {
            let t = ffi::PyCapsule_GetPointer(cap, LEGACY.as_ptr()).cast::<DLTensor>();
            if t.is_null() {
                ffi::PyErr_Clear();
                return None;
            }
            (&*t, 0)
        } else {
            return None;
        };
        let n = usize::try_from(tensor.ndim).ok()?;
        let shape: &[i64] = if n > 0 { std::slice::from_raw_parts(tensor.shape, n) } else { &[] };
        let strides: Vec<i64> = if n > 0 && !tensor.strides.is_null() {
            std::slice::from_raw_parts(tensor.strides, n).to_vec()
        } else {
            (0..n).map(|k| shape[k + 1..].iter().product()).collect()
        };
        let dense = |k: usize, extent: i64| shape[k] <= 1 || strides[k] == extent;
        let c = (0..n).all(|k| dense(k, shape[k + 1..].iter().product()));
        let f = n > 1 && (0..n).all(|k| dense(k, shape[..k].iter().product()));
        let mut descriptor = Vec::with_capacity(8 + 16 * n);
        descriptor.extend_from_slice(&(tensor.data as u64).wrapping_add(tensor.byte_offset).to_le_bytes());
        for d in shape {
            descriptor.extend_from_slice(&d.to_le_bytes());
        }
        for st in &strides {
            descriptor.extend_from_slice(&st.to_le_bytes());
        }
        Some(DlpackView {
            device: (tensor.device_type, tensor.device_id),
            code: tensor.code,
            bits: tensor.bits,
            lanes: tensor.lanes,
            ndim: n,
            layout: if c { 1 } else if f { 2 } else { 0 },
            readonly: flags & DLPACK_FLAG_READ_ONLY != 0,
            descriptor,
        })
    }
}

/// `arc4random` for the LLVM and MLIR static libraries linked into this
/// module: they were configured on glibc 2.36, where it appeared, and call
/// it for random seeds. Defining it here drops the wheel's glibc floor from
/// 2.36 to 2.35 (manylinux_2_35, set by GCC 12's libstdc++: Ubuntu 22.04,
/// whose glibc lacks the symbol).
///
/// # Safety
/// Called by C code with no arguments; `getrandom` writes at most 4 bytes
/// into a live local.
#[unsafe(no_mangle)]
pub extern "C" fn arc4random() -> u32 {
    let mut v = 0u32;
    // Safety: the buffer is a live, writable u32.
    let n = unsafe { libc::getrandom((&mut v as *mut u32).cast(), 4, 0) };
    if n == 4 {
        v
    } else {
        // No entropy source: a seed from the clock and the address space.
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        (t ^ (t >> 32) ^ (&v as *const u32 as u64)) as u32
    }
}
