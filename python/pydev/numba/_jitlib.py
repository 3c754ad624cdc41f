"""pydev.numba's own implementations written in Numba syntax: a function
called in device code whose implementation is a Python function compiled
by this frontend as a device function, one per argument types (as Numba
implements much of NumPy and cmath with `overload`/`compile_internal`).

`Impl(obj, factory, name)` is a builtin (compiler, args, kwargs, node) ->
value that asks `factory(*argument_types)` for a Python function (or None:
the call is then a `pydev.CompileError` naming the function and the types);
the modules that use it register it (or a wrapper) in _builtins' table.
Unlike `pydev.numba.extending.overload`, these are pydev.numba's builtins: a
user's `@overload` of the same function still takes precedence."""

from . import _overloads

# The dispatcher class (pydev.numba._cuda's), registered by that module when
# it loads: the compiler's modules, below it, make dispatchers through this.
_DISPATCHER = []


def register_dispatcher(cls):
    _DISPATCHER[:] = [cls]


def dispatcher_class():
    if not _DISPATCHER:
        raise RuntimeError("pydev.numba's dispatcher module has not been imported")
    return _DISPATCHER[0]


class Impl:
    """A function implemented in Numba syntax, compiled per argument types."""

    def __init__(self, obj, factory, name):
        self.obj, self.factory, self.name = obj, factory, name
        self._ov = None

    def __call__(self, c, args, kwargs, node):
        if self._ov is None:
            ov = _overloads._Overloads(self.obj, dispatcher_class())
            ov.name = self.name
            ov.factories.append((self.factory, {}))
            ov.generic.append(False)
            self._ov = ov
        types = tuple(getattr(a, "t", None) for a in args)
        if not kwargs and None not in types and self.factory(*types) is None:
            raise c.err(node, f"{self.name}() of ({', '.join(map(str, types))}) is not supported in pydev.numba")
        return self._ov.call(c, args, kwargs, node)


def device(pyfunc):
    """`pyfunc` as a device function that other implementations call (made
    when a factory runs, after the dispatcher module has loaded)."""
    disp = dispatcher_class()(pyfunc, None, True, {})
    disp._pydev_numba_name = f"'{pyfunc.__qualname__}' (pydev.numba's implementation)"
    return disp
