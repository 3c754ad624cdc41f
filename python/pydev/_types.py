"""Heterogeneous types on the host: fixed-format numbers, vectors, `@struct`
classes with the CUDA C++ layout as NumPy dtypes, `align()`, `WarpMask`,
and the type names of pydevc's signature syntax.

Layout rules (the same as the compiler's, frontends/python/src/types.rs):
a number is aligned to its size (a complex number to the size of one part);
a vector of N lanes of T is N * sizeof(T) bytes aligned to min(N * sizeof(T),
16), except 3 lanes, aligned to sizeof(T) (CUDA's float3, double3, ...); a
struct or tuple is a C struct of its members in order, each at the next
multiple of its alignment, the whole rounded up to the largest alignment
(and to `align=` for a struct).
"""

import inspect
import math
import struct as _pystruct
import sys
import threading

import numpy as np

from . import _facts


class DeviceOnlyError(RuntimeError):
    """A device-only entity of cuda.device was used in host code."""


def device_only(name):
    """The error for using device-only `cuda.device.<name>` on the host."""
    return DeviceOnlyError(
        f"cuda.device.{name} is device-only: call it from a @device.kernel or @device.func compiled for a target "
        "(launch the kernel with device.launch(kernel, *args, grid=..., block=..., stream=...))"
    )


# --- fixed-format numbers ------------------------------------------------------------


class _NumberMeta(type):
    """Fixed-format number types (`device.int8`, `device.float32`, ...): NumPy
    scalar types (np.dtype(device.float32) is float32, isinstance(np.int8(1),
    device.int8) holds), whose call converts like a C cast: integers wrap
    modulo 2**bits (`device.int8(300) == 44`), floats truncate toward zero
    when converted to an integer type, and round to nearest even between
    floating-point formats. Calls return plain NumPy scalars."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, cls._np)

    def __subclasscheck__(cls, sub):
        return isinstance(sub, type) and issubclass(sub, cls._np)

    def __call__(cls, value=0, *imag):
        if imag:
            # complex64(re, im), as complex(re, im) and device code allow.
            if cls._np not in (np.complex64, np.complex128) or len(imag) > 1:
                raise TypeError(
                    f"{cls.__name__}() takes one value" + (" or two (re, im)" if np.dtype(cls._np).kind == "c" else "")
                )
            part = np.float32 if cls._np is np.complex64 else np.float64
            return cls._np(complex(part(value), part(imag[0])))
        return cls._convert(value)

    def __repr__(cls):
        return f"<class 'cuda.device.{cls.__name__}'>"


def _int_converter(np_type):
    dt = np.dtype(np_type)
    bits = dt.itemsize * 8
    signed = dt.kind == "i"

    def convert(value):
        if isinstance(value, np.ndarray):
            return value.astype(dt)
        if isinstance(value, (bool, np.bool_)):
            return np_type(int(value))
        if isinstance(value, (int, np.integer)):
            v = int(value)
        elif isinstance(value, (float, np.floating)) or _is_softfloat(value):
            f = float(value)
            if not math.isfinite(f):
                raise ValueError(f"cannot convert {f} to {dt.name}")
            v = math.trunc(f)
        elif isinstance(value, (complex, np.complexfloating)):
            raise TypeError(f"cannot convert a complex number to {dt.name}: take .real first")
        else:
            v = int(value)  # strings, objects with __int__ / __index__
        v &= (1 << bits) - 1
        if signed and v >= 1 << (bits - 1):
            v -= 1 << bits
        return np_type(v)

    return convert


def _number(name, np_type, convert=None):
    body = {
        "_np": np_type,
        "dtype": np.dtype(np_type),
        "_convert": staticmethod(convert or np_type),
        "__module__": "cuda.device",
    }
    bases = (np_type,) if isinstance(np_type, type) and issubclass(np_type, np.generic) else ()
    try:
        return _NumberMeta(name, bases, body)
    except TypeError:  # a scalar type that cannot be subclassed
        return _NumberMeta(name, (), body)


int8 = _number("int8", np.int8, _int_converter(np.int8))
int16 = _number("int16", np.int16, _int_converter(np.int16))
int32 = _number("int32", np.int32, _int_converter(np.int32))
int64 = _number("int64", np.int64, _int_converter(np.int64))
uint8 = _number("uint8", np.uint8, _int_converter(np.uint8))
uint16 = _number("uint16", np.uint16, _int_converter(np.uint16))
uint32 = _number("uint32", np.uint32, _int_converter(np.uint32))
uint64 = _number("uint64", np.uint64, _int_converter(np.uint64))


def _float_converter(np_type):
    def convert(value=0):
        with np.errstate(over="ignore", invalid="ignore"):  # a C conversion does not warn
            if isinstance(value, np.ndarray):
                return value.astype(np_type)
            return np_type(value)

    return convert


float16 = _number("float16", np.float16, _float_converter(np.float16))
float32 = _number("float32", np.float32, _float_converter(np.float32))
float64 = _number("float64", np.float64, _float_converter(np.float64))
complex64 = _number("complex64", np.complex64, _float_converter(np.complex64))
complex128 = _number("complex128", np.complex128, _float_converter(np.complex128))
bool_ = np.bool_

# --- bfloat16 and float8: ml_dtypes when installed, else a stand-in -------------------

# (exponent bits, mantissa bits, finite-only) of the formats NumPy lacks.
_SOFT_FORMATS = {k: v for k, v in _facts.SMALL_FLOATS.items() if k != "float16"}  # float16 is NumPy's


def soft_encode(x, fmt):
    """The bits of float `x` in format `fmt` (a key of _SOFT_FORMATS), rounded
    to nearest even like ml_dtypes: overflow gives inf, or NaN in the
    finite-only float8e4m3 (e4m3fn, CUDA's __nv_fp8_e4m3)."""
    ebits, mbits, finite_only = _SOFT_FORMATS[fmt]
    nbits = 1 + ebits + mbits
    x = float(x)
    sign = 1 << (nbits - 1) if math.copysign(1.0, x) < 0 else 0
    emax_field = (1 << ebits) - 1
    nan = sign | ((1 << (nbits - 1)) - 1) if finite_only else sign | (emax_field << mbits) | (1 << (mbits - 1))
    if math.isnan(x):
        return nan
    inf = nan if finite_only else sign | (emax_field << mbits)
    if math.isinf(x):
        return inf
    a = abs(x)
    bias = (1 << (ebits - 1)) - 1
    if finite_only:  # the all-ones exponent holds normal numbers, but for NaN
        max_finite = 2.0 ** (emax_field - bias) * (2 - 2.0 ** (1 - mbits))
    else:
        max_finite = 2.0 ** (emax_field - 1 - bias) * (2 - 2.0**-mbits)
    min_normal_exp = 1 - bias
    if a == 0:
        return sign
    e = max(math.frexp(a)[1] - 1, min_normal_exp)
    quantum = 2.0 ** (e - mbits)
    r = round(a / quantum) * quantum  # Python's round() is half-to-even
    if r > max_finite:
        return inf
    if r < 2.0**min_normal_exp:  # subnormal (or zero)
        return sign | int(r / 2.0 ** (min_normal_exp - mbits))
    e = math.frexp(r)[1] - 1
    mant = int(r / 2.0 ** (e - mbits)) - (1 << mbits)
    return sign | ((e + bias) << mbits) | mant


def soft_decode(bits, fmt):
    ebits, mbits, finite_only = _SOFT_FORMATS[fmt]
    nbits = 1 + ebits + mbits
    sign = -1.0 if bits >> (nbits - 1) & 1 else 1.0
    e = bits >> mbits & ((1 << ebits) - 1)
    m = bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if finite_only and e == (1 << ebits) - 1 and m == (1 << mbits) - 1:
        return math.nan
    if not finite_only and e == (1 << ebits) - 1:
        return sign * math.inf if m == 0 else math.nan
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - mbits)
    return sign * (1 + m / (1 << mbits)) * 2.0 ** (e - bias)


