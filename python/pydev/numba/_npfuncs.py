"""NumPy's array reductions in device code (`np.sum(a)`, `a.sum()`, ...) and
`literal_unroll`, as Numba-CUDA provides them: whole-array reductions
(no `axis=`) of arrays of any rank and layout, constant arrays included.
Each is written in Numba syntax and compiled by this frontend (_jitlib),
with NumPy's result types: `sum`/`prod` of integers and booleans are int64
(uint64 for unsigned), of floats and complex numbers their own type;
`mean`/`var`/`std` of integers float64; `count_nonzero` int64; `all`/`any`
bool. The arithmetic is Numba's: sequential sums (NumPy's pairwise
summation may differ in the last bits for long arrays), `var` the mean of
`abs(x - mean) ** 2`."""

import warnings

import numpy as np

from . import _jitlib
from . import types as T
from ._builtins import _nargs, register
from ._typing import CompileTimeValue, TypedValue


def literal_unroll(container):
    """Numba's `literal_unroll`: `for x in literal_unroll(tup)` runs the body
    once per item of a tuple whose items may differ in type (on the host:
    the tuple itself)."""
    return container


@register(literal_unroll)
def _literal_unroll(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="literal_unroll")
    return args[0]


def _flat_item(a, k):
    """Device code only: the k-th element of `a` in C order."""
    raise NotImplementedError


@register(_flat_item)
def _flat_item_impl(c, args, kwargs, node):
    a, k = args
    k = c.val(c.cast(k, T.int64, node), node)
    if a.v is None and a.const is not None:  # a constant array: its flat elements
        if a.const.size == 0:  # never read: loops over its size do not run
            return c.cast(c.lit(0, node), a.t.dtype, node)
        flat = TypedValue(None, T.Array(a.t.dtype, 1, "C"), const=np.ascontiguousarray(a.const).reshape(-1))
        return c.const_load(flat, [k], node)
    idx = []
    for d in reversed(range(a.t.ndim)):
        if d == 0:
            idx.append(k)
            break
        ext = c.val(c.extent(a, d, node), node)
        idx.append(c.f.ops.mod(k, ext))
        k = c.f.ops.floordiv(k, ext)
    return c.load_item(a, idx[::-1], node)


def _acc_type(dt):
    """NumPy's type of sum/prod over elements of type dt."""
    if isinstance(dt, T.Boolean) or (dt.is_int and dt.signed):
        return T.int64
    if dt.is_int:
        return T.uint64
    return dt


def _mean_type(dt):
    if isinstance(dt, T.Boolean) or dt.is_int:
        return T.float64
    return dt


def _is_nan_capable(dt):
    return isinstance(dt, T.Number) and dt.kind in "fc"


def _factory(make):
    """A factory for arrays of numbers only."""

    def factory(*types):
        if len(types) != 1 or not isinstance(types[0], T.Array):
            return None
        dt = types[0].dtype
        if not isinstance(dt, (T.Number, T.Boolean)):
            return None
        return make(dt)

    return factory


def _sum(dt):
    acc = _acc_type(dt)

    def sum_impl(a):
        s = acc(0)
        for k in range(a.size):
            s += _flat_item(a, k)
        return s

    return sum_impl


def _prod(dt):
    acc = _acc_type(dt)

    def prod_impl(a):
        s = acc(1)
        for k in range(a.size):
            s *= _flat_item(a, k)
        return s

    return prod_impl


def _nansum(dt):
    acc = _acc_type(dt)
    if not _is_nan_capable(dt):
        return _sum(dt)

    def nansum_impl(a):
        s = acc(0)
        for k in range(a.size):
            v = _flat_item(a, k)
            if v == v:
                s += v
        return s

    return nansum_impl


def _nanprod(dt):
    acc = _acc_type(dt)
    if not _is_nan_capable(dt):
        return _prod(dt)

    def nanprod_impl(a):
        s = acc(1)
        for k in range(a.size):
            v = _flat_item(a, k)
            if v == v:
                s *= v
        return s

    return nanprod_impl


def _mean(dt):
    rt = _mean_type(dt)

    def mean_impl(a):
        s = rt(0)
        for k in range(a.size):
            s += rt(_flat_item(a, k))
        return rt(s / a.size)

    return mean_impl


def _nanmean(dt):
    rt = _mean_type(dt)
    if not _is_nan_capable(dt):
        return _mean(dt)

    def nanmean_impl(a):
        s = rt(0)
        n = 0
        for k in range(a.size):
            v = _flat_item(a, k)
            if v == v:
                s += v
                n += 1
        return rt(s / n) if n else rt(np.nan)

    return nanmean_impl


