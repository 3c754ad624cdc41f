"""Statements in the compiler: blocks, expression statements, assertions,
assignments (to names, tuples, items and fields), augmented assignments
and `return`."""

import ast

from ._subscripts import _field_key
from . import types as T
from ._typing import (
    CompileTimeValue,
    TypedValue,
    _describe,
    _is_num,
    unify,
)


class StatementsMixin:
    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        self.at(s)
        m = getattr(self, "s_" + type(s).__name__, None)
        if m is None:
            raise self.err(s, f"{_stmt_name(s)} is not supported in pydev.numba device code")
        m(s)

    def s_Pass(self, s):
        pass

    def s_Expr(self, s):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # docstring
        self.expr(s.value)

    def s_FunctionDef(self, s):
        from ._nested import define

        self._assign_name(s.name, define(self, s), s)

    s_AsyncFunctionDef = s_FunctionDef

    def s_Raise(self, s):
        from . import _exceptions

        _exceptions.s_raise(self, s)

    def s_Assert(self, s):
        from . import _exceptions

        _exceptions.s_assert(self, s)

    def s_Assign(self, s):
        value = self.expr(s.value)
        for tgt in s.targets:
            self.store(tgt, value, s)

    def s_AnnAssign(self, s):
        if s.value is not None:
            self.store(s.target, self.expr(s.value), s)

    def s_AugAssign(self, s):
        if isinstance(s.target, ast.Subscript):
            arr = self.expr(s.target.value)
            if isinstance(arr, TypedValue) and isinstance(arr.t, T.NestedArray):  # r.h[i] += v
                cur = self.nested_load(arr, s.target.slice, s.target)
                self.at(s)
                self.nested_store(arr, s.target.slice, self.binop(s.op, cur, self.expr(s.value), s), s)
                return
            idx = self.index_values(arr, s.target.slice, s.target)
            cur = self.load_item(arr, idx, s.target)
            self.at(s)
            new = self.binop(s.op, cur, self.expr(s.value), s)
            self.store_item(arr, idx, new, s)
            return
        cur = self.expr(
            s.target
            if not isinstance(s.target, ast.Name)
            else ast.copy_location(ast.Name(s.target.id, ast.Load()), s.target)
        )
        self.at(s)
        new = self.binop(s.op, cur, self.expr(s.value), s)
        self.store(s.target, new, s)

    def store(self, tgt, value, node):
        if isinstance(tgt, ast.Name):
            self._assign_name(tgt.id, value, tgt)
        elif isinstance(tgt, (ast.Tuple, ast.List)):
            for e in tgt.elts:
                if isinstance(e, ast.Starred):
                    raise self.err(e, "starred assignment (a, *b = t) is not supported (Numba: no UNPACK_EX)")
            items = self._items(value, tgt) if not isinstance(value, CompileTimeValue) else None
            if items is None or len(items) != len(tgt.elts):
                raise self.err(
                    tgt,
                    f"cannot unpack {value.t if isinstance(value, TypedValue) else _describe(value.obj)} into {len(tgt.elts)} names",
                )
            for t, v in zip(tgt.elts, items):
                self.store(t, v, node)
        elif isinstance(tgt, ast.Subscript):
            arr = self.expr(tgt.value)
            if isinstance(arr, TypedValue) and isinstance(arr.t, T.NestedArray):
                self.nested_store(arr, tgt.slice, value, node)
                return
            if isinstance(arr, TypedValue) and isinstance(arr.t, T.Record) and _field_key(tgt.slice) is not None:
                # r["x"] = v: Numba's string index of a record is its field x
                if getattr(arr, "const", None) is None:
                    raise self.err(tgt, "only fields of records in arrays can be assigned (a[i]['x'] = v)")
                rec_arr, idx = arr.const
                self.at(node)
                self.store_field(rec_arr, idx, _field_key(tgt.slice), value, tgt)
                return
            parts = tgt.slice.elts if isinstance(tgt.slice, ast.Tuple) else [tgt.slice]
            if (
                isinstance(arr, TypedValue)
                and isinstance(arr.t, T.Array)
                and (
                    any(isinstance(p, ast.Slice) for p in parts)
                    or len(parts) < arr.t.ndim
                    and not self._is_tuple_index(tgt.slice)
                )
            ):
                self.fill(self.view(arr, parts, tgt), value, node)
                return
            idx = self.index_values(arr, tgt.slice, tgt)
            self.at(node)
            self.store_item(arr, idx, value, tgt)
        elif isinstance(tgt, ast.Attribute):
            base = self.expr(tgt.value)
            if (
                isinstance(base, TypedValue)
                and isinstance(base.t, T.Record)
                and getattr(base, "const", None) is not None
            ):
                arr, idx = base.const
                self.at(node)
                self.store_field(arr, idx, tgt.attr, value, tgt)
                return
            raise self.err(tgt, "only fields of records in arrays can be assigned (a[i].x = v, or r = a[i]; r.x = v)")
        else:
            raise self.err(tgt, f"cannot assign to {type(tgt).__name__}")

    def s_Return(self, s):
        f = self.f
        if self.kernel:
            if s.value is not None and not (isinstance(s.value, ast.Constant) and s.value.value is None):
                self.expr(s.value)  # typed first, as Numba: an error of the value itself comes first
                raise self.err(s.value, "a kernel cannot return a value")
            f.ret()
        else:
            if s.value is None or isinstance(s.value, ast.Constant) and s.value.value is None:
                tv, t = None, T.void
            else:
                tv = self.expr(s.value)
                if isinstance(tv, CompileTimeValue):
                    raise self.err(s.value, f"cannot return {_describe(tv.obj)}")
                t = tv.t
            vector = getattr(t, "_pydev_numba_vector", False)  # a vector type's values (_cuda._vectors)
            if t != T.void and not (_is_num(t) or vector or isinstance(t, (T.UniTuple, T.Tuple, T.NPDatetime))):
                raise self.err(s.value, f"a device function returns numbers or tuples of numbers, not {t}")
            if self.ret_seen is None:
                self.ret_seen = t
            else:
                u = unify(self.ret_seen, t) if T.void not in (t, self.ret_seen) else (t if t == self.ret_seen else None)
                if u is None:
                    raise self.err(
                        s, f"'{self.py.__name__}' returns a {self.ret_seen} and a {t}: Numba cannot unify them"
                    )
                self.ret_seen = u
            self.at(s)
            if self.ret_type is None or isinstance(self.ret_type, T.NoneType) or t == T.void:
                f.ret()  # the first pass learns the return type; no values
            else:
                f.ret(*self._flatten(self.cast(tv, self.ret_type, s), s))
        f.set_block(f.new_block())
        self.dead = True


def _stmt_name(s):
    return {
        "FunctionDef": "a nested def",
        "ClassDef": "a class definition",
        "With": "a with statement",
        "Try": "try",
        "Raise": "raise",
        "Global": "global",
        "Nonlocal": "nonlocal",
        "Import": "import",
        "ImportFrom": "import",
        "Delete": "del",
        "Lambda": "lambda",
    }.get(type(s).__name__, f"the statement {type(s).__name__}")