class SoftFloat:
    """A bfloat16 / float8 number on a host without ml_dtypes: its bits, in a
    NumPy unsigned dtype tagged with metadata {"pydev": name}. It converts to
    float (float(x)) and passes to kernels with its exact bits; install
    ml_dtypes for arithmetic on the host."""

    __slots__ = ("_bits",)
    _fmt = "bfloat16"

    def __init__(self, value=0.0):
        object.__setattr__(self, "_bits", soft_encode(float(value), self._fmt))

    @classmethod
    def from_bits(cls, bits):
        obj = cls.__new__(cls)
        object.__setattr__(obj, "_bits", int(bits))
        return obj

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} numbers are immutable")

    def __float__(self):
        return soft_decode(self._bits, self._fmt)

    def item(self):
        return float(self)

    def tobytes(self):
        return int(self._bits).to_bytes(self.dtype.itemsize, "little")

    def __eq__(self, other):
        try:
            return float(self) == float(other)
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self):
        return hash(float(self))

    def __repr__(self):
        return f"{self._fmt}({float(self)!r})"


def _soft_type(name):
    size = 2 if name == "bfloat16" else 1
    dt = np.dtype(f"u{size}", metadata={"pydev": name})
    cls = type(name, (SoftFloat,), {"__slots__": (), "_fmt": name, "dtype": dt, "__module__": "cuda.device"})
    return cls


def _is_softfloat(value):
    return isinstance(value, SoftFloat)


# Made on first use, through the module __getattr__ (a launch of float32
# arrays needs none of them):
# - bfloat16, float8e4m3 and float8e5m2, their vector types, and
#   HAVE_ML_DTYPES, NUMBER_TYPES, VECTOR_TYPES, _BF16, _F8E4M3, _F8E5M2, which
#   list them (_load_lazy): importing ml_dtypes costs ~9 ms. An array or
#   scalar of an ml_dtypes dtype has ml_dtypes imported already:
#   dtype_name() loads them when it meets one.
# - the vector types of the other numbers, and Dim3 (_load_vectors): 44
#   classes, ~0.7 ms.
_LAZY_NUMBERS = ("bfloat16", "float8e4m3", "float8e5m2")
_LAZY_ATTRS = ("HAVE_ML_DTYPES", "_BF16", "_F8E4M3", "_F8E5M2", "NUMBER_TYPES", "VECTOR_TYPES") + _LAZY_NUMBERS
_LAZY_VECTOR_ATTRS = ("_VECTORS", "Dim3")
_LAZY_LOCK = threading.RLock()
_NUMBER_ORDER = (
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "float8e4m3",
    "float8e5m2",
    "complex64",
    "complex128",
)


