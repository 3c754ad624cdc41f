"""Fixed-format number types on the host (`device.int8` .. `device.complex128`,
NumPy scalar types converting like C casts) and `WarpMask`; bfloat16 and
float8 are made on first use (pydev._lazy_types). Without ml_dtypes those
are SoftFloat stand-ins: the bits of a float in those formats (soft_encode,
soft_decode, rounded as ml_dtypes rounds)."""

import math

import numpy as np

from . import _facts

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


_KIND_WORDS = {
    "int": "signed integer",
    "uint": "unsigned integer",
    "float": "IEEE floating-point number",
    "complex": "complex number (two floats)",
    "bfloat": "bfloat16 floating-point number (8-bit exponent, 7-bit mantissa)",
}


def number_doc(name):
    """The docstring of the number type `name` of cuda.device."""
    if name.startswith("float8"):
        what = f"8-bit floating-point number ({name[6:]}: CUDA's __nv_fp8_{name[6:]})"
    else:
        kind = name.rstrip("0123456789")
        what = f"{name[len(kind) :]}-bit {_KIND_WORDS[kind]}"
        if kind == "bfloat":
            what = _KIND_WORDS[kind]
    return (
        f"cuda.device.{name}: {'an' if what[0] == '8' else 'a'} {what}. `device.{name}(x)` converts a value (in host and device code, "
        f"wrapping or rounding as CUDA C++ does), and `device.{name}` is a dtype wherever one is taken "
        f"(`device.shared_array(n, device.{name})`, `pydev.device_array(n, device.{name})`)."
    )


def _number(name, np_type, convert=None):
    body = {
        "__doc__": number_doc(name),
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


# The number types that have vector types (`<name>x1` .. `<name>x4`).
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
