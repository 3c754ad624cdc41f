//! The one reader of each foreign array protocol, shared by both launch
//! paths: the native fast path (dispatch.rs), which takes any error as "not
//! mine" and leaves the launch to the general path, and Python's general
//! path (pydev._arrays / pydev._dlpack), which raises the error.
//!
//! - [`read_cai`]: a `__cuda_array_interface__` dict (v0 to v3) with every
//!   check docs/API.md names: version, mask, required keys, shape, typestr
//!   (and a structured 'V' typestr's `descr`), data, a 0 pointer, strides
//!   that are not multiples of the item size, the v3 stream.
//!   [`cai_read`] is its Python face (`pydev._arrays.parse_cai`).
//! - [`check_tensor`]: a DLPack tensor as a producer's capsule or exchange
//!   API hands it over (device type, dtype, ndim, extents, a NULL pointer);
//!   [`dlpack_read`] consumes a capsule for `pydev._dlpack.DLPackTensor`
//!   (the capsule handling itself, unsafe, is capi.rs's).
//!
//! Messages are pydev's documented ones ("argument {position} (CUDA Array
//! Interface): ..."), built only when something is wrong. Without the
//! native module pydev._arrays and pydev._dlpack read the protocols in
//! Python, with the same rules and messages: python/tests/test_protocols.py
//! holds the two readers to the same results on many valid and invalid
//! inputs.

use crate::capi;
use pyo3::exceptions::{PyNotImplementedError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple, PyType};

/// Why a protocol reader refused an array.
pub enum Fail {
    /// What is wrong, after "{where}: ": a ValueError, or a
    /// NotImplementedError (`unsupported`: a CAI mask).
    Bad { unsupported: bool, msg: String },
    /// An error Python raised while the reader looked (a failing `__bool__`...).
    Py(PyErr),
}

impl From<PyErr> for Fail {
    fn from(e: PyErr) -> Self {
        Fail::Py(e)
    }
}

fn bad(msg: String) -> Fail {
    Fail::Bad { unsupported: false, msg }
}

impl Fail {
    /// The Python exception, its message prefixed by `place` ("argument 2
    /// (CUDA Array Interface)").
    pub fn into_pyerr(self, place: &str) -> PyErr {
        match self {
            Fail::Bad { unsupported: true, msg } => PyNotImplementedError::new_err(format!("{place}: {msg}")),
            Fail::Bad { unsupported: false, msg } => PyValueError::new_err(format!("{place}: {msg}")),
            Fail::Py(e) => e,
        }
    }
}

/// `repr(v)`, as the messages quote values.
fn repr(v: &Bound<'_, PyAny>) -> Result<String, Fail> {
    Ok(v.repr()?.to_cow()?.into_owned())
}

/// An int as the protocols take one: a Python int or a NumPy integer, not
/// a bool (pydev._arrays._is_int).
fn is_int(v: &Bound<'_, PyAny>) -> PyResult<bool> {
    if v.is_instance_of::<PyBool>() {
        return Ok(false);
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(true);
    }
    static INTEGER: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let py = v.py();
    let integer = INTEGER.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        Ok(py.import("numpy")?.getattr("integer")?.downcast_into::<PyType>()?.unbind())
    })?;
    v.is_instance(integer.bind(py))
}

/// `v` as an i64 when it is an int (`is_int`) in that range.
fn int64(v: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    if v.is_exact_instance_of::<PyInt>() {
        return Ok(v.extract::<i64>().ok());
    }
    Ok(if is_int(v)? { v.extract::<i64>().ok() } else { None })
}

/// The items of a tuple or a list of ints (`int64` each), read in place;
/// None when `v` is neither or an item is no such int.
fn int_items(v: &Bound<'_, PyAny>) -> PyResult<Option<Vec<i64>>> {
    let mut out = Vec::new();
    if let Ok(t) = v.downcast::<PyTuple>() {
        out.reserve_exact(t.len());
        for e in t.iter() {
            match int64(&e)? {
                Some(x) => out.push(x),
                None => return Ok(None),
            }
        }
    } else if let Ok(l) = v.downcast::<PyList>() {
        for e in l.iter() {
            match int64(&e)? {
                Some(x) => out.push(x),
                None => return Ok(None),
            }
        }
    } else {
        return Ok(None);
    }
    Ok(Some(out))
}