def _soft_converter(np_type):
    if HAVE_ML_DTYPES:  # noqa: F821 - a lazy global (_LAZY_ATTRS)
        return None

    def convert(value):
        if isinstance(value, np.ndarray):
            return np.array(
                [soft_encode(v, np_type._fmt) for v in value.ravel().astype(np.float64)], np_type.dtype
            ).reshape(value.shape)
        return np_type(value)

    return convert


def __getattr__(name):
    if name in _LAZY_ATTRS:
        _load_lazy()
        return globals()[name]
    if name in _LAZY_VECTOR_ATTRS:
        _load_vectors()
        return globals()[name]
    raise AttributeError(f"module '{__name__}' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_ATTRS) | set(_LAZY_VECTOR_ATTRS))


def _bind_in_device():
    """Binds what is made so far in cuda.device, when it is imported."""
    device = sys.modules.get("cuda.device")
    if device is not None and "_bind_lazy" in vars(device):
        device._bind_lazy()


def _load_vectors():
    """Makes the vector types of the numbers made at import (int8x1 ..
    float64x4, not bfloat16 or float8), and Dim3. Once; Dim3, set last,
    says it is done."""
    g = globals()
    if "Dim3" in g:
        return
    with _LAZY_LOCK:
        if "Dim3" in g:
            return
        vectors = {
            f"{t}x{n}": _vector_type(_NUMBERS[t], t, n) for t in VECTOR_ELEMENTS if t in _NUMBERS for n in range(1, 5)
        }

        class Dim3(vectors["uint32x3"]):
            """The type of thread_idx, block_idx, block_dim, grid_dim (a uint32x3)."""

            __slots__ = ()

        Dim3.__qualname__ = "Dim3"
        g["_VECTORS"] = vectors
        g["Dim3"] = Dim3
        _bind_in_device()


def _load_lazy():
    """Makes bfloat16, float8e4m3, float8e5m2 (ml_dtypes' types when it is
    installed, else the SoftFloat stand-ins), their vector types, and
    NUMBER_TYPES / VECTOR_TYPES; binds them in cuda.device when it is
    imported. Once; NUMBER_TYPES, set last, says it is done."""
    g = globals()
    if "NUMBER_TYPES" in g:
        return
    with _LAZY_LOCK:
        if "NUMBER_TYPES" in g:
            return
        _load_vectors()
        try:  # NumPy has no bfloat16 or float8: ml_dtypes provides them when installed.
            import ml_dtypes as _ml

            have = True
            bf16, f8e4m3, f8e5m2 = _ml.bfloat16, _ml.float8_e4m3fn, _ml.float8_e5m2
        except ImportError:  # pragma: no cover - depends on the environment
            have = False
            bf16, f8e4m3, f8e5m2 = _soft_type("bfloat16"), _soft_type("float8e4m3"), _soft_type("float8e5m2")
        g.update(HAVE_ML_DTYPES=have, _BF16=bf16, _F8E4M3=f8e4m3, _F8E5M2=f8e5m2)
        numbers = dict(_NUMBERS)
        for name, t in zip(_LAZY_NUMBERS, (bf16, f8e4m3, f8e5m2)):
            numbers[name] = g[name] = _number(name, t, _soft_converter(t))
            if not np.dtype(numbers[name]).metadata:
                _DTYPE_NAMES[np.dtype(numbers[name])] = name
        vectors = dict(_VECTORS)  # noqa: F821 - a lazy global (_LAZY_ATTRS)
        for t in _LAZY_NUMBERS:
            for n in range(1, 5):
                cls = _vector_type(numbers[t], t, n)
                vectors[cls.__name__] = cls
        g["VECTOR_TYPES"] = {f"{t}x{n}": vectors[f"{t}x{n}"] for t in VECTOR_ELEMENTS for n in range(1, 5)}
        g["NUMBER_TYPES"] = {name: numbers[name] for name in _NUMBER_ORDER}
        _bind_in_device()


def _lazy_device_names():
    """{name: the loader that makes it} of the names of cuda.device made on first use."""
    out = {f"{t}x{n}": _load_vectors for t in VECTOR_ELEMENTS if t in _NUMBERS for n in range(1, 5)}
    out["Dim3"] = _load_vectors
    out.update({name: _load_lazy for name in _LAZY_NUMBERS})
    out.update({f"{t}x{n}": _load_lazy for t in _LAZY_NUMBERS for n in range(1, 5)})
    return out


# The number types made at import (NUMBER_TYPES adds bfloat16 and float8).
_NUMBERS = {
    t.__name__: t
    for t in [
        int8,
        int16,
        int32,
        int64,
        uint8,
        uint16,
        uint32,
        uint64,
        float16,
        float32,
        float64,
        complex64,
        complex128,
    ]
}

# NumPy dtype -> the compiler's name of it.
_DTYPE_NAMES = {np.dtype(bool): "bool"}
for _name, _t in _NUMBERS.items():
    if not np.dtype(_t).metadata:
        _DTYPE_NAMES[np.dtype(_t)] = _name


def dtype_name(dt):
    """The compiler's name of a NumPy scalar dtype, or None."""
    try:
        dt = np.dtype(dt)
    except TypeError:
        return None
    if dt.metadata and "pydev" in dt.metadata:
        return dt.metadata["pydev"]
    if dt.byteorder == ">":
        return None
    name = _DTYPE_NAMES.get(dt)
    if name is None and "NUMBER_TYPES" not in globals() and "ml_dtypes" in sys.modules:
        _load_lazy()  # perhaps an ml_dtypes dtype: their names come with bfloat16 and float8
        name = _DTYPE_NAMES.get(dt)
    return name


def to_dtype(t):
    """The NumPy dtype of a type: builtins (int -> int32, float -> float32,
    complex -> complex64, bool), fixed-format numbers, NumPy dtypes, vector
    and struct classes (their storage), align() types."""
    if t is int:
        return np.dtype(np.int32)
    if t is float:
        return np.dtype(np.float32)
    if t is complex:
        return np.dtype(np.complex64)
    if t is bool:
        return np.dtype(np.bool_)
    if isinstance(t, type) and issubclass(t, Vector):
        return t._storage
    if isinstance(t, (Aligned, Atomic)) or is_struct(t):
        return t.dtype
    if isinstance(t, _NumberMeta):
        return t.dtype
    return np.dtype(t)


# --- layouts --------------------------------------------------------------------------


def _round_up(n, a):
    return (n + a - 1) // a * a


def c_layout(dt):
    """(size, alignment) of a NumPy dtype laid out with the CUDA C++ rules."""
    dt = np.dtype(dt)
    if dt.metadata and "pydev_align" in dt.metadata:
        return dt.itemsize, dt.metadata["pydev_align"]
    if dt.subdtype is not None:  # a vector field: (T, (n,))
        base, shape = dt.subdtype
        n = int(math.prod(shape))
        size = n * base.itemsize
        return size, base.itemsize if n == 3 else min(size, 16)
    if dt.fields:
        align = 1
        for name in dt.names:
            align = max(align, c_layout(dt.fields[name][0])[1])
        return _round_up(dt.itemsize, align), align
    if dt.kind == "c":
        return dt.itemsize, dt.itemsize // 2
    return dt.itemsize, dt.itemsize


def c_layout_mismatch(dt):
    """None when structured dtype `dt` has the C layout of its fields (as
    the compiler lays it out), else a sentence saying where it differs."""
    dt = np.dtype(dt)
    offset, align = 0, int((dt.metadata or {}).get("pydev_align", 1))
    for name in dt.names:
        fdt, foff = dt.fields[name][:2]
        if fdt.subdtype is not None:
            base, shape = fdt.subdtype
            if len(shape) != 1 or not 1 <= shape[0] <= 4 or dtype_name(base) is None:
                return (
                    f"field '{name}' is a {fdt} sub-array; only vectors (a number type with 1 to 4 lanes) are supported"
                )
        elif fdt.fields:
            inner = c_layout_mismatch(fdt)
            if inner:
                return f"in field '{name}': {inner}"
        elif dtype_name(fdt) is None:
            return f"field '{name}' has dtype {fdt}, which device code does not support"
        size, a = c_layout(fdt)
        offset = _round_up(offset, a)
        if foff != offset:
            return f"field '{name}' is at offset {foff}, but the C layout puts it at {offset} (build the dtype with align=True)"
        offset += size
        align = max(align, a)
    if dt.itemsize != _round_up(offset, align):
        return f"its itemsize is {dt.itemsize}, but the C layout's is {_round_up(offset, align)} (build the dtype with align=True)"
    return None


# --- vectors --------------------------------------------------------------------------


def _converter(t):
    """The C-cast conversion of fixed-format number type `t`."""
    return t._convert


class Vector:
    """A vector of `size` (1 to 4) numbers of one type (`float32x4(1, 2, 3, 4)`),
    with the CUDA C++ layout (float4, ...). `.dtype` is the element type, as
    the spec says; `.x .y .z .w`, indexing, len() and iteration read lanes.
    Device code treats vectors as values (`v[1] = x` rebinds v); on the host
    `v[i] = x` and `v.x = e` update the vector in place."""

    __slots__ = ("_v",)
    size = 0
    dtype = None
    _elem = None  # the fixed-format number type of the lanes
    _storage = None  # NumPy dtype of one vector in memory: (T, (N,))

    def __init__(self, *args):
        n = self.size
        if len(args) == 1 and n != 1 and not np.isscalar(args[0]) and not _is_softfloat(args[0]):
            args = tuple(args[0])
        if len(args) != n:
            raise TypeError(f"{type(self).__name__}() takes {n} value{'s' if n > 1 else ''}, got {len(args)}")
        object.__setattr__(self, "_v", self._lanes(args))

    @classmethod
    def _lanes(cls, values):
        conv = _converter(cls._elem)
        out = [conv(v) for v in values]
        if cls.dtype.metadata and not HAVE_ML_DTYPES:  # (only stand-in dtypes have metadata)  # noqa: F821 - a lazy global (_LAZY_ATTRS)
            return np.array([v._bits for v in out], dtype=cls.dtype)
        return np.array(out, dtype=cls.dtype)

    def _lane(self, i):
        v = self._v[i]
        if self.dtype.metadata and not HAVE_ML_DTYPES:  # noqa: F821 - a lazy global (_LAZY_ATTRS)
            return self._elem._np.from_bits(int(v))
        return v

    def __setattr__(self, name, value):
        if name in ("x", "y", "z", "w"):
            return object.__setattr__(self, name, value)
        raise AttributeError(f"{type(self).__name__} has no attribute '{name}'")

    def __len__(self):
        return self.size

    def __getitem__(self, i):
        if not isinstance(i, (int, np.integer)):
            raise TypeError(f"{type(self).__name__} indices must be integers, got {type(i).__name__}")
        if not -self.size <= i < self.size:
            raise IndexError(f"{type(self).__name__} index {i} out of range (it has {self.size} lanes)")
        return self._lane(int(i))

    def __setitem__(self, i, value):
        if not isinstance(i, (int, np.integer)):
            raise TypeError(f"{type(self).__name__} indices must be integers, got {type(i).__name__}")
        if not -self.size <= i < self.size:
            raise IndexError(f"{type(self).__name__} index {i} out of range (it has {self.size} lanes)")
        self._v[int(i)] = self._lanes([value])[0]

    def __iter__(self):
        return (self._lane(i) for i in range(self.size))

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._v.tobytes() == other._v.tobytes() or bool(np.array_equal(self.tolist(), other.tolist()))

    __hash__ = None  # updatable in place on the host

    def tolist(self):
        return [x.item() if hasattr(x, "item") else x for x in self]

    def tobytes(self):
        return self._v.tobytes()

    @classmethod
    def frombytes(cls, data):
        obj = cls.__new__(cls)
        object.__setattr__(obj, "_v", np.frombuffer(bytes(data), dtype=cls.dtype, count=cls.size).copy())
        return obj

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(repr(x) for x in self.tolist())})"


