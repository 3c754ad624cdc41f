"""Variables in the compiler: locals as SSA values (Var), their typing by
unification of what they are assigned (Retype when a type widens), and
the lookup of names (locals, globals, Python objects)."""

import builtins
import warnings

import numpy as np

from . import types as T
from ._typing import (
    CompileTimeValue,
    TypedValue,
    _is_num,
    unify,
)


def _is_const(tv):
    """A number or a tuple of numbers known while compiling."""
    if not isinstance(tv, TypedValue) or tv.v is not None:
        return False
    if tv.items is not None:
        return all(_is_const(i) for i in tv.items)
    return tv.const is not None and not isinstance(tv.t, (T.Array, T.Record, T.NestedArray))


def _fresh(tv):
    """A copy of a constant (val() caches its ir.Value in the copy, in the block that uses it)."""
    if tv.items is not None:
        return TypedValue(None, tv.t, items=[_fresh(i) for i in tv.items])
    return TypedValue(None, tv.t, tv.const)


class Unjoined:
    """The binding, after a join, of a variable whose paths into it hold
    arrays of two `types` (the lowering joins one array type), or different
    records (`types` None): reading it is an error."""

    __slots__ = ("types",)

    def __init__(self, types):
        self.types = types


class Var:
    __slots__ = ("t", "slots", "bound")

    def __init__(self, t, slots=None, bound=None):
        self.t, self.slots, self.bound = t, slots, bound


class Retype(Exception):
    """A variable's type widened: compile the function again."""


