"""Kernel array arguments from DLPack, the CUDA Array Interface (v0 to v3),
NumPy arrays and `__array_interface__`, validated without copying user
data; `DeviceArray`; copies to the host.

Each array becomes an ArrayArg: the kernel ABI's descriptor
`{T* data; u64 shape[n]; u64 strides[n]}` (strides in elements) and the
signature type (`readonly float32[:, ::1]`). Protocol data is validated
before anything checks where the array lives, so the errors are the same
on every target; every error names the argument's position."""

import ctypes
import math
import os
import struct as _pystruct

import numpy as np

from . import _native, _types
from ._array_views import ArrayViews

CPU_DEVICES = ("cpu", "cuda_host", "cuda_managed")
CUDA_DEVICES = ("cuda", "cuda_host", "cuda_managed")


class ArrayArg:
    """A validated array argument: pointer, shape, element strides, dtype,
    read-only flag, where it lives (`device`: "cpu", "cuda"...; `device_id`:
    the cuda device ordinal when the protocol says it, None when the driver
    is to be asked), what must stay alive while the kernel runs, and (CAI
    v3) the stream its producer last used."""

    def __init__(
        self, data, shape, strides, dtype, readonly, device, keep, stream=None, protocol="NumPy", device_id=None
    ):
        self.data, self.shape, self.strides = int(data), tuple(shape), tuple(strides)
        self.dtype, self.readonly, self.device = np.dtype(dtype), bool(readonly), device
        self.keep, self.stream, self.protocol = keep, stream, protocol
        self.device_id = device_id

    @property
    def size(self):
        return int(math.prod(self.shape)) if self.shape else 1

    def descriptor(self):
        """`{T* data; u64 shape[n]; u64 strides[n]}`, strides in elements
        (negative ones as their two's complement)."""
        n = len(self.shape)
        return _pystruct.pack(f"<Q{n}Q{n}q", self.data, *self.shape, *self.strides)

    def signature(self, structs, position):
        return (
            ("readonly " if self.readonly else "")
            + element_name(self.dtype, structs, position)
            + "["
            + dims(self.shape, self.strides)
            + "]"
        )


def element_name(dt, structs, position):
    """The signature name of an array element dtype: a number, a vector
    (T, (n,)), a @struct class of the kernel's file (matched by dtype), or
    an anonymous structured dtype `{a: int8, b: float64}` with C layout."""
    name = _types.dtype_name(dt)
    if name is not None:
        return name
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        if len(shape) == 1 and 1 <= shape[0] <= 4 and _types.dtype_name(base) in _types.VECTOR_ELEMENTS:
            return f"{_types.dtype_name(base)}x{shape[0]}"
    elif dt.fields:
        for cls in structs() if callable(structs) else structs:
            if cls.dtype == dt:
                return _types.sig_name(cls)
        why = _types.c_layout_mismatch(dt)
        if why:
            raise ValueError(
                f"argument {position}: the structured dtype {dt} does not have the C layout device code uses: {why}"
            )
        parts = [f"{n}: {element_name(dt.fields[n][0], structs, position)}" for n in dt.names]
        return "{" + ", ".join(parts) + "}"
    raise ValueError(f"argument {position}: arrays of {dt} cannot be passed to a kernel")


def dims(shape, strides):
    """`:` per dimension; `::1` on the last (C order) or, for n > 1, the
    first (Fortran order) dimension of a contiguous array. An empty array is
    C-contiguous whatever its strides (NumPy calls it both C and F)."""
    n = len(shape)
    c = 0 in shape or all(shape[k] <= 1 or strides[k] == int(math.prod(shape[k + 1 :])) for k in range(n))
    f = n > 1 and all(shape[k] <= 1 or strides[k] == int(math.prod(shape[:k])) for k in range(n))
    parts = [":"] * n
    if c:
        parts[-1] = "::1"
    elif f:
        parts[0] = "::1"
    return ", ".join(parts)


# --- DLPack -----------------------------------------------------------------------------


def normalize_stream(handle):
    """A stream handle as the protocols spell it: 0 (the legacy default
    stream in the driver API) is 1 in DLPack and CAI."""
    return 1 if handle in (0, None) else handle


