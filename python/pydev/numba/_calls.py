"""Calls in the compiler: calls of device functions, builtins and methods,
and the argument checks the builtins use."""

import ast

from ._typing import (
    CompileTimeValue,
    TypedValue,
    _describe,
    _is_num,
    _tname,
)


class CallsMixin:
    def e_Call(self, n):
        fn = self.expr(n.func)
        args = self.starred_items(n.args)
        kwargs = {k.arg: self.expr(k.value) for k in n.keywords}
        if None in kwargs:
            raise self.err(n, "**kwargs in calls are not supported")
        self.at(n)
        if not isinstance(fn, CompileTimeValue):
            raise self.err(n.func, f"a {fn.t} is not callable")
        obj = fn.obj
        hook = getattr(obj, "_pydev_numba_call", None)
        if hook is not None:
            return hook(self, args, kwargs, n)
        from . import _builtins, _overloads

        impl = _builtins.lookup(obj)
        overloads = _overloads.lookup(obj)
        if overloads is not None:  # @overload / @register_jitable (pydev.numba.extending)
            return overloads.call(self, args, kwargs, n, fallback=impl)
        if impl is not None:
            return impl(self, args, kwargs, n)
        raise self.err(
            n.func,
            # Numba's words for a global (or closure variable) it cannot type
            (f"Untyped global name '{n.func.id}': " if isinstance(n.func, ast.Name) else "")
            + f"{_describe(obj)} cannot be called in pydev.numba device code",
            help="device functions are made with @cuda.jit(device=True)" if callable(obj) else None,
        )

    def num_arg(self, tv, node, what="argument"):
        if isinstance(tv, CompileTimeValue) or not _is_num(tv.t):
            raise self.err(node, f"{what} must be a number, got {_tname(tv)}")
        return tv

    def const_int(self, tv, node, what):
        if isinstance(tv, TypedValue) and tv.v is None and tv.const is not None and isinstance(tv.const, int):
            return tv.const
        if isinstance(tv, CompileTimeValue) and isinstance(tv.obj, int):
            return tv.obj
        raise self.err(
            node,
            f"{what} must be a constant integer (a literal: Numba's RequireLiteralValue), got {_tname(tv)}",
            kind="RequireLiteralValue",
        )
