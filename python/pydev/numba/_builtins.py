"""Device-code implementations: Python builtins, math, NumPy scalars and
the `cuda` intrinsics (grid, shared arrays, atomics, warp functions...),
each a function (compiler, args, kwargs, node) -> typed value."""

import ast
import builtins
import math
import operator
import warnings

import numpy as np

from .. import _facts, ir
from . import types as T
from ._typing import CompileTimeValue, TypedValue, _is_num, _tname, arith_type

_TABLE = {}


def lookup(obj):
    if isinstance(obj, (T.Number, T.Boolean)):
        return lambda c, a, k, n, t=obj: _convert(c, a, k, n, t)
    try:
        hit = _TABLE.get(obj)
    except TypeError:
        return None
    if hit is not None:
        return hit
    if isinstance(obj, type) and issubclass(obj, np.generic):
        t = T.from_dtype(np.dtype(obj))
        return lambda c, a, k, n, t=t: _convert(c, a, k, n, t)
    return None


def register(*objs):
    def deco(fn):
        for o in objs:
            _TABLE[o] = fn
        return fn

    return deco


def _nargs(c, args, kwargs, node, lo, hi=None, name="function"):
    hi = lo if hi is None else hi
    if kwargs:
        raise c.err(node, f"{name}() takes no keyword arguments here")
    if not lo <= len(args) <= hi:
        raise c.err(node, f"{name}() takes {lo if lo == hi else f'{lo} to {hi}'} arguments, got {len(args)}")


def _convert(c, args, kwargs, node, t):
    if t.kind == "c" and len(args) == 2:
        return c.cast(_complex(c, args, kwargs, node), t, node)
    _nargs(c, args, kwargs, node, 1, name=t.name)
    return c.cast(c.num_arg(args[0], node), t, node)


@register(int)
def _int(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="int")
    a = c.num_arg(args[0], node)
    return a if a.t.is_int else c.cast(a, T.int64, node)


@register(float)
def _float(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="float")
    if isinstance(args[0], CompileTimeValue) and isinstance(args[0].obj, str):  # float("inf"), float("nan")
        try:
            return c.lit(float(args[0].obj), node)
        except ValueError:
            raise c.err(node, f"could not convert string to float: {args[0].obj!r}") from None
    a = c.num_arg(args[0], node)
    # Numba's typing: a float keeps its type (float32, float16), an integer is float64.
    return a if a.t.is_float else c.cast(a, T.float64, node)


@register(bool)
def _bool(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="bool")
    return c.truth(args[0], node)


@register(builtins.abs, np.abs, np.absolute)
def _abs(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="abs")
    a = c.num_arg(args[0], node)
    if isinstance(a.t, T.Boolean):
        a = c.cast(a, T.int64, node)
    if a.t.kind == "c":
        ft = T.float32 if a.t.bits == 64 else T.float64
        return TypedValue(c.f.ops.abs(c.val(a, node), result=ft.ir), ft)
    return TypedValue(c.f.ops.abs(c.val(a, node)), a.t)


@register(builtins.isinstance)
def _isinstance(c, args, kwargs, node):
    """Numba's isinstance, a compile-time test: a Numba type matches values
    of that type; int, float, complex, bool and tuple their kinds."""
    _nargs(c, args, kwargs, node, 2, name="isinstance")
    v, cls = args
    if not isinstance(cls, CompileTimeValue):
        raise c.err(node, "isinstance()'s second argument must be a type or a tuple of types")
    classes = cls.obj if isinstance(cls.obj, tuple) else (cls.obj,)
    t = v.t if isinstance(v, TypedValue) else None
    kinds = {
        int: lambda t: getattr(t, "is_int", False),
        float: lambda t: isinstance(t, T.Number) and t.kind == "f",
        complex: lambda t: isinstance(t, T.Number) and t.kind == "c",
        bool: lambda t: isinstance(t, T.Boolean),
        tuple: lambda t: isinstance(t, (T.UniTuple, T.Tuple)),
    }
    hit = False
    for k in classes:
        if isinstance(k, T.Type):
            hit |= t == k
        elif k in kinds:
            hit |= t is not None and kinds[k](t)
        else:
            raise c.err(node, f"isinstance() with {_describe_cls(k)} is not supported in device code")
    return TypedValue(None, T.boolean, bool(hit))


def _describe_cls(k):
    return getattr(k, "__name__", repr(k))


@register(builtins.complex)
def _complex(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, 2, name="complex")
    a = c.num_arg(args[0], node)
    b = c.num_arg(args[1], node) if len(args) == 2 else c.lit(0.0, node)
    t = arith_type(arith_type(a.t, b.t), T.complex64)
    if a.t.kind == "c" and len(args) == 1:
        return c.cast(a, t, node)
    ft = T.float32 if t.bits == 64 else T.float64
    re, im = c.val(c.cast(a, ft, node), node), c.val(c.cast(b, ft, node), node)
    return TypedValue(c.f.emit("complex.create", [re, im], [t.ir]), t)


def _cmath(op, real_result=False):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, 2 if op == "log" else 1, name=f"cmath.{op}")
        a = c.num_arg(args[0], node)
        if a.t.kind != "c":
            a = c.cast(a, arith_type(a.t, T.complex64) if a.t.is_float else T.complex128, node)
        if len(args) == 2:  # cmath.log(z, base) = log(z) / log(base), as Numba
            b = c.num_arg(args[1], node)
            t = arith_type(a.t, b.t if b.t.kind == "c" else arith_type(b.t, T.complex64))
            za, zb = (c.val(c.cast(x, t, node), node) for x in (a, b))
            la, lb = (c.f.emit("complex.log", [z], [t.ir]) for z in (za, zb))
            return TypedValue(c.f.emit("complex.div", [la, lb], [t.ir]), t)
        ft = T.float32 if a.t.bits == 64 else T.float64
        rt = ft if real_result else a.t
        return TypedValue(c.f.emit(f"complex.{op}", [c.val(a, node)], [rt.ir]), rt)

    return impl


import cmath as _cm  # noqa: E402

# exp, sqrt, sin, cos and the inverse and hyperbolic functions: _cmath.py (C99's special values)
for _name, _op in [
    ("log", "log"),
    ("tan", "tan"),
    ("tanh", "tanh"),
]:
    register(getattr(_cm, _name))(_cmath(_op))
register(_cm.phase)(_cmath("angle", True))