/// The two items of a tuple or a list of two; None for anything else.
fn pair<'py>(v: &Bound<'py, PyAny>) -> Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    if let Ok(t) = v.downcast::<PyTuple>() {
        return (t.len() == 2).then(|| Some((t.get_item(0).ok()?, t.get_item(1).ok()?))).flatten();
    }
    let l = v.downcast::<PyList>().ok()?;
    (l.len() == 2).then(|| Some((l.get_item(0).ok()?, l.get_item(1).ok()?))).flatten()
}

/// The items of a tuple or a list (subclasses too); None for anything else.
fn items<'py>(v: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(t) = v.downcast::<PyTuple>() {
        Some(t.iter().collect())
    } else {
        v.downcast::<PyList>().ok().map(|l| l.iter().collect())
    }
}

/// The decimal product of non-negative extents, however large (messages).
fn product_text(extents: &[i64]) -> String {
    const BASE: u128 = 1_000_000_000;
    let mut limbs: Vec<u128> = vec![1]; // little-endian, base 10^9
    for &e in extents {
        let mut carry = 0u128;
        for l in &mut limbs {
            let v = *l * e.max(0) as u128 + carry;
            *l = v % BASE;
            carry = v / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut out = limbs.last().map_or_else(String::new, |l| l.to_string());
    for l in limbs.iter().rev().skip(1) {
        out.push_str(&format!("{l:09}"));
    }
    out
}

/// Element strides of a C-contiguous array of `shape` (pydev._dlpack.c_strides).
pub fn c_strides(shape: &[i64]) -> Vec<i64> {
    let mut out = vec![0; shape.len()];
    each_c_stride(shape, |k, s| out[k] = s);
    out
}

/// [`c_strides`] given one by one to `put(dimension, stride)`, where no
/// vector of them is wanted (the launch fast path writes them in place).
pub fn each_c_stride(shape: &[i64], mut put: impl FnMut(usize, i64)) {
    let mut acc = 1i64;
    for k in (0..shape.len()).rev() {
        put(k, acc);
        acc = acc.wrapping_mul(shape[k].max(1));
    }
}

// --- the CUDA Array Interface -------------------------------------------------------------

/// A validated typestr: its text, kind (b i u f c V) and item size.
struct Typestr {
    text: String,
    kind: u8,
    itemsize: i64,
}

/// The typestrs device code may meet (NumPy's own for these kinds, little
/// endian or byte-order free; 'V' of 1 byte to NumPy's largest): anything
/// else says what is wrong (pydev._arrays._typestr).
fn typestr(t: &Bound<'_, PyAny>) -> Result<Typestr, Fail> {
    let unknown =
        |extra: &str| -> Result<Fail, PyErr> { Ok(bad(format!("unknown typestr {}{extra}", t.repr()?.to_cow()?))) };
    let Ok(text) = t.downcast::<PyString>().map(|s| s.to_string_lossy()) else { return Err(unknown("")?) };
    let b = text.as_bytes();
    let shaped = text.chars().count() >= 3
        && matches!(b[0], b'<' | b'>' | b'|' | b'=')
        && text.chars().skip(2).all(|c| c.is_ascii_digit());
    if !shaped {
        return Err(unknown("")?);
    }
    if !matches!(b[1], b'b' | b'i' | b'u' | b'f' | b'c' | b'V') {
        return Err(unknown(" (supported kinds: b i u f c V)")?);
    }
    let (order, kind) = (b[0], b[1]);
    let Some(n) = text[2..].parse::<i64>().ok().filter(|n| match kind {
        b'b' => *n == 1,
        b'i' | b'u' => matches!(n, 1 | 2 | 4 | 8),
        b'f' => matches!(n, 2 | 4 | 8 | 16),
        b'c' => matches!(n, 8 | 16 | 32),
        _ => (1..=i64::from(i32::MAX)).contains(n),
    }) else {
        return Err(unknown("")?);
    };
    if order == b'>' && matches!(kind, b'i' | b'u' | b'f' | b'c') && n > 1 {
        return Err(bad(format!("big-endian typestr {} is not supported", repr(t)?)));
    }
    Ok(Typestr { text: text.into_owned(), kind, itemsize: n })
}

/// The fields of a structured element from a `descr` list (unnamed ''
/// entries are padding), as `pydev._arrays._struct_dtype` builds its dtype:
/// `([(name, format, shape, offset), ...], itemsize)`, a format being a
/// typestr or a nested `(fields, itemsize)`. `itemsize`: the typestr's (the
/// top level), else the fields' extent.
fn descr_fields<'py>(descr: &Bound<'py, PyAny>, itemsize: Option<i64>) -> Result<Bound<'py, PyTuple>, Fail> {
    let py = descr.py();
    let entries = items(descr).expect("a list or tuple (checked by the caller)");
    let fields = PyList::empty(py);
    let mut names: Vec<String> = Vec::new();
    let mut offset = 0i64;
    for entry in entries {
        let malformed = || -> Result<Fail, PyErr> { Ok(bad(format!("malformed descr entry {}", entry.repr()?))) };
        let Some(e) = items(&entry).filter(|e| matches!(e.len(), 2 | 3)) else { return Err(malformed()?) };
        let (format, mut size) = if e[1].is_instance_of::<PyList>() {
            let nested = descr_fields(&e[1], None)?;
            let size = nested.get_item(1)?.extract::<i64>()?;
            (nested.into_any(), size)
        } else {
            let t = typestr(&e[1])?;
            (PyString::new(py, &t.text).into_any(), t.itemsize)
        };
        let mut shape = Vec::new();
        if let Some(s) = e.get(2) {
            for x in items(s).unwrap_or_else(|| vec![s.clone()]) {
                match int64(&x)?.filter(|x| (0..=i64::from(i32::MAX)).contains(x)) {
                    Some(x) => shape.push(x),
                    None => return Err(malformed()?),
                }
                match size.checked_mul(*shape.last().expect("pushed")) {
                    Some(s) => size = s,
                    None => return Err(malformed()?),
                }
            }
        }
        let name = if let Ok(s) = e[0].downcast::<PyString>() {
            s.to_cow()?.into_owned()
        } else {
            match items(&e[0]).filter(|t| t.len() == 2) {
                Some(t) if t[1].is_instance_of::<PyString>() => t[1].extract::<String>()?,
                _ => return Err(malformed()?),
            }
        };
        if !name.is_empty() {
            if names.contains(&name) {
                return Err(bad(format!("malformed descr: field {} occurs more than once", repr(&e[0])?)));
            }
            let shape = PyTuple::new(py, &shape)?;
            fields.append(PyTuple::new(
                py,
                [PyString::new(py, &name).into_any(), format, shape.into_any(), PyInt::new(py, offset).into_any()],
            )?)?;
            names.push(name);
        }
        match offset.checked_add(size) {
            Some(o) => offset = o,
            None => return Err(malformed()?),
        }
    }
    let size = itemsize.unwrap_or(offset);
    if size < offset {
        return Err(bad(format!("descr describes {offset} bytes, typestr {size}")));
    }
    Ok(PyTuple::new(py, [fields.into_any(), PyInt::new(py, size).into_any()])?)
}

