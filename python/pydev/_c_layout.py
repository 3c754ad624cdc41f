"""The CUDA C++ layout of NumPy dtypes: (size, alignment) of a dtype, and
where a structured dtype departs from the C layout of its fields.

Layout rules (the same as the compiler's, frontends/python/src/types.rs):
a number is aligned to its size (a complex number to the size of one part);
a vector of N lanes of T is N * sizeof(T) bytes aligned to min(N * sizeof(T),
16), except 3 lanes, aligned to sizeof(T) (CUDA's float3, double3, ...); a
struct or tuple is a C struct of its members in order, each at the next
multiple of its alignment, the whole rounded up to the largest alignment
(and to `align=` for a struct).
"""

import math

import numpy as np

from ._lazy_types import dtype_name


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