def _lane_property(i, letter):
    def get(self):
        if i >= self.size:
            raise AttributeError(f"{type(self).__name__} has no lane '{letter}' (it has {self.size})")
        return self._lane(i)

    def put(self, value):
        if i >= self.size:
            raise AttributeError(f"{type(self).__name__} has no lane '{letter}' (it has {self.size})")
        self._v[i] = self._lanes([value])[0]

    return property(get, put, doc=f"lane {i}")


for _i, _letter in enumerate("xyzw"):
    setattr(Vector, _letter, _lane_property(_i, _letter))

VECTOR_ELEMENTS = [
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float8e4m3",
    "float8e5m2",
    "float16",
    "bfloat16",
    "float32",
    "float64",
]


def _vector_type(elem, name, n):
    dt = np.dtype(elem)
    return type(
        f"{name}x{n}",
        (Vector,),
        {
            "__slots__": (),
            "size": n,
            "dtype": dt,
            "_elem": elem,
            "_storage": np.dtype((dt, (n,))),
            "__module__": "cuda.device",
        },
    )


# --- WarpMask ---------------------------------------------------------------------------


class WarpMask(np.int32):
    """A warp mask: an int32 whose bit i says whether lane i takes part
    (all 32 lanes: -1). `m[i]` reads bit i; device code also assigns
    `m[i] = flag` (rebinding m), which host NumPy scalars cannot do: build
    a new mask instead (`WarpMask(m | 1 << i)`)."""

    def __new__(cls, value=0):
        return super().__new__(cls, int32(value))

    def __getitem__(self, i):
        if not 0 <= int(i) < 32:
            raise IndexError(f"WarpMask lane {i} is out of range 0..31")
        return bool((int(self) >> int(i)) & 1)

    def __setitem__(self, i, value):
        raise TypeError("a WarpMask is an immutable int32 on the host: build a new one, e.g. WarpMask(m | (1 << i))")

    def __repr__(self):
        return f"WarpMask({int(self) & 0xFFFFFFFF:#010x})"


