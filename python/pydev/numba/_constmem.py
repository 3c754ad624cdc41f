"""Constant memory: `cuda.const.array_like(arr)`, and global NumPy arrays
that cannot be folded into the code (records, more than 1024 elements).

As numba-cuda, the array's data are copied at compile time into the
module as a `pydev.const_array`: a `.const` global on cuda (CUDA's
`__constant__`, read with `ld.const`), a read-only global on the host. The
array is C-contiguous and read-only in device code."""

import numpy as np

from .. import ir
from . import types as T
from ._typing import TypedValue


def const_array(c, arr, node):
    """The read-only constant-memory array of NumPy array `arr`'s data
    (one per array and function)."""
    cache = c.__dict__.setdefault("_const_arrays", {})
    hit = cache.get(id(arr))
    if hit is not None and hit[0] is arr and hit[1] is c.f:  # a retyped function is built anew
        return hit[2]
    data = np.ascontiguousarray(arr)
    if data.ndim == 0 or data.dtype.kind not in "biufcV" or data.dtype.hasobject:
        raise c.err(
            node,
            f"a constant array must be a NumPy array of numbers, booleans or records of at least one "
            f"dimension (got {data.dtype}, {data.ndim} dimensions)",
        )
    try:
        et = T.from_dtype(data.dtype)
    except (TypeError, ValueError, KeyError) as e:
        raise c.err(node, f"a constant array of dtype {data.dtype}: {e}") from None
    raw = data.tobytes()
    text = f'dense<"0x{raw.hex().upper()}"> : tensor<{len(raw)}xi8>' if raw else "dense<> : tensor<0xi8>"
    t = T.Array(et, data.ndim, "C", readonly=True, space="constant")
    # Aligned to the largest power of two dividing the element's size (at
    # most 16): LLVM may then load adjacent members at once (a complex64 as
    # ld.const.v2.f32).
    size = data.dtype.itemsize
    align = min(size & -size, 16) if size else 0
    v = c.alloc_in_entry(
        lambda: c.f.ops.const_array(shape=list(data.shape), data=ir.Attr(text), alignment=align, result=t.ir)
    )
    tv = TypedValue(v, t)
    cache[id(arr)] = (arr, c.f, tv)
    return tv