def from_dlpack(obj, position, stream=None):
    """`stream`: the consumer's stream handle for CUDA producers (None on
    the host target)."""
    from . import _dlpack  # imported on first use: NumPy arrays and DeviceArrays need none of it

    where = f"argument {position} (DLPack)"
    try:
        device_type, _ = obj.__dlpack_device__()
    except Exception as e:
        raise ValueError(f"{where}: __dlpack_device__() failed: {e}") from e
    s = (
        normalize_stream(stream)
        if stream is not None and device_type in (_dlpack.kDLCUDA, _dlpack.kDLCUDAManaged)
        else None
    )
    try:
        try:
            capsule = obj.__dlpack__(stream=s, max_version=(1, 0))
        except TypeError:
            try:
                capsule = obj.__dlpack__(stream=s)
            except TypeError:
                capsule = obj.__dlpack__()
    except BufferError as e:
        raise ValueError(f"{where}: the producer cannot export it: {e}") from e
    t = _dlpack.DLPackTensor(capsule, where)
    # The tensor (and through it the producer's memory) stays alive with
    # the ArrayArg; its deleter runs when that is released.
    return ArrayArg(
        t.data,
        t.shape,
        t.strides,
        t.dtype,
        t.readonly,
        t.device,
        keep=(obj, t),
        protocol="DLPack",
        device_id=t.device_id,
    )


# --- the CUDA Array Interface -----------------------------------------------------------
#
# One reader of the protocol: the native module's (python/src/protocols.rs,
# `cai_read`), which the launch fast path calls too. `read_cai` below is its
# pure-Python twin, for the package without its native module (the same
# rules and messages; python/tests/test_protocols.py holds them to it). Both
# return (pointer, shape, element strides, typestr, fields, read-only,
# stream); `fields` describes a structured ('V' with descr) element as
# `([(name, format, shape, offset), ...], itemsize)`, a format being a
# typestr or nested fields, which `cai_dtype` makes a NumPy dtype of.

_native_cai = None  # pydev._pydev.cai_read, looked up on first use (False: read_cai)

# The item sizes of each typestr kind NumPy has ('V': 1 byte to 2**31 - 1).
_TYPESTR_SIZES = {"b": (1,), "i": (1, 2, 4, 8), "u": (1, 2, 4, 8), "f": (2, 4, 8, 16), "c": (8, 16, 32)}
_V_MAX = 2**31 - 1
_I64 = 2**63


def _cai_where(position):
    return f"argument {position} (CUDA Array Interface)"


def _cai_reader():
    global _native_cai
    if _native_cai is None:
        try:
            from ._pydev import cai_read
        except ImportError:  # the pure-Python package
            cai_read = False
        _native_cai = cai_read
    return _native_cai


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _typestr(typestr, where):
    """(typestr, kind, item size) of a typestr device code may meet (b i u f
    c V, little-endian or byte-order free)."""
    t = typestr
    if not isinstance(t, str) or len(t) < 3 or t[0] not in "<>|=" or not (t[2:].isascii() and t[2:].isdigit()):
        raise ValueError(f"{where}: unknown typestr {typestr!r}")
    kind = t[1]
    if kind not in "biufcV":
        raise ValueError(f"{where}: unknown typestr {typestr!r} (supported kinds: b i u f c V)")
    n = int(t[2:])
    if not (1 <= n <= _V_MAX if kind == "V" else n in _TYPESTR_SIZES[kind]):
        raise ValueError(f"{where}: unknown typestr {typestr!r}")
    if t[0] == ">" and kind in "iufc" and n > 1:
        raise ValueError(f"{where}: big-endian typestr {typestr!r} is not supported")
    return str(t), kind, n


def _descr_fields(descr, itemsize, where):
    """The fields of a structured element from a CAI / array-interface
    `descr` list (unnamed '' entries are padding); `itemsize`: the
    typestr's (the top level), else the fields' extent."""
    fields, names, offset = [], [], 0
    for entry in descr:
        if not isinstance(entry, (tuple, list)) or len(entry) not in (2, 3):
            raise ValueError(f"{where}: malformed descr entry {entry!r}")
        if isinstance(entry[1], list):
            fmt = _descr_fields(entry[1], None, where)
            size = fmt[1]
        else:
            fmt, _, size = _typestr(entry[1], where)
        shape = []
        if len(entry) == 3:
            for x in entry[2] if isinstance(entry[2], (tuple, list)) else (entry[2],):
                if not _is_int(x) or not 0 <= x <= _V_MAX:
                    raise ValueError(f"{where}: malformed descr entry {entry!r}")
                shape.append(int(x))
                size *= int(x)
                if size >= _I64:
                    raise ValueError(f"{where}: malformed descr entry {entry!r}")
        name = entry[0]
        if not isinstance(name, str):
            if not (isinstance(name, (tuple, list)) and len(name) == 2 and isinstance(name[1], str)):
                raise ValueError(f"{where}: malformed descr entry {entry!r}")
            name = name[1]  # (title, name)
        if name:
            if name in names:
                raise ValueError(f"{where}: malformed descr: field {entry[0]!r} occurs more than once")
            fields.append((str(name), fmt, tuple(shape), offset))
            names.append(name)
        offset += size
        if offset >= _I64:
            raise ValueError(f"{where}: malformed descr entry {entry!r}")
    size = itemsize if itemsize is not None else offset
    if size < offset:
        raise ValueError(f"{where}: descr describes {offset} bytes, typestr {size}")
    return (fields, size)