def _var_of(dt, nan):
    rt = _mean_type(dt)
    ft = rt.underlying_float if rt.kind == "c" else rt

    def var_impl(a):
        s = rt(0)
        n = 0
        for k in range(a.size):
            v = rt(_flat_item(a, k))
            if not nan or v == v:
                s += v
                n += 1
        m = s / n if n else rt(np.nan)
        ssd = ft(0)
        for k in range(a.size):
            v = rt(_flat_item(a, k))
            if not nan or v == v:
                ssd += abs(v - m) ** 2
        return ft(ssd / n) if n else ft(np.nan)

    return var_impl


def _std_of(dt, nan):
    var = _var_of(dt, nan)
    ft = _mean_type(dt)
    ft = ft.underlying_float if ft.kind == "c" else ft
    var_dev = _jitlib.device(var)

    def std_impl(a):
        return ft(np.sqrt(var_dev(a)))

    return std_impl


def _extreme(dt, less, nan):
    """min (less) or max; nan: NaNs are skipped (all NaN: NaN), else the first NaN is the result."""
    rt = dt
    skip = nan and _is_nan_capable(dt)

    def extreme_impl(a):
        m = _flat_item(a, 0)
        k0 = 1
        if skip:
            k0 = 0
            while k0 < a.size and _flat_item(a, k0) != _flat_item(a, k0):
                k0 += 1
            if k0 == a.size:
                return rt(np.nan)
            m = _flat_item(a, k0)
        for k in range(k0, a.size):
            v = _flat_item(a, k)
            if v != v:
                if not skip:
                    return v
            elif m != m:
                return m
            elif (v < m) if less else (v > m):
                m = v
        return m

    return extreme_impl


def _all(dt):
    def all_impl(a):
        for k in range(a.size):
            if not _flat_item(a, k):
                return False
        return True

    return all_impl


def _any(dt):
    def any_impl(a):
        for k in range(a.size):
            if _flat_item(a, k):
                return True
        return False

    return any_impl


def _count_nonzero(dt):
    def count_nonzero_impl(a):
        n = 0
        for k in range(a.size):
            if _flat_item(a, k) != 0:
                n += 1
        return n

    return count_nonzero_impl


REDUCTIONS = {
    "sum": _sum,
    "prod": _prod,
    "mean": _mean,
    "var": lambda dt: _var_of(dt, False),
    "std": lambda dt: _std_of(dt, False),
    "min": lambda dt: _extreme(dt, True, False),
    "max": lambda dt: _extreme(dt, False, False),
    "all": _all,
    "any": _any,
    "nansum": _nansum,
    "nanprod": _nanprod,
    "nanmean": _nanmean,
    "nanvar": lambda dt: _var_of(dt, True),
    "nanstd": lambda dt: _std_of(dt, True),
    "nanmin": lambda dt: _extreme(dt, True, True),
    "nanmax": lambda dt: _extreme(dt, False, True),
    "count_nonzero": _count_nonzero,
}
# the array methods of the same names (a.sum(), a.min(), ...)
METHODS = ("sum", "prod", "mean", "var", "std", "min", "max", "all", "any")


def _reduction(name, entry):
    """np.<name>(a): folded with NumPy where `a` is a constant (global) array."""
    fn = getattr(np, name)

    def call(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, name=f"np.{name}")
        a = args[0]
        if isinstance(a, TypedValue) and isinstance(a.t, T.Array) and a.v is None and a.const is not None:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                r = np.asarray(fn(a.const))
            return c.cast(c.lit(r[()], node), T.from_dtype(r.dtype), node)
        return entry(c, args, kwargs, node)

    return call


_ENTRIES = {}
for _name, _make in REDUCTIONS.items():
    _impl = _jitlib.Impl(getattr(np, _name), _factory(_make), f"np.{_name}")
    _ENTRIES[_name] = _reduction(_name, _impl)
    register(getattr(np, _name))(_ENTRIES[_name])
_ENTRIES["amin"], _ENTRIES["amax"] = _ENTRIES["min"], _ENTRIES["max"]
register(np.amin)(_ENTRIES["min"])
register(np.amax)(_ENTRIES["max"])


def method(c, base, name, node):
    """`a.sum` etc. of an array as a bound method, or None."""
    if name not in METHODS:
        return None
    from ._typing import _Method

    entry = _ENTRIES[name]

    def call(c2, args, kwargs, nd):
        if args or kwargs:
            raise c2.err(nd, f"a.{name}() takes no arguments in pydev.numba (whole-array reductions only)")
        return entry(c2, [base], {}, nd)

    return CompileTimeValue(_Method(name, call))