# --- align(), Atomic --------------------------------------------------------------------


class Aligned:
    """`align(t, n)`: type `t` aligned to at least `n` bytes. For a struct it
    is the struct with the larger alignment; for another type, a one-field
    struct {value: t} aligned to n (as the compiler lays it out). It is a
    dtype (`.dtype`) and a constructor (`align(float32, 16)(x)` is t(x))."""

    def __init__(self, t, n):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0 or n & (n - 1):
            raise ValueError(f"align() takes a power of two, got {n!r}")
        self.type, self.alignment = t, int(n)
        inner = to_dtype(t)
        size, a = c_layout(inner)
        a = max(a, self.alignment)
        if is_struct(t) or isinstance(t, Aligned):
            fields = {name: inner.fields[name][:2] for name in inner.names}
            self.dtype = np.dtype(
                {
                    "names": list(fields),
                    "formats": [f[0] for f in fields.values()],
                    "offsets": [f[1] for f in fields.values()],
                    "itemsize": _round_up(size, a),
                    "aligned": True,
                },
                metadata={"pydev_align": a},
            )
        else:
            self.dtype = np.dtype(
                {
                    "names": ["value"],
                    "formats": [inner],
                    "offsets": [0],
                    "itemsize": _round_up(size, a),
                    "aligned": True,
                },
                metadata={"pydev_align": a},
            )

    def __call__(self, *args, **kwargs):
        return convert_to(self.type, *args, **kwargs)

    def __eq__(self, other):
        return isinstance(other, Aligned) and other.type == self.type and other.alignment == self.alignment

    def __hash__(self):
        return hash((Aligned, self.type, self.alignment))

    def __repr__(self):
        return f"align({getattr(self.type, '__name__', self.type)!r}, {self.alignment})"


