"""NumPy's ufuncs in device code, as Numba-CUDA compiles them.

On numbers a ufunc is a number (`np.sin(x)`, `np.greater(a, b)`); on arrays
it takes its output array, positionally or as `out=` (`np.sin(a, r)`,
`np.add(a, b, out=r)`): a loop over the output's shape computes each
element from the inputs' elements (an input array of fewer axes or of
extent 1 is broadcast as NumPy does; a number is every element), casts it
to the output's dtype and stores it; the call's value is the output array.
Device code allocates no arrays, so an array ufunc without its output is a
`pydev.CompileError` naming it. Shapes are not checked at run time (an
input larger than the output is read in part, one smaller out of bounds).

Complex numbers take the `cmath` function of the same meaning (looked up
when called: a cmath function pydev.numba lacks is an error naming the
ufunc). Comparisons order complex numbers lexicographically and compare a
signed with an unsigned 64-bit integer exactly, as NumPy (1.25 and later)
does; maximum/minimum propagate NaN, fmax/fmin ignore it."""

import ast
import cmath
import math

import numpy as np

from .. import ir
from . import _builtins
from . import types as T
from ._typing import CompileTimeValue, TypedValue, arith_type

# ufunc name -> the cmath function for complex arguments (log2: log / ln 2)
_COMPLEX = {
    "sin": cmath.sin,
    "cos": cmath.cos,
    "tan": cmath.tan,
    "arcsin": cmath.asin,
    "arccos": cmath.acos,
    "arctan": cmath.atan,
    "sinh": cmath.sinh,
    "cosh": cmath.cosh,
    "tanh": cmath.tanh,
    "arcsinh": cmath.asinh,
    "arccosh": cmath.acosh,
    "arctanh": cmath.atanh,
    "exp": cmath.exp,
    "log": cmath.log,
    "log10": cmath.log10,
    "log2": cmath.log,
    "sqrt": cmath.sqrt,
}


def _is_array(tv):
    return isinstance(tv, TypedValue) and isinstance(tv.t, T.Array)


def _is_complex(tv):
    return isinstance(tv, TypedValue) and getattr(tv.t, "kind", None) == "c"


def _parts(c, z, node):
    ft = T.float32 if z.t.bits == 64 else T.float64
    v = c.val(z, node)
    return ft, c.f.emit("complex.re", [v], [ft.ir]), c.f.emit("complex.im", [v], [ft.ir])


def _element(c, uf, scalar, args, node):
    """The ufunc on numbers `args`."""
    name = uf.__name__
    if any(_is_complex(a) for a in args) and name in _COMPLEX:
        impl = _builtins.lookup(_COMPLEX[name])
        if impl is None:
            raise c.err(node, f"np.{name}() of a complex number is not supported in pydev.numba")
        r = impl(c, args, {}, node)
        if name == "log2":
            ft, re, im = _parts(c, r, node)
            d = c.f.constant(math.log(2.0), ft.ir)
            r = TypedValue(
                c.f.emit(
                    "complex.create",
                    [c.f.ops.truediv(re, d, result=ft.ir), c.f.ops.truediv(im, d, result=ft.ir)],
                    [r.t.ir],
                ),
                r.t,
            )
        return r
    return scalar(c, args, {}, node)


def _over_arrays(uf, scalar):
    """The device implementation of ufunc `uf` from `scalar`, its
    implementation on numbers."""
    name, nin, nout = uf.__name__, uf.nin, uf.nout

    def impl(c, args, kwargs, node):
        kwargs = dict(kwargs)
        out = kwargs.pop("out", None)
        if kwargs:
            raise c.err(node, f"np.{name}() takes no keyword arguments but out= in pydev.numba")
        args = list(args)
        outs = args[nin:]
        args = args[:nin]
        if out is not None:
            if outs:
                raise c.err(node, f"np.{name}() got its output both as an argument and as out=")
            outs = list(out.items) if isinstance(out, TypedValue) and out.items is not None else [out]
        if len(args) != nin or len(outs) not in (0, nout):
            raise c.err(
                node,
                f"np.{name}() takes {nin} input{'s' if nin > 1 else ''} and, for arrays, {nout} output "
                f"array{'s' if nout > 1 else ''}; got {len(args)} and {len(outs)}",
            )
        for a in args:
            if isinstance(a, CompileTimeValue):
                raise c.err(node, f"np.{name}() takes numbers and arrays, got {a.obj!r}")
        if not outs:
            if any(_is_array(a) for a in args):
                raise c.err(
                    node,
                    f"np.{name}() of an array takes its output array (np.{name}(..., out)): "
                    "pydev.numba device code allocates no arrays",
                )
            return _element(c, uf, scalar, args, node)
        if nout != 1:
            raise c.err(node, f"np.{name}() with output arrays is not supported in pydev.numba (it has {nout} outputs)")
        o = outs[0]
        if not _is_array(o):
            raise c.err(node, f"np.{name}()'s output is an array, got {o.t if isinstance(o, TypedValue) else o}")
        return _loop(c, uf, scalar, args, o, node)

    return impl


