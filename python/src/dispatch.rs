//! The launch fast path, on both targets. A kernel's first launch with
//! some argument types takes Python's general path (protocols, validation,
//! signature, compile or cache); it then registers here the program and how
//! each argument packs, under the arguments' type key. Later launches with
//! arguments of the same types are one call: the key, the packing and the
//! launch. NumPy arrays (host) key by buffer format (structured dtypes
//! too; an array whose dtype has no buffer format, as ml_dtypes' bfloat16
//! and float8, by its dtype object), rank, layout and read-only flag, read
//! through the buffer protocol; `pydev.DeviceArray`s (either target) by the
//! interned layout key they carry with their prepacked descriptor
//! (`_fast_key`, `_desc`); anything else by its exact type: Python numbers
//! convert natively to the parameter's type (range-checked: what the
//! general path refuses or warns about goes to it), and vectors and structs
//! pack natively by their layout. Foreign cuda arrays are read at each
//! launch: through their type's DLPack C exchange API
//! (`__dlpack_c_exchange_api__`, as PyTorch has), else their `__dlpack__`,
//! else their CUDA Array Interface dict.
//!
//! On cuda the fast path also keeps what the general path guarantees: an
//! array last used on another stream sends the launch to the general path
//! (which makes the stream wait), and each launch's arguments stay alive on
//! its pydev.Stream until that synchronizes.
//!
//! Devices: entries are kept per device (the device of the calling thread's
//! current context, read once a launch), so a program loaded for one
//! device never launches on another, and an argument on another device
//! than the launch's sends it to the general path, which says which: a
//! DeviceArray's key names its device, a DLPack export carries its device,
//! and a CUDA Array Interface pointer is asked of the driver
//! (`cuPointerGetAttributes`, once per distinct pointer) only where the
//! process sees more than one device.

use crate::protocols::{self, ElementMemo};
use crate::{capi, cuda_program::CudaProgram, host_program::HostProgram};
use pydev_runtime::cuda;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};
use pyo3::{PyTraverseError, PyVisit};
use rustc_hash::FxHashMap as HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Launches that took the fast path (counted by `pydev.stats()` as
/// dispatch-cache hits and launches).
pub static FAST_LAUNCHES: AtomicU64 = AtomicU64::new(0);

/// Entries kept per kernel: argument-type combinations beyond this take
/// the general path.
const MAX_ENTRIES: usize = 256;

/// Launches whose arguments a pydev.Stream keeps in one generation: past
/// this many a launch closes it with a fence (`Stream._fence`; the general
/// path's `pydev._streams.keep_alive` reads it as `STREAM_GENERATION`).
pub const STREAM_GENERATION: usize = 256;

#[derive(Clone, PartialEq, Eq, Hash)]
enum KeyPart {
    /// A NumPy array: its buffer's element format, or (an export without
    /// one) the address of its dtype.
    Array { format: Option<String>, dtype: usize, ndim: usize, layout: u8, readonly: bool },
    /// A DeviceArray: the address of its interned layout key (a str that
    /// names its target and signature, kept alive by `pydev._arrays`).
    Device(usize),
    /// A foreign cuda array exported through DLPack: its type's address
    /// and what its signature depends on.
    Dlpack { ty: usize, code: u8, bits: u8, lanes: u16, ndim: usize, layout: u8, readonly: bool },
    /// A foreign cuda array exported through the CUDA Array Interface
    /// only (Numba's): its type's address and what its signature depends
    /// on (`element`: its typestr, and a structured one's fields).
    Cai { ty: usize, element: Arc<str>, ndim: usize, layout: u8, readonly: bool },
    /// The address of the argument's exact type object.
    Type(usize),
}

/// The signedness of an integer parameter, which sets the range a Python
/// int must fit (a signless one takes either sign's).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sign {
    Signed,
    Unsigned,
    Signless,
}

/// How an argument packs (the codes `python/pydev/_launch.py` registers).
/// A number kind converts as the general path does (NumPy's conversions,
/// `pydev._program.Program._scalar`, `pydev._types.scalar_arg`) and sends
/// to the general path whatever the general path would refuse or warn
/// about (an int outside the parameter's range, a finite float that
/// overflows to infinity), so that its error or warning is the same.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Array,
    /// A Python int to an integer of `bits`.
    Int(u8, Sign),
    /// A Python float or int to a float of `bits` (16, 32, 64).
    Float(u8),
    /// A Python complex, float or int to a complex of two `bits` floats.
    Complex(u8),
    Bool,
    /// A NumPy scalar, bfloat16 / float8 stand-in or anything else whose
    /// buffer or `tobytes()` is its packing.
    Raw,
    /// A vector or struct value, packed natively by its layout ([`Plan`]).
    Value,
    /// None for a kernel: no parameter.
    Skip,
    /// None for an interoperable kernel: a null `void*`.
    Null,
    /// A pydev.DeviceArray: its prepacked descriptor.
    DeviceArray,
    /// A foreign cuda array (CuPy, PyTorch...): exported through DLPack
    /// at each launch, with its type's C exchange API when it has one.
    Dlpack,
    /// A foreign cuda array with only the CUDA Array Interface: its dict
    /// read at each launch.
    Cai,
}

impl Kind {
    /// Each kind with its name, in code order: the one definition of the
    /// codes `Dispatch.register` takes (exported as `ARG_KINDS`, which
    /// pydev._launch reads: `int_si32` is a Python int to an si32).
    const ALL: [(Kind, &'static str); 26] = [
        (Kind::Array, "array"),
        (Kind::Bool, "bool"),
        (Kind::Raw, "raw"),
        (Kind::Value, "value"),
        (Kind::Skip, "skip"),
        (Kind::Null, "null"),
        (Kind::DeviceArray, "device_array"),
        (Kind::Dlpack, "dlpack"),
        (Kind::Cai, "cai"),
        (Kind::Float(16), "float_f16"),
        (Kind::Float(32), "float_f32"),
        (Kind::Float(64), "float_f64"),
        (Kind::Complex(32), "complex_f32"),
        (Kind::Complex(64), "complex_f64"),
        (Kind::Int(8, Sign::Signed), "int_si8"),
        (Kind::Int(8, Sign::Unsigned), "int_ui8"),
        (Kind::Int(8, Sign::Signless), "int_i8"),
        (Kind::Int(16, Sign::Signed), "int_si16"),
        (Kind::Int(16, Sign::Unsigned), "int_ui16"),
        (Kind::Int(16, Sign::Signless), "int_i16"),
        (Kind::Int(32, Sign::Signed), "int_si32"),
        (Kind::Int(32, Sign::Unsigned), "int_ui32"),
        (Kind::Int(32, Sign::Signless), "int_i32"),
        (Kind::Int(64, Sign::Signed), "int_si64"),
        (Kind::Int(64, Sign::Unsigned), "int_ui64"),
        (Kind::Int(64, Sign::Signless), "int_i64"),
    ];

    fn from_code(code: u8) -> PyResult<Self> {
        Self::ALL
            .get(usize::from(code))
            .map(|(k, _)| *k)
            .ok_or_else(|| pyo3::exceptions::PyValueError::new_err(format!("unknown argument kind {code}")))
    }
}

/// The argument kinds' names in code order (`ARG_KINDS` of the module).
pub fn kind_names() -> Vec<&'static str> {
    Kind::ALL.iter().map(|(_, n)| *n).collect()
}