def align(t, n):
    """A type equivalent to `t`, aligned to at least `n` bytes."""
    return Aligned(t, n)


class Atomic:
    """`Atomic(dtype, align=0)`: an object accessed atomically; as a struct
    field type (`line: device.Atomic(int, align=16)`) it lays out like its
    dtype aligned to `align`. Its operations are device-only."""

    def __init__(self, dtype, align=0):
        self.type = dtype
        inner = to_dtype(dtype)
        if inner.itemsize > 16:
            raise TypeError(f"Atomic() objects hold at most 16 bytes, {inner} has {inner.itemsize}")
        a = max(c_layout(inner)[1], int(align or 1))
        if a & (a - 1):
            raise ValueError(f"Atomic(align=...) takes a power of two, got {align!r}")
        self.alignment = a
        self.dtype = inner
        self._field_dtype = (
            inner
            if a == c_layout(inner)[1]
            else np.dtype(
                {
                    "names": ["value"],
                    "formats": [inner],
                    "offsets": [0],
                    "itemsize": _round_up(inner.itemsize, a),
                    "aligned": True,
                },
                metadata={"pydev_align": a},
            )
        )

    def __repr__(self):
        return f"Atomic({self.dtype}, align={self.alignment})"

    def _device_only(self, *args, **kwargs):
        raise device_only("Atomic operations")


for _method in _facts.ATOMIC_METHODS:  # load, store, exch, cas, add, ... (device-only)
    setattr(Atomic, _method, Atomic._device_only)


# --- structs ----------------------------------------------------------------------------


def is_struct(t):
    return isinstance(t, type) and issubclass(t, Struct) and t is not Struct


class _Field:
    """A struct field: its name, declared type, NumPy dtype, the bytes and
    alignment it takes in the C layout, its offset, and how host values
    convert to it. An align(t, n) or Atomic(t, align=n) field has the plain
    dtype of t (so that `arr["f"]` reads numbers) at an n-aligned offset,
    and takes the padded size of the aligned type."""

    def __init__(self, name, t, offset=0):
        self.name, self.type = name, t
        inner = t
        while isinstance(inner, (Aligned, Atomic)):
            inner = inner.type
        self.value_type = inner
        self.dtype = to_dtype(inner)
        dt = self.dtype
        if dt.kind == "O" or (dt.subdtype is None and not dt.fields and dtype_name(dt) is None):
            raise TypeError(f"{dt} is not a type device code supports")
        self.size, self.align = c_layout(dt)
        if is_struct(inner):
            self.size, self.align = dt.itemsize, inner._alignment
        if isinstance(t, (Aligned, Atomic)):
            full = t.dtype if isinstance(t, Aligned) else t._field_dtype
            self.size, self.align = c_layout(full)
            self.size = full.itemsize
        self.offset = offset

    def convert(self, value):
        return convert_to(self.value_type, value)


def convert_to(t, *args, **kwargs):
    """A host value of type `t` from `args` (a C-like conversion)."""
    if isinstance(t, Aligned):
        return convert_to(t.type, *args, **kwargs)
    if is_struct(t):
        if len(args) == 1 and not kwargs and isinstance(args[0], t):
            return args[0]
        if len(args) == 1 and not kwargs and isinstance(args[0], tuple):
            return t(*args[0])
        return t(*args, **kwargs)
    if isinstance(t, type) and issubclass(t, Vector):
        if len(args) == 1 and isinstance(args[0], t):
            return args[0]
        return t(*args)
    (value,) = args
    if t is int:
        return int32(value)
    if t is float:
        return float32(value)
    if t is complex:
        return complex64(value)
    if t is bool:
        return bool(value)
    if isinstance(t, _NumberMeta):
        return t(value)
    return np.dtype(t).type(value)