def read_cai(cai, position):
    """The pure-Python reader of a CUDA Array Interface dict: as the native
    `cai_read` (python/src/protocols.rs), whose results and messages it
    gives."""
    where = _cai_where(position)
    if not isinstance(cai, dict):
        raise ValueError(f"{where}: __cuda_array_interface__ must be a dict, got {type(cai).__name__}")
    version = cai.get("version")
    if not _is_int(version) or not 0 <= version <= 3:
        raise ValueError(f"{where}: unsupported version {version!r} (0 to 3 are supported)")
    if cai.get("mask") is not None:
        raise NotImplementedError(f"{where}: masked arrays (mask is not None) are not supported")
    for key in ("shape", "typestr", "data"):
        if key not in cai:
            raise ValueError(f"{where}: the required key '{key}' is missing")
    shape = cai["shape"]
    if not isinstance(shape, (tuple, list)) or not all(_is_int(e) and 0 <= e < _I64 for e in shape):
        raise ValueError(f"{where}: shape must be a tuple of non-negative ints, got {shape!r}")
    if math.prod(max(int(e), 1) for e in shape) >= _I64:
        raise ValueError(f"{where}: shape {cai['shape']!r} is too large for 64-bit strides")
    shape = tuple(int(e) for e in shape)
    typestr, kind, itemsize = _typestr(cai["typestr"], where)
    fields = None
    descr = cai.get("descr") if kind == "V" else None
    if descr is not None:
        if not isinstance(descr, (tuple, list)):
            raise ValueError(f"{where}: descr must be a list of (name, format[, shape]) tuples, got {descr!r}")
        first = descr[0] if len(descr) == 1 else None
        padding = (  # [('', '|V8')]: no fields (NumPy's descr of a plain void)
            isinstance(first, (tuple, list)) and len(first) in (2, 3) and isinstance(first[0], str) and first[0] == ""
        )
        if not padding:
            fields = _descr_fields(descr, itemsize, where)
    data = cai["data"]
    if not isinstance(data, (tuple, list)) or len(data) != 2 or not _is_int(data[0]) or not 0 <= data[0] < 2**64:
        raise ValueError(f"{where}: data must be a (pointer, read_only) tuple, got {data!r}")
    ptr, readonly = int(data[0]), bool(data[1])
    size = int(math.prod(shape)) if shape else 1
    if ptr == 0 and size:
        raise ValueError(f"{where}: the data pointer is 0 for {size} elements")
    strides = cai.get("strides")
    if strides is None:
        from ._dlpack import c_strides

        elem = c_strides(shape)
    else:
        if (
            not isinstance(strides, (tuple, list))
            or len(strides) != len(shape)
            or not all(_is_int(s) and -_I64 <= s < _I64 for s in strides)
        ):
            raise ValueError(f"{where}: strides must be a tuple of {len(shape)} ints or None, got {strides!r}")
        bad = [s for s in strides if s % itemsize]
        if bad:
            raise ValueError(f"{where}: stride {bad[0]} is not a multiple of the item size {itemsize}")
        elem = tuple(int(s) // itemsize for s in strides)
    stream = None
    if version >= 3 and cai.get("stream") is not None:
        stream = cai["stream"]
        if not _is_int(stream):
            raise ValueError(f"{where}: stream must be an int or None, got {stream!r}")
        stream = int(stream)
        if stream == 0:
            raise ValueError(
                f"{where}: stream 0 is invalid (1 is the legacy default stream, 2 the per-thread default stream)"
            )
    return ptr, shape, elem, typestr, fields, readonly, stream


_CAI_DTYPES = {}  # typestr -> its NumPy dtype


def _struct_dtype(fields, itemsize):
    names, formats, offsets = [], [], []
    for name, fmt, shape, offset in fields:
        fdt = np.dtype(fmt) if isinstance(fmt, str) else _struct_dtype(*fmt)
        names.append(name)
        formats.append(np.dtype((fdt, shape)) if shape else fdt)
        offsets.append(offset)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": itemsize})


def cai_dtype(typestr, fields, position):
    """The NumPy dtype of a read CUDA Array Interface element."""
    if fields is None:
        dt = _CAI_DTYPES.get(typestr)
        if dt is None:
            try:
                dt = _CAI_DTYPES[typestr] = np.dtype(typestr)
            except (TypeError, ValueError):  # a size this platform's NumPy lacks (f16)
                raise ValueError(f"{_cai_where(position)}: unknown typestr {typestr!r}") from None
        return dt
    try:
        return _struct_dtype(*fields)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{_cai_where(position)}: malformed descr: {e}") from None


def parse_cai(cai, position):
    """(dtype, shape, element strides, pointer, readonly, stream) of a CUDA
    Array Interface dict, validated (ValueError / NotImplementedError
    naming the argument position): read natively when the native module
    is there, else by `read_cai`."""
    read = _native_cai if _native_cai is not None else _cai_reader()
    ptr, shape, strides, typestr, fields, readonly, stream = (read or read_cai)(cai, position)
    return cai_dtype(typestr, fields, position), shape, strides, ptr, readonly, stream


def from_cai(obj, position):
    dtype, shape, strides, ptr, readonly, stream = parse_cai(obj.__cuda_array_interface__, position)
    return ArrayArg(
        ptr, shape, strides, dtype, readonly, "cuda", keep=obj, stream=stream, protocol="CUDA Array Interface"
    )


# --- NumPy and __array_interface__ --------------------------------------------------------


def from_numpy(a, position, keep=None):
    if a.dtype.kind == "O":
        raise ValueError(f"argument {position}: arrays of Python objects cannot be passed to a kernel")
    if any(s % a.itemsize for s in a.strides):
        raise ValueError(f"argument {position}: strides {a.strides} are not multiples of the item size {a.itemsize}")
    strides = tuple(s // a.itemsize for s in a.strides)
    return ArrayArg(
        a.ctypes.data, a.shape, strides, a.dtype, not a.flags.writeable, "cpu", keep=keep if keep is not None else a
    )


def array_arg(obj, position, stream=None):
    """The ArrayArg of an array argument, or None when `obj` is no array.
    DLPack wins over the CUDA Array Interface (spec); `stream` is the
    launch's stream handle on the cuda target (None on host)."""
    if _types.is_value(obj):
        return None  # numbers, vectors and structs are values
    if isinstance(obj, DeviceArray):
        return obj._arg(position)
    if isinstance(obj, np.ndarray):
        # NumPy's own view of it (structured dtypes too, which DLPack cannot carry).
        return from_numpy(obj, position)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        return from_dlpack(obj, position, stream)
    if hasattr(obj, "__cuda_array_interface__"):
        return from_cai(obj, position)
    if hasattr(obj, "__array_interface__"):
        # The array view holds `obj`'s buffer export (when NumPy made one)
        # until the launch ends, so that `obj` cannot move its memory.
        a = np.asarray(obj)
        return from_numpy(a, position, keep=(obj, a))
    return None


def check_device(arg, position, target, device=None, name=None):
    """Where the array lives must suit the target, and on cuda the launch's
    `device` (None: the current device): raises ValueError naming the
    argument (`name`: its parameter name) and both devices. Device memory
    of a CUDA Array Interface producer, which does not say its device, is
    asked of the driver where the process sees more than one device."""
    if target == "cuda" and arg.device not in CUDA_DEVICES:
        raise ValueError(
            f"argument {position}: a host (CPU) array cannot be passed to a cuda launch: copy it to the GPU with pydev.to_device(a)"
        )
    if target == "host" and arg.device not in CPU_DEVICES:
        raise ValueError(
            f"argument {position}: a CUDA device array ({arg.protocol}) cannot be passed to a host launch: copy it with pydev.to_host(a), or run on the cuda target (PYDEV_TARGET=cuda)"
        )
    if target != "cuda" or arg.device != "cuda":
        return  # pinned host and managed memory: every device reaches it
    if not (_native.available() and _native.cuda_status()[0]):
        return  # no driver: signatures only (pydev.compile), nothing to launch on
    native = _native.get()
    on = arg.device_id
    if on is None:
        if not arg.data or native.cuda_device_count() < 2:
            return
        on = native.cuda_pointer_device(arg.data)
        if on is None:
            return  # memory the driver did not allocate, or that every device reaches
    if device is None:
        device = native.cuda_current_device()
    if on != device:
        what = f"argument {position} ('{name}')" if name else f"argument {position}"
        raise ValueError(
            f"{what} is on cuda device {on}, but the launch runs on device {device}: launch under pydev.Device({on}) "
            f"(or the framework's own device selection), or copy it with pydev.to_device(a, device={device})"
        )


def cai_sync_enabled():
    return os.environ.get("PYDEV_CAI_SYNC", "1").strip() != "0"


# --- copies to the host -------------------------------------------------------------------


def _span(arg):
    """(lowest byte offset, bytes spanned) of the elements of `arg`."""
    item = arg.dtype.itemsize
    if arg.size == 0:
        return 0, 0
    lo = sum(s * (e - 1) for s, e in zip(arg.strides, arg.shape) if s < 0) * item
    hi = sum(s * (e - 1) for s, e in zip(arg.strides, arg.shape) if s > 0) * item
    return lo, hi - lo + item


def _view(buffer, base_offset, arg):
    return np.ndarray(
        arg.shape, arg.dtype, buffer=buffer, offset=base_offset, strides=[s * arg.dtype.itemsize for s in arg.strides]
    )


def host_copy(arg, stream_handle=0, order="C"):
    """A new NumPy array with the elements of `arg`: C-contiguous, or with
    order="K" compact in the order of `arg`'s strides (as NumPy's order='K')."""
    lo, span = _span(arg)
    if span == 0:
        return np.empty(arg.shape, arg.dtype)
    if arg.device in CPU_DEVICES:
        raw = (ctypes.c_char * span).from_address(arg.data + lo)
        return np.array(_view(raw, -lo, arg), copy=True, order=order)
    native = _native.get()
    if arg.stream is not None and cai_sync_enabled():
        native.cuda_stream_synchronize(arg.stream)
    raw = np.empty(span, np.uint8)
    native.cuda_memcpy_dtoh(raw, arg.data + lo, span, stream_handle or 0)
    return np.array(_view(raw, -lo, arg), copy=True, order=order)


# --- layouts ------------------------------------------------------------------------------


def layout_order(a):
    """The order of the axes of NumPy array `a` in memory, outermost first,
    that a copy of it keeps (as CuPy and Numba copies do): C order when `a`
    is C-contiguous, the reverse when it is Fortran-contiguous, else the
    axes by decreasing |stride| (NumPy's order='K': a strided view copies
    compactly, its axes ranked as in its parent)."""
    n = a.ndim
    if a.flags.c_contiguous:
        return tuple(range(n))
    if a.flags.f_contiguous:
        return tuple(reversed(range(n)))
    return tuple(sorted(range(n), key=lambda k: -abs(a.strides[k])))


def dense_strides(shape, order):
    """Element strides of a compact array of `shape` whose axes lie in
    memory in `order` (outermost first); c_strides for C order."""
    out, acc = [0] * len(shape), 1
    for k in reversed(order):
        out[k] = acc
        acc *= max(int(shape[k]), 1)
    return tuple(out)


def _inverse(order):
    inv = [0] * len(order)
    for i, k in enumerate(order):
        inv[k] = i
    return tuple(inv)


def compact(a, order, copy):
    """`a` as the C-contiguous array of its axes permuted to `order`: its
    bytes are those of the compact copy with that layout (a new array when
    `copy`, else `a`'s own memory where it already is one)."""
    p = a.transpose(order)
    return np.array(p, order="C", copy=True) if copy else np.ascontiguousarray(p)


def empty_in_order(shape, dtype, order):
    """(a new array of `shape` whose axes lie in memory in `order`, the
    C-contiguous array of the same memory with its axes in that order)."""
    c = np.empty(tuple(shape[k] for k in order), dtype)
    return c.transpose(_inverse(order)), c


# --- DeviceArray --------------------------------------------------------------------------


def _as_dtype(dtype):
    if _types.is_aggregate_type(dtype):
        return _types.to_dtype(dtype)
    return np.dtype(dtype)


_FAST_KEYS = {}  # interned, never freed: dispatch.rs keys on their addresses


class DeviceArray(ArrayViews):
    """An array on a target. On `cuda` it owns device memory and exports the
    CUDA Array Interface v3 (with the stream it was last used on) and
    DLPack; on `host` it wraps a NumPy array and exports DLPack and
    `__array_interface__`. `.shape .dtype .size .ndim .strides .nbytes`,
    `copy_to_host()`. Its memory is compact, in C order unless made from
    an array in another layout (`to_device` of a Fortran-ordered array has
    Fortran strides, as in CuPy and Numba); every export and copy keeps it.
    `_order`: on cuda, the axes in memory, outermost first (None: C order);
    on host, `_host` holds the layout. `device`: the ordinal of the cuda
    device its memory is on (None when made: the current device; 0 on
    host), which DLPack's `__dlpack_device__` reports. Views (indexing,
    `reshape`, `split`: pydev/_array_views.py) share their base's memory:
    on host `_host` is a NumPy view; on cuda `_view` is (base, pointer,
    element strides) and the base's allocation is freed with the base."""

    def __init__(self, shape, dtype, target, stream=None, _host=None, _order=None, device=None, _view=None):
        dtype = _as_dtype(dtype)
        shape = tuple(int(e) for e in shape) if isinstance(shape, (tuple, list)) else (int(shape),)
        if dtype.subdtype is not None:  # NumPy's rule: a sub-array dtype adds dimensions
            dtype, shape = dtype.subdtype[0], shape + tuple(dtype.subdtype[1])
        if any(e < 0 for e in shape):
            raise ValueError(f"negative dimensions are not allowed: {shape}")
        self.shape, self.dtype, self.target = shape, dtype, target
        if device is None:
            device = _native.get().cuda_current_device() if target == "cuda" else 0
        self.device = int(device)
        self.stream = stream
        self._stream_handle = _stream_handle(stream)
        self._last_stream = None  # the stream of the last launch that used it (None: nothing pending)
        self._host = _host
        self._order = tuple(range(len(shape))) if _order is None or len(_order) != len(shape) else tuple(_order)
        self._ptr = 0
        self._base = self._vstrides = None
        if target == "host":
            if self._host is None:
                self._host = np.empty(self.shape, self.dtype)
        elif _view is not None:
            self._base, self._ptr, self._vstrides = _view[0], int(_view[1]), tuple(_view[2])
        else:
            self._ptr = _native.get().cuda_alloc(max(self.nbytes, 1), self.device)
        # The launch fast path's view (python/src/dispatch.rs): the packed
        # descriptor, fixed for the array's life, and an interned key
        # (`_fast_key`) that names the target, the device, the element dtype
        # and the layout. For numbers' dtypes it is `type_key`, which names
        # the signature and is public (docs/backend.md): frameworks dispatch
        # on it (pydev.numba). Elements whose signature name depends on the
        # kernel (structs: its file's @struct classes) are keyed by their
        # dtype instead, which decides that name for a given kernel.
        self.type_key = self._fast_key = self._desc = None
        if self.shape and dtype.kind != "O":
            arg = self._arg(0)
            self._desc = arg.descriptor()
            if dtype.isbuiltin == 1 and _types.dtype_name(dtype) is not None:
                key = f"{target}:{self.device}:{arg.signature((), 0)}"
                self.type_key = self._fast_key = _FAST_KEYS.setdefault(key, key)
            else:
                ro = "readonly " if arg.readonly else ""
                key = f"{target}:{self.device}:{ro}{dtype!r}[{dims(arg.shape, arg.strides)}]"
                self._fast_key = _FAST_KEYS.setdefault(key, key)

    @property
    def size(self):
        """The number of elements."""
        return int(math.prod(self.shape)) if self.shape else 1

    @property
    def nbytes(self):
        """The size of the elements in bytes (size * itemsize)."""
        return self.size * self.dtype.itemsize

    @property
    def ndim(self):
        """The number of dimensions."""
        return len(self.shape)

    @property
    def itemsize(self):
        """The size of one element in bytes."""
        return self.dtype.itemsize

    @property
    def strides(self):
        """Byte strides, like NumPy's."""
        if self.target == "host":
            return self._host.strides
        return tuple(s * self.dtype.itemsize for s in self._elem_strides())

    def _elem_strides(self):
        if self._vstrides is not None:
            return self._vstrides
        return dense_strides(self.shape, self._order)

    def _c_order(self):
        if self._vstrides is not None:
            c = dense_strides(self.shape, tuple(range(len(self.shape))))
            return all(e <= 1 or s == d for e, s, d in zip(self.shape, self._vstrides, c))
        return self._order == tuple(range(len(self.shape)))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __del__(self):
        ptr = getattr(self, "_ptr", 0)
        if ptr and getattr(self, "_base", None) is None:  # a view's memory is its base's
            self._ptr = 0
            try:
                _native.get().cuda_free(ptr, self.device)
            except Exception:
                pass

    def _arg(self, position):
        if self.target == "host":
            return from_numpy(self._host, position, keep=self)
        # A launch on another stream first waits for the one it was last used on.
        pending = None if self._last_stream is None else normalize_stream(self._last_stream)
        return ArrayArg(
            self._ptr,
            self.shape,
            self._elem_strides(),
            self.dtype,
            False,
            "cuda",
            keep=self,
            stream=pending,
            protocol="pydev.DeviceArray",
            device_id=self.device,
        )

    # host exports
    @property
    def __array_interface__(self):
        if self.target != "host":
            raise AttributeError("a cuda DeviceArray has no __array_interface__: use copy_to_host()")
        return self._host.__array_interface__

    def __array__(self, dtype=None, copy=None):
        if self.target != "host":
            raise TypeError(
                "a cuda DeviceArray cannot convert to a NumPy array implicitly: use copy_to_host() or pydev.to_host()"
            )
        a = self._host if dtype is None else self._host.astype(dtype)
        return a.copy() if copy else a

    # DLPack
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if copy:
            raise BufferError("pydev.DeviceArray exports its memory, not copies (copy=True)")
        if self.target == "host":
            kwargs = {"stream": stream}
            if max_version is not None:
                kwargs["max_version"] = max_version
            try:
                return self._host.__dlpack__(**kwargs)
            except TypeError:
                return self._host.__dlpack__()
        if stream is not None and stream != -1 and self._last_stream is not None and cai_sync_enabled():
            # The consumer's stream waits for the work queued on ours.
            ours = normalize_stream(self._last_stream)
            if normalize_stream(stream) != ours:
                _native.get().cuda_stream_wait(stream, ours, self.device)
        # Made once: a DLPack consumer exports at every launch, and the
        # array's memory, shape and layout never change.
        export = self.__dict__.get("_dlpack_export")
        if export is None:
            from . import _dlpack

            strides = None if self._c_order() else self._elem_strides()
            maker = _dlpack.capsule_maker(self._ptr, self.shape, self.dtype, _dlpack.kDLCUDA, self.device)
            export = self._dlpack_export = (maker, strides)
        versioned = max_version is not None and tuple(max_version)[0] >= 1
        return export[0](self, export[1], False, versioned)

    def __dlpack_device__(self):
        from . import _dlpack

        return (_dlpack.kDLCPU, 0) if self.target == "host" else (_dlpack.kDLCUDA, self.device)

    # the CUDA Array Interface
    @property
    def __cuda_array_interface__(self):
        if self.target == "host":
            raise AttributeError(
                "a host DeviceArray exports DLPack and __array_interface__, not the CUDA Array Interface"
            )
        out = {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self._ptr if self.size else 0, False),
            "strides": None if self._c_order() else self.strides,
            "version": 3,
            "stream": None if self._last_stream is None else normalize_stream(self._last_stream),
        }
        if self.dtype.fields:
            out["descr"] = self.dtype.descr
        return out

    def copy_to_host(self, ary=None, stream=None):
        """With no `ary`, a new numpy.ndarray with this array's contents and
        layout; else copies into NumPy array `ary` (of the same dtype and,
        up to dimensions of extent 1, shape: Numba's rule) and returns it,
        so that Numba's `d.copy_to_host(h, stream)` fills `h`. Waits for the
        stream it was last used on. `stream`: a stream, or 0 / None for the
        array's own; a stream passed as `ary` (pydev's earlier
        `copy_to_host(stream)`) is taken as the stream."""
        if stream is None or (type(stream) is int and stream == 0):
            stream = None
        if ary is not None and not isinstance(ary, np.ndarray) and _is_stream(ary):
            if stream is not None:
                raise TypeError("copy_to_host(ary, stream): ary is a stream, not a NumPy array")
            ary, stream = None, ary
        into = None
        if ary is not None:
            from ._array_views import check_copy_target, reshape_view

            check_copy_target(self, ary, "copy_to_host")
            into = ary if ary.shape == self.shape else reshape_view(ary, self.shape, "K")
        if self.target == "host":
            if into is not None:
                into[...] = self._host
                return ary
            return self._host.copy(order="K")
        native = _native.get()
        handle = _stream_handle(stream) if stream is not None else self._stream_handle
        self._wait_pending(native, handle)
        if self._vstrides is not None and self._dense_order() is None:
            out = host_copy(self._arg(0), handle, order="K")  # a strided view: the elements it spans
        else:
            out, memory = empty_in_order(self.shape, self.dtype, self._dense_order() or self._order)
            if self.nbytes:
                native.cuda_memcpy_dtoh(memory.reshape(-1).view(np.uint8), self._ptr, self.nbytes, handle, self.device)
        if into is not None:
            into[...] = out
            return ary
        return out

    def _write(self, value, stream):
        """Writes `value` (broadcast to this array's shape) into this cuda
        array or view: one copy of its bytes when its elements are compact,
        else of the bytes it spans, read and written back around it."""
        native = _native.get()
        handle = (
            self._stream_handle if stream is None or (type(stream) is int and stream == 0) else _stream_handle(stream)
        )
        self._wait_pending(native, handle)
        values = np.broadcast_to(np.asarray(value).astype(self.dtype, copy=False), self.shape)
        if not self.size:
            return
        order = self._dense_order()
        if order is not None:
            out, memory = empty_in_order(self.shape, self.dtype, order)
            out[...] = values
            native.cuda_memcpy_htod(self._ptr, memory.reshape(-1).view(np.uint8), self.nbytes, handle, self.device)
            return
        # A strided view: the bytes it spans, with its elements replaced.
        arg = self._arg(0)
        item = self.dtype.itemsize
        lo = sum(s * (e - 1) for s, e in zip(arg.strides, arg.shape) if s < 0) * item
        hi = sum(s * (e - 1) for s, e in zip(arg.strides, arg.shape) if s > 0) * item
        raw = np.empty(hi - lo + item, np.uint8)
        native.cuda_memcpy_dtoh(raw, self._ptr + lo, raw.size, handle, self.device)
        np.ndarray(self.shape, self.dtype, buffer=raw, offset=-lo, strides=self.strides)[...] = values
        native.cuda_memcpy_htod(self._ptr + lo, raw, raw.size, handle, self.device)

    def _wait_pending(self, native, handle):
        """Stream `handle` waits for the launches that last used this array
        (and, for a view, its base) on other streams."""
        for a in (self, self._base):
            if a is not None and a._last_stream is not None:
                if normalize_stream(a._last_stream) != normalize_stream(handle):
                    native.cuda_stream_wait(handle, a._last_stream, self.device)

    def _dense_order(self):
        """The order of this array's axes in memory (outermost first) when
        its elements are compact (every array but a strided view), else None."""
        if self._vstrides is None:
            return self._order
        order = tuple(sorted(range(len(self.shape)), key=lambda k: -abs(self._vstrides[k])))
        live = [k for k in order if self.shape[k] > 1]
        want = dense_strides(self.shape, order)
        return order if all(self._vstrides[k] == want[k] for k in live) else None

    def __repr__(self):
        on = f" device={self.device}" if self.target == "cuda" else ""
        return f"<pydev.DeviceArray shape={self.shape} dtype={self.dtype} target={self.target}{on}>"

    def __reduce__(self):
        """By value, as Numba's device arrays: its contents copied to the
        host (after the work queued on it), and on load copied to the
        active target of the loading process (pydev.to_device: its current
        device, the same layout)."""
        import pydev

        return (pydev.to_device, (self.copy_to_host(),))


def device_copy(array, target, stream=None, handle=0, device=None):
    """`pydev.to_device`: a DeviceArray on `target` with the elements of
    `array` (NumPy, array-like, or any DLPack / CAI array) in its layout
    (`layout_order`: C or Fortran order kept, a strided view compact)."""
    if isinstance(array, DeviceArray):
        array = array.copy_to_host()
    elif not isinstance(array, np.ndarray) and (
        hasattr(array, "__dlpack__") or hasattr(array, "__cuda_array_interface__")
    ):
        arg = array_arg(array, 0)
        if arg is None:
            raise TypeError(f"to_device() cannot read {type(array).__name__} as an array")
        array = host_copy(arg, order="K")
    a = np.asarray(array)
    order = layout_order(a)
    if target == "host":
        memory = compact(a, order, copy=True)
        host = memory if order == tuple(range(a.ndim)) else memory.transpose(_inverse(order))
        return DeviceArray(a.shape, a.dtype, target, stream=stream, _host=host)
    memory = compact(a, order, copy=False)
    d = DeviceArray(a.shape, a.dtype, target, stream=stream, _order=order, device=device)
    if a.nbytes:
        _native.get().cuda_memcpy_htod(d._ptr, memory.reshape(-1).view(np.uint8), a.nbytes, handle, d.device)
    return d


def _is_stream(obj):
    from ._streams import Stream

    return isinstance(obj, Stream) or hasattr(obj, "__cuda_stream__")


def _stream_handle(stream):
    if stream is None:
        return 0
    from ._streams import stream_handle

    return stream_handle(stream)