def _minmax(op):
    def impl(c, args, kwargs, node):
        if kwargs or len(args) < 1:
            raise c.err(node, f"{op}() takes two or more numbers (or one tuple)")
        pair = len(args) == 2
        if len(args) == 1:
            if not (isinstance(args[0], TypedValue) and args[0].items is not None):
                raise c.err(node, f"{op}() of one argument takes a tuple")
            args = args[0].items
        vals = [c.num_arg(a, node) for a in args]
        if pair and all(v.t in (T.float32, T.float64) for v in vals):
            # Numba-CUDA lowers min/max of two float32/float64 to libdevice's
            # fmin/fmax (a NaN operand is missing: the other is the result),
            # not to Python's order: IEEE minNum/maxNum, PTX's min/max.f32/f64.
            t = T.float64 if T.float64 in (vals[0].t, vals[1].t) else T.float32
            x, y = (c.val(c.cast(v, t, node), node) for v in vals)
            return TypedValue(c.f.emit(f"llvm.intr.{op}num", [x, y], [t.ir]), t)
        t = vals[0].t
        for v in vals[1:]:
            t = (
                v.t
                if v.t == t
                else arith_type(t, v.t)
                if not (t.is_int and v.t.is_int and t.signed == v.t.signed)
                else (t if t.bits >= v.t.bits else v.t)
            )
        out = c.val(c.cast(vals[0], t, node), node)
        for v in vals[1:]:
            out = getattr(c.f.ops, op)(out, c.val(c.cast(v, t, node), node))
        return TypedValue(out, t)

    return impl


register(builtins.min)(_minmax("min"))
register(builtins.max)(_minmax("max"))


@register(builtins.len)
def _len(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="len")
    a = args[0]
    if isinstance(a, TypedValue) and a.items is not None:
        return c.lit(len(a.items), node)
    if isinstance(a, TypedValue) and isinstance(a.t, T.Array):
        return c.extent(a, 0, node)
    raise c.err(node, f"len() of {_tname(a)}")


@register(builtins.round)
def _round(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, 2, name="round")
    a = c.num_arg(args[0], node)
    if len(args) == 2:
        return _round_ndigits(c, a, args[1], node)
    if not a.t.is_float:
        return a
    r = c.f.emit("math.roundeven", [c.val(a, node)], [a.t.ir])
    return c.cast(TypedValue(r, a.t), T.int64, node)


def _round_ndigits(c, a, nd, node):
    """round(x, ndigits): Numba's (CPython's fallback): scale by 10**ndigits
    (in two factors past 1e22), round half to even, scale back; x's float
    type (an integer x as float64)."""
    if a.t.kind == "c" or isinstance(a.t, T.Boolean):
        raise c.err(node, f"round() of a {a.t} with ndigits")
    nd = c.num_arg(nd, node, "round()'s ndigits")
    if not nd.t.is_int:
        raise c.err(node, f"round()'s ndigits must be an integer, got {nd.t}")
    t = a.t if a.t.is_float else T.float64
    f64 = ir.f64
    x = c.val(c.cast(a, T.float64, node), node)
    n = c.val(c.cast(nd, T.int64, node), node)
    n = c.f.ops.max(c.f.ops.min(n, c.iconst(400)), c.iconst(-400))
    ten = c.f.constant(10.0, f64)
    pos = n >= 0
    big = n > 22
    e1 = c.f.select(pos, c.f.select(big, n - 22, n), -n)
    pow1 = c.f.emit("math.powf", [ten, c.f.cast(e1, f64)], [f64])
    pow2 = c.f.select(pos & big, c.f.constant(1e22, f64), c.f.constant(1.0, f64))
    y = c.f.select(pos, x * pow1 * pow2, c.f.ops.truediv(x, pow1, result=f64))
    z = c.f.emit("math.roundeven", [y], [f64])
    z = c.f.select(pos, c.f.ops.truediv(c.f.ops.truediv(z, pow2, result=f64), pow1, result=f64), z * pow1)
    inf = c.f.constant(math.inf, f64)
    keep = (x != x) | (c.f.ops.abs(x) == inf) | (pos & (c.f.ops.abs(y) == inf))
    return c.cast(TypedValue(c.f.select(keep, x, z), T.float64), t, node)


@register(builtins.pow, math.pow, np.power)
def _pow(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 2, name="pow")
    import ast

    a, b = args
    return c.binop(ast.Pow(), a, b, node)


# --- math ----------------------------------------------------------------------------------


def _float_of(c, a, node):
    a = c.num_arg(a, node)
    if isinstance(a.t, T.LowFloat) and not a.t.arith:
        raise c.err(node, f"{a.t} has no math functions: convert it to float32 first")
    if a.t.is_float:
        return a
    return c.cast(a, T.float64, node)


def _low_math(c, op, vals, t, node):
    """A math function of bfloat16 values: float32's, rounded once to
    bfloat16 (numba-cuda's bfloat16 overloads of math.*, floor/ceil/trunc
    included, return bfloat16)."""
    from . import _lowp

    f = [c.f.cast(c.val(c.cast(v, t, node), node), ir.f32) for v in vals]
    return TypedValue(_lowp.to_bf16(c, c.f.emit(op, f, [ir.f32], c.mb.fastmath())), t)


def _unary_math(op, returns_int=False):
    name, op = op.removeprefix("math."), op if "." in op else f"math.{op}"

    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, name=name)
        a = _float_of(c, args[0], node)
        if isinstance(a.t, T.LowFloat):
            return _low_math(c, op, [a], a.t, node)
        r = TypedValue(c.f.emit(op, [c.val(a, node)], [a.t.ir], c.mb.fastmath()), a.t)
        return c.cast(r, T.int64, node) if returns_int else r

    return impl


def _binary_math(op):
    name, op = op.removeprefix("math."), op if "." in op else f"math.{op}"

    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 2, name=name)
        a, b = (c.num_arg(x, node) for x in args)
        t = arith_type(a.t, b.t)
        if not t.is_float:
            t = T.float64
        if isinstance(t, T.LowFloat):
            return _low_math(c, op, [a, b], t, node)
        return TypedValue(
            c.f.emit(
                op,
                [c.val(c.cast(a, t, node), node), c.val(c.cast(b, t, node), node)],
                [t.ir],
                c.mb.fastmath(),
            ),
            t,
        )

    return impl


# NumPy's names of the math functions whose names differ.
_NUMPY_NAMES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "atan2": "arctan2"}
_NUMPY_NAMES.update({"asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh"})


def _register_math():
    """The math functions of device code (and NumPy's ufuncs of the same
    name) from their one table, the Rust frontend's (pydev._facts). pow is
    `**` (above); math.floor, ceil and trunc return an int, NumPy's keep the
    float type."""
    for name, (arity, op) in _facts.MATH_FUNCTIONS.items():
        fn, np_fn = getattr(math, name, None), getattr(np, _NUMPY_NAMES.get(name, name), None)
        if name == "pow":
            continue
        if isinstance(op, tuple):  # a float-class test: ("arith.cmpf", predicate, abs)
            register(*[f for f in (fn, np_fn) if f is not None])(_pred_math(name, *op[1:]))
        elif arity == 2:
            register(*[f for f in (fn, np_fn) if f is not None])(_binary_math(op))
        else:
            if fn is not None:
                register(fn)(_unary_math(op, name in ("floor", "ceil", "trunc")))
            if np_fn is not None:
                register(np_fn)(_unary_math(op))


register(np.rint)(_unary_math("roundeven"))


