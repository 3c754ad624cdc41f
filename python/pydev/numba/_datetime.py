"""NumPy's datetime64 and timedelta64 in kernels, as Numba types them
(`types.NPDatetime`, `types.NPTimedelta`): int64 counts of a unit, NaT
int64's minimum.

    datetime - datetime   -> timedelta        timedelta +- timedelta -> timedelta
    datetime +- timedelta -> datetime         timedelta * int, int * timedelta -> timedelta
    timedelta // int      -> timedelta (truncated, as NumPy)   -timedelta, +timedelta
    ==, !=, <, <=, >, >= between two datetimes or two timedeltas -> bool

Operands of different units meet in the finer one (days and hours in
hours); years and months convert only to each other, as in NumPy. NaT is
NumPy's: any arithmetic with it gives NaT, every comparison with it is
False but !=."""

from . import types as T
from ._typing import TypedValue

NAT = -(2**63)

# Each unit as a count of the next finer one, finest last (years and months apart).
_CHAIN = [
    ("W", 7),
    ("D", 24),
    ("h", 60),
    ("m", 60),
    ("s", 1000),
    ("ms", 1000),
    ("us", 1000),
    ("ns", 1000),
    ("ps", 1000),
    ("fs", 1000),
    ("as", 1),
]
_YM = [("Y", 12), ("M", 1)]


def _position(unit):
    for chain in (_CHAIN, _YM):
        for i, (u, _) in enumerate(chain):
            if u == unit:
                return chain, i
    return None, None


def _factor(coarse, fine):
    """How many `fine` units make one `coarse` unit, or None when they do not convert."""
    if coarse == fine:
        return 1
    c1, i1 = _position(coarse)
    c2, i2 = _position(fine)
    if c1 is None or c1 is not c2 or i1 > i2:
        return None
    f = 1
    for _, n in c1[i1:i2]:
        f *= n
    return f


def is_datetime(t):
    return isinstance(t, T.NPDatetime)


def _common_unit(c, a, b, node, what):
    ua, ub = a.t.unit, b.t.unit
    if _factor(ua, ub) is not None:
        return ub
    if _factor(ub, ua) is not None:
        return ua
    raise c.err(node, f"cannot {what} {a.t} and {b.t}: their units do not convert to one another")


def _in_unit(c, tv, kind, unit, node):
    """The int64 value of `tv` (a datetime or timedelta) in `unit`; NaT stays NaT."""
    v = c.val(tv, node)
    f = _factor(tv.t.unit, unit)
    if f == 1:
        return v
    scaled = c.f.ops.mul(v, c.iconst(f))
    return c.f.select(c.f.ops.cmp(v, c.iconst(NAT), predicate="eq"), v, scaled)


def cast(c, tv, t, node):
    """A datetime or timedelta to the same kind in a finer (or the same) unit."""
    if not (is_datetime(tv.t) and is_datetime(t)) or tv.t.kind != t.kind or _factor(tv.t.unit, t.unit) is None:
        raise c.err(node, f"cannot convert {tv.t} to {t}")
    return TypedValue(_in_unit(c, tv, t.kind, t.unit, node), t)


def _nat_if_any(c, values, result):
    nat = c.iconst(NAT)
    any_nat = None
    for v in values:
        x = c.f.ops.cmp(v, nat, predicate="eq")
        any_nat = x if any_nat is None else any_nat | x
    return c.f.select(any_nat, nat, result)


def binop(c, name, a, b, node, sym):
    """a <op> b with a datetime or timedelta operand."""
    ta, tb = a.t, b.t
    kinds = (
        getattr(ta, "kind", None) if is_datetime(ta) else "n" if getattr(ta, "is_int", False) else None,
        getattr(tb, "kind", None) if is_datetime(tb) else "n" if getattr(tb, "is_int", False) else None,
    )
    if name in ("add", "sub") and None not in kinds and "n" not in kinds:
        if kinds == ("M", "M") and name == "sub":
            rt = T.NPTimedelta
        elif kinds == ("M", "m"):
            rt = T.NPDatetime
        elif kinds == ("m", "M") and name == "add":
            rt = T.NPDatetime
        elif kinds == ("m", "m"):
            rt = T.NPTimedelta
        else:
            rt = None
        if rt is not None:
            unit = _common_unit(c, a, b, node, "combine")
            av, bv = _in_unit(c, a, kinds[0], unit, node), _in_unit(c, b, kinds[1], unit, node)
            c.at(node)
            return TypedValue(_nat_if_any(c, (av, bv), getattr(c.f.ops, name)(av, bv)), rt(unit))
    if name in ("mul", "floordiv") and kinds in (("m", "n"), ("n", "m")) and (name == "mul" or kinds[0] == "m"):
        td, n = (a, b) if kinds[0] == "m" else (b, a)
        tv = c.val(td, node)
        nv = c.val(c.cast(n, T.int64, node), node)
        c.at(node)
        if name == "mul":
            r = c.f.ops.mul(tv, nv)
        else:
            # NumPy's timedelta // int truncates toward zero; // 0 is NaT.
            zero = c.iconst(0)
            is_zero = c.f.ops.cmp(nv, zero, predicate="eq")
            d = c.f.select(is_zero, c.iconst(1), nv)
            q = c.f.ops.floordiv(tv, d)
            inexact = c.f.ops.cmp(c.f.ops.mod(tv, d), zero, predicate="ne")
            signs_differ = c.f.ops.cmp(
                c.f.ops.cmp(tv, zero, predicate="lt"), c.f.ops.cmp(d, zero, predicate="lt"), predicate="ne"
            )
            q = c.f.select(inexact & signs_differ, q + c.iconst(1), q)
            r = c.f.select(is_zero, c.iconst(NAT), q)
        return TypedValue(_nat_if_any(c, (tv,), r), td.t)
    raise c.err(node, f"unsupported operand types for {sym}: {ta} and {tb}")


def compare(c, pred, a, b, node):
    """a <pred> b between two datetimes or two timedeltas (NumPy's NaT rule)."""
    if not (is_datetime(a.t) and is_datetime(b.t)) or a.t.kind != b.t.kind:
        raise c.err(node, f"cannot compare {a.t} and {b.t}")
    unit = _common_unit(c, a, b, node, "compare")
    av, bv = _in_unit(c, a, a.t.kind, unit, node), _in_unit(c, b, b.t.kind, unit, node)
    c.at(node)
    r = c.f.ops.cmp(av, bv, predicate=pred)
    nat = c.iconst(NAT)
    either = c.f.ops.cmp(av, nat, predicate="eq") | c.f.ops.cmp(bv, nat, predicate="eq")
    return TypedValue(c.f.select(either, c.f.constant(pred == "ne", T.boolean.ir), r), T.boolean)


def negate(c, a, node):
    """-timedelta (NaT stays NaT)."""
    if a.t.kind != "m":
        raise c.err(node, f"bad operand type for unary -: {a.t}")
    v = c.val(a, node)
    c.at(node)
    return TypedValue(_nat_if_any(c, (v,), c.f.ops.neg(v)), a.t)