enum Program {
    Host(Py<HostProgram>),
    Cuda(Py<CudaProgram>),
}

struct Entry {
    program: Program,
    kinds: Vec<Kind>,
    /// The layout of each `Kind::Value` argument (None for the others).
    plans: Vec<Option<Plan>>,
    /// What the key names by address (the arguments' types, the dtypes of
    /// arrays keyed by dtype), kept alive so that no other object takes
    /// the address while the entry lives.
    anchors: Vec<Py<PyAny>>,
    /// The module globals device code read, as they were at compile time:
    /// a changed one sends the launch to the general path (and a recompile).
    seen: Vec<(Py<PyString>, Option<Py<PyAny>>)>,
    /// The closure cells device code read, with their contents then.
    cells: Vec<(Py<PyAny>, Option<Py<PyAny>>)>,
}

/// A closure cell's contents (None while it is empty).
fn cell_contents<'py>(cell: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    cell.getattr(intern!(cell.py(), "cell_contents")).ok()
}

/// An argument's packed bytes: a DeviceArray's descriptor is borrowed.
enum Packed<'py> {
    Borrowed(Bound<'py, PyBytes>),
    Owned(Vec<u8>),
    /// A scalar's bytes (at most 8), without an allocation per launch.
    Inline([u8; 8], u8),
}

impl Packed<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Packed::Borrowed(b) => b.as_bytes(),
            Packed::Owned(v) => v,
            Packed::Inline(b, n) => &b[..usize::from(*n)],
        }
    }

    fn inline(bytes: &[u8]) -> Self {
        let mut b = [0u8; 8];
        b[..bytes.len()].copy_from_slice(bytes);
        Packed::Inline(b, bytes.len() as u8)
    }
}

/// How a vector or struct value packs natively: its bytes in the CUDA C++
/// layout, as its `tobytes()` gives them (checked when registered:
/// `Dispatch.register`), read through the buffer protocol.
struct Plan {
    size: usize,
    leaf: Leaf,
}

/// A plan as Python gives it: (size, code, ((name, offset, plan), ...)).
type PlanTuple<'py> = (usize, u8, Vec<(Bound<'py, PyString>, usize, Bound<'py, PyAny>)>);

enum Leaf {
    /// An object whose buffer is its bytes (a NumPy scalar).
    Buffer,
    /// A vector: the buffer of its lanes (`_v`, a NumPy array).
    Lanes,
    /// A Python bool: one byte.
    Bool,
    /// A struct: each field's value (an attribute) at its offset.
    Fields(Vec<(Py<PyString>, usize, Plan)>),
}

impl Plan {
    /// A plan from `pydev._launch.value_plan`'s tuples: `(size, code,
    /// fields)`, code 0 buffer, 1 lanes, 2 bool, 3 struct with fields
    /// `((name, offset, plan), ...)`.
    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let (size, code, fields): PlanTuple<'_> = obj.extract()?;
        let leaf = match code {
            0 => Leaf::Buffer,
            1 => Leaf::Lanes,
            2 if size == 1 => Leaf::Bool,
            3 => Leaf::Fields(
                fields
                    .into_iter()
                    .map(|(name, offset, plan)| {
                        let plan = Plan::parse(&plan)?;
                        if offset + plan.size > size {
                            return Err(pyo3::exceptions::PyValueError::new_err("a field outside its struct"));
                        }
                        Ok((name.unbind(), offset, plan))
                    })
                    .collect::<PyResult<_>>()?,
            ),
            _ => return Err(pyo3::exceptions::PyValueError::new_err(format!("unknown value plan {code}"))),
        };
        Ok(Plan { size, leaf })
    }

    fn traverse(&self, visit: &PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Leaf::Fields(fields) = &self.leaf {
            for (name, _, plan) in fields {
                visit.call(name)?;
                plan.traverse(visit)?;
            }
        }
        Ok(())
    }

    /// The bytes of `value`; None when a part of it is not what the plan
    /// says (the general path then packs it).
    fn pack(&self, value: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
        let mut out = vec![0u8; self.size];
        Ok(self.fill(value, &mut out)?.then_some(out))
    }

    fn fill(&self, value: &Bound<'_, PyAny>, out: &mut [u8]) -> PyResult<bool> {
        Ok(match &self.leaf {
            Leaf::Buffer => capi::copy_buffer(value, out),
            Leaf::Lanes => capi::copy_buffer(&value.getattr(intern!(value.py(), "_v"))?, out),
            Leaf::Bool => match value.downcast_exact::<pyo3::types::PyBool>() {
                Ok(b) => {
                    out[0] = u8::from(b.is_true());
                    true
                }
                Err(_) => false,
            },
            Leaf::Fields(fields) => {
                for (name, offset, plan) in fields {
                    if !plan.fill(&value.getattr(name.bind(value.py()))?, &mut out[*offset..offset + plan.size])? {
                        return Ok(false);
                    }
                }
                true
            }
        })
    }
}