@register(math.hypot, np.hypot)
def _hypot(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 2, name="hypot")
    a, b = (c.num_arg(x, node) for x in args)
    t = arith_type(a.t, b.t)
    t = t if t.is_float else T.float64
    x, y = c.val(c.cast(a, t, node), node), c.val(c.cast(b, t, node), node)
    x, y = c.f.ops.abs(x), c.f.ops.abs(y)
    inf = _isinf(c, x, t) | _isinf(c, y, t)  # inf even with a NaN, as C's hypot
    if t.bits < 64:
        # float16/32: sqrt(x*x + y*y) in float64 is exact enough to round
        # correctly once (and cannot overflow); the scaled form below was an ulp off.
        x64, y64 = (c.f.cast(v, ir.f64) for v in (x, y))
        r = c.f.cast(c.f.emit("math.sqrt", [x64 * x64 + y64 * y64], [ir.f64], c.mb.fastmath()), t.ir)
        return TypedValue(c.f.select(inf, _fconst(c, math.inf, t), r), t)
    hi, lo = c.f.ops.max(x, y), c.f.ops.min(x, y)
    zero = c.f.constant(0.0, t.ir)
    r = c.f.ops.truediv(lo, c.f.select(hi == zero, c.f.constant(1.0, t.ir), hi), result=t.ir)
    r = hi * c.f.emit("math.sqrt", [r * r + 1.0], [t.ir], c.mb.fastmath())
    r = c.f.select(_isnan(c, x) | _isnan(c, y), x + y, r)  # max/min drop a NaN: C's hypot keeps it
    return TypedValue(c.f.select(inf, _fconst(c, math.inf, t), r), t)


# The Python comparison (pydev.cmp) that is each arith.cmpf predicate of
# the table on the operands it compares: x with itself, or |x| with +inf.
_PYDEV_CMP = {"uno": "ne", "oeq": "eq", "olt": "lt"}


def _pred_math(op, predicate, abs_):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, name=op)
        a = c.num_arg(args[0], node)
        if not a.t.is_float:
            return c.lit(op == "isfinite", node)
        v = c.val(a, node)
        if not abs_:
            return TypedValue(c.f.ops.cmp(v, v, predicate=_PYDEV_CMP[predicate]), T.boolean)
        inf = c.f.constant(float("inf"), a.t.ir)
        return TypedValue(c.f.ops.cmp(c.f.ops.abs(v), inf, predicate=_PYDEV_CMP[predicate]), T.boolean)

    return impl


_register_math()


@register(math.radians, np.radians, np.deg2rad)
def _radians(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="radians")
    a = _float_of(c, args[0], node)
    return TypedValue(c.val(a, node) * (math.pi / 180.0), a.t)


@register(math.degrees, np.degrees, np.rad2deg)
def _degrees(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="degrees")
    a = _float_of(c, args[0], node)
    return TypedValue(c.val(a, node) * (180.0 / math.pi), a.t)


# --- cuda intrinsics ------------------------------------------------------------------------


def _dim(c, kind, d):
    v = {"threadIdx": c.f.thread_id, "blockIdx": c.f.block_id, "blockDim": c.f.block_dim, "gridDim": c.f.grid_dim}[
        kind
    ](d)
    c.nonneg.add(v)  # below 2**31: CUDA's limits on grids and blocks
    return TypedValue(v, T.int32)


def dim_attr(kind):
    def attr(c, name, node):
        if name not in ("x", "y", "z"):
            raise c.err(node, f"cuda.{kind} has no attribute '{name}' (x, y, z)")
        return _dim(c, kind, name)

    return attr


def _grid_impl(size):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, name="gridsize" if size else "grid")
        nd = c.const_int(args[0], node, "the number of dimensions")
        if nd not in (1, 2, 3):
            raise c.err(node, f"argument can only be 1, 2 or 3, got {nd}")
        out = []
        for d in "xyz"[:nd]:
            if size:
                a, b = c.f.block_dim(d), c.f.grid_dim(d)
            else:
                a, b = c.f.block_id(d), c.f.block_dim(d)
            v = c.f.cast(a, ir.si64) * c.f.cast(b, ir.si64)
            if not size:
                v = v + c.f.cast(c.f.thread_id(d), ir.si64)
            c.nonneg.add(v)  # products and sums of 32-bit positions: no si64 overflow
            out.append(TypedValue(v, T.int64))
        return out[0] if nd == 1 else c._tuple(out)

    return impl


grid = _grid_impl(False)
gridsize = _grid_impl(True)


def _shape_dtype(c, args, kwargs, node, name, params=("shape", "dtype")):
    got = dict(zip(params, args))
    for k, v in kwargs.items():
        if k not in params:
            raise c.err(node, f"{name}() got an unexpected keyword argument '{k}'")
        got[k] = v
    if "shape" not in got or "dtype" not in got:
        raise c.err(node, f"{name}() takes shape and dtype")
    shape = got["shape"]
    shape_node = next((k.value for k in getattr(node, "keywords", ()) if k.arg == "shape"), None)
    if shape_node is None and getattr(node, "args", None):
        shape_node = node.args[0]
    if isinstance(shape_node, ast.List):
        # pydev.numba reads a list display as a tuple elsewhere; Numba's shapes are ints or tuples only.
        raise c.err(shape_node, f"the shape of {name}() is an integer or a tuple of integers, not a list")
    if isinstance(shape, TypedValue) and shape.items is not None:
        dims = [c.const_int(i, node, f"the shape of {name}()") for i in shape.items]
    elif isinstance(shape, CompileTimeValue) and isinstance(shape.obj, tuple):
        dims = [
            c.const_int(CompileTimeValue(i) if not isinstance(i, TypedValue) else i, node, f"the shape of {name}()")
            for i in shape.obj
        ]
    else:
        dims = [c.const_int(shape, node, f"the shape of {name}()")]
    dt = got["dtype"]
    if not isinstance(dt, CompileTimeValue):
        raise c.err(node, f"the dtype of {name}() must be a type (numba.float32, np.float32, ...)")
    try:
        et = T.as_dtype_type(dt.obj)
    except TypeError as e:
        raise c.err(node, str(e)) from None
    order = "C"
    return dims, et, order


def _static_array_args(c, args, kwargs, node, name):
    """shape, dtype and numba-cuda's `alignment` (bytes; None or left out:
    the element's natural alignment) of cuda.local.array / cuda.shared.array."""
    align = kwargs.pop("alignment", None) if len(args) < 3 else args[2]
    dims, et, order = _shape_dtype(c, args[:2], kwargs, node, name)
    return dims, et, order, _alignment(c, align, node, name)


def _alignment(c, a, node, name):
    """numba-cuda's rules: a literal integer (RequireLiteralValue otherwise),
    positive, a power of two and a multiple of the pointer size (a ValueError
    otherwise); 0 for None."""
    if a is None or isinstance(a, CompileTimeValue) and a.obj is None:
        return 0
    if isinstance(a, TypedValue) and a.v is None and isinstance(a.const, int) and a.t.is_int:
        n = a.const
    elif isinstance(a, CompileTimeValue) and type(a.obj) is int:
        n = a.obj
    else:
        raise c.err(
            node,
            f"{name}(): RequireLiteralValue: alignment must be a constant integer, got {_tname(a)}",
            kind="RequireLiteralValue",
        )
    ptr = 8  # bytes of a device pointer
    for bad, msg in (
        (n <= 0, "Alignment must be positive"),
        (n & (n - 1) != 0, "Alignment must be a power of 2"),
        (n % ptr != 0, f"Alignment must be a multiple of {ptr}"),
    ):
        if bad:
            raise c.err(node, f"{name}(): {msg}, got {n}", kind="CompileValueError")
    return n


