//! The crate's own `unsafe` (besides the runtime calls it documents where
//! it makes them): byte views of Python buffers and held buffer exports,
//! DLPack capsules and DLPack's C exchange API.

use crate::protocols;
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A copy of a C-contiguous buffer's bytes.
pub fn buffer_bytes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    let buf: PyBuffer<u8> =
        PyBuffer::get(obj).map_err(|_| PyValueError::new_err(format!("{what} must be a bytes-like object")))?;
    buf.to_vec(obj.py()).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// Runs `f` on the writable bytes of `obj` (at least `len` of them).
pub fn with_writable<R>(obj: &Bound<'_, PyAny>, len: usize, f: impl FnOnce(&mut [u8]) -> R) -> PyResult<R> {
    let buf: PyBuffer<u8> =
        PyBuffer::get(obj).map_err(|_| PyValueError::new_err("the destination must support the buffer protocol"))?;
    if buf.readonly() || !buf.is_c_contiguous() || buf.len_bytes() < len {
        return Err(PyValueError::new_err(format!(
            "the destination must be a writable, C-contiguous buffer of at least {len} bytes"
        )));
    }
    // SAFETY: the buffer is writable, contiguous and at least `len` bytes,
    // and stays alive (held by `buf`) while `f` runs with the GIL held.
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr().cast::<u8>(), len) };
    Ok(f(bytes))
}

/// Copies the bytes of `obj`'s contiguous buffer into `out`: false (the
/// error cleared) when it exports none or not exactly `out.len()` bytes.
pub fn copy_buffer(obj: &Bound<'_, PyAny>, out: &mut [u8]) -> bool {
    let Some(held) = HeldBuffer::get(obj, pyo3::ffi::PyBUF_C_CONTIGUOUS) else { return false };
    let v = &*held.0;
    if usize::try_from(v.len).ok() != Some(out.len()) {
        return false;
    }
    // SAFETY: a C-contiguous export of `v.len` bytes at `v.buf`, alive
    // while `held` is.
    out.copy_from_slice(unsafe { std::slice::from_raw_parts(v.buf.cast::<u8>(), out.len()) });
    true
}

/// The bytes of `obj`'s contiguous buffer (a NumPy scalar's); None (the
/// error cleared) when it exports none.
pub fn buffer_vec(obj: &Bound<'_, PyAny>) -> Option<Vec<u8>> {
    let held = HeldBuffer::get(obj, pyo3::ffi::PyBUF_C_CONTIGUOUS)?;
    let v = &*held.0;
    let len = usize::try_from(v.len).ok()?;
    // SAFETY: a C-contiguous export of `v.len` bytes at `v.buf`, alive
    // while `held` is.
    Some(unsafe { std::slice::from_raw_parts(v.buf.cast::<u8>(), len) }.to_vec())
}

/// What the launch fast path reads of a host array through the buffer
/// protocol: its type key (element format, rank, layout, read-only) and the
/// kernel ABI descriptor `{T* data; u64 shape[n]; i64 strides[n]}` (strides
/// in elements), without `__array_interface__` dictionaries.
pub struct ArrayView {
    /// None when the exporter cannot describe its elements in a format
    /// string (NumPy arrays of ml_dtypes' bfloat16 and float8): the caller
    /// keys those by their dtype.
    pub format: Option<String>,
    pub ndim: usize,
    /// `dispatch::contiguity`: 1 C-contiguous, 2 Fortran-contiguous (rank >
    /// 1), 0 strided (as the signature's `::1` marks).
    pub layout: u8,
    pub readonly: bool,
    pub descriptor: Vec<u8>,
}

/// A buffer export held for the length of a launch: while it lives, the
/// exporter keeps the memory where it is (a `bytearray` or `array.array`
/// refuses to resize with `BufferError`; a NumPy array holds a reference).
/// Released, with the GIL, when dropped.
pub struct HeldBuffer(Box<pyo3::ffi::Py_buffer>);