/// A CUDA Array Interface dict, read and validated; `E` is its element as
/// the element reader made it ([`Element`] for [`read_cai`]).
pub struct Cai<'py, E = Element<'py>> {
    pub ptr: u64,
    pub shape: Vec<i64>,
    /// In elements; None when the dict gives none (C order: [`c_strides`]).
    pub strides: Option<Vec<i64>>,
    pub element: E,
    pub readonly: bool,
    /// The v3 `stream` (never 0), as an int.
    pub stream: Option<Bound<'py, PyAny>>,
}

/// The element of a CUDA Array Interface dict: its typestr and, for a
/// structured one, its fields ([`descr_fields`]; None for a plain one).
pub struct Element<'py> {
    pub typestr: String,
    pub fields: Option<Bound<'py, PyTuple>>,
    pub itemsize: i64,
}

/// Reads the element of typestr `t` and `descr` (the dict's entry; read
/// for a 'V' typestr only: absent, None, or a plain void's `[('',
/// '|V8')]` is no fields).
pub fn read_element<'py>(t: &Bound<'py, PyAny>, descr: Option<&Bound<'py, PyAny>>) -> Result<Element<'py>, Fail> {
    let t = typestr(t)?;
    let mut fields = None;
    if t.kind == b'V' {
        if let Some(descr) = descr.filter(|d| !d.is_none()) {
            let Some(entries) = items(descr) else {
                return Err(bad(format!(
                    "descr must be a list of (name, format[, shape]) tuples, got {}",
                    repr(descr)?
                )));
            };
            // [('', '|V8')]: no fields (NumPy's descr of a plain void).
            let padding = entries.len() == 1
                && items(&entries[0]).is_some_and(|e| {
                    matches!(e.len(), 2 | 3) && e[0].downcast::<PyString>().is_ok_and(|s| s.len().is_ok_and(|n| n == 0))
                });
            if !padding {
                fields = Some(descr_fields(descr, Some(t.itemsize))?);
            }
        }
    }
    Ok(Element { typestr: t.text, fields, itemsize: t.itemsize })
}

