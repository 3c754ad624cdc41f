"""Values in the compiler: a typed value as an SSA value (val), constants
(literals, global arrays), tuples, casts between Numba types, zeros and
truth values."""

import math

import numpy as np

from .. import ir
from . import types as T
from ._typing import (
    CompileTimeValue,
    TypedValue,
    _complex_part,
    _describe,
    _is_num,
)


class ValuesMixin:
    def val(self, tv, node=None):
        """The ir.Value of a typed value (emitting a literal's constant)."""
        if isinstance(tv, CompileTimeValue):
            raise self.err(node, f"{_describe(tv.obj)} is not a value in device code")
        if tv.v is None:
            if tv.items is not None:
                raise self.err(node, f"a tuple ({tv.t}) is not a single value here")
            if isinstance(tv.t, T.Array):
                raise self.err(
                    node, "a global (constant) array can only have its elements, shape and size read in pydev.numba"
                )
            c = tv.const
            t = tv.t
            if isinstance(t, T.Boolean):
                tv.v = self.f.constant(bool(c), ir.i1)
            elif t.is_float:
                tv.v = self.f.constant(float(c), t.ir)
            elif t.is_int:
                tv.v = self.iconst(c, t.ir)
            elif t.kind == "c":
                ft = _complex_part(t).ir
                c = complex(c)
                tv.v = self.f.emit(
                    "complex.constant", [], [t.ir], {"value": f"[{_flit(c.real, ft)}, {_flit(c.imag, ft)}]"}
                )
            else:
                raise self.err(node, f"no constants of type {t}")
        return tv.v

    def lit(self, value, node):
        if isinstance(value, (bool, np.bool_)):
            return TypedValue(None, T.boolean, bool(value))
        if isinstance(value, (int, np.integer)) and not isinstance(value, np.integer):
            if not -(2**63) <= value < 2**64:
                raise self.err(node, f"the integer {value} does not fit in 64 bits")
            return TypedValue(None, T.int64 if value < 2**63 else T.uint64, int(value))
        if isinstance(value, np.integer):
            return TypedValue(None, T.from_dtype(value.dtype), int(value))
        if isinstance(value, (float, np.floating)):
            return TypedValue(None, T.float64 if isinstance(value, float) else T.from_dtype(value.dtype), float(value))
        if isinstance(value, (complex, np.complexfloating)):
            return TypedValue(
                None, T.complex128 if isinstance(value, complex) else T.from_dtype(value.dtype), complex(value)
            )
        if isinstance(value, tuple):
            items = [self.lit(v, node) if not isinstance(v, TypedValue) else v for v in value]
            return self._tuple(items)
        raise self.err(node, f"a constant of type {type(value).__name__} is not supported in device code")

    def global_array(self, arr, node):
        """A global NumPy array is a constant of the kernel, as in Numba
        (frozen at compile time). Its elements are read through a chain of
        selects over the constants (no memory: nothing to keep across
        barriers; LLVM may make it a lookup table)."""
        src = arr
        arr = np.ascontiguousarray(arr)
        if arr.dtype.names is not None or arr.dtype.kind not in "biufc" or arr.size > 1024 or arr.ndim == 0:
            # Records and larger arrays: their data in constant memory, as Numba-CUDA's.
            from ._constmem import const_array

            return const_array(self, src, node)
        t = T.Array(T.from_dtype(arr.dtype), arr.ndim, "C")
        t.const = True
        return TypedValue(None, t, const=arr)

    def const_load(self, arr, idx, node):
        data = arr.const
        et = arr.t.dtype
        lin = None
        stride = 1
        for d in reversed(range(data.ndim)):
            term = idx[d] if stride == 1 else idx[d] * stride
            lin = term if lin is None else lin + term
            stride *= data.shape[d]
        flat = data.reshape(-1).tolist()
        if isinstance(et, T.Boolean):

            def mk(x):
                return self.f.constant(bool(x), ir.i1)

        elif et.kind == "c":
            ft = (T.float32 if et.bits == 64 else T.float64).ir

            def mk(x):
                parts = [self.f.constant(x.real, ft), self.f.constant(x.imag, ft)]
                return self.f.emit("complex.create", parts, [et.ir])

        else:

            def mk(x):
                return self.f.constant(x, et.ir)

        out = mk(flat[0])
        for k in range(1, len(flat)):
            out = self.f.select(lin == k, mk(flat[k]), out)
        return TypedValue(out, et)

    def _tuple(self, items):
        ts = [i.t for i in items]
        t = T.UniTuple(ts[0], len(ts)) if ts and all(x == ts[0] for x in ts) else T.Tuple(ts)
        return TypedValue(None, t, items=list(items))

    def _items(self, tv, node):
        if tv.items is None:
            raise self.err(node, f"a {tv.t} is not a tuple")
        return tv.items

    def cast(self, tv, t, node=None):
        if isinstance(tv, CompileTimeValue):
            raise self.err(node, f"{_describe(tv.obj)} is not a number")
        if tv.t == t:
            return tv
        if isinstance(t, (T.UniTuple, T.Tuple)):
            items = self._items(tv, node)
            if len(items) != len(t.items):
                raise self.err(node, f"cannot convert {tv.t} to {t}")
            return TypedValue(None, t, items=[self.cast(i, it, node) for i, it in zip(items, t.items)])
        if isinstance(tv.t, T.NPDatetime) or isinstance(t, T.NPDatetime):
            from . import _datetime

            return _datetime.cast(self, tv, t, node)
        if not (_is_num(tv.t) and _is_num(t)):
            raise self.err(node, f"cannot convert {tv.t} to {t}")
        if isinstance(tv.t, T.LowFloat) or isinstance(t, T.LowFloat):
            from . import _lowp

            return _lowp.cast(self, tv, t, node)
        if tv.v is None and tv.const is not None and (t.kind == "c" or isinstance(tv.const, complex)):
            if t.kind == "c":
                return TypedValue(None, t, complex(tv.const))
            raise self.err(node, f"cannot convert a complex number to {t}")
        if tv.v is None and tv.const is not None:
            c = tv.const
            if isinstance(t, T.Boolean):
                return TypedValue(None, t, bool(c))
            if t.is_int:
                if isinstance(c, float) and not math.isfinite(c):
                    pass
                else:
                    v = int(c)
                    bits = t.bits
                    v &= (1 << bits) - 1
                    if t.signed and v >= 1 << (bits - 1):
                        v -= 1 << bits
                    return TypedValue(None, t, v)
            elif t.is_float:
                return TypedValue(None, t, float(t.dtype.type(c)))
        v = self.val(tv, node)
        if tv.t.kind == "c" and isinstance(t, T.Boolean):
            return TypedValue(self.f.ops.cmp(v, self._zero(tv.t), predicate="ne"), t)
        if tv.t.kind == "c" and t.kind != "c":
            raise self.err(node, f"cannot convert {tv.t} to {t} (take .real)")
        if tv.t.kind == "c" and t.kind == "c":
            ft = _complex_part(t).ir
            re = self.f.cast(self.f.emit("complex.re", [v], [_complex_part(tv.t).ir]), ft)
            im = self.f.cast(self.f.emit("complex.im", [v], [_complex_part(tv.t).ir]), ft)
            return TypedValue(self.f.emit("complex.create", [re, im], [t.ir]), t)
        if isinstance(t, T.Boolean):
            return TypedValue(self.f.ops.cmp(v, self._zero(tv.t), predicate="ne"), t)
        r = self.f.cast(v, t.ir)
        if v in self.nonneg and t.is_int and tv.t.is_int and t.bits >= tv.t.bits:
            self.nonneg.add(r)  # a widened non-negative integer stays one
        return TypedValue(r, t)

    def _zero(self, t):
        return self._zero_val(t.ir)

    def truth(self, tv, node):
        if isinstance(tv, CompileTimeValue):
            return TypedValue(None, T.boolean, bool(tv.obj))
        if tv.items is not None:
            return TypedValue(None, T.boolean, len(tv.items) > 0)
        if isinstance(tv.t, T.Array):
            return TypedValue(None, T.boolean, True)
        return self.cast(tv, T.boolean, node)

    def _zero_val(self, irt):
        if irt.text in ("f8E4M3FN", "f8E5M2"):  # pydev.ir has no float8 literals: +0.0 is the bits 0
            return self.f.emit("arith.bitcast", [self.f.constant(0, ir.Type("i8"))], [irt])
        if irt.kind == "vector":  # a vector of zero lanes
            lane = self._zero_val(irt.element)
            return self.f.ops.vector_create(*[lane] * irt.params["lanes"], result=irt)
        if irt.kind == "complex":
            ft = irt.element
            return self.f.emit("complex.constant", [], [irt], {"value": f"[{_flit(0.0, ft)}, {_flit(0.0, ft)}]"})
        return self.f.constant(0.0 if irt.is_float else 0, irt) if irt.text != "i1" else self.f.constant(False, ir.i1)

    def iconst(self, value, irt=ir.si64):
        """An integer constant, made once in the entry block."""
        key = (int(value), irt.text)
        hit = self.consts_cache.get(key)
        if hit is None:
            hit = self.consts_cache[key] = self.alloc_in_entry(lambda: self.f.constant(int(value), irt))
        return hit


def _flit(x, ft):
    import struct

    if ft.text == "f64":
        return f"0x{struct.unpack('<Q', struct.pack('<d', x))[0]:016X} : f64"
    return f"0x{int(np.float32(x).view(np.uint32)):08X} : f32"