impl HeldBuffer {
    /// Exports `obj`'s buffer with `flags`; `None` (the error cleared) when
    /// it exports none.
    fn get(obj: &Bound<'_, PyAny>, flags: std::ffi::c_int) -> Option<Self> {
        use pyo3::ffi;
        // SAFETY: a zeroed Py_buffer is a valid place for PyObject_GetBuffer
        // to fill; `obj` is a live object and the GIL is held (`Bound`).
        unsafe {
            let mut view: Box<ffi::Py_buffer> = Box::new(std::mem::zeroed());
            if ffi::PyObject_GetBuffer(obj.as_ptr(), &mut *view, flags) != 0 {
                ffi::PyErr_Clear();
                return None;
            }
            Some(Self(view))
        }
    }

    /// Holds `obj`'s buffer export (any kind of buffer), if it has one.
    pub fn hold(obj: &Bound<'_, PyAny>) -> Option<Self> {
        Self::get(obj, pyo3::ffi::PyBUF_RECORDS_RO)
    }
}

impl Drop for HeldBuffer {
    fn drop(&mut self) {
        // SAFETY: the view was filled by a successful PyObject_GetBuffer and
        // is released once, with the GIL (attached here if need be).
        Python::attach(|_| unsafe { pyo3::ffi::PyBuffer_Release(&mut *self.0) });
    }
}

/// The [`ArrayView`] of an object exporting a strided buffer, and the
/// export itself, held until the caller drops it (for the whole launch:
/// the launch runs without the GIL); `None` when it exports none (the
/// general launch path then says why). An export without a format is
/// asked for when one with a format fails.
pub fn array_view(obj: &Bound<'_, PyAny>, position: usize) -> PyResult<Option<(ArrayView, HeldBuffer)>> {
    let Some(held) =
        HeldBuffer::get(obj, pyo3::ffi::PyBUF_RECORDS_RO).or_else(|| HeldBuffer::get(obj, pyo3::ffi::PyBUF_STRIDED_RO))
    else {
        return Ok(None);
    };
    let v = &*held.0;
    // SAFETY: PyObject_GetBuffer succeeded, so the view is initialised;
    // `format` is a C string or null (an export without one), and `shape` and
    // `strides` hold `ndim` entries each, alive while the export is held.
    unsafe {
        let n = usize::try_from(v.ndim).unwrap_or(0);
        let item = v.itemsize as i64;
        let shape: &[pyo3::ffi::Py_ssize_t] = if n > 0 { std::slice::from_raw_parts(v.shape, n) } else { &[] };
        let strides: &[pyo3::ffi::Py_ssize_t] = if n > 0 { std::slice::from_raw_parts(v.strides, n) } else { &[] };
        let format = if v.format.is_null() {
            None
        } else {
            Some(std::ffi::CStr::from_ptr(v.format).to_string_lossy().into_owned())
        };
        if item <= 0 || strides.iter().any(|s| (*s as i64) % item != 0) {
            return Err(PyValueError::new_err(format!(
                "argument {position}: strides {strides:?} are not multiples of the item size {item}"
            )));
        }
        let shape_i64: Vec<i64> = shape.iter().map(|d| *d as i64).collect();
        let elements: Vec<i64> = strides.iter().map(|s| *s as i64 / item).collect();
        let mut descriptor = Vec::with_capacity(8 + 16 * n);
        descriptor.extend_from_slice(&(v.buf as u64).to_le_bytes());
        for d in shape {
            descriptor.extend_from_slice(&(*d as u64).to_le_bytes());
        }
        for st in strides {
            descriptor.extend_from_slice(&((*st as i64) / item).to_le_bytes());
        }
        let view = ArrayView {
            format,
            ndim: n,
            layout: crate::dispatch::contiguity(&shape_i64, &elements),
            readonly: v.readonly != 0,
            descriptor,
        };
        Ok(Some((view, held)))
    }
}

/// What the cuda launch fast path reads of a DLPack capsule (from a
/// producer's `__dlpack__`) or an exchange-API export: where the memory
/// is, its type key and the kernel ABI descriptor, of a tensor that
/// `protocols::check_tensor` (which `pydev._dlpack.DLPackTensor` also
/// reads through) accepts.
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

// DLPack's structs (dlpack.h 1.3) from the dlpack-ffi crate (bindgen's):
// its enums are newtypes, so any device type a producer writes is a value.
use dlpack_ffi::{DLManagedTensor, DLManagedTensorVersioned, DLTensor};

const DLPACK_FLAG_READ_ONLY: u64 = dlpack_ffi::DLPACK_FLAG_BITMASK_READ_ONLY as u64;

