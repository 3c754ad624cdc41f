"""bfloat16 and float8 without ml_dtypes: the bits of a float in those
formats (soft_encode, soft_decode, rounded as ml_dtypes rounds) and the
SoftFloat stand-in number types made from them."""

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