def pack(value, t):
    """The bytes of host value `value` of type `t` in the CUDA C++ layout."""
    dt = to_dtype(t)
    if isinstance(t, Aligned):
        inner = pack(value, t.type)
        return inner + b"\0" * (dt.itemsize - len(inner))
    if isinstance(t, Atomic):
        inner = pack(value, t.type)
        return inner + b"\0" * (t._field_dtype.itemsize - len(inner))
    if is_struct(t):
        return convert_to(t, value).tobytes()
    if isinstance(t, type) and issubclass(t, Vector):
        return convert_to(t, value).tobytes()
    v = convert_to(t, value)
    if _is_softfloat(v):
        return v.tobytes()
    return np.array(v, dtype=dt).tobytes()


class Struct:
    """Base of `@struct` classes: immutable values constructed by position
    (in field order) or keyword, with field defaults from the class body."""

    _fields = ()
    _defaults = {}
    _alignment = 1
    _site = (None, 0)  # (file, line) where @struct made the class
    dtype = None

    def __init__(self, *args, **kwargs):
        cls = type(self)
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(
                f"{cls.__name__}() takes {len(fields)} field value{'s' if len(fields) != 1 else ''}, got {len(args)}"
            )
        values = {f.name: v for f, v in zip(fields, args)}
        for k, v in kwargs.items():
            if not any(f.name == k for f in fields):
                raise TypeError(f"{cls.__name__}() has no field '{k}'")
            if k in values:
                raise TypeError(f"{cls.__name__}() got field '{k}' twice")
            values[k] = v
        for f in fields:
            if f.name not in values:
                if f.name in cls._defaults:
                    values[f.name] = cls._defaults[f.name]
                else:
                    raise TypeError(f"{cls.__name__}() is missing field '{f.name}'")
            object.__setattr__(self, f.name, f.convert(values[f.name]))

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable: build a new one, e.g. s._replace({name}=...)")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _replace(self, **changes):
        """A copy with some fields changed (structs are values)."""
        values = {f.name: getattr(self, f.name) for f in self._fields}
        values.update(changes)
        return type(self)(**values)

    def _astuple(self):
        return tuple(getattr(self, f.name) for f in self._fields)

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.tobytes() == other.tobytes() or all(
            _same(getattr(self, f.name), getattr(other, f.name)) for f in self._fields
        )

    def __hash__(self):
        return hash((type(self).__name__, self.tobytes()))

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in self._fields)})"

    def tobytes(self):
        """The CUDA C++ representation (Cls.dtype.itemsize bytes)."""
        buf = bytearray(type(self).dtype.itemsize)
        for f in self._fields:
            b = pack(getattr(self, f.name), f.type)
            buf[f.offset : f.offset + len(b)] = b
        return bytes(buf)

    def _record(self):
        """This struct as a NumPy structured scalar of Cls.dtype."""
        return np.frombuffer(self.tobytes(), dtype=type(self).dtype)[0]

    @classmethod
    def from_record(cls, record):
        """A struct from an element of an array of Cls.dtype."""
        rec = np.asarray(record)
        if rec.dtype != cls.dtype:
            rec = rec.astype(cls.dtype)
        values = {}
        for f in cls._fields:
            v = rec[f.name]
            if is_struct(f.value_type):
                values[f.name] = f.value_type.from_record(v)
            elif isinstance(f.value_type, type) and issubclass(f.value_type, Vector):
                values[f.name] = f.value_type.frombytes(np.asarray(v).tobytes())
            else:
                values[f.name] = v[()]
        return cls(**values)


def sig_name(cls):
    """The name of @struct class `cls` in a signature and a program
    description: its name for a class of its module's top level, else
    `qualname@line` (`make.<locals>.P@12`), which the compiler finds
    anywhere in the file (in a function, a class body, a block) and which
    keeps two classes of one name apart."""
    name = cls.__name__
    if cls.__qualname__ == name and getattr(sys.modules.get(cls.__module__), name, None) is cls:
        return name
    return f"{cls.__qualname__}@{cls._site[1]}"


def _same(a, b):
    try:
        return bool(np.all(np.asarray(a) == np.asarray(b)))
    except Exception:
        return a == b


def _annotations(c, scope=None):
    """The class's own field annotations, strings evaluated (PEP 563), in
    the module, the names `scope` held where the class was defined (the
    locals of its function, for a struct defined there) and the class."""
    try:
        if scope:
            return inspect.get_annotations(c, locals={**scope, **vars(c)}, eval_str=True)
        return inspect.get_annotations(c, eval_str=True)
    except Exception:
        raw = inspect.get_annotations(c)
        module = sys.modules.get(c.__module__)
        env = dict(vars(module)) if module else {}
        env.update(scope or {})
        env.update(vars(c))
        out = {}
        for name, t in raw.items():
            if isinstance(t, str):
                try:
                    t = eval(t, env)  # noqa: S307 - the user's own annotation
                except Exception as e:
                    raise TypeError(
                        f"@device.struct {c.__name__}: cannot evaluate the type hint of field '{name}': {t!r} ({e})"
                    ) from None
            out[name] = t
        return out