/// The [`DlpackView`] of an unconsumed DLPack capsule ("dltensor_versioned"
/// of DLPack 1.x, or "dltensor"); `None` for anything else. The capsule is
/// not renamed: while it lives, the tensor does, and when it is freed its
/// producer's destructor calls the deleter, as for any capsule not consumed.
pub fn dlpack_view(capsule: &Bound<'_, PyAny>) -> Option<DlpackView> {
    use pyo3::ffi;
    const VERSIONED: &std::ffi::CStr = c"dltensor_versioned";
    const LEGACY: &std::ffi::CStr = c"dltensor";
    let cap = capsule.as_ptr();
    // SAFETY: PyCapsule_IsValid accepts any object and only reads it; a
    // valid capsule of these names holds a DLManagedTensorVersioned or a
    // DLManagedTensor (whose first member is its DLTensor), alive while the
    // capsule is. Its shape (and strides, when not null) hold ndim entries.
    unsafe {
        let (tensor, flags) = if ffi::PyCapsule_IsValid(cap, VERSIONED.as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(cap, VERSIONED.as_ptr()).cast::<DLManagedTensorVersioned>();
            if m.is_null() || (*m).version.major != 1 {
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
        tensor_view(tensor, flags)
    }
}

/// (DLDeviceType, device id) of a tensor; a device type past i32's range
/// (none exists) reads as -1, which no check accepts.
fn device_of(tensor: &DLTensor) -> (i32, i32) {
    (i32::try_from(tensor.device.device_type.0).unwrap_or(-1), tensor.device.device_id)
}

/// A producer's tensor as it is, for `protocols::check_tensor`.
///
/// # Safety
/// `tensor.shape` (and `tensor.strides`, when not null) hold `ndim` entries.
unsafe fn raw_tensor(tensor: &DLTensor, flags: u64) -> protocols::RawTensor {
    let n = usize::try_from(tensor.ndim).unwrap_or(0);
    // SAFETY: as the caller promises (null arrays are not read).
    let (shape, strides) = unsafe {
        (
            if n > 0 && !tensor.shape.is_null() {
                std::slice::from_raw_parts(tensor.shape, n).to_vec()
            } else {
                vec![]
            },
            (n > 0 && !tensor.strides.is_null()).then(|| std::slice::from_raw_parts(tensor.strides, n).to_vec()),
        )
    };
    protocols::RawTensor {
        data: tensor.data as u64,
        byte_offset: tensor.byte_offset,
        device: device_of(tensor),
        ndim: tensor.ndim,
        dtype: (tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes),
        shape,
        strides,
        readonly: flags & DLPACK_FLAG_READ_ONLY != 0,
    }
}

/// The [`DlpackView`] of a producer's tensor; `None` when
/// `protocols::check_tensor` refuses it (the general path says why).
///
/// # Safety
/// `tensor.shape` (and `tensor.strides`, when not null) hold `ndim` entries.
unsafe fn tensor_view(tensor: &DLTensor, flags: u64) -> Option<DlpackView> {
    let n = usize::try_from(tensor.ndim).ok()?;
    if n > 0 && tensor.shape.is_null() {
        return None;
    }
    // SAFETY: as the caller promises (a null array is not read). The shape
    // is read where it lies: this runs for every DLPack array of every
    // fast-path launch, so it copies only what the descriptor needs.
    let shape: &[i64] = if n > 0 { unsafe { std::slice::from_raw_parts(tensor.shape, n) } } else { &[] };
    let device = device_of(tensor);
    let dtype = (tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes);
    // The device type and dtype are the key's (see validate_extents).
    protocols::validate_extents(shape, tensor.data as u64).ok()?;
    let mut descriptor = Vec::with_capacity(8 + 16 * n);
    descriptor.extend_from_slice(&(tensor.data as u64).wrapping_add(tensor.byte_offset).to_le_bytes());
    for d in shape {
        descriptor.extend_from_slice(&d.to_le_bytes());
    }
    let layout = if n > 0 && !tensor.strides.is_null() {
        // SAFETY: as the caller promises: `ndim` strides.
        let strides = unsafe { std::slice::from_raw_parts(tensor.strides, n) };
        for d in strides {
            descriptor.extend_from_slice(&d.to_le_bytes());
        }
        crate::dispatch::contiguity(shape, strides)
    } else {
        // C order (null strides), written in place.
        descriptor.resize(8 + 16 * n, 0);
        protocols::each_c_stride(shape, |k, s| descriptor[8 + 8 * (n + k)..][..8].copy_from_slice(&s.to_le_bytes()));
        crate::dispatch::C_CONTIGUOUS
    };
    Some(DlpackView {
        device,
        code: dtype.0,
        bits: dtype.1,
        lanes: dtype.2,
        ndim: n,
        layout,
        readonly: flags & DLPACK_FLAG_READ_ONLY != 0,
        descriptor,
    })
}

/// Why [`consume_capsule`] took no tensor.
pub enum ConsumeError {
    /// Not a capsule named "dltensor" or "dltensor_versioned".
    NotCapsule,
    /// A "dltensor_versioned" of another major version than 1: (major, minor).
    Version(u32, u32),
    /// The capsule could not be renamed "used_dltensor(_versioned)".
    Rename,
}

/// A producer's managed tensor, owned: its deleter runs once when dropped.
enum Owned {
    Versioned(std::ptr::NonNull<DLManagedTensorVersioned>),
    Legacy(std::ptr::NonNull<DLManagedTensor>),
}

// SAFETY: DLPack lets the owner of a managed tensor call its deleter from
// any thread; pydev drops it with the GIL held (its DlpackOwner is freed or
// released by Python).
unsafe impl Send for Owned {}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: the capsule handed over this live tensor (renamed
        // "used_..." by `consume_capsule`); its deleter is called once,
        // here, as DLPack asks of the owner.
        unsafe {
            match self {
                Owned::Versioned(m) => {
                    if let Some(deleter) = (*m.as_ptr()).deleter {
                        deleter(m.as_ptr());
                    }
                }
                Owned::Legacy(m) => {
                    if let Some(deleter) = (*m.as_ptr()).deleter {
                        deleter(m.as_ptr());
                    }
                }
            }
        }
    }
}

/// A DLPack tensor consumed from a capsule (`pydev._dlpack.DLPackTensor`
/// keeps it): the producer's deleter runs when this is freed or released.
#[pyclass(frozen, module = "pydev._pydev")]
pub struct DlpackOwner {
    tensor: std::sync::Mutex<Option<Owned>>,
}

#[pymethods]
impl DlpackOwner {
    /// Calls the producer's deleter now (at most once).
    fn release(&self) {
        let owned = self.tensor.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(owned); // the lock released first: the deleter may run Python code
    }
}

/// Consumes a DLPack capsule as the DLPack Python specification asks of a
/// consumer: renamed "used_dltensor_versioned" / "used_dltensor", its
/// tensor is the returned owner's; also the tensor as it reads.
pub fn consume_capsule(capsule: &Bound<'_, PyAny>) -> Result<(protocols::RawTensor, DlpackOwner), ConsumeError> {
    use pyo3::ffi;
    let cap = capsule.as_ptr();
    // SAFETY: PyCapsule_IsValid accepts any object and only reads it; a
    // valid capsule of these names holds a DLManagedTensorVersioned or a
    // DLManagedTensor, alive while the capsule is and, once renamed, until
    // its deleter runs (the owner's drop). The names are static C strings,
    // as PyCapsule_SetName needs. The GIL is held (`Bound`).
    unsafe {
        let (raw, owned, used) = if ffi::PyCapsule_IsValid(cap, c"dltensor_versioned".as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(cap, c"dltensor_versioned".as_ptr()).cast::<DLManagedTensorVersioned>();
            let Some(m) = std::ptr::NonNull::new(m) else {
                ffi::PyErr_Clear();
                return Err(ConsumeError::NotCapsule);
            };
            let v = m.as_ref();
            if v.version.major != 1 {
                return Err(ConsumeError::Version(v.version.major, v.version.minor));
            }
            (raw_tensor(&v.dl_tensor, v.flags), Owned::Versioned(m), c"used_dltensor_versioned")
        } else if ffi::PyCapsule_IsValid(cap, c"dltensor".as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(cap, c"dltensor".as_ptr()).cast::<DLManagedTensor>();
            let Some(m) = std::ptr::NonNull::new(m) else {
                ffi::PyErr_Clear();
                return Err(ConsumeError::NotCapsule);
            };
            (raw_tensor(&m.as_ref().dl_tensor, 0), Owned::Legacy(m), c"used_dltensor")
        } else {
            ffi::PyErr_Clear();
            return Err(ConsumeError::NotCapsule);
        };
        if ffi::PyCapsule_SetName(cap, used.as_ptr()) != 0 {
            ffi::PyErr_Clear();
            std::mem::forget(owned); // not ours: the capsule still names it unconsumed
            return Err(ConsumeError::Rename);
        }
        Ok((raw, DlpackOwner { tensor: std::sync::Mutex::new(Some(owned)) }))
    }
}

/// DLPack's C exchange API (`DLPackExchangeAPI`, dlpack.h 1.2/1.3): the
/// table of C functions an array type publishes as the capsule
/// `type(x).__dlpack_c_exchange_api__` ("dlpack_exchange_api"), so that a
/// consumer exports its arrays without calling `__dlpack__` from Python.
type ExchangeApiRaw = dlpack_ffi::DLPackExchangeAPI;

/// A producer type's exchange API (major version 1), which the DLPack
/// specification makes live as long as the process.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ExchangeApi(*const ExchangeApiRaw);

// SAFETY: the table is immutable and lives as long as the process; its
// functions are called with the GIL held.
unsafe impl Send for ExchangeApi {}
// SAFETY: as for Send: shared references only read the immutable table.
unsafe impl Sync for ExchangeApi {}

/// A DLPack tensor exported through an exchange API, owned by the consumer:
/// its deleter runs when the [`Exchanged`] holding it is freed.
pub struct Managed(std::ptr::NonNull<DLManagedTensorVersioned>);

// SAFETY: DLPack lets the owner of a managed tensor call its deleter from
// any thread; pydev does so with the GIL held (the Exchanged is freed by
// Python).
unsafe impl Send for Managed {}
// SAFETY: a shared `Managed` gives no access to the tensor (only its drop does).
unsafe impl Sync for Managed {}

/// The tensors one launch exported through exchange APIs, kept on its
/// pydev.Stream (with the arguments) until the stream has run the launch.
#[pyclass(frozen, module = "pydev._pydev")]
pub struct Exchanged {
    /// Held for their deleters, which run when this is freed.
    _tensors: Vec<Managed>,
}

impl Exchanged {
    pub fn new(tensors: Vec<Managed>) -> Self {
        Self { _tensors: tensors }
    }
}

impl Drop for Managed {
    fn drop(&mut self) {
        // SAFETY: the producer handed over this live tensor; its deleter
        // is called once, here, as DLPack asks of the owner.
        unsafe {
            if let Some(deleter) = (*self.0.as_ptr()).deleter {
                deleter(self.0.as_ptr());
            }
        }
    }
}

impl ExchangeApi {
    /// The exchange API `ty` publishes, as DLPack 1.3 specifies it: a
    /// capsule named "dlpack_exchange_api" holding a `DLPackExchangeAPI`
    /// whose header is versioned; `prev_api` links older tables, walked
    /// (at most 16 steps) to a version 1.2 or later table (the layout
    /// appeared in 1.2) with `managed_tensor_from_py_object_no_sync` set
    /// (`current_work_stream` may be null: no stream to wait for; the
    /// other functions pydev never calls). Anything else, a bare integer
    /// address included (which could point anywhere: DLPack 1.2 drafts
    /// published one, 1.3 made it a capsule), is `None`: the launch then
    /// exports through `__dlpack__`.
    pub fn of(ty: &Bound<'_, pyo3::types::PyType>) -> Option<Self> {
        use pyo3::ffi;
        const NAME: &std::ffi::CStr = c"dlpack_exchange_api";
        let attr = ty.getattr(pyo3::intern!(ty.py(), "__dlpack_c_exchange_api__")).ok()?;
        // SAFETY: PyCapsule_IsValid accepts any object and only reads it; a
        // valid capsule of this name holds a DLPackExchangeAPI, which the
        // specification makes live as long as the process. `prev_api` links
        // older tables of the same kind (null ends the chain); the walk is
        // bounded.
        unsafe {
            if ffi::PyCapsule_IsValid(attr.as_ptr(), NAME.as_ptr()) != 1 {
                return None;
            }
            let mut table =
                ffi::PyCapsule_GetPointer(attr.as_ptr(), NAME.as_ptr()).cast::<ExchangeApiRaw>().cast_const();
            if table.is_null() {
                ffi::PyErr_Clear();
                return None;
            }
            for _ in 0..16 {
                let raw = table.as_ref()?;
                let version = raw.header.version;
                if version.major == 1 {
                    // The table's layout is DLPack 1.2's (the first with it).
                    let usable = version.minor >= 2 && raw.managed_tensor_from_py_object_no_sync.is_some();
                    return usable.then_some(ExchangeApi(table));
                }
                // The header is the first member of every version's table.
                table = raw.header.prev_api.cast::<ExchangeApiRaw>().cast_const();
            }
            None
        }
    }

    /// Exports `obj` (of the type this API came from): its view and the
    /// owned tensor; `None` when the producer fails (its error is dropped:
    /// the general path calls `__dlpack__` and reports what is wrong).
    pub fn export(&self, obj: &Bound<'_, PyAny>) -> Option<(DlpackView, Managed)> {
        let mut out = std::ptr::null_mut();
        // SAFETY: the table is live (see `of`); the function takes a
        // PyObject* of its type and, on success, hands over a live tensor
        // whose shape and strides hold ndim entries; the GIL is held.
        unsafe {
            let from = (*self.0).managed_tensor_from_py_object_no_sync?;
            if from(obj.as_ptr().cast(), &mut out) != 0 || out.is_null() {
                pyo3::ffi::PyErr_Clear();
                return None;
            }
            let managed = Managed(std::ptr::NonNull::new(out)?);
            let m = &*out;
            let view = if m.version.major == 1 { tensor_view(&m.dl_tensor, m.flags) } else { None };
            view.map(|v| (v, managed))
        }
    }

    /// The stream the producer's pending work on cuda device `device` is
    /// ordered on (a CUstream: 0 is the legacy default stream); `None`
    /// when the producer keeps no current stream.
    pub fn current_work_stream(&self, py: Python<'_>, device: i32) -> PyResult<Option<usize>> {
        let mut out = std::ptr::null_mut();
        // SAFETY: as `export`; the function writes one pointer.
        unsafe {
            let Some(current) = (*self.0).current_work_stream else { return Ok(None) };
            if current(dlpack_ffi::DLDeviceType::kDLCUDA, device, &mut out) != 0 {
                return Err(PyErr::take(py)
                    .unwrap_or_else(|| PyValueError::new_err("the producer's current_work_stream failed")));
            }
        }
        Ok(Some(out as usize))
    }
}

/// What an export's `manager_ctx` holds: the shape and strides its
/// DLTensor points into, and the object that keeps the memory alive.
struct ExportCtx {
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    _owner: Py<PyAny>,
}

/// Exports made by [`dlpack_capsule`] whose deleter has not run.
static LIVE_EXPORTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

pub fn live_exports() -> usize {
    LIVE_EXPORTS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Frees an export's context, releasing its owner at once. The deleter may
/// run on any thread, as DLPack allows: it attaches to the interpreter;
/// where it cannot (at shutdown), pyo3 defers the release.
///
/// # Safety
/// `ctx` came from `Box::into_raw` in [`dlpack_capsule`] and is freed once.
unsafe fn free_ctx(ctx: *mut u8) {
    // SAFETY: as the caller promises.
    let ctx = unsafe { Box::from_raw(ctx.cast::<ExportCtx>()) };
    LIVE_EXPORTS.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    Python::try_attach(move |_| drop(ctx));
}

unsafe extern "C" fn delete_versioned(m: *mut DLManagedTensorVersioned) {
    // SAFETY: `m` is a tensor dlpack_capsule boxed; DLPack calls the
    // deleter once.
    unsafe {
        let m = Box::from_raw(m);
        free_ctx(m.manager_ctx.cast());
    }
}

unsafe extern "C" fn delete_legacy(m: *mut DLManagedTensor) {
    // SAFETY: as `delete_versioned`.
    unsafe {
        let m = Box::from_raw(m);
        free_ctx(m.manager_ctx.cast());
    }
}

/// A capsule still carrying its unconsumed name when it dies was never
/// consumed: its tensor is freed here. A consumer renames the capsule
/// ("used_dltensor...") and calls the deleter itself.
unsafe extern "C" fn capsule_destructor(capsule: *mut pyo3::ffi::PyObject) {
    use pyo3::ffi;
    // SAFETY: called by Python with the dying capsule; PyCapsule_IsValid
    // only reads it, and a valid capsule of these names holds a tensor
    // dlpack_capsule made (or one a producer made, whose deleter we call).
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, c"dltensor_versioned".as_ptr()) == 1 {
            let m =
                ffi::PyCapsule_GetPointer(capsule, c"dltensor_versioned".as_ptr()).cast::<DLManagedTensorVersioned>();
            if let Some(deleter) = (*m).deleter {
                deleter(m);
            }
        } else if ffi::PyCapsule_IsValid(capsule, c"dltensor".as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(capsule, c"dltensor".as_ptr()).cast::<DLManagedTensor>();
            if let Some(deleter) = (*m).deleter {
                deleter(m);
            }
        }
    }
}