def _loop(c, uf, scalar, args, o, node):
    nd = o.t.ndim
    for a in args:
        if _is_array(a) and a.t.ndim > nd:
            raise c.err(node, f"np.{uf.__name__}(): a {a.t.ndim}-d input cannot broadcast to the {nd}-d output array")
    c.at(node)
    exts = [c.val(c.extent(o, d, node), node) for d in range(nd)]
    in_exts = [[c.val(c.extent(a, d, node), node) for d in range(a.t.ndim)] if _is_array(a) else None for a in args]
    const = None if any(_is_array(a) for a in args) else _element(c, uf, scalar, args, node)
    idx = []

    def nest(d):
        if d < nd:
            with c.f.for_range(c.iconst(0), exts[d]) as i:
                idx.append(i)
                nest(d + 1)
                idx.pop()
            return
        r = const
        if r is None:
            elems = []
            for a, ext in zip(args, in_exts):
                if ext is None:
                    elems.append(a)
                    continue
                k = len(ext)
                # trailing axes line up; an axis of extent 1 repeats its element
                at = [c.f.select(e == 1, c.iconst(0, e.type), i) for e, i in zip(ext, idx[nd - k :])]
                elems.append(c.load_item(a, at, node))
            r = _element(c, uf, scalar, elems, node)
        c.store_item(o, list(idx), r, node)

    nest(0)
    return o


# --- the ufuncs pydev.numba had no implementation of on numbers ----------------------------------


def _two(c, args, kwargs, node, name):
    _builtins._nargs(c, args, kwargs, node, 2, name=f"np.{name}")
    return [c.num_arg(a, node) for a in args]


def _bool(v):
    return TypedValue(v, T.boolean)


def _const_bool(c, b, node):
    return c.val(TypedValue(None, T.boolean, b), node)


_SWAP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}
_AST = {"lt": ast.Lt, "le": ast.LtE, "gt": ast.Gt, "ge": ast.GtE, "eq": ast.Eq, "ne": ast.NotEq}


def _comparison(pred):
    def impl(c, args, kwargs, node):
        a, b = _two(c, args, kwargs, node, pred)
        if _is_complex(a) or _is_complex(b):
            return _complex_compare(c, pred, a, b, node)
        if a.t.is_int and b.t.is_int and a.t.signed != b.t.signed:
            ct, u = arith_type(a.t, b.t), (b.t if a.t.signed else a.t)
            if not (ct.is_int and ct.signed and ct.bits > u.bits):  # the unsigned values do not all fit
                return _mixed_compare(c, pred, a, b, node)
        return c.compare(_AST[pred](), a, b, node)

    return impl


def _mixed_compare(c, pred, a, b, node):
    """A signed against an unsigned 64-bit integer, exactly: a negative
    signed value is below every unsigned one, else both compare unsigned."""
    s, p = (a, pred) if a.t.signed else (b, _SWAP[pred])  # s `p` u
    neg = c.val(c.compare(ast.Lt(), s, c.lit(0, node), node), node)
    ua, ub = (c.cast(x, T.uint64, node) for x in (a, b))
    r = c.val(c.compare(_AST[pred](), ua, ub, node), node)
    below = p in ("lt", "le", "ne")  # the value of `s p u` when s < 0
    return _bool(c.f.select(neg, _const_bool(c, below, node), r))


def _complex_compare(c, pred, a, b, node):
    """NumPy's order of complex numbers: by real part, then imaginary."""
    t = arith_type(arith_type(a.t, b.t), T.complex64)
    ft, ar, ai = _parts(c, c.cast(a, t, node), node)
    _, br, bi = _parts(c, c.cast(b, t, node), node)
    cmp = c.f.ops.cmp
    if pred in ("eq", "ne"):
        r = cmp(ar, br, predicate="eq") & cmp(ai, bi, predicate="eq")
        return _bool(r if pred == "eq" else c.f.ops.not_(r, result=ir.i1))
    strict = {"le": "lt", "ge": "gt"}.get(pred, pred)
    r = cmp(ar, br, predicate=strict) | (cmp(ar, br, predicate="eq") & cmp(ai, bi, predicate=pred))
    return _bool(r)


def _logical(op):
    def impl(c, args, kwargs, node):
        n = 1 if op == "not" else 2
        _builtins._nargs(c, args, kwargs, node, n, name=f"np.logical_{op}")
        v = [c.val(c.truth(c.num_arg(a, node), node), node) for a in args]
        if op == "not":
            return _bool(c.f.ops.not_(v[0], result=ir.i1))
        return _bool({"and": v[0] & v[1], "or": v[0] | v[1], "xor": v[0] ^ v[1]}[op])

    return impl


