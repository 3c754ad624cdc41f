"""Functions defined inside device code (a `def` in a kernel or device
function), as Numba's make_function-to-jit-function pass makes them: the
nested function is a device function closed over the compile-time values
of the variables it captures (numbers, tuples of them, functions, types,
other nested functions). It can be called where it is defined, passed to
device functions (a first-class constant: compiled once per such
function) and called with keyword arguments and defaults. Capturing a
variable whose value is only known at run time is an error, as in Numba."""

import ast
import inspect
import types as _pytypes

from . import _jitlib
from ._typing import CompileTimeValue, literal_of


class NestedFunction:
    """A function defined in device code, closed over constants."""

    def __init__(self, fn):
        Dispatcher = _jitlib.dispatcher_class()

        self.fn = fn
        self.__name__ = fn.__name__
        self._pydev_numba_name = f"'{fn.__qualname__}'"
        self._disp = Dispatcher(fn, None, True, {})
        self._params = list(inspect.signature(fn).parameters.values())

    def _pydev_numba_call(self, c, args, kwargs, node):
        args = list(args)
        if kwargs or any(p.default is not p.empty for p in self._params[len(args) :]):
            args = self._bind(c, args, kwargs, node)
        return self._disp._pydev_numba_call(c, args, {}, node)

    def _bind(self, c, args, kwargs, node):
        """Positional arguments for every parameter: keywords by name, then defaults."""
        kwargs = dict(kwargs)
        out = list(args)
        for p in self._params[len(args) :]:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                break
            if p.name in kwargs:
                out.append(kwargs.pop(p.name))
            elif p.default is not p.empty:
                out.append(c.pyobj(p.default, node))
            else:
                raise c.err(node, f"{self._pydev_numba_name} is missing the argument '{p.name}'")
        if kwargs:
            raise c.err(node, f"{self._pydev_numba_name} got unexpected keyword arguments {sorted(kwargs)}")
        return out

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


def _python_value(c, tv, name, fn_name, node):
    """The compile-time value of a captured variable, as a Python object."""

    if isinstance(tv, CompileTimeValue):
        return tv.obj
    lit = literal_of(tv)
    if lit is None:
        raise c.err(
            node,
            f"cannot capture the non-constant value of '{name}' in the function '{fn_name}' defined in device code: "
            "a nested function closes over compile-time constants only (as in Numba)",
        )

    def value(lit):
        return tuple(value(x) for x in lit[2]) if lit[0] == "tuple" else lit[1]

    return value(lit)


def _constant(c, expr, what, node):
    tv = c.expr(expr)
    return _python_value(c, tv, what, what, node)


def define(c, s):
    """The NestedFunction of `def` statement (or lambda expression) `s` in
    the function `c` compiles."""
    lam = isinstance(s, ast.Lambda)
    name = "<lambda>" if lam else s.name
    if not lam and s.decorator_list:
        raise c.err(s, f"a function defined in device code ('{name}') cannot have decorators in pydev.numba")
    if isinstance(s, ast.AsyncFunctionDef):
        raise c.err(s, "async functions are not supported in pydev.numba device code")
    line = c.src.line(s)
    outer = c.py.__code__
    params = [a.arg for a in s.args.args]
    found = [
        k
        for k in outer.co_consts
        if isinstance(k, _pytypes.CodeType)
        and k.co_name == name
        and k.co_firstlineno == line
        and list(k.co_varnames[: k.co_argcount]) == params
    ]
    if len(found) != 1:
        raise c.err(s, f"cannot find the code of the function '{name}' defined here")
    code = found[0]
    defaults = tuple(_constant(c, d, f"the default of {name}", s) for d in s.args.defaults) or None
    kwdefaults = {
        a.arg: _constant(c, d, f"the default of {name}", s) for a, d in zip(s.args.kwonlyargs, s.args.kw_defaults) if d
    }
    cells, key = [], []
    for free in code.co_freevars:
        if free in c.vars:
            value = _python_value(c, c.lookup(free, s), free, name, s)
            cells.append(_pytypes.CellType(value))
        elif free in outer.co_freevars and c.py.__closure__:
            cell = c.py.__closure__[outer.co_freevars.index(free)]
            cells.append(cell)
            value = cell.cell_contents
        else:
            raise c.err(s, f"the function '{name}' captures '{free}', which is not assigned before it is defined")
        key.append(_hashable(value))
    fn = _pytypes.FunctionType(code, c.py.__globals__, name, defaults, tuple(cells) or None)
    fn.__kwdefaults__ = kwdefaults or None
    fn.__qualname__ = f"{c.py.__qualname__}.<locals>.{name}"
    # One per code and captured values for the whole compile: device
    # functions are compiled once per callee object.
    cache = c.mb.__dict__.setdefault("nested", {})
    k = (code, tuple(key), _hashable(defaults), _hashable(tuple(sorted(kwdefaults.items()))))
    hit = cache.get(k)
    if hit is None:
        hit = cache[k] = NestedFunction(fn)
    return CompileTimeValue(hit)


def _hashable(v):
    try:
        hash(v)
        return v
    except TypeError:
        return ("id", id(v))