/// What [`dlpack_capsule`] exports: where the memory is and how it is laid out.
pub struct ExportSpec {
    pub data: u64,
    pub shape: Vec<i64>,
    /// In elements; `None` for C order.
    pub strides: Option<Vec<i64>>,
    /// (type code, bits, lanes).
    pub dtype: (u8, u8, u16),
    /// (DLDeviceType, device id).
    pub device: (i32, i32),
    pub readonly: bool,
    /// A "dltensor_versioned" capsule (DLPack 1.x) rather than "dltensor".
    pub versioned: bool,
}

/// A DLPack capsule of `spec`'s memory, which `owner` keeps alive until the
/// consumer calls the deleter or the capsule dies unconsumed; the native
/// counterpart of `pydev._dlpack.make_capsule`.
pub fn dlpack_capsule<'py>(py: Python<'py>, spec: ExportSpec, owner: Py<PyAny>) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::ffi;
    if spec.strides.as_ref().is_some_and(|s| s.len() != spec.shape.len()) {
        return Err(PyValueError::new_err("strides and shape differ in length"));
    }
    let ndim = i32::try_from(spec.shape.len()).map_err(|_| PyValueError::new_err("too many dimensions"))?;
    let ctx = Box::into_raw(Box::new(ExportCtx { shape: spec.shape, strides: spec.strides, _owner: owner }));
    LIVE_EXPORTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // SAFETY: the context is live until the deleter frees it, and its
    // vectors are not touched again, so the pointers into them stay valid.
    let (shape, strides) =
        unsafe { ((*ctx).shape.as_ptr(), (*ctx).strides.as_ref().map_or(std::ptr::null(), |s| s.as_ptr())) };
    let dl_tensor = DLTensor {
        data: spec.data as *mut std::ffi::c_void,
        device: dlpack_ffi::DLDevice {
            device_type: dlpack_ffi::DLDeviceType(u32::try_from(spec.device.0).unwrap_or(0)),
            device_id: spec.device.1,
        },
        ndim,
        dtype: dlpack_ffi::DLDataType { code: spec.dtype.0, bits: spec.dtype.1, lanes: spec.dtype.2 },
        shape: shape.cast_mut(),
        strides: strides.cast_mut(),
        byte_offset: 0,
    };
    let (pointer, name) = if spec.versioned {
        let m = DLManagedTensorVersioned {
            version: dlpack_ffi::DLPackVersion { major: 1, minor: 0 },
            manager_ctx: ctx.cast(),
            deleter: Some(delete_versioned),
            flags: if spec.readonly { DLPACK_FLAG_READ_ONLY } else { 0 },
            dl_tensor,
        };
        (Box::into_raw(Box::new(m)).cast::<std::ffi::c_void>(), c"dltensor_versioned")
    } else {
        let m = DLManagedTensor { dl_tensor, manager_ctx: ctx.cast(), deleter: Some(delete_legacy) };
        (Box::into_raw(Box::new(m)).cast::<std::ffi::c_void>(), c"dltensor")
    };
    // SAFETY: the pointer is a live boxed tensor and the name a static C
    // string; on failure no capsule owns the tensor, so it is freed here.
    unsafe {
        let capsule = ffi::PyCapsule_New(pointer, name.as_ptr(), Some(capsule_destructor));
        if capsule.is_null() {
            if spec.versioned {
                delete_versioned(pointer.cast());
            } else {
                delete_legacy(pointer.cast());
            }
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, capsule))
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
    // SAFETY: the buffer is a live, writable u32.
    let n = unsafe { libc::getrandom((&mut v as *mut u32).cast(), 4, 0) };
    if n == 4 {
        v
    } else {
        // No entropy source: a seed from the clock and the address space.
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        (t ^ (t >> 32) ^ (&v as *const u32 as u64)) as u32
    }
}