def shared_array(c, args, kwargs, node):
    dims, et, order, align = _static_array_args(c, args, dict(kwargs), node, "cuda.shared.array")
    if any(d < 0 for d in dims):
        raise c.err(node, "shared array extents must not be negative")
    if len(dims) == 1 and dims[0] == 0:
        # dynamic shared memory, as a view of the launch's bytes
        def build():
            raw = c.f.ops.dynamic_shared_array(result=ir.array(ir.ui8, 1, "c", "shared"))
            return raw if et == T.uint8 else c.f.ops.array_view(raw, result=ir.array(et.ir, 1, "c", "shared"))

        return TypedValue(c.alloc_in_entry(build), T.Array(et, 1, "C", space="shared"))
    v = c.alloc_in_entry(
        lambda: c.f.ops.shared_array(
            shape=dims, order="C", alignment=align, result=ir.array(et.ir, len(dims), "c", "shared")
        )
    )
    return TypedValue(v, T.Array(et, len(dims), "C", space="shared"))


def local_array(c, args, kwargs, node):
    dims, et, order, align = _static_array_args(c, args, dict(kwargs), node, "cuda.local.array")
    v = c.alloc_in_entry(
        lambda: c.f.ops.local_array(
            shape=dims, order="C", alignment=align, result=ir.array(et.ir, len(dims), "c", "local")
        )
    )
    return TypedValue(v, T.Array(et, len(dims), "C", space="local"))


def const_array_like(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="cuda.const.array_like")
    a = args[0]
    from ._constmem import const_array

    if isinstance(a, TypedValue) and isinstance(a.t, T.Array) and a.v is None and a.const is not None:
        return const_array(c, a.const, node)  # a global array folded into the code: its data in constant memory
    if isinstance(a, TypedValue) and isinstance(a.t, T.Array) and a.t.space == "constant":
        return a
    if isinstance(a, CompileTimeValue) and isinstance(a.obj, np.ndarray):
        return const_array(c, a.obj, node)
    raise c.err(node, "cuda.const.array_like() takes a NumPy array that is a global or closure variable")


def _no_args(name, emit, rtype=None):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 0, name=name)
        r = emit(c)
        return TypedValue(r, rtype) if rtype is not None else CompileTimeValue(None)

    return impl


syncthreads = _no_args("cuda.syncthreads", lambda c: c.f.ops.syncthreads())


def _mask(c, m, node):
    m = c.num_arg(m, node, "the mask")
    if not m.t.is_int:
        raise c.err(node, "a warp mask is an integer")
    return c.f.cast(c.val(c.cast(m, T.uint32, node), node), ir.warp_mask())


def _from_mask(c, v, t=T.uint32):
    return TypedValue(c.f.cast(v, t.ir), t)


def _sync_pred(kind):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, name=f"cuda.syncthreads_{kind}")
        p = c.val(c.truth(c.num_arg(args[0], node), node), node)
        r = getattr(c.f.ops, f"syncthreads_{kind}")(p)
        return TypedValue(r, T.int32) if kind == "count" else TypedValue(c.f.cast(r, ir.si32), T.int32)

    return impl


syncthreads_count, syncthreads_and, syncthreads_or = _sync_pred("count"), _sync_pred("and"), _sync_pred("or")


def syncwarp(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 0, 1, name="cuda.syncwarp")
    m = args[0] if args else c.lit(0xFFFFFFFF, node)
    c.f.ops.syncwarp(_mask(c, m, node))
    return CompileTimeValue(None)


def _vote(kind):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 2, name=f"cuda.{kind}_sync")
        # Numba's vote_sync_intrinsic: an integer mask (not a boolean), an integer or boolean predicate
        mt = c.num_arg(args[0], node, "the mask").t
        if not mt.is_int or isinstance(mt, T.Boolean):
            raise c.err(node, f"cuda.{kind}_sync: Mask type must be an integer. Got {mt}")
        pv = c.num_arg(args[1], node, "the predicate")
        if not (pv.t.is_int or isinstance(pv.t, T.Boolean)):
            raise c.err(node, f"cuda.{kind}_sync: Predicate must be an integer or boolean. Got {pv.t}")
        m = _mask(c, args[0], node)
        p = c.val(c.truth(pv, node), node)
        if kind == "ballot":
            return _from_mask(c, c.f.ops.vote(m, p, kind="ballot", result=ir.warp_mask()), T.int32)  # int32 in Numba
        return TypedValue(c.f.ops.vote(m, p, kind=kind, result=ir.i1), T.boolean)

    return impl


all_sync, any_sync, eq_sync, ballot_sync = _vote("all"), _vote("any"), _vote("eq"), _vote("ballot")


def _shfl(kind):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 3, name=f"cuda.shfl{'' if kind == 'idx' else '_' + kind}_sync")
        m = _mask(c, args[0], node)
        v = c.num_arg(args[1], node, "the value")
        if isinstance(v.t, T.Boolean):
            v = c.cast(v, T.int32, node)
        lane = c.val(c.cast(c.num_arg(args[2], node), T.int32, node), node)
        return TypedValue(c.f.ops.shfl(m, c.val(v, node), lane, kind=kind, result=v.t.ir), v.t)

    return impl


shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync = _shfl("idx"), _shfl("up"), _shfl("down"), _shfl("xor")

activemask = _no_args(
    "cuda.activemask", lambda c: c.f.cast(c.f.ops.activemask(result=ir.warp_mask()), ir.ui32), T.uint32
)
lanemask_lt = _no_args(
    "cuda.lanemask_lt", lambda c: c.f.cast(c.f.ops.lanemask_lt(result=ir.warp_mask()), ir.ui32), T.uint32
)


def match_any_sync(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 2, name="cuda.match_any_sync")
    m = _mask(c, args[0], node)
    v = c.num_arg(args[1], node, "the value")
    return _from_mask(c, c.f.ops.match_any(m, c.val(v, node), result=ir.warp_mask()), T.int32)


def match_all_sync(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 2, name="cuda.match_all_sync")
    m = _mask(c, args[0], node)
    v = c.num_arg(args[1], node, "the value")
    r, p = c.f.ops.match_all(m, c.val(v, node), result=[ir.warp_mask(), ir.i1])
    return c._tuple([_from_mask(c, r, T.int32), TypedValue(p, T.boolean)])


def _fence(scope):
    return _no_args(
        f"cuda.threadfence{'' if scope == 'device' else '_' + scope}",
        lambda c: c.f.ops.threadfence(memory="seq_cst", scope=scope),
    )


threadfence, threadfence_block, threadfence_system = _fence("device"), _fence("block"), _fence("system")


def _lane(c):
    # the lane of the thread's linear index in its block
    tx, ty, tz = c.f.thread_id("x"), c.f.thread_id("y"), c.f.thread_id("z")
    bx, by = c.f.block_dim("x"), c.f.block_dim("y")
    lin = tx + bx * (ty + by * tz)
    return c.f.ops.and_(lin, c.f.constant(31, ir.si32))


