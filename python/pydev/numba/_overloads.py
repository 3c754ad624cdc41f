"""The registry of pydev.numba.extending's overloads, and how a call of an
overloaded function in device code picks and compiles its implementation
(used by _calls; the public API is pydev.numba.extending)."""

import inspect
import threading

import pydev as _pydev

from . import types as T
from ._typing import CompileTimeValue, _describe, _is_num

# the overloaded Python object -> its _Overloads
_REGISTRY = {}
_LOCK = threading.Lock()


class _Overloads:
    """The `@overload` factories of one Python function, and the device
    function each chose per argument types."""

    def __init__(self, py_func, dispatcher_class):
        self.py_func = py_func
        self.Dispatcher = dispatcher_class  # cuda.jit's (given by pydev.numba.extending: no import circle)
        self.name = getattr(py_func, "__qualname__", getattr(py_func, "__name__", repr(py_func)))
        self.factories = []  # (factory, jit options), the CUDA target's first
        self.generic = []  # whether each factory is target="generic"
        self.chosen = {}  # (factory index, argument types) -> Dispatcher, or None where it declined

    def _positional(self, c, args, kwargs, node):
        """Keyword arguments in the positions of the Python function's parameters."""
        if not kwargs:
            return list(args)
        try:
            params = list(inspect.signature(self.py_func).parameters.values())
        except (TypeError, ValueError):
            raise c.err(node, f"'{self.name}' takes positional arguments in device code") from None
        out = list(args)
        kwargs = dict(kwargs)
        for p in params[len(args) :]:
            if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or p.name not in kwargs:
                break
            out.append(kwargs.pop(p.name))
        if kwargs:
            raise c.err(
                node,
                f"'{self.name}' in device code: cannot pass {', '.join(map(repr, kwargs))} by keyword here "
                "(keywords are taken in order of the parameters, with none skipped)",
            )
        return out

    def _names_all(self, kwargs):
        try:
            names = inspect.signature(self.py_func).parameters
        except (TypeError, ValueError):
            return False
        return all(k in names for k in kwargs)

    def _factories_take(self, nargs, kwargs):
        """Whether a factory's parameters take these keywords (else the
        keywords are an error of the call, reported by _positional)."""
        for factory, _ in self.factories:
            try:
                inspect.signature(factory).bind(*range(nargs), **kwargs)
                return True
            except (TypeError, ValueError):
                continue
        return False

    def _call_keywords(self, c, args, kwargs, node):
        """Numba's keyword arguments of an overload: the factory gets them by
        keyword (`factory(*types, **kwtypes)`), and the call of its
        implementation is folded against the implementation's parameters,
        a parameter left out taking its default value."""
        types = tuple(_type_of(a) for a in args)
        kwtypes = tuple((k, _type_of(v)) for k, v in kwargs.items())
        for i, (factory, options) in enumerate(list(self.factories)):
            disp = self._choose(i, factory, options, types, c, node, kwtypes)
            if disp is not None:
                return disp._pydev_numba_call(c, self._fold(c, disp.py_func, args, kwargs, node), {}, node)
        raise c.err(
            node,
            f"no implementation of '{self.name}' for argument types ({', '.join(map(str, types))}) and keywords "
            f"({', '.join(f'{k}={t}' for k, t in kwtypes)}): its @overloads declined (returned None)",
        )

    def _fold(self, c, impl, args, kwargs, node):
        """`args` and `kwargs` as the positional arguments of `impl`, the
        defaults of the parameters before the last one given filled in."""
        try:
            bound = inspect.signature(impl).bind(*args, **kwargs)
        except TypeError as e:
            raise c.err(node, f"'{self.name}' in device code: {e}") from None
        params = list(inspect.signature(impl).parameters.values())
        given = [i for i, p in enumerate(params) if p.name in bound.arguments]
        out = []
        for p in params[: (given[-1] + 1) if given else 0]:
            if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                raise c.err(node, f"'{self.name}' in device code: parameter '{p.name}' is not positional")
            if p.name in bound.arguments:
                out.append(bound.arguments[p.name])
            elif isinstance(p.default, (bool, int, float, complex, tuple)):
                out.append(c.lit(p.default, node))
            else:
                out.append(CompileTimeValue(p.default))
        return out

    def _choose(self, i, factory, options, types, c, node, kwtypes=()):
        key = (i, types, kwtypes)
        if key in self.chosen:
            return self.chosen[key]
        try:
            impl = factory(*types, **dict(kwtypes))
        except Exception as e:  # the factory's own error, at the call it typed
            raise c.err(
                node,
                f"@overload '{getattr(factory, '__qualname__', factory)}' of '{self.name}' raised "
                f"{type(e).__name__}: {e} for argument types ({', '.join(map(str, types))})",
            ) from None
        disp = None
        if impl is not None:
            if isinstance(impl, self.Dispatcher):
                if not impl.device:
                    raise c.err(
                        node, f"@overload of '{self.name}' returned the kernel '{impl.__name__}', not a function"
                    )
                disp = impl
            elif inspect.isfunction(impl):
                disp = self.Dispatcher(impl, None, True, options)
                disp._pydev_numba_name = f"'{impl.__qualname__}' (the @overload of '{self.name}')"
            else:
                raise c.err(
                    node,
                    f"@overload '{getattr(factory, '__qualname__', factory)}' of '{self.name}' returned "
                    f"{type(impl).__name__} {impl!r}: an implementation is a Python function (or None to decline)",
                )
        with _LOCK:
            return self.chosen.setdefault(key, disp)

    def call(self, c, args, kwargs, node, fallback=None):
        if kwargs and not self._names_all(kwargs) and self._factories_take(len(args), kwargs):
            # Keywords the Python function does not name (a stub `def f():
            # pass`) are the overload's (Numba calls the factory with them).
            return self._call_keywords(c, list(args), dict(kwargs), node)
        args = self._positional(c, args, kwargs, node)
        # Functions, dispatchers and types are first-class constants (as a
        # device function takes them): the factory sees a types.Constant.
        types = tuple(_type_of(a) for a in args)
        for i, (factory, options) in enumerate(list(self.factories)):
            disp = self._choose(i, factory, options, types, c, node)
            if disp is not None:
                return disp._pydev_numba_call(c, args, {}, node)
        if fallback is not None:  # pydev.numba's own implementation of a builtin
            return fallback(c, args, {}, node)
        raise c.err(
            node,
            f"no implementation of '{self.name}' for argument types ({', '.join(map(str, types))}): "
            f"its {len(self.factories)} @overload{'s' if len(self.factories) != 1 else ''} "
            f"({', '.join(getattr(f, '__qualname__', repr(f)) for f, _ in self.factories)}) declined (returned None)",
        )