/// Whether `list` holds the exact type of `obj`, compared by address: the
/// native launch entry asks it of every launch (pydev._launch.LAUNCHABLE),
/// so it takes no reference and makes no `Bound` of the items.
pub fn list_holds_type_of(list: &Bound<'_, pyo3::types::PyList>, obj: &Bound<'_, PyAny>) -> bool {
    use pyo3::ffi;
    // SAFETY: the GIL is held (`Bound`); `list` is a live list whose items
    // are read by index below its current length and only compared by
    // address (PyList_GetItem lends them; the abi3 API has no macros);
    // `obj`'s type pointer is read from a live object.
    unsafe {
        let ty = ffi::Py_TYPE(obj.as_ptr()).cast::<ffi::PyObject>();
        let n = ffi::PyList_Size(list.as_ptr());
        (0..n).any(|i| ffi::PyList_GetItem(list.as_ptr(), i) == ty)
    }
}

/// `$PYDEV_TARGET`'s value, compared in place (None: unset), as a launch
/// reads it: `std::env::var_os` would copy it (an allocation a launch).
pub fn pydev_target_is(_py: Python<'_>, value: &[u8]) -> Option<bool> {
    // SAFETY: getenv returns null or a NUL-terminated string in the
    // environment, read here at once. The environment changes under
    // Python through os.environ (putenv), which holds the GIL, as the
    // caller does (`_py`), and pydev's Rust code never sets it.
    unsafe {
        let v = libc::getenv(c"PYDEV_TARGET".as_ptr());
        (!v.is_null()).then(|| std::ffi::CStr::from_ptr(v).to_bytes() == value)
    }
}