def _bits(op):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, name=f"cuda.{op}")
        a = c.num_arg(args[0], node)
        if not a.t.is_int:
            raise c.err(node, f"cuda.{op}() takes an integer, got {a.t}")
        sl = ir.Type(f"i{a.t.bits}")
        v = c.f.cast(c.val(a, node), sl)
        if op == "popc":
            r = c.f.emit("math.ctpop", [v], [sl])
        elif op == "clz":
            r = c.f.emit("math.ctlz", [v], [sl])
        elif op == "brev":
            r = c.f.emit("llvm.intr.bitreverse", [v], [sl])
        else:  # ffs: 1 + the index of the least significant set bit, 0 for 0
            tz = c.f.emit("math.cttz", [v], [sl])
            one, zero = (
                c.f.emit("arith.constant", [], [sl], {"value": f"1 : {sl}"}),
                c.f.emit("arith.constant", [], [sl], {"value": f"0 : {sl}"}),
            )
            plus = c.f.emit("arith.addi", [tz, one], [sl])
            isz = c.f.emit("arith.cmpi", [v, zero], [ir.i1], {"predicate": "0"})
            r = c.f.emit("arith.select", [isz, zero, plus], [sl])
        # Numba: popc and clz keep the type, ffs is uint32, brev uint32 / uint64
        rt = T.uint32 if op == "ffs" else (T.uint32 if a.t.bits <= 32 else T.uint64) if op == "brev" else a.t
        if op == "ffs" and a.t.bits > 32:
            r = c.f.cast(c.f.cast(r, a.t.ir), T.uint32.ir)
            return TypedValue(r, rt)
        return (
            TypedValue(c.f.cast(r, a.t.ir), a.t)
            if rt == a.t
            else c.cast(TypedValue(c.f.cast(r, a.t.ir), a.t), rt, node)
        )

    return impl


popc, clz, brev, ffs = _bits("popc"), _bits("clz"), _bits("brev"), _bits("ffs")


def fma(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 3, name="cuda.fma")
    vals = [c.num_arg(a, node) for a in args]
    t = arith_type(arith_type(vals[0].t, vals[1].t), vals[2].t)
    if not t.is_float:
        raise c.err(node, "cuda.fma() takes floating-point numbers")
    return TypedValue(c.f.emit("math.fma", [c.val(c.cast(v, t, node), node) for v in vals], [t.ir], c.mb.fastmath()), t)


cbrt = _unary_math("cbrt")


# --- atomics --------------------------------------------------------------------------------


def _ref(c, arr, idx, node):
    if isinstance(arr, CompileTimeValue) or not isinstance(arr.t, T.Array):
        raise c.err(node, f"an atomic operation takes an array, got {_tname(arr)}")
    if isinstance(idx, TypedValue) and idx.items is None or isinstance(idx, CompileTimeValue):
        parts = [idx]
    else:
        parts = idx.items
    # index values with wrap-around, as for a[i]
    if len(parts) != arr.t.ndim:
        raise c.err(node, f"a {arr.t.ndim}-d array takes {arr.t.ndim} indices in an atomic operation, got {len(parts)}")
    out = []
    for d, p in enumerate(parts):
        p = c.num_arg(p, node, "an index")
        if p.v is None and p.const is not None and p.const >= 0:
            out.append(c.iconst(p.const))
        elif p.t.signed:
            v = c.val(c.cast(p, T.int64, node), node)
            out.append(c.f.select(v < 0, v + c.val(c.extent(arr, d, node), node), v))
        else:
            out.append(c.val(c.cast(p, T.int64, node), node))
    space = arr.t.space
    rt = ir.atomic_ref(arr.t.dtype.ir, space if space in ("shared", "local") else None)
    return c.f.ops.atomic_ref(c.val(arr, node), *out, result=rt)


_ATOMIC_TYPES = {
    "add": "iuf",
    "sub": "iuf",
    "and": "iu",
    "or": "iu",
    "xor": "iu",
    "max": "iuf",
    "min": "iuf",
    "nanmax": "iuf",
    "nanmin": "iuf",
    "exch": "iuf",
}


def _atomic(kind):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 3, name=f"cuda.atomic.{kind}")
        arr, idx, val = args
        ref = _ref(c, arr, idx, node)
        et = arr.t.dtype
        if not isinstance(et, T.Number) or et.kind not in _ATOMIC_TYPES[kind] or et.bits < 32:
            raise c.err(node, f"cuda.atomic.{kind.rstrip('_')}() is not supported on {et} arrays")
        v = c.val(c.cast(c.num_arg(val, node), et, node), node)
        k = kind[3:] if kind in ("nanmax", "nanmin") and et.is_int else kind  # no NaNs among integers
        return TypedValue(c.f.ops.atomic_rmw(ref, v, kind=k, memory="relaxed", scope="device", result=et.ir), et)

    return impl


def _cas_core(c, arr, idx, old, val, node, name):
    ref = _ref(c, arr, idx, node)
    et = arr.t.dtype
    if not isinstance(et, T.Number) or not et.is_int and not et.is_float or et.bits < 16:
        raise c.err(node, f"{name}() is not supported on {et} arrays")
    o = c.val(c.cast(c.num_arg(old, node), et, node), node)
    v = c.val(c.cast(c.num_arg(val, node), et, node), node)
    return TypedValue(c.f.ops.atomic_cas(ref, o, v, memory="relaxed", scope="device", result=et.ir), et)


def atomic_cas(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 4, name="cuda.atomic.cas")
    return _cas_core(c, *args, node, "cuda.atomic.cas")


def atomic_compare_and_swap(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 3, name="cuda.atomic.compare_and_swap")
    arr, old, val = args
    return _cas_core(c, arr, c.lit(0, node), old, val, node, "cuda.atomic.compare_and_swap")


def _incdec(kind):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 3, name=f"cuda.atomic.{kind}")
        arr, idx, val = args
        ref = _ref(c, arr, idx, node)
        et = arr.t.dtype
        if et not in (T.uint32, T.uint64):
            raise c.err(node, f"cuda.atomic.{kind}() takes a uint32 or uint64 array, got {et}")
        v = c.val(c.cast(c.num_arg(val, node), et, node), node)
        f = c.f
        # a compare-and-swap loop computing CUDA's atomicInc / atomicDec
        head, after = f.new_block(et.ir), f.new_block()
        first = f.ops.atomic_load(ref, memory="relaxed", scope="device", result=et.ir)
        f.br(head, first)
        f.set_block(head)
        old = head.args[0]
        one, zero = f.constant(1, et.ir), f.constant(0, et.ir)
        if kind == "inc":
            new = f.select(old >= v, zero, old + one)
        else:
            new = f.select((old == zero) | (old > v), v, old - one)
        seen = f.ops.atomic_cas(ref, old, new, memory="relaxed", scope="device", result=et.ir)
        f.cond_br(seen == old, after, head, else_args=(seen,))
        f.set_block(after)
        return TypedValue(seen, et)

    return impl