def _type_of(a):
    return T.Constant(a.obj) if isinstance(a, CompileTimeValue) else a.t


def lookup(obj):
    """The _Overloads of a Python object called in device code, or None."""
    try:
        return _REGISTRY.get(obj)
    except TypeError:  # unhashable
        return None


def register(func, factory, options, dispatcher_class, generic=False):
    """Adds an @overload factory of `func`. As in Numba, the factories for
    the CUDA target are asked before the generic ones (target="generic"),
    each group in the order registered."""
    with _LOCK:
        ov = _REGISTRY.get(func)
        if ov is None:
            ov = _REGISTRY[func] = _Overloads(func, dispatcher_class)
        ov.factories.append((factory, options))
        ov.generic.append(generic)
        # The chosen implementations are keyed by the factory's index: a new
        # factory reorders them, so the choices start again.
        order = sorted(range(len(ov.factories)), key=lambda i: ov.generic[i])
        ov.factories = [ov.factories[i] for i in order]
        ov.generic = [ov.generic[i] for i in order]
        ov.chosen = {}


class Intrinsic:
    """`@intrinsic` (pydev.numba.extending): a typing-time function
    `f(typingctx, *arg_types)` that returns `(signature, codegen)` or None;
    `codegen(context, builder, signature, args)` builds the call's IR with
    `builder`, the `pydev.ir.Function` being compiled, from `args` (the
    arguments as `pydev.ir.Value`s, converted to the signature's types) and
    returns the result's Value (None for void)."""

    def __init__(self, factory, options):
        self.factory, self.options = factory, options
        self.__name__ = getattr(factory, "__name__", "intrinsic")
        self.__qualname__ = getattr(factory, "__qualname__", self.__name__)
        self.__doc__ = factory.__doc__
        self.__wrapped__ = factory
        self._pydev_numba_name = f"intrinsic '{self.__qualname__}'"
        self.chosen = {}

    def __repr__(self):
        return f"<pydev.numba intrinsic {self.__qualname__}>"

    def __call__(self, *args, **kwargs):
        raise _pydev.DeviceOnlyError(f"intrinsic '{self.__qualname__}' can only be called in device code")

    def _typed(self, c, types, node):
        if types not in self.chosen:
            try:
                res = self.factory(None, *types)
            except Exception as e:
                raise c.err(
                    node, f"intrinsic '{self.__qualname__}' raised {type(e).__name__}: {e} for argument types {types}"
                ) from None
            if res is not None:
                ok = isinstance(res, tuple) and len(res) == 2 and isinstance(res[0], T.Signature) and callable(res[1])
                if not ok:
                    raise c.err(
                        node,
                        f"intrinsic '{self.__qualname__}' returned {res!r}: an intrinsic returns "
                        "(signature, codegen), e.g. (types.int64(x), codegen), or None to decline",
                    )
                if len(res[0].args) != len(types):
                    raise c.err(
                        node,
                        f"intrinsic '{self.__qualname__}': its signature {res[0]} takes {len(res[0].args)} arguments, "
                        f"the call passes {len(types)}",
                    )
            with _LOCK:
                self.chosen.setdefault(types, res)
        return self.chosen[types]

    def _pydev_numba_call(self, c, args, kwargs, node):
        if kwargs:
            raise c.err(node, f"intrinsic '{self.__qualname__}' takes positional arguments")
        for a in args:
            if isinstance(a, CompileTimeValue):
                raise c.err(node, f"{_describe(a.obj)} cannot be passed to intrinsic '{self.__qualname__}'")
        types = tuple(a.t for a in args)
        res = self._typed(c, types, node)
        if res is None:
            raise c.err(
                node,
                f"intrinsic '{self.__qualname__}' has no implementation for argument types "
                f"({', '.join(map(str, types))}) (it returned None)",
            )
        sig, codegen = res
        args = [c.cast(a, t, node) if _is_num(t) else a for a, t in zip(args, sig.args)]
        vals = []
        for a in args:
            flat = c._flatten(a, node)
            vals.append(flat[0] if len(flat) == 1 else tuple(flat))
        c.at(node)
        try:
            r = codegen(None, c.f, sig, vals)
        except Exception as e:
            raise c.err(
                node, f"the codegen of intrinsic '{self.__qualname__}' raised {type(e).__name__}: {e}"
            ) from None
        rt = sig.return_type
        if rt is None or isinstance(rt, T.NoneType):
            return CompileTimeValue(None)
        out = list(r) if isinstance(r, (tuple, list)) else [r]
        want = c._flat_types(rt)
        got = [getattr(v, "type", None) for v in out]
        if [str(t) for t in got] != [str(t) for t in want]:
            raise c.err(
                node,
                f"the codegen of intrinsic '{self.__qualname__}' returned {r!r}: its signature {sig} wants "
                f"pydev.ir values of types ({', '.join(map(str, want))})",
            )
        return c._unflatten(rt, out)