/// The bytes of Python int `a` as an integer of `bits` and `sign`; None
/// when it does not fit (the general path raises its OverflowError).
fn int_bytes(a: &Bound<'_, PyAny>, bits: u8, sign: Sign) -> Option<Packed<'static>> {
    let v = match a.extract::<i64>() {
        Ok(v) => i128::from(v),
        Err(_) => i128::from(a.extract::<u64>().ok()?),
    };
    let half = 1i128 << (bits - 1);
    let (lo, hi) = match sign {
        Sign::Signed => (-half, half - 1),
        Sign::Unsigned => (0, 2 * half - 1),
        Sign::Signless => (-half, 2 * half - 1),
    };
    if v < lo || v > hi {
        return None;
    }
    Some(Packed::inline(&(v as u64).to_le_bytes()[..usize::from(bits / 8)]))
}

/// A Python float, or int as float64 (correctly rounded, as NumPy's
/// conversions do); None for an int too large for a float64.
fn float_value(a: &Bound<'_, PyAny>) -> Option<f64> {
    match a.downcast_exact::<PyFloat>() {
        Ok(f) => Some(f.value()),
        Err(_) => a.extract::<f64>().ok(),
    }
}

/// `x` rounded once to a float of `bits`, as NumPy's `float16(x)`,
/// `float32(x)`: None when a finite `x` overflows to infinity (NumPy warns;
/// the general path does).
fn float_bits(x: f64, bits: u8) -> Option<u64> {
    let (b, inf) = match bits {
        16 if x.is_nan() => return None, // NumPy keeps a NaN's payload its own way
        16 => {
            let h = pydev_dialect::float::FLOAT16;
            let b = h.round(x);
            (b, b & 0x7fff == h.inf())
        }
        32 => {
            let f = x as f32;
            (u64::from(f.to_bits()), f.is_infinite())
        }
        _ => (x.to_bits(), false),
    };
    (!inf || x.is_infinite()).then_some(b)
}

fn float_bytes(a: &Bound<'_, PyAny>, bits: u8) -> Option<Packed<'static>> {
    let b = float_bits(float_value(a)?, bits)?;
    Some(Packed::inline(&b.to_le_bytes()[..usize::from(bits / 8)]))
}

/// A Python complex, float or int as a complex of two `bits` floats.
fn complex_bytes(a: &Bound<'_, PyAny>, bits: u8) -> Option<Packed<'static>> {
    let (re, im) = match a.downcast_exact::<pyo3::types::PyComplex>() {
        Ok(c) => (c.real(), c.imag()),
        Err(_) => (float_value(a)?, 0.0),
    };
    let n = usize::from(bits / 8);
    let mut out = [0u8; 16];
    out[..n].copy_from_slice(&float_bits(re, bits)?.to_le_bytes()[..n]);
    out[n..2 * n].copy_from_slice(&float_bits(im, bits)?.to_le_bytes()[..n]);
    Some(if n * 2 <= 8 { Packed::inline(&out[..2 * n]) } else { Packed::Owned(out[..2 * n].to_vec()) })
}

/// The bytes of argument `a` passed by value as `kind` (`plan`: a
/// value's layout); None when the general path must pack it.
fn pack_value(a: &Bound<'_, PyAny>, kind: Kind, plan: Option<&Plan>) -> PyResult<Option<Packed<'static>>> {
    Ok(match kind {
        Kind::Int(bits, sign) => int_bytes(a, bits, sign),
        Kind::Float(bits) => float_bytes(a, bits),
        Kind::Complex(bits) => complex_bytes(a, bits),
        Kind::Bool => Some(Packed::inline(&[u8::from(a.is_truthy()?)])),
        // Its buffer (a NumPy scalar's), else its `tobytes()` (ml_dtypes
        // scalars, the bfloat16 / float8 stand-ins).
        Kind::Raw => Some(Packed::Owned(match capi::buffer_vec(a) {
            Some(b) => b,
            None => a.call_method0(intern!(a.py(), "tobytes"))?.downcast::<PyBytes>()?.as_bytes().to_vec(),
        })),
        Kind::Value => match plan {
            Some(plan) => plan.pack(a)?.map(Packed::Owned),
            None => None,
        },
        Kind::Null => Some(Packed::inline(&[0; 8])),
        Kind::Array | Kind::DeviceArray | Kind::Dlpack | Kind::Cai | Kind::Skip => None,
    })
}

#[pyclass(frozen, module = "pydev._pydev")]
pub struct Dispatch {
    ndarray: Py<PyType>,
    device_array: Py<PyType>,
    globals: Py<PyDict>,
    /// By (device, argument key): the device of the launch (0 on the host).
    entries: Mutex<HashMap<(i32, Vec<KeyPart>), Entry>>,
    /// Types registered as foreign cuda arrays, by address: DLPack
    /// producers (exported to compute the key) or CUDA Array Interface ones.
    foreign: Mutex<HashMap<usize, Foreign>>,
    /// The elements of CUDA Array Interface arrays read before, with their
    /// keys ([`KeyPart::Cai`]'s `element`).
    cai_elements: Mutex<ElementMemo<Arc<str>>>,
    /// By argument position.
    cai_seen: Mutex<Vec<Option<CaiSeen>>>,
}

#[derive(Clone, Copy)]
struct Foreign {
    kind: Kind,
    /// The type's `__dlpack_c_exchange_api__`, which exports without
    /// calling `__dlpack__`.
    exchange: Option<capi::ExchangeApi>,
}

/// The arguments' key, the descriptors of the arrays among them, and the
/// DLPack capsules those came from (kept alive while the launch may run).
struct Keyed<'py> {
    key: Vec<KeyPart>,
    descriptors: Vec<Option<Packed<'py>>>,
    capsules: Vec<Bound<'py, PyAny>>,
    /// The tensors exported through exchange APIs (kept alive likewise).
    exchanged: Vec<capi::Managed>,
    /// The v3 `stream`s of CUDA Array Interface arguments.
    streams: Vec<usize>,
    /// The current work streams of the producers of `exchanged` (CUstream
    /// handles, the legacy default stream as 1), which the launch waits for
    /// as `__dlpack__(stream=...)` would have made it.
    waits: Vec<usize>,
    /// The buffer exports of host arrays, held until the launch returns:
    /// it runs without the GIL, and another thread must not resize or free
    /// the memory meanwhile.
    held: Vec<capi::HeldBuffer>,
}

/// What the cuda fast path reads of a `__cuda_array_interface__` dict,
/// through the one reader of the protocol (`protocols::read_cai`, which
/// `pydev._arrays.parse_cai` calls too); anything the reader refuses is
/// `None`, and the general path raises the reader's error.
#[derive(Clone)]
struct CaiView {
    element: Arc<str>,
    ndim: usize,
    layout: u8,
    readonly: bool,
    stream: Option<usize>,
    descriptor: Vec<u8>,
}

/// The last CUDA Array Interface dict read at an argument position: its
/// entries (`protocols::cai_entries`), each an object that cannot change
/// (None, a bool, an exact int or str, a tuple of them) but the `descr`,
/// and what was read of them. A dict whose entries are these same objects
/// reads the same (a `descr` list is matched through the element memo):
/// producers that keep their dict, or make it of the same objects, are
/// not read anew at each launch.
struct CaiSeen {
    entries: [Option<Py<PyAny>>; 8],
    /// Whether the `descr` entry cannot change either.
    descr_frozen: bool,
    view: CaiView,
}

/// Argument positions whose last CUDA Array Interface dict is kept.
const CAI_SEEN_POSITIONS: usize = 32;

/// Whether `v` is an object that cannot change: None, a bool, an exact int
/// or str, or a tuple of such objects.
fn frozen(v: &Bound<'_, PyAny>) -> bool {
    v.is_none()
        || v.is_exact_instance_of::<PyBool>()
        || v.is_exact_instance_of::<PyInt>()
        || v.is_exact_instance_of::<PyString>()
        || v.downcast_exact::<PyTuple>().is_ok_and(|t| t.iter().all(|e| frozen(&e)))
}

impl Dispatch {
    /// The view of the dict at `position` when its entries are those of
    /// the dict read there last ([`CaiSeen`]).
    fn cai_seen(&self, position: usize, entries: &[Option<Bound<'_, PyAny>>; 8]) -> Option<CaiView> {
        let (view, descr_frozen) = {
            let seen = self.cai_seen.lock().unwrap_or_else(|p| p.into_inner());
            let s = seen.get(position)?.as_ref()?;
            for (k, (now, then)) in entries.iter().zip(&s.entries).enumerate() {
                match (now, then) {
                    (None, None) => {}
                    (Some(a), Some(b)) if a.is(b) => {}
                    (Some(_), Some(_)) if k == protocols::CAI_DESCR && !s.descr_frozen => {}
                    _ => return None,
                }
            }
            (s.view.clone(), s.descr_frozen)
        };
        if !descr_frozen {
            let t = entries[protocols::CAI_TYPESTR].as_ref()?;
            let descr = ElementMemo::<Arc<str>>::descr(t, entries[protocols::CAI_DESCR].as_ref());
            let (key, _) = self.cai_elements.lock().unwrap_or_else(|p| p.into_inner()).find(t, descr)?;
            if !Arc::ptr_eq(&key, &view.element) {
                return None;
            }
        }
        Some(view)
    }

    fn cai_view(&self, obj: &Bound<'_, PyAny>, position: usize) -> Option<CaiView> {
        let cai = obj.getattr(intern!(obj.py(), "__cuda_array_interface__")).ok()?;
        let entries = cai.downcast_exact::<PyDict>().ok().map(|d| protocols::cai_entries(d));
        if let Some(view) = entries.as_ref().and_then(|e| self.cai_seen(position, e)) {
            return Some(view);
        }
        let view = self.read_cai_view(&cai)?;
        if let Some(e) = entries.filter(|_| position < CAI_SEEN_POSITIONS) {
            let others_frozen =
                e.iter().enumerate().all(|(k, v)| k == protocols::CAI_DESCR || v.as_ref().is_none_or(frozen));
            if others_frozen {
                let descr_frozen = e[protocols::CAI_DESCR].as_ref().is_none_or(frozen);
                let seen = CaiSeen { entries: e.map(|v| v.map(Bound::unbind)), descr_frozen, view: view.clone() };
                let mut all = self.cai_seen.lock().unwrap_or_else(|p| p.into_inner());
                if all.len() <= position {
                    all.resize_with(position + 1, || None);
                }
                all[position] = Some(seen);
            }
        }
        Some(view)
    }

    fn read_cai_view(&self, cai: &Bound<'_, PyAny>) -> Option<CaiView> {
        let memo = || self.cai_elements.lock().unwrap_or_else(|p| p.into_inner());
        let c = protocols::read_cai_with(cai, |t, descr| {
            let descr = ElementMemo::<Arc<str>>::descr(t, descr);
            if let Some((key, itemsize)) = memo().find(t, descr) {
                return Ok((itemsize, key));
            }
            let e = protocols::read_element(t, descr)?;
            // A structured element is named by its typestr and fields (a
            // tuple of numbers and strings, whose repr is as fixed as they are).
            let key: Arc<str> = match &e.fields {
                None => e.typestr.into(),
                Some(f) => format!("{}{}", e.typestr, f.repr()?).into(),
            };
            memo().insert(t, descr, e.itemsize, key.clone());
            Ok((e.itemsize, key))
        })
        .ok()?;
        let stream = match &c.stream {
            None => None,
            Some(s) => Some(s.extract::<usize>().ok()?),
        };
        let n = c.shape.len();
        let mut descriptor = Vec::with_capacity(8 + 16 * n);
        descriptor.extend_from_slice(&c.ptr.to_le_bytes());
        for d in &c.shape {
            descriptor.extend_from_slice(&d.to_le_bytes());
        }
        let layout = match &c.strides {
            Some(s) => {
                for d in s {
                    descriptor.extend_from_slice(&d.to_le_bytes());
                }
                contiguity(&c.shape, s)
            }
            None => {
                // C order, written in place.
                descriptor.resize(8 + 16 * n, 0);
                protocols::each_c_stride(&c.shape, |k, s| {
                    descriptor[8 + 8 * (n + k)..][..8].copy_from_slice(&s.to_le_bytes());
                });
                C_CONTIGUOUS
            }
        };
        Some(CaiView { element: c.element, ndim: n, layout, readonly: c.readonly, stream, descriptor })
    }
}

/// C-contiguous: the layout key of an array whose every dimension is dense
/// in C order ([`contiguity`]).
pub const C_CONTIGUOUS: u8 = 1;
/// Fortran-contiguous (rank > 1 and not C-contiguous).
pub const F_CONTIGUOUS: u8 = 2;
/// Neither: strided.
pub const STRIDED: u8 = 0;

/// The layout key of an array of `shape` with `strides` in elements, as the
/// signature's `::1` marks it (python/pydev/_arrays.py `dims`, which
/// python/tests/test_abi_agreement.py checks against this): C order when
/// every dimension of extent > 1 has the stride of the extents after it,
/// else Fortran order (rank > 1) when it has the stride of those before
/// it, else strided. Dimensions of extent 1 constrain nothing, so a 1-d
/// contiguous array is C; an array with an extent 0 is C whatever its
/// strides (NumPy and DLPack call it both C and F; a launch accepts it for
/// a Fortran-order parameter too). The one definition for every array
/// protocol of the fast path (buffer, DLPack, CUDA Array Interface).
pub fn contiguity(shape: &[i64], strides: &[i64]) -> u8 {
    let n = shape.len();
    let dense = |k: usize, extent: i64| shape[k] <= 1 || strides[k] == extent;
    if shape.contains(&0) || (0..n).all(|k| dense(k, shape[k + 1..].iter().product())) {
        C_CONTIGUOUS
    } else if n > 1 && (0..n).all(|k| dense(k, shape[..k].iter().product())) {
        F_CONTIGUOUS
    } else {
        STRIDED
    }
}

impl Dispatch {
    /// The arguments' type key, and the descriptors of the arrays among
    /// them; `None` when an array has no fast path (a NumPy array that
    /// exports no buffer, or any on cuda; a DeviceArray without a key; a
    /// DLPack export that fails or is not a plain cuda array of device 0).
    /// `cuda`: the launch's stream handle on the cuda target; `device`: the
    /// launch's device (cuda), which every foreign array must be on.
    fn key<'py>(&self, args: &Bound<'py, PyTuple>, cuda: Option<usize>, device: i32) -> PyResult<Option<Keyed<'py>>> {
        let py = args.py();
        let ndarray = self.ndarray.as_ptr();
        let device_array = self.device_array.as_ptr();
        let mut keyed = Keyed {
            key: Vec::with_capacity(args.len()),
            descriptors: Vec::with_capacity(args.len()),
            capsules: Vec::new(),
            exchanged: Vec::new(),
            streams: Vec::new(),
            waits: Vec::new(),
            held: Vec::new(),
        };
        let mut apis: Vec<capi::ExchangeApi> = Vec::new();
        let foreign = |ty: usize| self.foreign.lock().unwrap_or_else(|p| p.into_inner()).get(&ty).copied();
        // CUDA Array Interface pointers asked of the driver this launch
        // (with several devices only: with one, every pointer is on it).
        let several = cuda.is_some() && cuda::device_count().is_ok_and(|n| n > 1);
        let mut asked: Vec<usize> = Vec::new();
        let mut dlpack_stream: Option<Bound<'_, PyAny>> = None;
        for (i, a) in args.iter().enumerate() {
            let ty = a.get_type().as_ptr() as usize;
            if ty == ndarray as usize {
                if cuda.is_some() {
                    return Ok(None);
                }
                let Some((view, held)) = capi::array_view(&a, i)? else { return Ok(None) };
                let dtype = match view.format {
                    Some(_) => 0,
                    None => a.getattr(intern!(py, "dtype"))?.as_ptr() as usize,
                };
                keyed.key.push(KeyPart::Array {
                    format: view.format,
                    dtype,
                    ndim: view.ndim,
                    layout: view.layout,
                    readonly: view.readonly,
                });
                keyed.descriptors.push(Some(Packed::Owned(view.descriptor)));
                keyed.held.push(held);
            } else if ty == device_array as usize {
                let layout = a.getattr(intern!(py, "_fast_key"))?;
                if layout.is_none() {
                    return Ok(None);
                }
                keyed.key.push(KeyPart::Device(layout.as_ptr() as usize));
                keyed
                    .descriptors
                    .push(Some(Packed::Borrowed(a.getattr(intern!(py, "_desc"))?.downcast_into::<PyBytes>()?)));
            } else if let Some(Foreign { kind, exchange }) = foreign(ty) {
                if let (Some(_), Some(api)) = (cuda, exchange) {
                    let Some((view, managed)) = api.export(&a) else { return Ok(None) };
                    if view.device != (2, device) {
                        return Ok(None);
                    }
                    keyed.key.push(KeyPart::Dlpack {
                        ty,
                        code: view.code,
                        bits: view.bits,
                        lanes: view.lanes,
                        ndim: view.ndim,
                        layout: view.layout,
                        readonly: view.readonly,
                    });
                    keyed.descriptors.push(Some(Packed::Owned(view.descriptor)));
                    keyed.exchanged.push(managed);
                    if !apis.contains(&api) {
                        apis.push(api);
                    }
                    continue;
                }
                if matches!(kind, Kind::Cai) {
                    let (Some(_), Some(view)) = (cuda, self.cai_view(&a, i)) else { return Ok(None) };
                    let ptr = u64::from_le_bytes(view.descriptor[..8].try_into().expect("8 bytes")) as usize;
                    if several && ptr != 0 && !asked.contains(&ptr) {
                        match cuda::pointer_device(ptr) {
                            Ok(Some(d)) if d != device => return Ok(None), // the general path names both devices
                            Ok(_) => asked.push(ptr),
                            Err(_) => return Ok(None),
                        }
                    }
                    keyed.key.push(KeyPart::Cai {
                        ty,
                        element: view.element,
                        ndim: view.ndim,
                        layout: view.layout,
                        readonly: view.readonly,
                    });
                    keyed.descriptors.push(Some(Packed::Owned(view.descriptor)));
                    keyed.streams.extend(view.stream);
                    continue;
                }
                // As pydev._arrays.from_dlpack: the producer orders its work
                // before the launch's stream (0, the legacy default, is 1
                // here; None on the host).
                let stream = match (&dlpack_stream, cuda) {
                    (Some(s), _) => s,
                    (None, Some(handle)) => {
                        dlpack_stream.insert((if handle == 0 { 1 } else { handle }).into_pyobject(py)?.into_any())
                    }
                    (None, None) => dlpack_stream.insert(py.None().into_bound(py)),
                };
                let Ok(capsule) = capi::dlpack_export(&a, stream) else { return Ok(None) };
                let Some(view) = capi::dlpack_view(&capsule) else { return Ok(None) };
                // kDLCUDA and the launch's device, or kDLCPU on the host.
                if view.device != if cuda.is_some() { (2, device) } else { (1, 0) } {
                    return Ok(None);
                }
                keyed.key.push(KeyPart::Dlpack {
                    ty,
                    code: view.code,
                    bits: view.bits,
                    lanes: view.lanes,
                    ndim: view.ndim,
                    layout: view.layout,
                    readonly: view.readonly,
                });
                keyed.descriptors.push(Some(Packed::Owned(view.descriptor)));
                keyed.capsules.push(capsule);
            } else {
                keyed.key.push(KeyPart::Type(ty));
                keyed.descriptors.push(None);
            }
        }
        for api in apis {
            let Ok(stream) = api.current_work_stream(py, device) else { return Ok(None) };
            keyed.waits.extend(stream.map(|s| if s == 0 { 1 } else { s }));
        }
        Ok(Some(keyed))
    }
}

/// A launch dimension as `pydev._launch.dim3` reads it, for exact ints
/// and tuples of them only (bools, NumPy integers and lists take the
/// general path); None where dim3 would refuse or convert.
fn dim3(v: &Bound<'_, PyAny>) -> Option<(u32, u32, u32)> {
    let one = |x: &Bound<'_, PyAny>| -> Option<u32> {
        if !x.is_exact_instance_of::<PyInt>() {
            return None;
        }
        x.extract::<u32>().ok().filter(|n| *n > 0)
    };
    if let Ok(t) = v.downcast_exact::<PyTuple>() {
        let mut d = [1u32; 3];
        if t.is_empty() || t.len() > 3 {
            return None;
        }
        for (k, x) in t.iter().enumerate() {
            d[k] = one(&x)?;
        }
        return Some((d[0], d[1], d[2]));
    }
    one(v).map(|n| (n, 1, 1))
}

#[pymethods]
impl Dispatch {
    /// What it holds, for Python's cycle collector: a kernel's Dispatch holds
    /// the kernel's module globals, which usually hold the kernel itself;
    /// unseen, that cycle would keep every collected kernel's programs (and
    /// their JIT code) alive.
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.ndarray)?;
        visit.call(&self.device_array)?;
        visit.call(&self.globals)?;
        // The collector runs with the GIL held, and launches hold this lock
        // only briefly and never while running Python code; a contended lock
        // (another thread mid-launch) skips the entries this time.
        if let Ok(entries) = self.entries.try_lock() {
            for e in entries.values() {
                match &e.program {
                    Program::Host(p) => visit.call(p)?,
                    Program::Cuda(p) => visit.call(p)?,
                }
                for (name, value) in &e.seen {
                    visit.call(name)?;
                    visit.call(value)?;
                }
                for (cell, value) in &e.cells {
                    visit.call(cell)?;
                    visit.call(value)?;
                }
                for a in &e.anchors {
                    visit.call(a)?;
                }
                for plan in e.plans.iter().flatten() {
                    plan.traverse(&visit)?;
                }
            }
        }
        Ok(())
    }

    #[new]
    fn new(ndarray: Bound<'_, PyType>, device_array: Bound<'_, PyType>, globals: Bound<'_, PyDict>) -> Self {
        Self {
            ndarray: ndarray.unbind(),
            device_array: device_array.unbind(),
            globals: globals.unbind(),
            entries: Mutex::new(HashMap::default()),
            foreign: Mutex::new(HashMap::default()),
            cai_elements: Mutex::new(ElementMemo::default()),
            cai_seen: Mutex::new(Vec::new()),
        }
    }

    /// Registers `program` for the types of `args` (just launched through
    /// the general path, on stream handle `stream` for cuda) with each
    /// argument's packing kind and the module names its device code reads.
    /// `plans`: the layout of each `value` argument (`pydev._launch.value_plan`;
    /// None for the others). `packed`: the general path's bytes of each
    /// parameter (None arguments of a kernel have none), which the native
    /// packing of every argument passed by value must equal: a value whose
    /// plan packs otherwise is packed by its `tobytes()`, and a number that
    /// packs otherwise registers nothing. False when nothing was registered.
    #[pyo3(signature = (args, program, kinds, names, stream=0, cells=Vec::new(), plans=Vec::new(), packed=None))]
    #[allow(clippy::too_many_arguments)]
    fn register(
        &self,
        args: &Bound<'_, PyTuple>,
        program: &Bound<'_, PyAny>,
        kinds: Vec<u8>,
        names: Vec<Bound<'_, PyString>>,
        stream: usize,
        cells: Vec<Bound<'_, PyAny>>,
        plans: Vec<Option<Bound<'_, PyAny>>>,
        packed: Option<Vec<Vec<u8>>>,
    ) -> PyResult<bool> {
        let py = args.py();
        if kinds.len() != args.len() || !(plans.is_empty() || plans.len() == args.len()) {
            return Ok(false);
        }
        let program = if let Ok(p) = program.downcast::<HostProgram>() {
            Program::Host(p.clone().unbind())
        } else {
            Program::Cuda(program.downcast::<CudaProgram>()?.clone().unbind())
        };
        let mut kinds = kinds.into_iter().map(Kind::from_code).collect::<PyResult<Vec<_>>>()?;
        let mut plans = match plans.is_empty() {
            true => args.iter().map(|_| None).collect::<Vec<_>>(),
            false => plans.iter().map(|p| p.as_ref().map(Plan::parse).transpose()).collect::<PyResult<_>>()?,
        };
        if let Some(packed) = packed {
            let mut general = packed.iter();
            for ((a, kind), plan) in args.iter().zip(kinds.iter_mut()).zip(plans.iter_mut()) {
                if matches!(kind, Kind::Skip) {
                    continue;
                }
                let Some(want) = general.next() else { return Ok(false) };
                if matches!(kind, Kind::Array | Kind::DeviceArray | Kind::Dlpack | Kind::Cai) {
                    continue; // descriptors are read at each launch
                }
                let ours = pack_value(&a, *kind, plan.as_ref())?;
                if ours.as_ref().map(Packed::bytes) == Some(want.as_slice()) {
                    continue;
                }
                if !matches!(kind, Kind::Value) {
                    return Ok(false);
                }
                (*kind, *plan) = (Kind::Raw, None);
                if pack_value(&a, Kind::Raw, None)?.as_ref().map(Packed::bytes) != Some(want.as_slice()) {
                    return Ok(false);
                }
            }
            if general.next().is_some() {
                return Ok(false);
            }
        }
        let cuda = matches!(program, Program::Cuda(_));
        {
            // Host arrays export through `__dlpack__` (the exchange API's
            // work streams are cuda's).
            let mut foreign = self.foreign.lock().unwrap_or_else(|p| p.into_inner());
            for (a, kind) in args.iter().zip(&kinds) {
                if matches!(kind, Kind::Dlpack | Kind::Cai) {
                    let ty = a.get_type();
                    let exchange = if matches!(kind, Kind::Dlpack) && cuda { capi::ExchangeApi::of(&ty) } else { None };
                    let known = foreign.entry(ty.as_ptr() as usize).or_insert(Foreign { kind: *kind, exchange });
                    known.exchange = known.exchange.or(exchange);
                }
            }
        }
        let device = if cuda { cuda::current_device().map_err(crate::driver::cuda_error)? } else { 0 };
        let Some(Keyed { key, .. }) = self.key(args, cuda.then_some(stream), device)? else { return Ok(false) };
        let mut anchors = Vec::new();
        for (a, part) in args.iter().zip(&key) {
            match part {
                KeyPart::Type(_) => anchors.push(a.get_type().into_any().unbind()),
                KeyPart::Array { dtype, .. } if *dtype != 0 => anchors.push(a.getattr(intern!(py, "dtype"))?.unbind()),
                _ => {}
            }
        }
        let globals = self.globals.bind(py);
        let seen = names
            .into_iter()
            .map(|n| Ok((n.clone().unbind(), globals.get_item(&n)?.map(Bound::unbind))))
            .collect::<PyResult<Vec<_>>>()?;
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.len() >= MAX_ENTRIES {
            return Ok(false);
        }
        let cells = cells.into_iter().map(|c| {
            let now = cell_contents(&c).map(Bound::unbind);
            (c.unbind(), now)
        });
        entries.insert((device, key), Entry { program, kinds, plans, anchors, seen, cells: cells.collect() });
        Ok(true)
    }

    /// Launches `args` if their types were registered: on cuda on `stream`
    /// (a pydev.Stream, which keeps the arguments alive until it has run
    /// the launch) or on the stream `handle` of a foreign stream object
    /// (whose owner keeps them alive), else on the host. False
    /// sends the launch to the general path (unregistered types, a changed
    /// module constant, a number its parameter cannot take, an array last used on another
    /// stream: the general path says why or does what is needed).
    /// `grid` and `block` as `device.launch` takes them (an int or a tuple
    /// of 1 to 3 ints); anything else, or a dimension outside 1..2^32, is
    /// the general path's to refuse with its message.
    #[pyo3(signature = (args, grid, block, shared, stream=None, handle=None))]
    fn try_launch(
        &self,
        args: &Bound<'_, PyTuple>,
        grid: &Bound<'_, PyAny>,
        block: &Bound<'_, PyAny>,
        shared: usize,
        stream: Option<&Bound<'_, PyAny>>,
        handle: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let py = args.py();
        let (Some(grid), Some(block)) = (dim3(grid), dim3(block)) else { return Ok(false) };
        let (handle, stream_device) = match stream {
            None => (handle.cloned(), None),
            Some(s) => (Some(s.getattr(intern!(py, "handle"))?), Some(s.getattr(intern!(py, "device"))?)),
        };
        let cuda = handle.as_ref().map(|h| h.extract::<usize>()).transpose()?;
        // The launch's device: that of the thread's current context (one
        // cuCtxGetCurrent); a pydev.Stream of another device is the
        // general path's to refuse.
        let device = match cuda {
            Some(_) => match cuda::current_device() {
                Ok(d) => d,
                Err(_) => return Ok(false), // the general path says why
            },
            None => 0,
        };
        if let (Some(_), Some(sd)) = (cuda, &stream_device) {
            if sd.extract::<i32>().ok() != Some(device) {
                return Ok(false);
            }
        }
        let Some(Keyed { key, descriptors, capsules, exchanged, mut streams, mut waits, held }) =
            self.key(args, cuda, device)?
        else {
            return Ok(false);
        };
        let key = (device, key);
        let last_stream = intern!(py, "_last_stream");
        let mut device_arrays = Vec::new();
        let (program, packed) = {
            let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            let Some(entry) = entries.get(&key) else { return Ok(false) };
            if matches!(entry.program, Program::Cuda(_)) != handle.is_some() {
                return Ok(false);
            }
            let globals = self.globals.bind(py);
            for (name, then) in &entry.seen {
                let now = globals.get_item(name.bind(py))?;
                if now.as_ref().map(Bound::as_ptr) != then.as_ref().map(Py::as_ptr) {
                    return Ok(false);
                }
            }
            for (cell, then) in &entry.cells {
                if cell_contents(cell.bind(py)).as_ref().map(Bound::as_ptr) != then.as_ref().map(Py::as_ptr) {
                    return Ok(false);
                }
            }
            let mut packed = Vec::with_capacity(args.len());
            for (((a, kind), plan), descriptor) in args.iter().zip(&entry.kinds).zip(&entry.plans).zip(descriptors) {
                let bytes = match kind {
                    Kind::Array | Kind::Dlpack | Kind::Cai => descriptor.unwrap_or(Packed::Owned(Vec::new())),
                    Kind::DeviceArray => {
                        if let Some(h) = &handle {
                            let last = a.getattr(last_stream)?;
                            if last.is_none() {
                                device_arrays.push(a.clone()); // now used on this stream
                            } else if !last.is(h) && !last.eq(h)? {
                                return Ok(false);
                            }
                        }
                        descriptor.unwrap_or(Packed::Owned(Vec::new()))
                    }
                    Kind::Skip => continue,
                    _ => match pack_value(&a, *kind, plan.as_ref())? {
                        Some(p) => p,
                        None => return Ok(false), // the general path converts it, or says why not
                    },
                };
                packed.push(bytes);
            }
            let program = match &entry.program {
                Program::Host(p) => Program::Host(p.clone_ref(py)),
                Program::Cuda(p) => Program::Cuda(p.clone_ref(py)),
            };
            (program, packed)
        };
        match (program, handle) {
            (Program::Cuda(p), Some(handle)) => {
                let ours = cuda.unwrap_or(0);
                let same = |s: &usize| *s == if ours == 0 { 1 } else { ours };
                // As the general path: the launch's stream waits for the
                // streams CUDA Array Interface producers name (v3), unless
                // PYDEV_CAI_SYNC=0, and for the work streams of exchange-API
                // producers, as their `__dlpack__(stream=...)` would.
                streams.retain(|s| !same(s));
                if !streams.is_empty() && std::env::var("PYDEV_CAI_SYNC").map_or(true, |v| v.trim() != "0") {
                    waits.append(&mut streams);
                }
                waits.retain(|s| !same(s));
                waits.sort_unstable();
                waits.dedup();
                for s in waits {
                    // SAFETY: `ours` is the launch's stream (a pydev.Stream's
                    // or a __cuda_stream__ object's handle) and `s` a stream
                    // a producer named for its pending work.
                    unsafe { cuda::stream_wait_on(device, ours, s) }.map_err(crate::driver::cuda_error)?;
                }
                let refs: Vec<&[u8]> = packed.iter().map(Packed::bytes).collect();
                // SAFETY: the descriptors were read from the arguments just
                // now (DeviceArrays, DLPack exports, CAI dicts of device
                // memory), which stay alive until the stream has run the
                // launch (`keep` below) or, on a foreign stream, as its owner
                // keeps them; the stream handle is the launch's.
                unsafe { p.get().run(grid, block, shared, ours, &refs, Some(device)) }?;
                for a in &device_arrays {
                    a.setattr(last_stream, &handle)?;
                }
                if let Some(s) = stream {
                    // Read after the launch: another thread may have closed
                    // the generation (and fenced it) meanwhile.
                    let keep = s.getattr(intern!(py, "_keep"))?.downcast_into::<PyList>()?;
                    if capsules.is_empty() && exchanged.is_empty() {
                        keep.append(args)?;
                    } else if exchanged.is_empty() {
                        // One tuple: the arguments, then their capsules.
                        let mut items = capsules;
                        items.insert(0, args.clone().into_any());
                        keep.append(PyTuple::new(py, items)?)?;
                    } else {
                        keep.append((
                            args,
                            PyTuple::new(py, capsules)?,
                            Py::new(py, capi::Exchanged::new(exchanged))?,
                        ))?;
                    }
                    if keep.len() > STREAM_GENERATION {
                        s.call_method0(intern!(py, "_fence"))?;
                    }
                }
            }
            (Program::Host(p), None) => {
                let bytes = packed.iter().map(|b| b.bytes().to_vec()).collect();
                // SAFETY: the descriptors of host arrays were read from
                // their buffer exports, held (`held`) until the launch
                // returns; DeviceArray descriptors address the host memory
                // their (living) arguments own.
                unsafe { p.get().run(py, grid, block, shared, bytes) }?;
                drop(held);
            }
            _ => return Ok(false), // the entry's target was checked against the stream above
        }
        FAST_LAUNCHES.fetch_add(1, Ordering::Relaxed);
        Ok(true)
    }

    fn __len__(&self) -> usize {
        self.entries.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

/// What the native launch entry needs of pydev's Python side, given once
/// by `pydev._launch` (`launch_hooks`): the launchable types (a list the
/// package appends to: `pydev.Program`, the frontends' kernels), the stream
/// type, the key of a launchable's Dispatch in its dispatch table, and the
/// general path.
struct Hooks {
    launchable: Py<PyList>,
    stream: Py<PyType>,
    fast: Py<PyAny>,
    general: Py<PyAny>,
}

static HOOKS: pyo3::sync::PyOnceLock<Hooks> = pyo3::sync::PyOnceLock::new();

/// Gives the native launch entry the list of launchable types (read at
/// each launch, so types appended later count), pydev's stream type, the
/// fast-path key and the general path (`general(f, args, grid, block,
/// stream, shared, tried)`, `tried`: the Dispatch already refused these
/// arguments); once per process (a second call changes nothing).
#[pyfunction]
pub fn launch_hooks(
    py: Python<'_>,
    launchable: Bound<'_, PyList>,
    stream: Bound<'_, PyType>,
    fast: Bound<'_, PyAny>,
    general: Bound<'_, PyAny>,
) {
    let _ = HOOKS.get_or_init(py, || Hooks {
        launchable: launchable.unbind(),
        stream: stream.unbind(),
        fast: fast.unbind(),
        general: general.unbind(),
    });
}

/// Whether $PYDEV_TARGET selects the cuda target (unset or "cuda"), as
/// pydev._launch._cuda_target: os.environ writes reach the C environment.
fn cuda_selected(py: Python<'_>) -> bool {
    capi::pydev_target_is(py, b"cuda").unwrap_or(true)
}

/// `device.launch`'s entry (pydev._launch.entry): the fast path of a
/// registered kernel or Program on a cuda pydev.Stream or a `__cuda_stream__` object,
/// or on a host pydev.Stream under PYDEV_TARGET=host, without a Python
/// frame; everything else, and anything irregular (which it names), goes to
/// the general path.
#[pyfunction]
pub fn fast_launch(
    f: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    grid: &Bound<'_, PyAny>,
    block: &Bound<'_, PyAny>,
    stream: &Bound<'_, PyAny>,
    shared: &Bound<'_, PyAny>,
) -> PyResult<Py<PyAny>> {
    let py = f.py();
    let Some(hooks) = HOOKS.get(py) else {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "pydev's launch hooks are not set (pydev._launch.entry sets them)",
        ));
    };
    // The Dispatch is asked once: a refusal reaches the general path as such
    // (its Python fast path would ask again, exporting DLPack arrays twice).
    let tried = match launched(hooks, f, args, grid, block, stream, shared)? {
        Some(true) => return Ok(py.None()),
        Some(false) => true,
        None => false,
    };
    hooks.general.call1(py, (f, args, grid, block, stream, shared, tried))
}