ATOMICS = {
    # add, sub, and_, or_, xor, max, min, nanmax, nanmin, exch: the dialect's read-modify-writes
    **{method: _atomic(kind) for method, kind in _facts.ATOMIC_RMW_METHODS.items()},
    "inc": _incdec("inc"),
    "dec": _incdec("dec"),
    "cas": atomic_cas,
    "compare_and_swap": atomic_compare_and_swap,
}


# --- print -------------------------------------------------------------------------------


def _print_item(c, x, node, fmt, vals):
    if isinstance(x, CompileTimeValue):
        if getattr(x.obj, "_pydev_numba_dim3", False):  # cuda.threadIdx, ...: (x, y, z), as Numba prints a Dim3
            fmt.append("(%lld, %lld, %lld)")
            vals.extend(c.val(c.cast(x.obj._pydev_numba_attr(c, d, node), T.int64, node), node) for d in "xyz")
            return
        if isinstance(x.obj, str):
            fmt.append(x.obj.replace("%", "%%"))
            return
        if x.obj is None:
            fmt.append("None")
            return
        raise c.err(node, f"print() cannot print {_tname(x)} in device code")
    if x.items is not None:  # tuples as Numba prints them
        parts = []
        for it in x.items:
            sub = []
            _print_item(c, it, node, sub, vals)
            parts.append("".join(sub))
        fmt.append("(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")")
        return
    t = x.t
    if isinstance(t, T.Boolean):  # True / False, chosen by a branch (see _print)
        fmt.append("\0")
        vals.append(_BoolSlot(c.val(x, node)))
        return
    if not _is_num(t) or t.kind == "c":
        raise c.err(node, f"print() of a {t} is not supported in device code")
    if t.is_int:
        fmt.append("%llu" if not t.signed else "%lld")
        vals.append(c.val(c.cast(x, T.uint64 if not t.signed else T.int64, node), node))
    else:
        fmt.append("%f")
        vals.append(c.val(c.cast(x, T.float64, node), node))


@register(builtins.print)
def _print(c, args, kwargs, node):
    """print(a, b, ...): one printf (vprintf on the GPU) with Numba's formats:
    integers as %lld / %llu, floats as %f, strings as text, a Dim3 as
    (x, y, z); more than 32 items print the format string, with a warning."""
    if kwargs:
        raise c.err(node, "print() keywords (sep, end, file, flush) are not supported in device code")
    fmt, vals = [], []
    for a in args:
        sub = []
        _print_item(c, a, node, sub, vals)
        fmt.append("".join(sub))
    text = " ".join(fmt) + "\n"
    if len(args) > 32:
        # As Numba-CUDA: vprintf takes at most 32 arguments, so the format itself is printed.
        warnings.warn(
            "CUDA print() cannot print more than 32 items. The raw format string will be emitted by the kernel instead.",
            stacklevel=2,
        )
        text, vals = text.replace("%", "%%").replace("\0", "%s"), []
    bools = [v.v for v in vals if isinstance(v, _BoolSlot)]
    vals = [v for v in vals if not isinstance(v, _BoolSlot)]
    if len(bools) > 4:
        raise c.err(node, "print() of more than 4 bools at once is not supported in pydev.numba device code")
    c.at(node)
    segments = text.split("\0")

    def emit(chosen):
        if len(chosen) < len(bools):  # one printf per combination of the bools' values
            f = c.f
            yes, no, after = f.new_block(), f.new_block(), f.new_block()
            f.cond_br(bools[len(chosen)], yes, no)
            for blk, b in ((yes, True), (no, False)):
                f.set_block(blk)
                emit(chosen + [b])
                f.br(after)
            f.set_block(after)
            return
        out = segments[0] + "".join(str(b) + seg for b, seg in zip(chosen, segments[1:]))
        escaped = "".join(
            ch if (32 <= ord(ch) < 127 and ch not in '"\\') else "".join(f"\\{b:02X}" for b in ch.encode())
            for ch in out
        )
        c.f.emit("gpu.printf", vals, [], {"format": f'"{escaped}"'})

    emit([])
    return CompileTimeValue(None)


class _BoolSlot:
    """A bool in print()'s arguments: printed as True or False."""

    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


def selp(c, args, kwargs, node):
    """cuda.selp(cond, a, b): a where cond holds, else b."""
    _nargs(c, args, kwargs, node, 3, name="cuda.selp")
    cond = c.val(c.truth(args[0], node), node)
    a, b = (c.num_arg(x, node) for x in args[1:])
    t = a.t if a.t == b.t else arith_type(a.t, b.t)
    if cond is None:
        return a
    return TypedValue(c.f.select(cond, c.val(c.cast(a, t, node), node), c.val(c.cast(b, t, node), node)), t)


# --- more of Numba-CUDA's builtins, math and operator functions (issue 31) -----------------


def _fconst(c, x, t):
    return c.f.constant(float(x), t.ir)


def _float_bits(t):
    """(int type, mantissa bits, exponent bias) of a float type."""
    return (ir.i64, ir.ui64, 52, 1023) if t.bits == 64 else (ir.i32, ir.ui32, 23, 127)


def _to_bits(c, v, t):
    it, ut, _, _ = _float_bits(t)
    return c.f.cast(c.f.emit("arith.bitcast", [v], [it]), ut)


def _from_bits(c, u, t):
    it, _, _, _ = _float_bits(t)
    return c.f.emit("arith.bitcast", [c.f.cast(u, it)], [t.ir])


def _pow2(c, n, t):
    """2.0 ** n for an integer n (si64) within the normal exponents of t."""
    _, ut, mb, bias = _float_bits(t)
    return _from_bits(c, c.f.cast(n + bias, ut) << mb, t)


def _isnan(c, v):
    return c.f.ops.cmp(v, v, predicate="ne")


def _isinf(c, v, t):
    return c.f.ops.cmp(c.f.ops.abs(v), _fconst(c, math.inf, t), predicate="eq")


@register(math.ldexp)
def _ldexp(c, args, kwargs, node):
    """x * 2**n, exactly (musl's scalbn, with selects)."""
    _nargs(c, args, kwargs, node, 2, name="math.ldexp")
    x = _float_of(c, args[0], node)
    n = c.num_arg(args[1], node, "math.ldexp()'s exponent")
    if not n.t.is_int:
        raise c.err(node, f"math.ldexp() takes an integer exponent, got {n.t}")
    t = x.t
    _, _, mb, bias = _float_bits(t)
    emax, emin = bias, 1 - bias
    y = c.val(x, node)
    k = c.val(c.cast(n, T.int64, node), node)
    k = c.f.ops.max(c.f.ops.min(k, c.iconst(4 * bias)), c.iconst(-4 * bias))
    up, down = _pow2(c, c.iconst(emax), t), _pow2(c, c.iconst(emin + mb + 1), t)
    for _ in range(2):
        hi = k > emax
        y = c.f.select(hi, y * up, y)
        k = c.f.select(hi, k - emax, k)
        lo = k < emin
        y = c.f.select(lo, y * down, y)
        k = c.f.select(lo, k + (-emin - mb - 1), k)
    k = c.f.ops.max(c.f.ops.min(k, c.iconst(emax)), c.iconst(emin))
    return TypedValue(y * _pow2(c, k, t), t)


