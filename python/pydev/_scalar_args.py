"""Kernel arguments passed by value: the signature type, bytes and alignment
of a host number, vector, struct or tuple of them (scalar_arg)."""

import struct as _pystruct

import numpy as np

from . import _lazy_types
from ._structs import c_layout
from ._lazy_types import dtype_name
from ._numbers import WarpMask
from ._numbers import SoftFloat
from ._structs import Struct, sig_name
from ._vectors import Vector


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
        _lazy_types._load_vectors()  # Dim3
        return (
            type(value).__name__ if not isinstance(value, _lazy_types.Dim3) else "uint32x3",
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