def _extremum(name):
    """maximum/minimum (NaN wins), fmax/fmin (NaN loses)."""
    bigger = name in ("maximum", "fmax")
    nan_wins = name in ("maximum", "minimum")

    def impl(c, args, kwargs, node):
        a, b = _two(c, args, kwargs, node, name)
        t = arith_type(a.t, b.t)
        if isinstance(a.t, T.Boolean) and isinstance(b.t, T.Boolean):
            t = T.boolean
        av, bv = c.val(c.cast(a, t, node), node), c.val(c.cast(b, t, node), node)
        cmp = c.f.ops.cmp
        if t.kind == "c":
            ta, tb = TypedValue(av, t), TypedValue(bv, t)
            _, ar, ai = _parts(c, ta, node)
            _, br, bi = _parts(c, tb, node)
            pred = "gt" if bigger else "lt"
            pick_a = cmp(ar, br, predicate=pred) | (cmp(ar, br, predicate="eq") & cmp(ai, bi, predicate=pred))
            a_nan = cmp(ar, ar, predicate="ne") | cmp(ai, ai, predicate="ne")
            b_nan = cmp(br, br, predicate="ne") | cmp(bi, bi, predicate="ne")
        elif isinstance(t, T.Boolean):
            pick_a = (av & c.f.ops.not_(bv, result=ir.i1)) if bigger else (bv & c.f.ops.not_(av, result=ir.i1))
            a_nan = b_nan = None
        else:
            pick_a = cmp(av, bv, predicate="gt" if bigger else "lt")
            a_nan = cmp(av, av, predicate="ne") if t.is_float else None
            b_nan = cmp(bv, bv, predicate="ne") if t.is_float else None
        r = c.f.select(pick_a, av, bv)
        if a_nan is not None:
            if nan_wins:
                r = c.f.select(a_nan, av, c.f.select(b_nan, bv, r))
            else:
                r = c.f.select(b_nan, av, c.f.select(a_nan, bv, r))
        return TypedValue(r, t)

    return impl


def _invert(c, args, kwargs, node):
    _builtins._nargs(c, args, kwargs, node, 1, name="np.invert")
    a = c.num_arg(args[0], node)
    if isinstance(a.t, T.Boolean):
        return _bool(c.f.ops.not_(c.val(a, node), result=ir.i1))
    if not a.t.is_int:
        raise c.err(node, f"np.invert() takes integers and booleans, got {a.t}")
    return TypedValue(c.f.ops.invert(c.val(a, node)), a.t)


def _binary(name, op):
    def impl(c, args, kwargs, node):
        a, b = _two(c, args, kwargs, node, name)
        return c.binop(op(), a, b, node)

    return impl


def _negative(c, args, kwargs, node):
    _builtins._nargs(c, args, kwargs, node, 1, name="np.negative")
    a = c.num_arg(args[0], node)
    if isinstance(a.t, T.Boolean):
        raise c.err(node, "np.negative() of a boolean is not supported (NumPy refuses it too)")
    return TypedValue(c.f.ops.neg(c.val(a, node)), a.t)


def _register():
    for uf, pred in (
        (np.greater, "gt"),
        (np.greater_equal, "ge"),
        (np.less, "lt"),
        (np.less_equal, "le"),
        (np.equal, "eq"),
        (np.not_equal, "ne"),
    ):
        _builtins.register(uf)(_comparison(pred))
    for uf, op in ((np.logical_and, "and"), (np.logical_or, "or"), (np.logical_xor, "xor"), (np.logical_not, "not")):
        _builtins.register(uf)(_logical(op))
    for uf in (np.maximum, np.minimum, np.fmax, np.fmin):
        _builtins.register(uf)(_extremum(uf.__name__))
    _builtins.register(np.invert)(_invert)  # np.bitwise_not is np.invert
    for uf, op in (
        (np.bitwise_and, ast.BitAnd),
        (np.bitwise_or, ast.BitOr),
        (np.bitwise_xor, ast.BitXor),
        (np.left_shift, ast.LShift),
        (np.right_shift, ast.RShift),
        (np.add, ast.Add),
        (np.subtract, ast.Sub),
        (np.multiply, ast.Mult),
        (np.true_divide, ast.Div),
        (np.floor_divide, ast.FloorDiv),
        (np.remainder, ast.Mod),
    ):
        _builtins.register(uf)(_binary(uf.__name__, op))
    _builtins.register(np.negative)(_negative)
    # every ufunc with an implementation on numbers takes arrays too
    for uf in [o for o in list(_builtins._TABLE) if isinstance(o, np.ufunc)]:
        _builtins._TABLE[uf] = _over_arrays(uf, _builtins._TABLE[uf])


_register()