/// Some(whether it launched) when the kernel's Dispatch was asked; None
/// when the call is none the entry takes.
fn launched(
    hooks: &Hooks,
    f: &Bound<'_, PyAny>,
    args: &Bound<'_, PyTuple>,
    grid: &Bound<'_, PyAny>,
    block: &Bound<'_, PyAny>,
    stream: &Bound<'_, PyAny>,
    shared: &Bound<'_, PyAny>,
) -> PyResult<Option<bool>> {
    let py = f.py();
    if !capi::list_holds_type_of(hooks.launchable.bind(py), f) || !shared.is_exact_instance_of::<PyInt>() {
        return Ok(None);
    }
    let Ok(shared) = shared.extract::<usize>() else { return Ok(None) };
    let Ok(table) = f.getattr(intern!(py, "_dispatch")) else { return Ok(None) };
    let Ok(table) = table.downcast_into::<PyDict>() else { return Ok(None) };
    let Some(d) = table.get_item(hooks.fast.bind(py))? else { return Ok(None) };
    let Ok(d) = d.downcast_into::<Dispatch>() else { return Ok(None) };
    let d = d.get();
    if stream.get_type().is(hooks.stream.bind(py)) {
        let target = stream.getattr(intern!(py, "target"))?;
        let cuda = intern!(py, "cuda");
        if target.is(cuda) || target.eq(cuda)? {
            return if cuda_selected(py) {
                d.try_launch(args, grid, block, shared, Some(stream), None).map(Some)
            } else {
                Ok(None)
            };
        }
        // host: when PYDEV_TARGET says so (else the general path asks active_target)
        let host = capi::pydev_target_is(py, b"host") == Some(true);
        return if host { d.try_launch(args, grid, block, shared, None, None).map(Some) } else { Ok(None) };
    }
    if stream.is_none() || !cuda_selected(py) {
        return Ok(None);
    }
    // A cuda.core Stream or another __cuda_stream__ object, read as
    // pydev._streams.stream_handle does (anything else: its message).
    let Ok(protocol) = stream.getattr(intern!(py, "__cuda_stream__")) else { return Ok(None) };
    let value = if protocol.is_callable() { protocol.call0()? } else { protocol };
    let Ok(pair) = value.downcast::<PyTuple>() else { return Ok(None) };
    if pair.len() != 2 || pair.get_item(0)?.extract::<i64>().ok() != Some(0) {
        return Ok(None);
    }
    let handle = pair.get_item(1)?;
    if !handle.is_exact_instance_of::<PyInt>() {
        return Ok(None);
    }
    d.try_launch(args, grid, block, shared, None, Some(&handle)).map(Some)
}