def struct(cls=None, *, align=0):
    """`@struct` / `@struct(align=16)`: a heterogeneous struct with the CUDA
    C++ layout; `Cls.dtype` is the NumPy structured dtype of that layout
    (field offsets, alignment, itemsize; a vector field float32x4 is a
    (float32, (4,)) sub-array at its aligned offset)."""
    if (
        isinstance(align, bool)
        or not isinstance(align, (int, np.integer))
        or align < 0
        or (align and align & (align - 1))
    ):
        raise ValueError(f"@device.struct(align=...) takes a power of two, got {align!r}")
    if cls is not None and not isinstance(cls, type):
        raise TypeError(f"@device.struct decorates a class, got {cls!r}")
    # Where the class is defined (the line `@struct` runs at, in the class's
    # decorators; the file), for the compiler to find a class defined
    # anywhere (sig_name), and the locals there (its string annotations).
    frame = sys._getframe(1)
    site = (frame.f_code.co_filename, frame.f_lineno)
    scope = dict(frame.f_locals) if frame.f_locals is not frame.f_globals else None
    del frame

    def make(c):
        if is_struct(c):
            raise TypeError(f"{c.__name__} is already a @device.struct")
        hints = _annotations(c, scope)
        fields = []
        offset, max_align = 0, 1
        for name, t in hints.items():
            try:
                f = _Field(name, t)
            except TypeError as e:
                raise TypeError(
                    f"@device.struct {c.__name__}: field '{name}' has type {t!r}, which is not heterogeneous ({e})"
                ) from None
            offset = _round_up(offset, f.align)
            f.offset = offset
            offset += f.size
            max_align = max(max_align, f.align)
            fields.append(f)
        max_align = max(max_align, int(align) or 1)
        itemsize = _round_up(offset, max_align)
        defaults = {f.name: c.__dict__[f.name] for f in fields if f.name in c.__dict__}
        body = {k: v for k, v in c.__dict__.items() if k not in ("__dict__", "__weakref__") and k not in defaults}
        body.update(_fields=tuple(fields), _defaults=defaults, _alignment=max_align, underlying=c)
        bases = (Struct,) + tuple(b for b in c.__bases__ if b is not object)
        new = type(c.__name__, bases, body)
        new.__module__, new.__qualname__ = c.__module__, c.__qualname__
        new._site = (site[0], getattr(c, "__firstlineno__", None) or site[1])
        new.dtype = np.dtype(
            {
                "names": [f.name for f in fields],
                "formats": [f.dtype for f in fields],
                "offsets": [f.offset for f in fields],
                "itemsize": itemsize,
                "aligned": True,
            },
            metadata={"pydev_align": max_align},
        )
        return new

    return make(cls) if cls is not None else make


# --- kernel arguments by value --------------------------------------------------------


def scalar_arg(value, position):
    """(signature type, bytes, alignment) of a launch argument passed by value:
    Python bool/int/float/complex as bool/int32/float32/complex64, NumPy
    scalars with their dtype, vectors, structs, tuples (C structs of their
    members)."""
    if isinstance(value, (bool, np.bool_)):
        return "bool", bytes([bool(value)]), 1
    if isinstance(value, WarpMask):
        return "WarpMask", np.int32(value).tobytes(), 4
    if isinstance(value, int):
        if not -(1 << 31) <= value < 1 << 31:
            raise OverflowError(
                f"argument {position}: the Python int {value} does not fit in int32 (a Python int argument is an int32): pass np.int64(...) or np.uint32(...)"
            )
        return "int32", _pystruct.pack("<i", value), 4
    if isinstance(value, float) and not isinstance(value, np.generic):
        return "float32", np.float32(value).tobytes(), 4
    if isinstance(value, complex) and not isinstance(value, np.generic):
        return "complex64", np.complex64(value).tobytes(), 4
    if isinstance(value, np.generic):
        dt = value.dtype
        name = dtype_name(dt)
        if name is None or dt.fields:
            raise TypeError(f"argument {position}: a NumPy scalar of dtype {dt} cannot be passed to a kernel")
        return name, value.tobytes(), c_layout(dt)[1]
    if isinstance(value, SoftFloat):
        return type(value).__name__, value.tobytes(), value.dtype.itemsize
    if isinstance(value, Vector):
        _load_vectors()  # Dim3
        return (
            type(value).__name__ if not isinstance(value, Dim3) else "uint32x3",  # noqa: F821 - a lazy global (_LAZY_ATTRS)
            value.tobytes(),
            c_layout(type(value)._storage)[1],
        )
    if isinstance(value, Struct):
        return sig_name(type(value)), value.tobytes(), type(value)._alignment
    if isinstance(value, tuple):
        if not value:
            raise TypeError(f"argument {position}: an empty tuple cannot be passed to a kernel")
        parts = [scalar_arg(v, position) for v in value]
        out, max_align = bytearray(), 1
        for _, b, a in parts:
            out += b"\0" * ((-len(out)) % a) + b
            max_align = max(max_align, a)
        out += b"\0" * ((-len(out)) % max_align)
        return "(" + ", ".join(t for t, _, _ in parts) + ")", bytes(out), max_align
    raise TypeError(
        f"argument {position}: a {type(value).__name__} cannot be passed to a kernel (arrays, numbers, vectors, structs and tuples of them can)"
    )