@register(math.frexp)
def _frexp(c, args, kwargs, node):
    """(m, e) with x == m * 2**e, 0.5 <= |m| < 1: Numba's (float, intc)."""
    _nargs(c, args, kwargs, node, 1, name="math.frexp")
    x = _float_of(c, args[0], node)
    t = x.t
    _, ut, mb, bias = _float_bits(t)
    v = c.val(x, node)
    small = c.f.ops.abs(v) < _fconst(c, 2.0 ** (1 - bias), t)
    scaled = c.f.select(small, v * _fconst(c, 2.0 ** (mb + 2), t), v)
    adj = c.f.select(small, c.iconst(-(mb + 2)), c.iconst(0))
    b = _to_bits(c, scaled, t)
    emask = (1 << (64 if t.bits == 64 else 32) - 1 - mb) - 1
    ebits = c.f.cast((b >> mb) & emask, ir.si64)
    e = ebits - (bias - 1) + adj
    mbits = (b & (((1 << t.bits) - 1) ^ (emask << mb))) | ((bias - 1) << mb)
    m = _from_bits(c, mbits, t)
    special = (v == _fconst(c, 0.0, t)) | _isnan(c, v) | _isinf(c, v, t)
    m = c.f.select(special, v, m)
    e = c.f.select(special, c.iconst(0), e)
    return c._tuple([TypedValue(m, t), TypedValue(c.f.cast(e, ir.si32), T.int32)])


@register(math.remainder)
def _remainder(c, args, kwargs, node):
    """IEEE 754 remainder: x - n*y, n the integer nearest x/y (ties to even); fdlibm's method."""
    _nargs(c, args, kwargs, node, 2, name="math.remainder")
    a, b = (c.num_arg(v, node) for v in args)
    t = arith_type(a.t, b.t)
    t = t if t.is_float else T.float64
    x, y = c.val(c.cast(a, t, node), node), c.val(c.cast(b, t, node), node)
    _, _, mb, bias = _float_bits(t)
    p = c.f.ops.abs(y)
    big = p > _fconst(c, np.finfo(t.dtype).max / 2, t)
    r = c.f.select(big, x, c.f.emit("arith.remf", [x, p + p], [t.ir]))
    ar = c.f.ops.abs(r)
    tiny = p < _fconst(c, 2.0 ** (2 - bias), t)
    half = p * 0.5
    gt1 = c.f.select(tiny, ar + ar > p, ar > half)
    ar = c.f.select(gt1, ar - p, ar)
    gt2 = c.f.select(tiny, ar + ar >= p, ar >= half)
    ar = c.f.select(gt1 & gt2, ar - p, ar)
    ar = c.f.select(c.f.ops.abs(r) == p, _fconst(c, 0.0, t), ar)
    out = c.f.emit("math.copysign", [_fconst(c, 1.0, t), x], [t.ir]) * ar
    bad = _isnan(c, x) | _isnan(c, y) | _isinf(c, x, t) | (y == _fconst(c, 0.0, t))
    return TypedValue(c.f.select(bad, _fconst(c, math.nan, t), out), t)


# Lanczos (g = 7, 9 terms): relative error about 1e-15 for x >= 0.5.
_LANCZOS = (
    0.99999999999980993,
    676.5203681218851,
    -1259.1392167224028,
    771.32342877765313,
    -176.61502916214059,
    12.507343278686905,
    -0.13857109526572012,
    9.9843695780195716e-6,
    1.5056327351493116e-7,
)


def _lanczos(c, z):
    """(t, A) for z >= 0.5 (f64): gamma(z) = sqrt(2 pi) t**(z - 0.5) e**-t A."""
    zm = z - 1.0
    acc = c.f.constant(_LANCZOS[0], ir.f64)
    for i, p in enumerate(_LANCZOS[1:], 1):
        acc = acc + c.f.ops.truediv(c.f.constant(p, ir.f64), zm + float(i), result=ir.f64)
    return zm + 7.5, acc


def _sinpi(c, x):
    """sin(pi x), exact at the integers (x reduced by its nearest integer)."""
    n = c.f.emit("math.roundeven", [x], [ir.f64])
    r = x - n
    odd = c.f.emit("arith.remf", [n, c.f.constant(2.0, ir.f64)], [ir.f64])
    s = c.f.emit("math.sin", [r * math.pi], [ir.f64])
    return c.f.select(c.f.ops.abs(odd) == c.f.constant(1.0, ir.f64), -s, s)


def _gamma_like(log):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, name="math.lgamma" if log else "math.gamma")
        a = _float_of(c, args[0], node)
        x = c.val(c.cast(a, T.float64, node), node)
        f64 = ir.f64
        one, half = c.f.constant(1.0, f64), c.f.constant(0.5, f64)
        refl = x < half
        z = c.f.select(refl, one - x, x)
        t, acc = _lanczos(c, z)
        e = z - 0.5
        pole = (x <= c.f.constant(0.0, f64)) & (c.f.emit("math.floor", [x], [f64]) == x)
        s = _sinpi(c, x)
        inf = c.f.constant(math.inf, f64)
        if log:
            lg = e * c.f.emit("math.log", [t], [f64]) - t + c.f.emit("math.log", [acc], [f64])
            lg = lg + 0.5 * math.log(2 * math.pi)
            ref = (
                c.f.emit("math.log", [c.f.ops.truediv(c.f.constant(math.pi, f64), c.f.ops.abs(s), result=f64)], [f64])
                - lg
            )
            r = c.f.select(refl, ref, lg)
            # tiny |x|: -log|x| (sin(pi x) would underflow); 0 at 1 and 2 exactly
            ax = c.f.ops.abs(x)
            r = c.f.select(ax < c.f.constant(1e-300, f64), -c.f.emit("math.log", [ax], [f64]), r)
            r = c.f.select((x == one) | (x == c.f.constant(2.0, f64)), c.f.constant(0.0, f64), r)
            r = c.f.select(pole | _isinf(c, x, T.float64), inf, r)
        else:
            pw = c.f.emit("math.powf", [t, e * 0.5], [f64])
            g = pw * (pw * c.f.emit("math.exp", [-t], [f64])) * acc * math.sqrt(2 * math.pi)
            ref = c.f.ops.truediv(c.f.constant(math.pi, f64), s * g, result=f64)
            r = c.f.select(refl, ref, g)
            r = c.f.select(x > c.f.constant(171.7, f64), inf, r)
            nan = c.f.constant(math.nan, f64)
            r = c.f.select(pole & (x != c.f.constant(0.0, f64)), nan, r)
            r = c.f.select(x == c.f.constant(0.0, f64), c.f.emit("math.copysign", [inf, x], [f64]), r)
        return c.cast(TypedValue(r, T.float64), a.t, node)

    return impl


register(math.gamma)(_gamma_like(False))
register(math.lgamma)(_gamma_like(True))


def _operator_fn(op, compare=False):
    import ast

    node_op = getattr(ast, op)

    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 2, name=f"operator.{op.lower()}")
        if compare:
            return c.compare(node_op(), args[0], args[1], node)
        return c.binop(node_op(), args[0], args[1], node)

    return impl


