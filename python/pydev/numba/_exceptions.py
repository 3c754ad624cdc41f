"""Exceptions raised in device code, as Numba-CUDA raises them.

`raise E`, `raise E(constant args)` (a builtin or user exception class) and,
with `debug=True`, the Python error model's own exceptions (ZeroDivisionError
of a division by zero, IndexError of a tuple index out of range): the raising
thread returns (its callers too, `after_call`). With `debug=True` the first
exception a launch raised reaches the host: `raise_here` adds it to the
module's table (class, arguments, where) and calls `__pydev_raise(id)`
(`pydev_dialect::abi::RAISE`), whose failure record (the host runtime's
`pydev_rt_error`, the cuda error buffer) names the id and the thread; the
launch then raises `host_exception` of the record.
Without `debug=True` Numba-CUDA ignores them: the thread returns (from a
device function: `__pydev_raise(-1)`, not reported, so that its callers
return too), nothing is reported.
"""

import ast
import os

from .. import _facts, ir
from . import types as T
from ._typing import CompileTimeValue, TypedValue


def s_raise(c, s):
    """The statement `raise ...` in device code."""
    if s.exc is None:
        raise c.err(s, "a bare raise (re-raising) is not supported in device code (there is no exception to re-raise)")
    if s.cause is not None:
        raise c.err(s, "raise ... from ... is not supported in device code")
    node, args = s.exc, ()
    if isinstance(node, ast.Call):
        if node.keywords:
            raise c.err(node, "an exception raised in device code takes positional arguments only")
        args = tuple(_constant(c, a) for a in node.args)
        node = node.func
    cls = c.expr(node)
    cls = cls.obj if isinstance(cls, CompileTimeValue) else None
    if isinstance(cls, BaseException) and not args:  # raise ValueError("x") given as an instance global
        cls, args = type(cls), cls.args
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        raise c.err(s.exc, "device code can raise exception classes and their instances with constant arguments")
    c.at(s)
    raise_here(c, cls, args, s)


def s_assert(c, s):
    """The statement `assert test[, msg]`: Numba-CUDA checks it only with
    `debug=True` and `opt=False` (an AssertionError of the constant `msg`,
    raised as `raise` raises); otherwise neither is evaluated, as Python
    under -O."""
    if not (c.mb.options.get("debug") and c.mb.options.get("opt") is False):
        return
    args = () if s.msg is None else (_constant(c, s.msg),)
    cond = c.truth(c.expr(s.test), s.test)
    c.at(s)
    if cond.v is None:  # a constant test: fails always or never
        if not cond.const:
            raise_here(c, AssertionError, args, s)
        return
    raise_if(c, c.f.ops.not_(cond.v, result=ir.i1), AssertionError, args, s, located=True)


def raise_here(c, cls, args, node, located=True):
    """Raises `cls(*args)` at `node`: recorded with `debug=True`, then the
    thread returns (from a device function: its callers return too,
    `after_call`)."""
    f = c.f
    if c.mb.options.get("debug"):
        table = _table(c.mb)
        where = (c.py.__name__, os.path.abspath(c.src.file), c.src.line(node)) if located else None
        table.append((cls, tuple(args), where))
        f.call(_function(c.mb, _facts.RAISE_FUNCTION, ()), c.f.constant(len(table) - 1, ir.si32))
        _raising(c.mb).add(c.name)
    elif not c.kernel:
        # Not reported (id -1), but its callers return too, as Numba-CUDA's
        # pass the status on without debug=True as well.
        f.call(_function(c.mb, _facts.RAISE_FUNCTION, ()), c.f.constant(-1, ir.si32))
        _raising(c.mb).add(c.name)
    _leave(c)


def after_call(c, callee):
    """After a call of device function `callee` that may raise:
    the caller returns too when its thread raised in it, as Numba-CUDA's
    callers pass the status on (on cuda the raising thread has already
    ended; `__pydev_raised` is false there)."""
    if callee not in _raising(c.mb):
        return
    f = c.f
    raised = f.call(_function(c.mb, _facts.RAISED_FUNCTION, (ir.i1,)))
    then, after = f.new_block(), f.new_block()
    f.cond_br(raised, then, after)
    f.set_block(then)
    dead = c.dead
    _leave(c)
    f.br(after)
    f.set_block(after)
    c.dead = dead
    _raising(c.mb).add(c.name)


