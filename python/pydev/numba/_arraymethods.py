"""Array attributes and methods in device code beyond shape/size/ndim/
strides/dtype (_expressions), as Numba-CUDA provides them:

- `a.reshape(shape)` / `a.reshape(d0, d1, ...)`: a view (pydev.array_reshape)
  of a C-contiguous array, one extent may be -1;
- `a.view(dtype)`: the elements reinterpreted (pydev.array_view), the last
  dimension rescaled (contiguous when the sizes differ);
- `a.real` / `a.imag` of a C-contiguous complex array: writable strided views
  of its parts (an array of numbers: `a.real` is `a`);
- `a.copy()` of a constant (global) array: a local array of its elements
  (other arrays would need allocation: Numba-CUDA's NRT);
- the reductions `a.sum()`, `a.min()`, ... (_npfuncs).
"""

import numpy as np

from .. import ir
from . import _npfuncs
from . import types as T
from ._typing import CompileTimeValue, TypedValue, _tname


def attr(c, base, name, node):
    """The attribute `name` of the array `base`, or None when it has none."""
    got = _npfuncs.method(c, base, name, node)
    if got is not None:
        return got
    if name in ("real", "imag"):
        return _part(c, base, name, node)
    impl = {"reshape": _reshape, "view": _view, "copy": _copy}.get(name)
    if impl is None:
        return None
    return CompileTimeValue(_BoundMethod(name, base, impl))


class _BoundMethod:
    """`a.reshape` etc.: an array's method, called with its arguments."""

    def __init__(self, name, base, impl):
        self._pydev_numba_name = f"'.{name}()'"
        self._base, self._impl = base, impl

    def _pydev_numba_call(self, c, args, kwargs, node):
        return self._impl(c, self._base, args, kwargs, node)


def _val(c, arr, node):
    if arr.v is None and arr.const is not None:
        raise c.err(node, "a global (constant) array is read-only here: copy it first (a.copy())")
    return c.val(arr, node)


def _part(c, base, name, node):
    t = base.t
    if not (isinstance(t.dtype, T.Number) and t.dtype.kind == "c"):
        if name == "real":
            return base
        raise c.err(node, f"a.imag of an array of {t.dtype} is not supported in pydev.numba (only of complex arrays)")
    if t.layout != "C":
        raise c.err(node, f"a.{name} needs a C-contiguous complex array in pydev.numba, got {t}")
    ft = t.dtype.underlying_float
    floats = T.Array(ft, t.ndim, "C", t.readonly, t.space)
    v = c.f.ops.array_view(_val(c, base, node), result=floats.ir)  # the last extent doubled
    ndim = t.ndim
    starts = [c.iconst(0)] * (ndim - 1) + [c.iconst(0 if name == "real" else 1)]
    stops = [c.val(c.extent(base, d, node), node) for d in range(ndim - 1)]
    stops.append(c.val(c.extent(base, ndim - 1, node), node) * 2)
    steps = [c.iconst(1)] * (ndim - 1) + [c.iconst(2)]
    rt = T.Array(ft, ndim, "A", t.readonly, t.space)
    return TypedValue(c.f.ops.array_slice(v, starts, stops, steps, kinds=[1] * ndim, result=rt.ir), rt)


def _dtype_arg(c, arg, node):
    obj = arg.obj if isinstance(arg, CompileTimeValue) else None
    if isinstance(obj, (T.Number, T.Boolean)):
        return obj
    try:
        return T.from_dtype(np.dtype(obj))
    except TypeError:
        raise c.err(node, f"a.view() takes a dtype (np.int32, types.float32, ...), got {_tname(arg)}") from None


def _view(c, base, args, kwargs, node):
    if kwargs or len(args) != 1:
        raise c.err(node, "a.view(dtype) takes one argument in pydev.numba")
    t = base.t
    dt = _dtype_arg(c, args[0], node)
    old, new = np.dtype(t.dtype.dtype), np.dtype(dt.dtype)
    if old.itemsize != new.itemsize and t.layout != "C":
        raise c.err(node, f"a.view({dt}) of a {t}: changing the item size needs a C-contiguous array")
    rt = T.Array(dt, t.ndim, t.layout, t.readonly, t.space)
    return TypedValue(c.f.ops.array_view(_val(c, base, node), result=rt.ir), rt)


def _shape_args(c, args, node):
    """The requested extents: ints, or one tuple (or int) of them."""
    if len(args) == 1 and isinstance(args[0], TypedValue) and args[0].items is not None:
        items = list(args[0].items)
    else:
        items = list(args)
    for x in items:
        if isinstance(x, CompileTimeValue) or not x.t.is_int:
            raise c.err(node, f"a.reshape() takes integer extents, got {_tname(x)}")
    return [c.val(c.cast(x, T.int64, node), node) for x in items]


def _reshape(c, base, args, kwargs, node):
    if kwargs:
        raise c.err(node, "a.reshape() takes its shape positionally in pydev.numba")
    t = base.t
    if t.layout != "C":
        raise c.err(node, f"a.reshape() needs a C-contiguous array in pydev.numba (a view, no copy), got {t}")
    exts = _shape_args(c, args, node)
    if not exts:
        raise c.err(node, "a.reshape() needs a shape")
    # one extent of -1: the size over the product of the others (Numba's rule)
    known = c.iconst(1)
    for e in exts:
        known = known * c.f.select(e < c.iconst(0), c.iconst(1), e)
    size = c.f.ops.array_size(_val(c, base, node))
    missing = c.f.ops.floordiv(size, c.f.select(known == c.iconst(0), c.iconst(1), known))
    exts = [c.f.select(e < c.iconst(0), missing, e) for e in exts]
    rt = T.Array(t.dtype, len(exts), "C", t.readonly, t.space)
    return TypedValue(c.f.ops.array_reshape(_val(c, base, node), *exts, result=rt.ir), rt)


def _copy(c, base, args, kwargs, node):
    if args or kwargs:
        raise c.err(node, "a.copy() takes no arguments in pydev.numba")
    if not (base.v is None and base.const is not None):
        raise c.err(
            node,
            "a.copy() of a kernel's or device function's array needs memory allocation in device code "
            "(Numba-CUDA's NRT), which pydev.numba does not provide; a constant (global) array can be copied",
        )
    data = np.ascontiguousarray(base.const)
    et = base.t.dtype
    shape = data.shape if data.ndim else (1,)
    v = c.alloc_in_entry(
        lambda: c.f.ops.local_array(shape=list(shape), order="C", result=ir.array(et.ir, len(shape), "c", "local"))
    )
    out = TypedValue(v, T.Array(et, len(shape), "C", space="local"))
    flat = data.reshape(-1)
    for k, x in enumerate(flat.tolist()):
        idx = np.unravel_index(k, shape)
        c.store_item(out, [c.iconst(int(i)) for i in idx], c.lit(x, node), node)
    return out
