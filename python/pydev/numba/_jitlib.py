"""pydev.numba's own implementations written in Numba syntax: a function
called in device code whose implementation is a Python function compiled
by this frontend as a device function, one per argument types (as Numba
implements much of NumPy and cmath with `overload`/`compile_internal`).

`implement(obj, factory)` makes calls of `obj` in device code ask
`factory(*argument_types)` for a Python function (or None: the call is then
a `pydev.CompileError` naming `obj` and the types). Unlike
`pydev.numba.extending.overload`, these are pydev.numba's builtins: a user's
`@overload` of the same function still takes precedence."""

from . import _builtins, _overloads


class _Impl:
    """The builtin-table entry of one function implemented in Numba syntax."""

    def __init__(self, obj, factory, name):
        self.obj, self.factory, self.name = obj, factory, name
        self._ov = None

    def __call__(self, c, args, kwargs, node):
        if self._ov is None:
            from ._cuda import Dispatcher  # the dispatcher module imports _builtins: no import circle at load

            ov = _overloads._Overloads(self.obj, Dispatcher)
            ov.name = self.name
            ov.factories.append((self.factory, {}))
            ov.generic.append(False)
            self._ov = ov
        return self._ov.call(c, args, kwargs, node)


def display_name(obj):
    """`np.sum`, `cmath.acos`: how errors name a function."""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", repr(obj))
    mod = getattr(obj, "__module__", None) or ""
    if mod in ("math", "cmath") or mod.startswith("numpy"):
        name = f"{'np' if mod.startswith('numpy') else mod}.{name}"
    return name


def implement(obj, factory, name=None):
    """Registers `factory` as the device implementation of `obj`; returns
    the table entry (a builtin: (compiler, args, kwargs, node) -> value)."""
    impl = _Impl(obj, factory, name or display_name(obj))
    _builtins.register(obj)(impl)
    return impl


def device(pyfunc):
    """`pyfunc` as a device function that other implementations call (made
    when a factory runs, after the dispatcher module has loaded)."""
    from ._cuda import Dispatcher

    disp = Dispatcher(pyfunc, None, True, {})
    disp._pydev_numba_name = f"'{pyfunc.__qualname__}' (pydev.numba's implementation)"
    return disp