#[cfg(test)]
mod tests {
    use super::{contiguity, float_bits, C_CONTIGUOUS, F_CONTIGUOUS, STRIDED};

    #[test]
    fn an_array_with_an_extent_0_is_c_contiguous_whatever_its_strides() {
        // NumPy gives np.zeros((1, 0, 2)) strides of 0, which fit Fortran order.
        assert_eq!(contiguity(&[1, 0, 2], &[0, 0, 0]), C_CONTIGUOUS);
        assert_eq!(contiguity(&[2, 0], &[0, 1]), C_CONTIGUOUS);
        assert_eq!(contiguity(&[0, 4], &[1, 7]), C_CONTIGUOUS);
        assert_eq!(contiguity(&[3, 4], &[1, 3]), F_CONTIGUOUS);
        assert_eq!(contiguity(&[3, 4], &[8, 2]), STRIDED);
    }

    #[test]
    fn floats_round_once_and_refuse_overflow() {
        // float16 from the float64 itself: 1 + 2^-11 + 2^-40 rounds up,
        // where going through float32 would tie and round to even (1.0).
        assert_eq!(float_bits(1.0 + 2f64.powi(-11) + 2f64.powi(-40), 16), Some(0x3c01));
        assert_eq!(float_bits(65504.0, 16), Some(0x7bff));
        assert_eq!(float_bits(2f64.powi(-24), 16), Some(0x0001));
        assert_eq!(float_bits(-0.0, 16), Some(0x8000));
        // A finite value that overflows is the general path's (NumPy warns).
        assert_eq!(float_bits(65520.0, 16), None);
        assert_eq!(float_bits(1e300, 32), None);
        assert_eq!(float_bits(f64::NEG_INFINITY, 16), Some(0xfc00));
        assert_eq!(float_bits(f64::INFINITY, 32), Some(0x7f80_0000));
        assert_eq!(float_bits(f64::NAN, 16), None);
        assert_eq!(float_bits(0.1, 32), Some(u64::from(0.1f32.to_bits())));
        assert_eq!(float_bits(0.1, 64), Some(0.1f64.to_bits()));
    }
}
