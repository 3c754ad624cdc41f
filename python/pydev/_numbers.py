"""Fixed-format number types on the host (`device.int8` .. `device.complex128`,
NumPy scalar types converting like C casts) and `WarpMask`; bfloat16 and
float8 are made on first use (pydev._lazy_types)."""

import math

import numpy as np

from ._small_floats import _is_softfloat


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