/// What [`ElementMemo`] remembers of a `descr`: its exact structure, of
/// exact str, int, tuple and list objects only (what NumPy's `dtype.descr`
/// is made of). Owned copies, so a producer changing its list in place
/// changes what a later launch compares.
enum Node {
    Str(String),
    Int(i64),
    /// The tuple itself too when nothing in it is a list: it cannot
    /// change, so the same object matches at once.
    Tuple(Vec<Node>, Option<Py<PyTuple>>),
    List(Vec<Node>),
}

impl Node {
    /// The copy of `v`; None when it holds anything else (never memoized).
    fn of(v: &Bound<'_, PyAny>) -> Option<Node> {
        if let Ok(s) = v.downcast_exact::<PyString>() {
            return Some(Node::Str(s.to_str().ok()?.to_owned()));
        }
        if v.is_exact_instance_of::<PyInt>() {
            return v.extract::<i64>().ok().map(Node::Int);
        }
        if let Ok(t) = v.downcast_exact::<PyTuple>() {
            let es: Vec<Node> = t.iter().map(|e| Node::of(&e)).collect::<Option<_>>()?;
            let frozen = es.iter().all(|e| match e {
                Node::List(_) => false,
                Node::Tuple(_, o) => o.is_some(),
                _ => true,
            });
            let obj = frozen.then(|| t.clone().unbind());
            return Some(Node::Tuple(es, obj));
        }
        let l = v.downcast_exact::<PyList>().ok()?;
        l.iter().map(|e| Node::of(&e)).collect::<Option<_>>().map(Node::List)
    }

    /// Whether `v` is made of the same exact types and values: then
    /// [`read_element`] reads it as it read this one. Runs no Python code.
    fn matches(&self, v: &Bound<'_, PyAny>) -> bool {
        match self {
            Node::Str(s) => v.downcast_exact::<PyString>().is_ok_and(|v| v.to_str().is_ok_and(|v| v == s)),
            Node::Int(i) => v.is_exact_instance_of::<PyInt>() && v.extract::<i64>().is_ok_and(|v| v == *i),
            Node::Tuple(_, Some(o)) if v.is(o) => true,
            Node::Tuple(es, _) => v
                .downcast_exact::<PyTuple>()
                .is_ok_and(|t| t.len() == es.len() && es.iter().zip(t.iter()).all(|(e, x)| e.matches(&x))),
            // No Python code runs meanwhile: the list cannot change under the walk.
            Node::List(es) => v
                .downcast_exact::<PyList>()
                .is_ok_and(|l| l.len() == es.len() && es.iter().zip(l.iter()).all(|(e, x)| e.matches(&x))),
        }
    }
}

/// Elements read before, by typestr text and `descr` structure, each with
/// a key its reader made of it: the launch fast path reads an array's
/// element at each launch, and a structured one's fields cost far more to
/// parse (and to name in a key) than to compare with a copy. A dict whose
/// typestr and descr match an entry's exactly is read as that entry was;
/// anything else is read by [`read_element`] (and remembered, up to
/// [`ElementMemo::MAX`] entries).
pub struct ElementMemo<K> {
    entries: Vec<(String, Option<Node>, i64, K)>,
}

impl<K> Default for ElementMemo<K> {
    fn default() -> Self {
        Self { entries: Vec::new() }
    }
}

impl<K: Clone> ElementMemo<K> {
    const MAX: usize = 64;

