"""Subscripts and arrays in the compiler: extents, indexing, slicing into
views, fills, loads and stores of items and record fields."""

import ast
import enum

from .. import ir
from . import _exceptions
from . import types as T
from ._typing import (
    CompileTimeValue,
    TypedValue,
    _describe,
    _tname,
)


class SubscriptsMixin:
    def extent(self, arr, d, node):
        t = arr.t
        if arr.v is None and arr.const is not None:
            return TypedValue(self.iconst(arr.const.shape[d]), T.int64)
        v = self.val(arr, node)
        key = (v.name, d)
        hit = self.extents.get(key)
        if hit is not None:
            return TypedValue(hit, T.int64)
        # parameters' and entry-block arrays' extents: once, in the entry block
        in_entry = v.name.startswith("%arg") or v.name in self.entry_values

        def build():
            return self.f.ops.tuple_extract(
                self.f.ops.array_shape(v, result=ir.tuple_type(*[ir.si64] * t.ndim)), index=d, result=ir.si64
            )

        if in_entry:
            e = self.alloc_in_entry(build)
            self.extents[key] = e
            return TypedValue(e, T.int64)
        return TypedValue(build(), T.int64)

    def e_Subscript(self, n):
        base = self.expr(n.value)
        if isinstance(base, CompileTimeValue):
            obj = base.obj
            if isinstance(obj, (T.Number, T.Boolean)) or isinstance(obj, tuple):
                raise self.err(n, "type expressions are not values in device code")
            key = _field_key(n.slice)
            if isinstance(obj, enum.EnumMeta) and key is not None:  # Color["red"]: a member, as Color.red
                if key not in obj.__members__:
                    raise self.err(n.slice, f"{_describe(obj)} has no member '{key}'")
                return self.pyobj(obj[key], n)
            raise self.err(n, f"{_describe(obj)} cannot be indexed")
        if base.items is not None:
            idx = self.expr(n.slice)
            if isinstance(idx, TypedValue) and idx.v is None and idx.const is not None and idx.t.is_int:
                i = idx.const
                if not -len(base.items) <= i < len(base.items):
                    raise self.err(n.slice, f"tuple index {i} is out of range for {base.t}")
                return base.items[i]
            if isinstance(n.slice, ast.Slice):
                raise self.err(n.slice, "tuple slices are not supported")
            if isinstance(base.t, T.UniTuple) and isinstance(idx, TypedValue) and idx.t.is_int:
                # a dynamic index into a homogeneous tuple: a chain of selects;
                # as Numba-CUDA, -len <= i < 0 counts from the end and another
                # index raises IndexError (the thread returns; debug=True reports it)
                iv = self.val(self.cast(idx, T.int64, n), n)
                count = self.iconst(len(base.items), T.int64.ir)
                iv = self.f.select(iv < self.iconst(0, T.int64.ir), iv + count, iv)
                below = iv < self.iconst(0, T.int64.ir)
                bad = self.f.select(below, below, iv >= count)
                _exceptions.raise_if(self, bad, IndexError, ("tuple index out of range",), n)
                out = self.val(base.items[0], n)
                for k, it in enumerate(base.items[1:], 1):
                    out = self.f.select(iv == k, self.val(it, n), out)
                return TypedValue(out, base.t.items[0])
            raise self.err(n.slice, "a tuple index must be a constant integer")
        if isinstance(base.t, T.NestedArray):
            return self.nested_load(base, n.slice, n)
        if isinstance(base.t, T.Record) and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str):
            return self.load_field(base, n.slice.value, n)  # r["x"] is field x, as in Numba
        if not isinstance(base.t, T.Array):
            raise self.err(n, f"a {base.t} cannot be indexed")
        parts = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
        if (
            any(isinstance(p, ast.Slice) for p in parts)
            or len(parts) < base.t.ndim
            and not self._is_tuple_index(n.slice)
        ):
            return self.view(base, parts, n)
        idx = self.index_values(base, n.slice, n)
        self.at(n)
        return self.load_item(base, idx, n)

    def _is_tuple_index(self, sl):
        if isinstance(sl, (ast.Tuple, ast.Slice)):
            return False
        if isinstance(sl, ast.Name) and sl.id in self.vars:
            return (
                self.vars[sl.id].bound is not None
                and isinstance(self.vars[sl.id].bound, TypedValue)
                and self.vars[sl.id].bound.items is not None
            )
        return isinstance(sl, ast.Call)  # cuda.grid(2) and friends

    def _index(self, arr, d, p, node):
        """A wrapped si64 index into dimension d."""
        if isinstance(p, CompileTimeValue) or not (p.t.is_int or isinstance(p.t, T.Boolean)):
            raise self.err(node, f"array indices are integers, got {_tname(p)}")
        if p.v is None:
            return self.iconst(p.const) if p.const >= 0 else self.val(self.extent(arr, d, node), node) + p.const
        if p.t.signed:
            v = self.val(self.cast(p, T.int64, node), node)
            return self.f.select(v < 0, v + self.val(self.extent(arr, d, node), node), v)
        return self.val(self.cast(p, T.int64, node), node)

    def view(self, arr, parts, node):
        """`a[i]` of an n-d array, `a[lo:hi:step, j]`: views (pydev.array_index / array_slice)."""
        t = arr.t
        if len(parts) > t.ndim:
            raise self.err(node, f"too many indices for a {t.ndim}-d array: {len(parts)}")
        parts = list(parts) + [ast.copy_location(ast.Slice(None, None, None), node)] * (t.ndim - len(parts))
        if not any(isinstance(p, ast.Slice) for p in parts):
            idx = [self._index(arr, d, self.expr(p), p) for d, p in enumerate(parts)]
            self.at(node)
            layout = "C" if t.layout == "C" else "A"
            rt = T.Array(t.dtype, t.ndim - len(idx), layout, t.readonly, t.space)
            return TypedValue(self.f.ops.array_index(self.val(arr, node), *idx, result=rt.ir), rt)
        kinds, starts, stops, steps = [], [], [], []
        contiguous, seen_slice, ndim = t.layout == "C", False, 0
        for d, p in enumerate(parts):
            if not isinstance(p, ast.Slice):
                if seen_slice:
                    contiguous = False
                kinds.append(0)
                starts.append(self._index(arr, d, self.expr(p), p))
                continue
            ndim += 1
            full = p.lower is None and p.upper is None and p.step is None
            if seen_slice and not full:
                contiguous = False
            seen_slice = True
            kinds.append(1)
            if p.step is None:
                step, sign = self.iconst(1), 1
            else:
                sv = self.expr(p.step)
                if isinstance(sv, CompileTimeValue) or not sv.t.is_int:
                    raise self.err(p.step, "a slice step is an integer")
                sign = (1 if sv.const > 0 else -1) if sv.v is None and sv.const is not None else 0
                if sv.v is None and sv.const == 0:
                    raise self.err(p.step, "slice step cannot be zero")
                step = self.val(self.cast(sv, T.int64, p.step), p.step)
                if not (sv.v is None and sv.const == 1):  # only a constant step of 1 keeps the layout
                    contiguous = False
            if (p.lower is None or p.upper is None) and sign == 0:
                raise self.err(p, "a slice with a variable step needs both bounds in pydev.numba")

            def ext():
                return self.val(self.extent(arr, d, node), node)

            if p.lower is None:
                starts.append(self.iconst(0 if sign > 0 else -1))
            else:
                starts.append(self.val(self.cast(self.num_arg(self.expr(p.lower), p.lower), T.int64, p.lower), p.lower))
            if p.upper is None:
                stops.append(ext() if sign > 0 else -(ext() + 1))
            else:
                stops.append(self.val(self.cast(self.num_arg(self.expr(p.upper), p.upper), T.int64, p.upper), p.upper))
            steps.append(step)
        self.at(node)
        rt = T.Array(t.dtype, ndim, "C" if contiguous else "A", t.readonly, t.space)
        return TypedValue(
            self.f.ops.array_slice(self.val(arr, node), starts, stops, steps, kinds=kinds, result=rt.ir), rt
        )

    def index_values(self, arr, sl, node):
        if isinstance(arr, CompileTimeValue) or not isinstance(arr.t, T.Array):
            raise self.err(
                node, f"{_describe(arr.obj) if isinstance(arr, CompileTimeValue) else arr.t} cannot be indexed"
            )
        if isinstance(sl, ast.Slice) or isinstance(sl, ast.Tuple) and any(isinstance(e, ast.Slice) for e in sl.elts):
            raise self.err(sl, "assigning to an array slice is not supported in pydev.numba: assign each element")
        idx = self.expr(sl)
        parts = idx.items if isinstance(idx, TypedValue) and idx.items is not None else [idx]
        t = arr.t
        if len(parts) != t.ndim:
            raise self.err(
                sl,
                f"a {t.ndim}-d array takes {t.ndim} indices, got {len(parts)}",
                help="pydev.numba does not support partial indexing (views) yet",
            )
        out = []
        for d, p in enumerate(parts):
            if isinstance(p, CompileTimeValue) or not (p.t.is_int or isinstance(p.t, T.Boolean)):
                raise self.err(
                    sl, f"array indices are integers, got {p.t if isinstance(p, TypedValue) else _describe(p.obj)}"
                )
            self.at(node)
            if p.v is None:
                if p.const < 0:
                    out.append(self.val(self.extent(arr, d, node), node) + p.const)
                else:
                    out.append(self.iconst(p.const))
                continue
            if p.t.signed:
                v = self.val(self.cast(p, T.int64, node), node)
                if v in self.nonneg:  # a thread position: never negative, no wrap-around
                    out.append(v)
                    continue
                ext = self.val(self.extent(arr, d, node), node)
                out.append(self.f.select(v < self.iconst(0), v + ext, v))
            else:
                out.append(self.val(self.cast(p, T.uint64 if p.t.bits == 64 else T.int64, node), node))
        return out

    def fill(self, view, value, node):
        """`a[lo:hi] = x` / `a[i] = b` on a view: every element gets the scalar,
        or the element of an array of the same shape (no broadcasting)."""
        t = view.t
        if t.readonly or getattr(t, "const", False):
            raise self.err(node, "cannot write to a read-only (const) array")
        src = None
        if isinstance(value, TypedValue) and isinstance(value.t, T.Array):
            if value.t.ndim != t.ndim:
                raise self.err(
                    node,
                    f"cannot assign a {value.t.ndim}-d array to a {t.ndim}-d slice (no broadcasting in pydev.numba)",
                )
            src = value
        else:
            scalar = self.val(self.cast(self.num_arg(value, node, "the value"), t.dtype, node), node)
        self.at(node)
        exts = [self.val(self.extent(view, d, node), node) for d in range(t.ndim)]
        f = self.f
        idx = []

        def nest(d):
            if d == t.ndim:
                v = self.load_item(src, idx, node).v if src is not None else scalar
                if src is not None and src.t.dtype != t.dtype:
                    v = self.val(self.cast(TypedValue(v, src.t.dtype), t.dtype, node), node)
                f.ops.array_store(v, self.val(view, node), *idx)
                return
            with f.for_range(self.iconst(0), exts[d]) as i:
                idx.append(i)
                nest(d + 1)
                idx.pop()

        nest(0)

    def load_item(self, arr, idx, node):
        t = arr.t
        if arr.v is None and arr.const is not None:
            return self.const_load(arr, idx, node)
        if isinstance(t.dtype, T.Record):
            return TypedValue(self.f.ops.array_load(self.val(arr, node), *idx), t.dtype, const=(arr, idx))
        return TypedValue(self.f.ops.array_load(self.val(arr, node), *idx), t.dtype)

    def store_item(self, arr, idx, value, node):
        t = arr.t
        if t.readonly or getattr(t, "const", False):
            raise self.err(node, "cannot write to a read-only (const) array")
        if isinstance(t.dtype, T.Record):
            if not (isinstance(value, TypedValue) and value.t == t.dtype):
                raise self.err(node, f"a {t.dtype} element takes a record of the same type")
        else:
            value = self.cast(value, t.dtype, node)
        self.f.ops.array_store(self.val(value, node), self.val(arr, node), *idx)

    def load_field(self, rec, field, node):
        rt = rec.t
        if field not in rt.fields:
            raise self.err(node, f"the record has no field '{field}' (fields: {', '.join(rt.fields)})")
        ft = rt.fields[field]
        if isinstance(ft, T.NestedArray):  # indexed next: r.h[i] (nested_load / nested_store)
            return TypedValue(None, ft, const=(rec, field))
        v = self.val(rec, node)
        if rec.const is not None:  # an element of an array: read it now (fields may have been written)
            arr, idx = rec.const
            v = self.f.ops.array_load(self.val(arr, node), *idx)
        if getattr(ft, "kind", None) == "c":  # stored as its two parts (types.Record)
            part = (T.float32 if ft.bits == 64 else T.float64).ir
            re, im = (self.f.ops.struct_extract(v, field=f"{field}__{p}", result=part) for p in ("re", "im"))
            return TypedValue(self.f.emit("complex.create", [re, im], [ft.ir]), ft)
        return TypedValue(self.f.ops.struct_extract(v, field=field, result=ft.ir), ft)

    def _nested_index(self, nested, sl, node):
        """The C-order position of `r.h[i, j]` in the sub-array: a constant or a Value."""
        t = nested.t
        parts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        if any(isinstance(p, ast.Slice) for p in parts) or len(parts) != t.ndim:
            raise self.err(
                sl, f"a sub-array field of {t.ndim} dimensions is indexed with {t.ndim} integers in pydev.numba"
            )
        const, lin, stride = 0, None, 1
        for d in reversed(range(t.ndim)):
            iv = self.num_arg(self.expr(parts[d]), parts[d])
            if not iv.t.is_int:
                raise self.err(parts[d], f"an index is an integer, got {iv.t}")
            if iv.v is None and iv.const is not None:
                i = iv.const + (t.shape[d] if iv.const < 0 else 0)
                if not 0 <= i < t.shape[d]:
                    raise self.err(parts[d], f"index {iv.const} is out of bounds for a sub-array axis of {t.shape[d]}")
                const += i * stride
            else:
                v = self.val(self.cast(iv, T.int64, parts[d]), parts[d])
                v = self.f.select(v < 0, v + t.shape[d], v)  # negative indices wrap, as Numba's
                term = v if stride == 1 else v * stride
                lin = term if lin is None else lin + term
            stride *= t.shape[d]
        if lin is None:
            return const
        return lin + const if const else lin

    def _record_value(self, rec, node):
        if rec.const is not None:  # an element of an array: read it now
            arr, idx = rec.const
            return self.f.ops.array_load(self.val(arr, node), *idx)
        return self.val(rec, node)

    def nested_load(self, nested, sl, node):
        rec, field = nested.const
        t = nested.t
        pos = self._nested_index(nested, sl, node)
        self.at(node)
        v = self._record_value(rec, node)

        def elem(k):
            return self.f.ops.struct_extract(v, field=T.NestedArray.element_field(field, k), result=t.dtype.ir)

        if isinstance(pos, int):
            return TypedValue(elem(pos), t.dtype)
        out = elem(0)
        for k in range(1, t.size):
            out = self.f.select(pos == k, elem(k), out)
        return TypedValue(out, t.dtype)

    def nested_store(self, nested, sl, value, node):
        rec, field = nested.const
        t = nested.t
        if rec.const is None:
            raise self.err(node, "only sub-arrays of records in arrays can be assigned (a[i].h[j] = v)")
        arr, idx = rec.const
        pos = self._nested_index(nested, sl, node)
        self.at(node)
        new = self.val(self.cast(value, t.dtype, node), node)
        cur = self.f.ops.array_load(self.val(arr, node), *idx)
        rt = rec.t
        for k in [pos] if isinstance(pos, int) else range(t.size):
            name = T.NestedArray.element_field(field, k)
            v = new
            if not isinstance(pos, int):
                v = self.f.select(pos == k, new, self.f.ops.struct_extract(cur, field=name, result=t.dtype.ir))
            cur = self.f.ops.struct_insert(v, cur, field=name, result=rt.ir)
        self.f.ops.array_store(cur, self.val(arr, node), *idx)

    def _store_nested_whole(self, arr, idx, field, value, node):
        """`r.h = x` for a sub-array field: every element from `x`, an array
        or another record's sub-array of the same shape (as Numba copies)."""
        rt = arr.t.dtype
        t = rt.fields[field]
        vt = getattr(value, "t", None)
        same_nested = isinstance(vt, T.NestedArray) and tuple(vt.shape) == tuple(t.shape)
        if not same_nested and not (isinstance(vt, T.Array) and vt.ndim == t.ndim):
            raise self.err(
                node,
                f"the sub-array field '{field}' ({t}) is assigned element by element (r.{field}[i] = v) or whole "
                f"from an array or a sub-array of {t.ndim} dimensions, got {vt if vt is not None else _describe(value.obj)}",
            )
        self.at(node)
        elems = []
        for k in range(t.size):
            pos, rest = [], k
            for d in reversed(range(t.ndim)):
                pos.insert(0, rest % t.shape[d])
                rest //= t.shape[d]
            if isinstance(vt, T.NestedArray):
                consts = [ast.copy_location(ast.Constant(p), node) for p in pos]
                key = ast.copy_location(ast.Tuple(consts, ast.Load()), node) if t.ndim > 1 else consts[0]
                elems.append(self.nested_load(value, key, node))
            else:
                elems.append(self.load_item(value, [self.iconst(p) for p in pos], node))
        cur = self.f.ops.array_load(self.val(arr, node), *idx)
        for k, e in enumerate(elems):
            v = self.val(self.cast(e, t.dtype, node), node)
            cur = self.f.ops.struct_insert(v, cur, field=T.NestedArray.element_field(field, k), result=rt.ir)
        self.f.ops.array_store(cur, self.val(arr, node), *idx)

    def store_field(self, arr, idx, field, value, node):
        rt = arr.t.dtype
        if field not in rt.fields:
            raise self.err(node, f"the record has no field '{field}' (fields: {', '.join(rt.fields)})")
        if isinstance(rt.fields[field], T.NestedArray):
            self._store_nested_whole(arr, idx, field, value, node)
            return
        cur = self.f.ops.array_load(self.val(arr, node), *idx)
        ft = rt.fields[field]
        v = self.val(self.cast(value, ft, node), node)
        if getattr(ft, "kind", None) == "c":  # stored as its two parts (types.Record)
            part = (T.float32 if ft.bits == 64 else T.float64).ir
            re, im = self.f.emit("complex.re", [v], [part]), self.f.emit("complex.im", [v], [part])
            new = self.f.ops.struct_insert(re, cur, field=f"{field}__re", result=rt.ir)
            new = self.f.ops.struct_insert(im, new, field=f"{field}__im", result=rt.ir)
        else:
            new = self.f.ops.struct_insert(v, cur, field=field, result=rt.ir)
        self.f.ops.array_store(new, self.val(arr, node), *idx)


def _field_key(sl):
    """The field name of `r["x"]`, or None."""
    return sl.value if isinstance(sl, ast.Constant) and isinstance(sl.value, str) else None
