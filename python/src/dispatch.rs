//! The host launch fast path. A kernel's first launch with some argument
//! types takes Python's general path (protocols, validation, signature,
//! compile or cache); it then registers here the program and how each
//! argument packs, under the arguments' type key. Later launches with
//! arguments of the same types are one call: the key (NumPy arrays by
//! buffer format, rank, layout and read-only flag, read through the buffer
//! protocol; anything else by its exact type), the packing and the launch.

use crate::{capi, HostProgram};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFloat, PyString, PyTuple, PyType};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Launches that took the fast path (counted by `pydev.stats()` as
/// dispatch-cache hits and launches).
pub static FAST_LAUNCHES: AtomicU64 = AtomicU64::new(0);

/// Entries kept per kernel: argument-type combinations beyond this take
/// the general path.
const MAX_ENTRIES: usize = 256;

#[derive(Clone, PartialEq, Eq, Hash)]
enum KeyPart {
    Array { format: String, ndim: usize, layout: u8, readonly: bool },
    /// The address of the argument's exact type object.
    Type(usize),
}

/// How an argument packs (the codes `python/pydev/_launch.py` registers).
#[derive(Clone, Copy)]
enum Kind {
    Array,
    Float32,
    Int32,
    Bool,
    /// A NumPy scalar: its bytes.
    Raw,
    /// None for a kernel: no parameter.
    Skip,
    /// None for an interoperable kernel: a null `void*`.
    Null,
}

impl Kind {
    fn from_code(code: u8) -> PyResult<Self> {
        Ok(match code {
            0 => Kind::Array,
            1 => Kind::Float32,
            2 => Kind::Int32,
            3 => Kind::Bool,
            4 => Kind::Raw,
            5 => Kind::Skip,
            6 => Kind::Null,
            other => return Err(pyo3::exceptions::PyValueError::new_err(format!("unknown argument kind {other}"))),
        })
    }
}

struct Entry {
    program: Py<HostProgram>,
    kinds: Vec<Kind>,
    /// The module globals device code read, as they were at compile time:
    /// a changed one sends the launch to the general path (and a recompile).
    seen: Vec<(Py<PyString>, Option<Py<PyAny>>)>,
}

#[pyclass(frozen, module = "pydev._pydev")]
pub struct HostDispatch {
    ndarray: Py<PyType>,
    globals: Py<PyDict>,
    entries: Mutex<HashMap<Vec<KeyPart>, Entry>>,
}

impl HostDispatch {
    /// The arguments' type key, and the descriptors of the arrays among
    /// them; `None` when an array exports no buffer.
    fn key(&self, args: &Bound<'_, PyTuple>) -> PyResult<Option<(Vec<KeyPart>, Vec<Option<Vec<u8>>>)>> {
        let ndarray = self.ndarray.as_ptr();
        let mut key = Vec::with_capacity(args.len());
        let mut descriptors = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let ty = a.get_type();
            if ty.as_ptr() == ndarray {
                let Some(view) = capi::array_view(&a, i)? else { return Ok(None) };
                key.push(KeyPart::Array { format: view.format, ndim: view.ndim, layout: view.layout, readonly: view.readonly });
                descriptors.push(Some(view.descriptor));
            } else {
                key.push(KeyPart::Type(ty.as_ptr() as usize));
                descriptors.push(None);
            }
        }
        Ok(Some((key, descriptors)))
    }
}

#[pymethods]
impl HostDispatch {
    #[new]
    fn new(ndarray: Bound<'_, PyType>, globals: Bound<'_, PyDict>) -> Self {
        Self { ndarray: ndarray.unbind(), globals: globals.unbind(), entries: Mutex::new(HashMap::new()) }
    }

    /// Registers `program` for the types of `args` (just launched through
    /// the general path) with each argument's packing kind and the module
    /// names its device code reads. False when nothing was registered.
    fn register(&self, args: &Bound<'_, PyTuple>, program: Py<HostProgram>, kinds: Vec<u8>, names: Vec<Bound<'_, PyString>>) -> PyResult<bool> {
        let py = args.py();
        if kinds.len() != args.len() {
            return Ok(false);
        }
        let Some((key, _)) = self.key(args)? else { return Ok(false) };
        let kinds = kinds.into_iter().map(Kind::from_code).collect::<PyResult<Vec<_>>>()?;
        let globals = self.globals.bind(py);
        let seen = names.into_iter().map(|n| Ok((n.clone().unbind(), globals.get_item(&n)?.map(Bound::unbind)))).collect::<PyResult<Vec<_>>>()?;
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.len() >= MAX_ENTRIES {
            return Ok(false);
        }
        entries.insert(key, Entry { program, kinds, seen });
        Ok(true)
    }

    /// Launches `args` if their types were registered; False sends the
    /// launch to the general path (unregistered types, a changed module
    /// constant, an int outside int32: the general path says why).
    fn try_launch(&self, args: &Bound<'_, PyTuple>, grid: (u32, u32, u32), block: (u32, u32, u32), shared: usize) -> PyResult<bool> {
        let py = args.py();
        let Some((key, descriptors)) = self.key(args)? else { return Ok(false) };
        let (program, bytes) = {
            let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            let Some(entry) = entries.get(&key) else { return Ok(false) };
            let globals = self.globals.bind(py);
            for (name, then) in &entry.seen {
                let now = globals.get_item(name.bind(py))?;
                if now.as_ref().map(Bound::as_ptr) != then.as_ref().map(Py::as_ptr) {
                    return Ok(false);
                }
            }
            let mut bytes = Vec::with_capacity(args.len());
            for ((a, kind), descriptor) in args.iter().zip(&entry.kinds).zip(descriptors) {
                match kind {
                    Kind::Array => bytes.push(descriptor.unwrap_or_default()),
                    Kind::Float32 => bytes.push((a.downcast::<PyFloat>()?.value() as f32).to_le_bytes().to_vec()),
                    Kind::Int32 => match a.extract::<i64>().ok().and_then(|v| i32::try_from(v).ok()) {
                        Some(v) => bytes.push(v.to_le_bytes().to_vec()),
                        None => return Ok(false),
                    },
                    Kind::Bool => bytes.push(vec![u8::from(a.is_truthy()?)]),
                    Kind::Raw => bytes.push(a.call_method0("tobytes")?.downcast::<PyBytes>()?.as_bytes().to_vec()),
                    Kind::Skip => {}
                    Kind::Null => bytes.push(vec![0; 8]),
                }
            }
            (entry.program.clone_ref(py), bytes)
        };
        FAST_LAUNCHES.fetch_add(1, Ordering::Relaxed);
        program.get().run(py, grid, block, shared, bytes)?;
        Ok(true)
    }

    fn __len__(&self) -> usize {
        self.entries.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}