    /// The memoized (key, item size) of an element of typestr `t` and
    /// `descr` (the dict's, read only for a 'V' typestr: see
    /// [`ElementMemo::descr`]).
    pub fn find(&self, t: &Bound<'_, PyAny>, descr: Option<&Bound<'_, PyAny>>) -> Option<(K, i64)> {
        let t = t.downcast_exact::<PyString>().ok()?.to_str().ok()?;
        self.entries.iter().find_map(|(text, node, itemsize, key)| {
            let same = text == t
                && match (node, descr) {
                    (None, None) => true,
                    (Some(n), Some(d)) => n.matches(d),
                    _ => false,
                };
            same.then(|| (key.clone(), *itemsize))
        })
    }

    /// The dict's `descr` entry as [`ElementMemo::find`] compares it: for
    /// a 'V' typestr `t` the entry (None when absent or None), else None.
    pub fn descr<'a, 'py>(
        t: &Bound<'py, PyAny>,
        descr: Option<&'a Bound<'py, PyAny>>,
    ) -> Option<&'a Bound<'py, PyAny>> {
        let void =
            t.downcast_exact::<PyString>().is_ok_and(|s| s.to_str().is_ok_and(|s| s.as_bytes().get(1) == Some(&b'V')));
        descr.filter(|d| void && !d.is_none())
    }

    /// Remembers what [`read_element`] read of typestr `t` and `descr`
    /// (as `ElementMemo::descr` gives it) under `key`, unless they hold
    /// anything but exact str, int, tuple and list objects, or the memo
    /// is full.
    pub fn insert(&mut self, t: &Bound<'_, PyAny>, descr: Option<&Bound<'_, PyAny>>, itemsize: i64, key: K) {
        let Some(text) = t.downcast_exact::<PyString>().ok().and_then(|s| s.to_str().ok()) else { return };
        let node = match descr {
            Some(d) => match Node::of(d) {
                Some(n) => Some(n),
                None => return,
            },
            None => None,
        };
        if self.entries.len() < Self::MAX {
            self.entries.push((text.to_owned(), node, itemsize, key));
        }
    }
}

/// Reads `cai` (the value of `__cuda_array_interface__`) as the CUDA Array
/// Interface v3 specifies it (v0 to v2 too), in the order of the checks of
/// docs/API.md (a structured 'V' typestr with its `descr`).
pub fn read_cai<'py>(cai: &Bound<'py, PyAny>) -> Result<Cai<'py>, Fail> {
    read_cai_with(cai, |t, descr| {
        let e = read_element(t, descr)?;
        Ok((e.itemsize, e))
    })
}

/// The keys of the CUDA Array Interface, in the order of [`cai_entries`].
const CAI_KEYS: [&str; 8] = ["version", "mask", "shape", "typestr", "data", "descr", "strides", "stream"];
/// The places of `typestr` and `descr` in [`cai_entries`].
pub const CAI_TYPESTR: usize = 3;
pub const CAI_DESCR: usize = 5;

