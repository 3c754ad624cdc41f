"""numba-cuda's cache-hinted loads and stores: `cuda.ldca/ldcg/ldcs/ldlu/
ldcv(array, i)` and `cuda.stcg/stcs/stwb/stwt(array, i, value)` (PTX's
`ld.global.{ca,cg,cs,lu,cv}` and `st.global.{cg,cs,wb,wt}`), with numba-cuda's
checks: arrays of integers or floats (8 to 64 bits), one integer index per
dimension (a tuple for n-d arrays). The element is loaded and stored as
`a[i]` and `a[i] = value` are: the cache operator is a hint about caching
only, not about the value."""

from . import types as T
from ._typing import CompileTimeValue, TypedValue, _tname

LOADS = ("ca", "cg", "cs", "lu", "cv")
STORES = ("cg", "cs", "wb", "wt")


def _check(c, name, arr, index, node):
    """The wrapped si64 indices of a cache-hinted access, after numba-cuda's checks."""
    if not (isinstance(arr, TypedValue) and isinstance(arr.t, T.Array)):
        raise c.err(node, f"{name} operates on arrays or pointers. Got type {_tname(arr)}")
    t = arr.t
    dt = t.dtype
    if not (isinstance(dt, T.Number) and dt.kind in "iuf"):
        raise c.err(node, f"{name} requires array of integer or float type, got {dt}")
    if dt.bits not in (8, 16, 32, 64):
        raise c.err(node, f"{name} requires array dtype with bitwidth in (8, 16, 32, 64), got bitwidth {dt.bits}")
    if isinstance(index, TypedValue) and index.items is not None:
        items = list(index.items)
        if len(items) != t.ndim:
            raise c.err(node, f"Expected {t.ndim} indices, got {len(items)}")
    else:
        if t.ndim > 1:
            raise c.err(node, f"Expected {t.ndim} indices, got a scalar")
        items = [index]
    for x in items:
        if isinstance(x, CompileTimeValue) or not (x.t.is_int or isinstance(x.t, T.Boolean)):
            raise c.err(node, f"{_tname(x)} is not a valid index")
    return [c._index(arr, d, x, node) for d, x in enumerate(items)]


def load(op):
    name = f"ld{op}"

    def impl(c, args, kwargs, node):
        if kwargs or len(args) != 2:
            raise c.err(node, f"cuda.{name}(array, i) takes two arguments")
        idx = _check(c, name, args[0], args[1], node)
        c.at(node)
        return c.load_item(args[0], idx, node)

    return name, impl


def store(op):
    name = f"st{op}"

    def impl(c, args, kwargs, node):
        if kwargs or len(args) != 3:
            raise c.err(node, f"cuda.{name}(array, i, value) takes three arguments")
        idx = _check(c, name, args[0], args[1], node)
        c.at(node)
        c.store_item(args[0], idx, c.num_arg(args[2], node), node)
        return CompileTimeValue(None)

    return name, impl
