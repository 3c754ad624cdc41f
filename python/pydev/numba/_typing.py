"""Numba's typing rules (arithmetic, powers, bit operations, the
unification of a variable's assignments) and the two kinds of values
pydev.numba's compiler handles: `CompileTimeValue` (a module, a function, a
Python constant known while compiling) and `TypedValue` (an IR value with
its Numba type). The compiler (_compiler) and the device-code
implementations (_builtins) both build on this module."""

import inspect

import numpy as np

from . import types as T


# --- Numba's typing rules ------------------------------------------------------------------


def _is_num(t):
    return isinstance(t, (T.Number, T.Boolean))


def arith_type(a, b):
    """The type of a + b (and - * / // %) in Numba (checked against Numba
    0.68's own typing): integers widen to 64 bits, int64 unless both are
    unsigned (uint64); a bool counts as an integer. A float with an integer:
    float32 stays float32 with bool, int8, int16 and uint8, else float64."""
    if isinstance(a, T.LowFloat) or isinstance(b, T.LowFloat):
        return _low_arith_type(a, b)
    if a.kind == "c" or b.kind == "c":
        f = arith_type(_complex_part(a), _complex_part(b))
        return T.complex128 if f.bits > 32 else T.complex64
    if a.is_float and b.is_float:
        return a if a.bits >= b.bits else b
    if a.is_float or b.is_float:
        f, i = (a, b) if a.is_float else (b, a)
        if f.bits == 16:
            return (
                T.float16
                if isinstance(i, T.Boolean) or i.bits == 8 and i.signed
                else T.float32
                if i.bits <= 16 and (i.signed or i.bits == 8)
                else T.float64
            )
        if f.bits == 32 and (isinstance(i, T.Boolean) or i.bits <= 16 and i.signed or i.bits == 8):
            return T.float32
        return T.float64
    a_unsigned = a.is_int and not a.signed
    b_unsigned = b.is_int and not b.signed
    return T.uint64 if a_unsigned and b_unsigned else T.int64


def _low_arith_type(a, b):
    """bfloat16 operands (numba-cuda's operators are bfloat16's with
    bfloat16): bfloat16 with bfloat16 is bfloat16; with another float the
    wider of float32 and that float (float16 too: neither holds the other);
    with an integer or bool Numba's float16 rule, bfloat16 in float16's
    place. The float8 formats have no arithmetic (a TypeError)."""
    for t in (a, b):
        if not getattr(t, "arith", True):
            raise TypeError(f"{t} has no arithmetic: convert it to float32 first")
    if a == b:
        return a
    f, o = (a, b) if isinstance(a, T.LowFloat) else (b, a)
    if o.kind == "c":
        return T.complex64 if o.bits == 64 else T.complex128
    if o.is_float:
        return T.float64 if o.bits == 64 else T.float32
    if isinstance(o, T.Boolean) or o.bits == 8 and o.signed:
        return f
    return T.float32 if o.bits <= 16 and (o.signed or o.bits == 8) else T.float64


def _complex_part(t):
    if isinstance(t, T.Number) and t.kind == "c":
        return T.float32 if t.bits == 64 else T.float64
    return t


def pow_type(a, b):
    """a ** b: a float base keeps its type with an integer exponent (Numba's powi)."""
    if isinstance(a, T.LowFloat) or isinstance(b, T.LowFloat):
        return arith_type(a, b)
    if a.is_float and (b.is_int or isinstance(b, T.Boolean)):
        return a
    return arith_type(a, b)


def bitwise_type(a, b):
    if isinstance(a, T.Boolean) and isinstance(b, T.Boolean):
        return T.boolean
    a = T.int64 if isinstance(a, T.Boolean) else a
    b = T.int64 if isinstance(b, T.Boolean) else b
    if not (a.is_int and b.is_int):
        return None
    return T.uint64 if not a.signed and not b.signed else T.int64


def unify(a, b):
    """The type of a variable assigned values of types a and b (NumPy's promotion)."""
    if a == b:
        return a
    if _is_num(a) and _is_num(b):
        if isinstance(a, T.LowFloat) or isinstance(b, T.LowFloat):
            try:
                return _low_arith_type(a, b)
            except TypeError:
                return None  # float8 values of different types do not unify
        if isinstance(a, T.Boolean):
            return b
        if isinstance(b, T.Boolean):
            return a
        return T.from_dtype(np.promote_types(a.dtype, b.dtype))
    if isinstance(a, (T.UniTuple, T.Tuple)) and isinstance(b, (T.UniTuple, T.Tuple)) and len(a.items) == len(b.items):
        items = [unify(x, y) for x, y in zip(a.items, b.items)]
        if None not in items:
            return T.Tuple(items)
    return None


# --- values ---------------------------------------------------------------------------------


class CompileTimeValue:
    """A compile-time object (a module, a function, a Python constant)."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


class TypedValue:
    """A typed value: `v` an ir.Value (or None for a literal not yet
    emitted: `const`), `t` its Numba type. Tuples keep `items`."""

    __slots__ = ("v", "t", "const", "items")

    def __init__(self, v, t, const=None, items=None):
        self.v, self.t, self.const, self.items = v, t, const, items


def _tname(x):
    return str(x.t) if isinstance(x, TypedValue) else _describe(x.obj)


def _describe(obj):
    name = getattr(obj, "_pydev_numba_name", None)
    if name:
        return name
    if inspect.ismodule(obj):
        return f"module '{obj.__name__}'"
    if callable(obj):
        return f"'{getattr(obj, '__qualname__', getattr(obj, '__name__', repr(obj)))}'"
    return f"a {type(obj).__name__}"


class _Method:
    """A bound method of a value (z.conjugate)."""

    def __init__(self, name, impl):
        self._pydev_numba_name = f"'.{name}()'"
        self._impl = impl

    def _pydev_numba_call(self, c, args, kwargs, node):
        if args or kwargs:
            raise c.err(node, f"{self._pydev_numba_name} takes no arguments")
        return self._impl(c, args, kwargs, node)


def literal_of(tv):
    """(type, value) of a number literal not yet emitted (a constant, a
    global), ("tuple", type, items) of a tuple of them, else None."""
    if not isinstance(tv, TypedValue):
        return None
    if tv.items is not None:
        items = [literal_of(x) for x in tv.items]
        return None if any(x is None for x in items) else ("tuple", tv.t, items)
    if tv.v is None and isinstance(tv.const, (bool, int, float)) and isinstance(tv.t, (T.Number, T.Boolean)):
        return (tv.t, tv.const)
    return None


def _from_literal(lit):
    if lit[0] == "tuple":
        return TypedValue(None, lit[1], items=[_from_literal(x) for x in lit[2]])
    return TypedValue(None, lit[0], const=lit[1])