/// The values of a `__cuda_array_interface__` dict's keys ([`CAI_KEYS`]),
/// read in one pass over the dict (its str keys compared by address with
/// the interned names first, then by text), not by a lookup each: the
/// launch fast path reads such a dict at every launch. Other keys are
/// ignored, as the protocol allows.
pub fn cai_entries<'py>(d: &Bound<'py, PyDict>) -> [Option<Bound<'py, PyAny>>; 8] {
    let py = d.py();
    let names = [
        intern!(py, "version"),
        intern!(py, "mask"),
        intern!(py, "shape"),
        intern!(py, "typestr"),
        intern!(py, "data"),
        intern!(py, "descr"),
        intern!(py, "strides"),
        intern!(py, "stream"),
    ];
    let mut out: [Option<Bound<'py, PyAny>>; 8] = Default::default();
    for (k, v) in d.iter() {
        let slot = names.iter().position(|n| k.is(n)).or_else(|| {
            let k = k.downcast::<PyString>().ok()?.to_str().ok()?;
            CAI_KEYS.iter().position(|n| *n == k)
        });
        if let Some(slot) = slot {
            out[slot] = Some(v);
        }
    }
    out
}

/// [`read_cai`] with another reader of the element: `element(typestr,
/// descr)` (the dict's entries) gives the item size and what the caller
/// keeps of the element, checked where [`read_cai`] checks it (after the
/// shape, before the data).
pub fn read_cai_with<'py, E>(
    cai: &Bound<'py, PyAny>,
    element: impl FnOnce(&Bound<'py, PyAny>, Option<&Bound<'py, PyAny>>) -> Result<(i64, E), Fail>,
) -> Result<Cai<'py, E>, Fail> {
    let py = cai.py();
    let Ok(d) = cai.downcast::<PyDict>() else {
        let name = cai.get_type().name()?;
        return Err(bad(format!("__cuda_array_interface__ must be a dict, got {name}")));
    };
    let [version, mask, shape_obj, typestr_obj, data, descr, strides, stream_obj] = cai_entries(d);
    let v = match &version {
        Some(v) => int64(v)?.filter(|v| (0..=3).contains(v)),
        None => None,
    };
    let Some(version_n) = v else {
        let shown = match &version {
            Some(v) => repr(v)?,
            None => "None".to_owned(),
        };
        return Err(bad(format!("unsupported version {shown} (0 to 3 are supported)")));
    };
    if mask.is_some_and(|m| !m.is_none()) {
        return Err(Fail::Bad {
            unsupported: true,
            msg: "masked arrays (mask is not None) are not supported".to_owned(),
        });
    }
    let required = |v: Option<Bound<'py, PyAny>>, key: &str| match v {
        Some(v) => Ok(v),
        None => Err(bad(format!("the required key '{key}' is missing"))),
    };
    let shape_obj = &required(shape_obj, "shape")?;
    let typestr_obj = &required(typestr_obj, "typestr")?;
    let data = &required(data, "data")?;
    let Some(shape) = int_items(shape_obj)?.filter(|s| s.iter().all(|e| *e >= 0)) else {
        return Err(bad(format!("shape must be a tuple of non-negative ints, got {}", repr(shape_obj)?)));
    };
    if shape.iter().try_fold(1i64, |acc, e| acc.checked_mul((*e).max(1))).is_none() {
        return Err(bad(format!("shape {} is too large for 64-bit strides", repr(shape_obj)?)));
    }
    let (itemsize, element) = element(typestr_obj, descr.as_ref())?;
    let pair = pair(data);
    let ptr = match &pair {
        Some((p, _)) if is_int(p)? => p.extract::<u64>().ok(),
        _ => None,
    };
    let (Some((_, flag)), Some(ptr)) = (pair, ptr) else {
        return Err(bad(format!("data must be a (pointer, read_only) tuple, got {}", repr(data)?)));
    };
    let readonly = flag.is_truthy()?;
    if ptr == 0 && !shape.contains(&0) {
        return Err(bad(format!("the data pointer is 0 for {} elements", product_text(&shape))));
    }
    let strides = match strides.filter(|s| !s.is_none()) {
        None => None,
        Some(s) => {
            let Some(bytes) = int_items(&s)?.filter(|v| v.len() == shape.len()) else {
                return Err(bad(format!("strides must be a tuple of {} ints or None, got {}", shape.len(), repr(&s)?)));
            };
            if let Some(b) = bytes.iter().find(|b| *b % itemsize != 0) {
                return Err(bad(format!("stride {b} is not a multiple of the item size {itemsize}")));
            }
            Some(bytes.iter().map(|b| b / itemsize).collect())
        }
    };
    let mut stream = None;
    if version_n >= 3 {
        if let Some(s) = stream_obj.filter(|s| !s.is_none()) {
            if !is_int(&s)? {
                return Err(bad(format!("stream must be an int or None, got {}", repr(&s)?)));
            }
            // A NumPy integer becomes an int (exact ints are kept as they are).
            let s = if s.is_exact_instance_of::<PyInt>() { s } else { py.get_type::<PyInt>().call1((s,))? };
            if s.extract::<i64>().is_ok_and(|s| s == 0) {
                return Err(bad(
                    "stream 0 is invalid (1 is the legacy default stream, 2 the per-thread default stream)".to_owned(),
                ));
            }
            stream = Some(s);
        }
    }
    Ok(Cai { ptr, shape, strides, element, readonly, stream })
}