extern "C" {
    // CPython exports it since 3.9 and made it stable ABI in 3.12, so every
    // interpreter this abi3 (>= 3.11) module loads in has it; pyo3's
    // declaration needs a 3.12 build.
    fn PyObject_VectorcallMethod(
        name: *mut pyo3::ffi::PyObject,
        args: *const *mut pyo3::ffi::PyObject,
        nargsf: usize,
        kwnames: *mut pyo3::ffi::PyObject,
    ) -> *mut pyo3::ffi::PyObject;
}

/// `obj.__dlpack__(stream=stream, max_version=(1, 0))` as one vectorcall:
/// no bound method, and no keyword dict for the producer to unpack (with
/// CuPy's Cython `__dlpack__`, 0.3 µs an array on an H200).
pub fn dlpack_export<'py>(obj: &Bound<'py, PyAny>, stream: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::sync::PyOnceLock;
    use pyo3::types::PyTuple;
    static KWNAMES: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();
    static VERSION: PyOnceLock<Py<PyTuple>> = PyOnceLock::new();
    let py = obj.py();
    let kwnames = KWNAMES.get_or_try_init(py, || {
        PyTuple::new(py, [pyo3::intern!(py, "stream"), pyo3::intern!(py, "max_version")]).map(Bound::unbind)
    })?;
    let version = VERSION.get_or_try_init(py, || PyTuple::new(py, [1, 0]).map(Bound::unbind))?;
    let args = [obj.as_ptr(), stream.as_ptr(), version.as_ptr()];
    // SAFETY: `args` holds the receiver and one value per name of
    // `kwnames` (a tuple of str), all alive for the call, which borrows
    // them (no PY_VECTORCALL_ARGUMENTS_OFFSET: args[-1] is not touched);
    // the result is a new reference or null with an exception set.
    unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            PyObject_VectorcallMethod(pyo3::intern!(py, "__dlpack__").as_ptr(), args.as_ptr(), 1, kwnames.as_ptr()),
        )
    }
}