class VariablesMixin:
    def _assign_name(self, name, tv, node):
        if isinstance(tv, CompileTimeValue):
            self.vars[name] = Var(None, bound=tv)
            self.var_types.setdefault(name, "ct")
            return
        t = tv.t
        if isinstance(t, (T.Array, T.Record)) and tv.items is None:
            old = self.vars.get(name)
            # on every path (no open branch or loop) another record type is a
            # new version of the name; another array type is one anywhere, as
            # Numba's SSA makes (the joins it reaches check that paths agree)
            if isinstance(t, T.Record) and old is not None and old.t not in (None, t) and (self.loops or self.branches):
                raise self.err(
                    node, f"variable '{name}' holds a {old.t} and a {t}: pydev.numba needs one record type per variable"
                )
            self.vars[name] = Var(t, bound=tv)
            self.var_types.setdefault(name, t)
            return
        known = self.var_types.get(name)
        if name in self._single_assigned() and _is_const(tv):
            # assigned once, a constant: it stays one (Numba's literal
            # typing), so it can give a shape (TPB = 32; cuda.shared.array(TPB, ...))
            want = known if known is not None else t
            if known is None:
                self.var_types[name] = t
            elif want != t:
                want = unify(known, t)
                if want is None or want != known:
                    self.var_types[name] = want if want is not None else t
                    raise Retype()
            self.vars[name] = Var(want, bound=self.cast(tv, want, node))
            return
        if known is None:
            want = self.var_types[name] = t
        else:
            want = unify(known, t)
            if want is None and not self.loops and not self.branches:
                # On every path (no open branch or loop to merge it at): a
                # new version of the name, as Numba's SSA makes (a parameter
                # rebound to another type, `b = b[0]`).
                want = self.var_types[name] = t
            elif want is None:
                raise self.err(
                    node, f"variable '{name}' is assigned a {t} after a {known}: Numba cannot unify these types"
                )
            elif want != known:
                self.var_types[name] = want
                raise Retype()
        self.vars[name] = Var(want, bound=self._materialize(self.cast(tv, want, node), node))

    def _materialize(self, tv, node):
        """A value with every leaf an ir.Value (so it can be passed to blocks)."""
        if tv.items is not None:
            return TypedValue(None, tv.t, items=[self._materialize(i, node) for i in tv.items])
        self.val(tv, node)
        return TypedValue(tv.v, tv.t)

    def _leaf_types(self, t):
        if isinstance(t, (T.UniTuple, T.Tuple)):
            out = []
            for i in t.items:
                out += self._leaf_types(i)
            return out
        return [t]

    def _load_var(self, name, node):
        var = self.vars[name]
        b = var.bound
        if isinstance(b, Unjoined) and b.types is None:
            raise self.err(
                node,
                f"variable '{name}' holds different records on the paths that join before this: pydev.numba "
                "cannot join records (index the array after the join)",
            )
        if isinstance(b, Unjoined):
            raise self.err(
                node,
                f"variable '{name}' holds a {b.types[0]} on one path into the join before this and a "
                f"{b.types[1]} on another: pydev.numba needs one array type per variable",
            )
        if b is None:  # known, but not assigned on this path
            leaves = self._leaf_types(var.t) if var.t is not None else [None]
            if not all(_is_num(t) for t in leaves):
                raise self.err(node, f"variable '{name}' is used before it is assigned on this path")
            # Numba's SSA gives such a read an undefined value (zero-initialised):
            # numbers and tuples of numbers read zero, as they do after a merge.
            from .core import config, errors

            if config.ALWAYS_WARN_UNINIT_VAR:
                warnings.warn_explicit(
                    errors.NumbaWarning(f"Detected uninitialized variable {name}"),
                    errors.NumbaWarning,
                    self.src.file,
                    self.src.line(node),
                )
            return self._unflatten(var.t, [self._zero_val(t.ir) for t in leaves])
        return _fresh(b) if isinstance(b, TypedValue) and _is_const(b) else b

    def _single_assigned(self):
        """The local names the function assigns exactly once (not as a loop
        target, an augmented assignment or a parameter, except a parameter
        given a literal that the body does not assign)."""
        got = getattr(self, "_single", None)
        if got is None:
            import ast

            counts = {}
            fn = self.src.node
            for a, t in zip(fn.args.args, list(self.argtypes) + [None] * len(fn.args.args)):
                # A parameter given a literal (T.Constant) is a constant unless the body assigns it.
                counts[a.arg] = 1 if isinstance(t, T.Constant) and t.literal is not None else 2
            for n in ast.walk(fn):
                if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                    counts[n.id] = counts.get(n.id, 0) + 1
                elif isinstance(n, (ast.For, ast.AugAssign, ast.AnnAssign)):
                    for m in ast.walk(n.target):
                        if isinstance(m, ast.Name):
                            counts[m.id] = 2
                elif isinstance(n, ast.NamedExpr):
                    counts[n.target.id] = 2
            got = self._single = {k for k, v in counts.items() if v == 1}
        return got

    def lookup(self, name, node):
        if name in self.vars:
            return self._load_var(name, node)
        if name in (".range", ".len", ".min", ".max"):  # the builtins in lowered loops (_control_flow)
            return CompileTimeValue(getattr(builtins, name[1:]))
        local_names = self.disp.local_names()
        if name in local_names:
            if self.need_retype and name in self.var_types:
                raise Retype()  # first assigned in a branch or loop: its type is known now
            raise self.err(node, f"variable '{name}' is used before it is assigned")
        code = self.py.__code__
        if name in code.co_freevars and self.py.__closure__:
            try:
                return self.pyobj(self.py.__closure__[code.co_freevars.index(name)].cell_contents, node)
            except ValueError:
                raise self.err(node, f"the closure variable '{name}' is not set") from None
        g = self.py.__globals__
        if name in g:
            return self.pyobj(g[name], node)
        if hasattr(builtins, name):
            return CompileTimeValue(getattr(builtins, name))
        raise self.err(node, f"name '{name}' is not defined")

    def pyobj(self, obj, node):
        """A global or closure value: numbers are compile-time constants as in Numba."""
        if isinstance(obj, (bool, int, float, np.number, np.bool_)):
            return self.lit(obj, node)
        if isinstance(obj, tuple) and all(isinstance(o, (bool, int, float, np.number)) for o in obj):
            return self.lit(obj, node)
        if isinstance(obj, np.ndarray):
            return self.global_array(obj, node)
        if _is_device_array(obj):
            return self.captured_array(obj, node)
        if isinstance(obj, tuple) and any(isinstance(o, np.ndarray) for o in obj):
            # a tuple holding arrays (`for a in literal_unroll(arrays)`): a tuple value of constant arrays
            items = [self.pyobj(o, node) for o in obj]
            if not any(isinstance(i, CompileTimeValue) for i in items):
                return self._tuple(items)
        make = getattr(obj, "_pydev_numba_value", None)
        if make is not None and not isinstance(obj, type):
            return make(self, node)
        return CompileTimeValue(obj)

    def captured_array(self, obj, node):
        """A device array read from a global or closure variable (Numba-CUDA
        captures such arrays by reference): a hidden trailing parameter of
        this function, which the launch (or the calling function) passes.
        The first read adds it and compiles the function again with it."""
        hit = self.capture_vals.get(id(obj))
        if hit is not None:
            return hit
        if not any(a is obj for a in self.captures):
            self.captures.append(obj)
        raise Retype()


def _is_device_array(obj):
    """pydev's device arrays, and CUDA Array Interface objects (CuPy, Numba's, ...)."""
    import pydev

    return isinstance(obj, pydev.DeviceArray) or (
        hasattr(obj, "__cuda_array_interface__") and not isinstance(obj, (np.ndarray, type))
    )