/// `pydev._arrays.parse_cai`'s reader: `(pointer, shape, element strides,
/// typestr, fields, readonly, stream)` of a `__cuda_array_interface__`
/// dict, `fields` a structured element's (`([(name, format, shape,
/// offset), ...], itemsize)`, format a typestr or nested fields) or None;
/// ValueError / NotImplementedError "argument {position} (CUDA Array
/// Interface): ..." when it is not one device code can take.
#[pyfunction]
#[allow(clippy::type_complexity)] // the tuple Python unpacks
pub fn cai_read<'py>(
    cai: &Bound<'py, PyAny>,
    position: &Bound<'py, PyAny>,
) -> PyResult<(
    u64,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    String,
    Option<Bound<'py, PyTuple>>,
    bool,
    Option<Bound<'py, PyAny>>,
)> {
    let py = cai.py();
    match read_cai(cai) {
        Ok(c) => Ok((
            c.ptr,
            PyTuple::new(py, &c.shape)?,
            PyTuple::new(py, c.strides.unwrap_or_else(|| c_strides(&c.shape)))?,
            c.element.typestr,
            c.element.fields,
            c.readonly,
            c.stream,
        )),
        Err(f) => Err(f.into_pyerr(&format!("argument {} (CUDA Array Interface)", position.str()?.to_cow()?))),
    }
}

// --- DLPack ---------------------------------------------------------------------------------

/// A producer's DLPack tensor as it reads it (capi.rs), before any check.
pub struct RawTensor {
    pub data: u64,
    pub byte_offset: u64,
    /// (DLDeviceType, device id).
    pub device: (i32, i32),
    pub ndim: i32,
    /// (type code, bits, lanes).
    pub dtype: (u8, u8, u16),
    /// `ndim` extents (none when ndim < 0).
    pub shape: Vec<i64>,
    /// `ndim` strides in elements, None when null (C order).
    pub strides: Option<Vec<i64>>,
    pub readonly: bool,
}

/// A DLPack tensor device code can take: the data pointer (byte offset
/// applied), shape, strides in elements (C order for null strides).
pub struct Tensor {
    pub data: u64,
    pub shape: Vec<i64>,
    pub strides: Vec<i64>,
    pub dtype: (u8, u8, u16),
    pub device: (i32, i32),
    pub readonly: bool,
}

/// kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged.
const DEVICE_TYPES: [i32; 4] = [1, 2, 3, 13];

/// Whether device code has an element of DLPack type (code, bits)
/// (pydev._dlpack._dtype_of_dl maps them).
fn dl_supported(code: u8, bits: u8) -> bool {
    match code {
        0 | 1 => matches!(bits, 8 | 16 | 32 | 64),                 // int, uint
        2 => matches!(bits, 16 | 32 | 64),                         // float
        5 => matches!(bits, 64 | 128),                             // complex
        6 | 4 | 10 | 12 => bits == if code == 4 { 16 } else { 8 }, // bool, bfloat16, float8 e4m3fn / e5m2
        _ => false,
    }
}

/// Why a producer's tensor is not one device code can take
/// ([`check_tensor`]; the messages follow "{where}: ").
#[derive(Debug, thiserror::Error)]
pub enum TensorError {
    #[error("arrays on DLPack device type {0} are not supported (CPU, CUDA, CUDA host and managed memory are)")]
    DeviceType(i32),
    #[error("DLPack dtype (code {code}, {bits} bits) is not supported by device code")]
    Dtype { code: u8, bits: u8 },
    #[error("DLPack dtype with {0} lanes is not supported (vectors have 1 to 4)")]
    Lanes(u16),
    #[error("ndim is {0}")]
    Ndim(i32),
    #[error("negative extent in shape {0}")]
    NegativeExtent(String),
    #[error("the data pointer is NULL for {0} elements")]
    NullData(String),
}

/// [`check_tensor`]'s checks on a tensor where it lies (no copy: the
/// launch fast path's view of each array, `capi::tensor_view`).
pub fn validate_tensor(
    device: (i32, i32),
    dtype: (u8, u8, u16),
    ndim: i32,
    shape: &[i64],
    data: u64,
) -> Result<(), TensorError> {
    let (device_type, _) = device;
    if !DEVICE_TYPES.contains(&device_type) {
        return Err(TensorError::DeviceType(device_type));
    }
    let (code, bits, lanes) = dtype;
    if !dl_supported(code, bits) {
        return Err(TensorError::Dtype { code, bits });
    }
    if lanes != 1 && !((2..=4).contains(&lanes) && code != 5 && code != 6) {
        return Err(TensorError::Lanes(lanes));
    }
    if ndim < 0 {
        return Err(TensorError::Ndim(ndim));
    }
    validate_extents(shape, data)
}