def _leave(c):
    """Returns from the function being compiled (a device function returns
    zeros: its caller returns too, `after_call`)."""
    f = c.f
    if c.kernel or c.ret_type is None or isinstance(c.ret_type, T.NoneType):
        f.ret()
    else:
        f.ret(*[c._zero_val(t) for t in c._flat_types(c.ret_type)])
    f.set_block(f.new_block())
    c.dead = True


def raise_if(c, cond, cls, args, node, located=False):
    """`if cond: raise cls(*args)` (the Python error model's checks, debug=True;
    most without a source location, as Numba-CUDA's)."""
    f = c.f
    then, after = f.new_block(), f.new_block()
    f.cond_br(cond, then, after)
    f.set_block(then)
    dead = c.dead
    raise_here(c, cls, args, node, located)
    f.br(after)
    f.set_block(after)
    c.dead = dead


# Numba-CUDA's messages of a zero divisor (integers; floats), and whether
# it names the source location (its float floordiv and mod do).
_ZERO_DIVISION = {
    "truediv": ("division by zero", "division by zero", False),
    "floordiv": ("integer division by zero", "division by zero", True),
    "mod": ("integer modulo by zero", "modulo by zero", True),
}


def zero_division(c, name, ct, divisor, node):
    """ZeroDivisionError when `divisor` (of type `ct`) is zero (debug=True)."""
    if ct.kind == "c":
        return
    int_msg, float_msg, located = _ZERO_DIVISION[name]
    zero = c._zero_val(ct.ir)
    raise_if(
        c, divisor == zero, ZeroDivisionError, (int_msg if ct.is_int else float_msg,), node, located and not ct.is_int
    )


def _constant(c, node):
    v = c.expr(node)
    if isinstance(v, CompileTimeValue):
        return v.obj
    if isinstance(v, TypedValue) and v.v is None and v.const is not None:
        return v.const
    raise c.err(node, "the arguments of an exception raised in device code must be constants")


def _table(mb):
    table = getattr(mb, "exceptions", None)
    if table is None:
        table = mb.exceptions = []
    return table


def _raising(mb):
    """The device functions of `mb` that may raise (their callers check)."""
    names = getattr(mb, "raising", None)
    if names is None:
        names = mb.raising = set()
    return names


def _function(mb, name, results):
    """`func.func @__pydev_raise(%id: si32)` (no results) or `@__pydev_raised()
    -> i1` (false): defined once per module with these bodies, which the passes
    replace on the targets where they do something else."""
    made = getattr(mb, "exception_functions", None)
    if made is None:
        made = mb.exception_functions = {}
    fn = made.get(name)
    if fn is None:
        if results:
            fn = made[name] = mb.module.func(name, [], results)
            fn.ret(fn.constant(False, ir.i1))
        else:
            fn = made[name] = mb.module.func(name, [ir.si32])
            fn.ret()
    return fn


def host_exception(program, error):
    """The Python exception of a `pydev.LaunchError` whose record names an
    exception of `program`'s table (`error.raised`), with Numba-CUDA's
    message: `[In function 'f', file F, line N, ]tid=[z, y, x]
    ctaid=[z, y, x][: first argument]`; None for another failure."""
    raised = getattr(error, "raised", None)
    table = getattr(program, "_pydev_numba_exceptions", None)
    if raised is None or not table:
        return None
    id_, tid, ctaid = raised
    if not 0 <= id_ < len(table):
        return SystemError(f"unknown error {id_} in native function")
    cls, args, where = table[id_]
    locinfo = "" if where is None else "In function %r, file %s, line %s, " % where
    prefix = "%stid=%s ctaid=%s" % (locinfo, list(tid[::-1]), list(ctaid[::-1]))
    args = ("%s: %s" % (prefix, args[0]),) + args[1:] if args else (prefix,)
    return cls(*args)
