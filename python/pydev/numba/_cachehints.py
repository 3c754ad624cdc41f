"""numba-cuda's cache-hinted loads and stores: `cuda.ldca/ldcg/ldcs/ldlu/
ldcv(array, i)` and `cuda.stcg/stcs/stwb/stwt(array, i, value)` (PTX's
`ld.global.{ca,cg,cs,lu,cv}` and `st.global.{cg,cs,wb,wt}`), with numba-cuda's
checks: arrays of integers or floats (8 to 64 bits), one integer index per
dimension (a tuple for n-d arrays).

On cuda an access to a global array is numba-cuda's inline PTX
(`ld.global.ca.b32 $0, [$1];` on the element's address, a pydev
`atomic_ref` cast to `!llvm.ptr<1>`), in a `pydev.target(is_device)` branch
that `pydev-specialize-target` keeps; on the host target, and for shared and
local arrays, it is the plain `a[i]` / `a[i] = value`: the cache operator is
a hint about caching only, not about the value. The asm is marked with side
effects so that LLVM keeps its order with other memory accesses."""

from .. import ir
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


# PTX register class per width; 8-bit values travel in 16-bit registers
_REGS = {8: ("h", 16), 16: ("h", 16), 32: ("r", 32), 64: ("l", 64)}


def _hinted(c, arr):
    return c.f.ops.target(desc=ir.target("is_device"), result=ir.i1), arr.t.space in (None, "global")


def _pointer(c, arr, idx, node):
    ref = c.f.ops.atomic_ref(c.val(arr, node), *idx, result=ir.atomic_ref(arr.t.dtype.ir, None))
    return c.f.emit("builtin.unrealized_conversion_cast", [ref], [ir.Type("!llvm.ptr<1>")])


def _asm(c, text, constraints, operands, results):
    attrs = {"asm_string": f'"{text}"', "constraints": f'"{constraints}"', "has_side_effects": "unit"}
    return c.f.emit("llvm.inline_asm", operands, results, attrs)


def _to_bits(c, v, et, reg_bits):
    """An element value as the signless integer of its register."""
    it = ir.Type(f"i{et.bits}")
    v = c.f.emit("llvm.bitcast", [v], [it]) if et.is_float else c.f.cast(v, it)
    return v if reg_bits == et.bits else c.f.emit("arith.extui", [v], [ir.Type(f"i{reg_bits}")])


def _from_bits(c, v, et, reg_bits):
    it = ir.Type(f"i{et.bits}")
    if reg_bits != et.bits:
        v = c.f.emit("arith.trunci", [v], [it])
    return c.f.emit("llvm.bitcast", [v], [et.ir]) if et.is_float else c.f.cast(v, et.ir)


def load(op):
    name = f"ld{op}"

    def impl(c, args, kwargs, node):
        if kwargs or len(args) != 2:
            raise c.err(node, f"cuda.{name}(array, i) takes two arguments")
        arr = args[0]
        idx = _check(c, name, arr, args[1], node)
        c.at(node)
        et = arr.t.dtype
        cond, global_ = _hinted(c, arr)
        if not global_:
            return c.load_item(arr, idx, node)
        reg, bits = _REGS[et.bits]
        b = c.f.if_(cond, results=[et.ir])
        with b:
            r = _asm(
                c,
                f"ld.global.{op}.b{et.bits} $0, [$1];",
                f"={reg},l",
                [_pointer(c, arr, idx, node)],
                [ir.Type(f"i{bits}")],
            )
            b.yield_(_from_bits(c, r, et, bits))
        with b.else_():
            b.yield_(c.val(c.load_item(arr, idx, node), node))
        return TypedValue(b.results[0], et)

    return name, impl


def store(op):
    name = f"st{op}"

    def impl(c, args, kwargs, node):
        if kwargs or len(args) != 3:
            raise c.err(node, f"cuda.{name}(array, i, value) takes three arguments")
        arr = args[0]
        idx = _check(c, name, arr, args[1], node)
        c.at(node)
        et = arr.t.dtype
        value = c.cast(c.num_arg(args[2], node), et, node)
        cond, global_ = _hinted(c, arr)
        if not global_:
            c.store_item(arr, idx, value, node)
            return CompileTimeValue(None)
        reg, bits = _REGS[et.bits]
        b = c.f.if_(cond)
        with b:
            v = _to_bits(c, c.val(value, node), et, bits)
            _asm(
                c, f"st.global.{op}.b{et.bits} [$0], $1;", f"l,{reg},~{{memory}}", [_pointer(c, arr, idx, node), v], []
            )
        with b.else_():
            c.store_item(arr, idx, value, node)
        return CompileTimeValue(None)

    return name, impl