for _fn, _op in (
    (operator.add, "Add"),
    (operator.sub, "Sub"),
    (operator.mul, "Mult"),
    (operator.truediv, "Div"),
    (operator.floordiv, "FloorDiv"),
    (operator.mod, "Mod"),
    (operator.pow, "Pow"),
    (operator.and_, "BitAnd"),
    (operator.or_, "BitOr"),
    (operator.xor, "BitXor"),
    (operator.lshift, "LShift"),
    (operator.rshift, "RShift"),
):
    register(_fn)(_operator_fn(_op))
for _fn, _op in (
    (operator.lt, "Lt"),
    (operator.le, "LtE"),
    (operator.gt, "Gt"),
    (operator.ge, "GtE"),
    (operator.eq, "Eq"),
    (operator.ne, "NotEq"),
):
    register(_fn)(_operator_fn(_op, compare=True))


def bit_count(c, x, node):
    """int.bit_count(): the number of ones in |x| (Python's), of x's type."""
    t = x.t
    sl = ir.Type(f"i{t.bits}")
    v = c.val(x, node)
    if t.signed:
        v = c.f.ops.abs(v)
    r = c.f.emit("math.ctpop", [c.f.cast(v, sl)], [sl])
    return TypedValue(c.f.cast(r, t.ir), t)


def nanosleep(c, args, kwargs, node):
    """cuda.nanosleep(ns): a hint; PTX lets the sleep be anywhere in
    [0, 2 ns], and pydev has no sleep op: it checks its argument and waits
    for nothing (a polling loop stays correct)."""
    _nargs(c, args, kwargs, node, 1, name="cuda.nanosleep")
    ns = c.num_arg(args[0], node, "cuda.nanosleep()'s argument")
    if not (ns.t.is_int or isinstance(ns.t, T.Boolean)):
        raise c.err(node, f"cuda.nanosleep() takes an integer number of nanoseconds, got {ns.t}")
    c.val(c.cast(ns, T.uint32, node), node)
    return CompileTimeValue(None)


# --- cmath: classification, polar/rect, log10 and log(x, base) ------------------------------


def _complex_arg(c, arg, node):
    """The argument as a complex value, its float part type, real and imaginary parts."""
    a = c.num_arg(arg, node)
    if a.t.kind != "c":
        a = c.cast(a, arith_type(a.t, T.complex64) if a.t.is_float else T.complex128, node)
    ft = T.float32 if a.t.bits == 64 else T.float64
    v = c.val(a, node)
    return a, ft, c.f.emit("complex.re", [v], [ft.ir]), c.f.emit("complex.im", [v], [ft.ir])


def _cmath_class(name):
    def impl(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, name=f"cmath.{name}")
        _, ft, re, im = _complex_arg(c, args[0], node)
        nan = _isnan(c, re) | _isnan(c, im)
        inf = _isinf(c, re, ft) | _isinf(c, im, ft)
        if name == "isnan":
            r = nan
        elif name == "isinf":
            r = inf
        else:  # isfinite: neither part nan nor infinite
            r = c.f.ops.cmp(nan | inf, c.f.constant(False, ir.i1), predicate="eq")
        return TypedValue(r, T.boolean)

    return impl


for _name in ("isnan", "isinf", "isfinite"):
    register(getattr(_cm, _name))(_cmath_class(_name))


@register(_cm.polar)
def _cpolar(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="cmath.polar")
    a, ft, _, _ = _complex_arg(c, args[0], node)
    v = c.val(a, node)
    r = TypedValue(c.f.ops.abs(v, result=ft.ir), ft)
    phi = TypedValue(c.f.emit("complex.angle", [v], [ft.ir]), ft)
    return c._tuple([r, phi])


@register(_cm.log10)
def _clog10(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 1, name="cmath.log10")
    a, ft, _, _ = _complex_arg(c, args[0], node)
    lg = TypedValue(c.f.emit("complex.log", [c.val(a, node)], [a.t.ir]), a.t)
    return _cdiv_real(c, lg, math.log(10.0), node)


def _cdiv_real(c, z, d, node):
    """z / d for a real constant d, part by part (as Numba's cmath.log10)."""
    ft = T.float32 if z.t.bits == 64 else T.float64
    v = c.val(z, node)
    re = c.f.emit("complex.re", [v], [ft.ir])
    im = c.f.emit("complex.im", [v], [ft.ir])
    dv = _fconst(c, d, ft)
    return TypedValue(
        c.f.emit(
            "complex.create",
            [c.f.ops.truediv(re, dv, result=ft.ir), c.f.ops.truediv(im, dv, result=ft.ir)],
            [z.t.ir],
        ),
        z.t,
    )


# --- math.modf, math.nextafter ---------------------------------------------------------------


@register(math.modf)
def _modf(c, args, kwargs, node):
    """(fractional part, integral part), both of x's float type, with x's
    sign (-0.0 included); (0.0 with x's sign, x) for an infinite x."""
    _nargs(c, args, kwargs, node, 1, name="math.modf")
    a = _float_of(c, args[0], node)
    t, x = a.t, c.val(a, node)
    whole = c.f.emit("math.trunc", [x], [t.ir])
    frac = c.f.emit("math.copysign", [x - whole, x], [t.ir])
    frac = c.f.select(_isinf(c, x, t), c.f.emit("math.copysign", [_fconst(c, 0.0, t), x], [t.ir]), frac)
    return c._tuple([TypedValue(frac, t), TypedValue(whole, t)])


@register(math.nextafter)
def _nextafter(c, args, kwargs, node):
    """The next float after x towards y (C's nextafter, bit by bit)."""
    _nargs(c, args, kwargs, node, 2, name="math.nextafter")
    a, b = (_float_of(c, v, node) for v in args)
    t = T.float32 if a.t == b.t == T.float32 else T.float64
    x, y = (c.val(c.cast(v, t, node), node) for v in (a, b))
    _, ut, _, _ = _float_bits(t)
    zero = _fconst(c, 0.0, t)
    u = _to_bits(c, x, t)
    up = (x < y) == (x > zero)
    step = c.f.select(up, u + 1, u - 1)
    r = _from_bits(c, step, t)
    tiny = c.f.emit("math.copysign", [_from_bits(c, c.f.constant(1, ut), t), y], [t.ir])
    r = c.f.select(x == zero, tiny, r)
    r = c.f.select(x == y, y, r)
    r = c.f.select(_isnan(c, x) | _isnan(c, y), x + y, r)
    return TypedValue(r, t)


@register(builtins.tuple)
def _tuple_of(c, args, kwargs, node):
    """tuple(t) of a tuple is t (Numba's; other iterables are not supported)."""
    _nargs(c, args, kwargs, node, 0, 1, name="tuple")
    if not args:
        return c._tuple([])
    a = args[0]
    if isinstance(a, TypedValue) and a.items is not None:
        return a
    if isinstance(a, CompileTimeValue) and isinstance(a.obj, tuple):
        return a
    raise c.err(node, f"tuple() takes a tuple in pydev.numba device code, got {_tname(a)}")