/// The checks of [`validate_tensor`] that a tensor's type does not settle:
/// no negative extent, no NULL data for a non-empty tensor. The launch fast
/// path makes only these (`capi::tensor_view`): it takes only one-lane
/// tensors in cuda memory of the launch's device, its key holds the code
/// and bits, and only a general launch, which made every check, registers
/// a key (python/src/dispatch.rs).
pub fn validate_extents(shape: &[i64], data: u64) -> Result<(), TensorError> {
    if shape.iter().any(|e| *e < 0) {
        let parts: Vec<String> = shape.iter().map(i64::to_string).collect();
        let shown = if parts.len() == 1 { format!("({},)", parts[0]) } else { format!("({})", parts.join(", ")) };
        return Err(TensorError::NegativeExtent(shown));
    }
    if data == 0 && !shape.contains(&0) {
        return Err(TensorError::NullData(product_text(shape)));
    }
    Ok(())
}

/// Validates a producer's tensor in the order pydev._dlpack.DLPackTensor
/// does, with its messages (after "{where}: ").
pub fn check_tensor(raw: RawTensor) -> Result<Tensor, TensorError> {
    validate_tensor(raw.device, raw.dtype, raw.ndim, &raw.shape, raw.data)?;
    let strides = match raw.strides {
        Some(s) if !raw.shape.is_empty() => s,
        _ => c_strides(&raw.shape),
    };
    Ok(Tensor {
        data: raw.data.wrapping_add(raw.byte_offset),
        shape: raw.shape,
        strides,
        dtype: raw.dtype,
        device: raw.device,
        readonly: raw.readonly,
    })
}

/// `pydev._dlpack.DLPackTensor`'s reader: consumes the DLPack capsule
/// `capsule` (renamed "used_dltensor(_versioned)", its tensor now owned)
/// and returns `(data, shape, strides, (code, bits, lanes), (device type,
/// device id), readonly, owner)`, strides in elements; `owner` calls the
/// producer's deleter when freed or released (`owner.release()`).
/// ValueError "{place}: ..." as DLPackTensor words it when the capsule is
/// none or its tensor is not one device code can take (the tensor, then
/// consumed, is released at once).
#[pyfunction]
#[allow(clippy::type_complexity)] // the tuple Python unpacks
pub fn dlpack_read<'py>(
    capsule: &Bound<'py, PyAny>,
    place: &str,
) -> PyResult<(
    u64,
    Bound<'py, PyTuple>,
    Bound<'py, PyTuple>,
    (u8, u8, u16),
    (i32, i32),
    bool,
    Bound<'py, capi::DlpackOwner>,
)> {
    let py = capsule.py();
    let fail = |msg: String| PyValueError::new_err(format!("{place}: {msg}"));
    let (raw, owner) = match capi::consume_capsule(capsule) {
        Ok(c) => c,
        Err(capi::ConsumeError::NotCapsule) => {
            return Err(fail(
                "__dlpack__() did not return an unconsumed DLPack capsule ('dltensor' or 'dltensor_versioned')"
                    .to_owned(),
            ))
        }
        Err(capi::ConsumeError::Version(major, minor)) => {
            return Err(fail(format!("DLPack version {major}.{minor} is not supported (1.x is)")))
        }
        Err(capi::ConsumeError::Rename) => {
            return Err(fail("the DLPack capsule could not be marked as used".to_owned()))
        }
    };
    let owner = Bound::new(py, owner)?;
    let t = check_tensor(raw).map_err(|e| fail(e.to_string()))?;
    Ok((t.data, PyTuple::new(py, &t.shape)?, PyTuple::new(py, &t.strides)?, t.dtype, t.device, t.readonly, owner))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_of_any_size() {
        assert_eq!(product_text(&[]), "1");
        assert_eq!(product_text(&[3, 4]), "12");
        assert_eq!(product_text(&[0, 4]), "0");
        assert_eq!(product_text(&[i64::MAX, i64::MAX]), "85070591730234615847396907784232501249");
        assert_eq!(product_text(&[1_000_000_000, 1_000_000_000]), "1000000000000000000");
    }

    #[test]
    fn c_strides_skip_empty_extents() {
        assert_eq!(c_strides(&[2, 0, 3]), vec![3, 3, 1]);
        assert_eq!(c_strides(&[]), Vec::<i64>::new());
    }
}
