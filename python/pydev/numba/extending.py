"""`pydev.numba.extending`: Numba's high-level extension API for device code.

    from pydev.numba import types
    from pydev.numba.extending import overload, register_jitable

    def clamp(x, lo, hi):                 # a library's Python function
        return min(max(x, lo), hi)

    @overload(clamp)
    def ol_clamp(x, lo, hi):              # called with pydev.numba types
        if isinstance(x, types.Float):
            def impl(x, lo, hi):
                return min(max(x, lo), hi)
            return impl                   # None: declines these types

    @register_jitable
    def square(x):                        # Python on the host, a device function in kernels
        return x * x

A call of `clamp` in a `@cuda.jit` function asks each `@overload` of it (in
the order they were registered) for an implementation for its argument
types; the first that returns one is compiled as a device function of the
kernel, as `@cuda.jit(device=True)` functions are. Calls on the host run
the Python function itself. `intrinsic` is Numba's, with pydev.ir in place
of llvmlite: see docs/numba.md, "Extending"."""

import inspect

from . import _overloads
from ._cuda import Dispatcher as _Dispatcher

__all__ = ["overload", "register_jitable", "intrinsic"]


def overload(func, jit_options=None, strict=True, inline="never", prefer_literal=False, **kwargs):
    """`@overload(func)` on a typing-time factory `def ol_func(*arg_types)`,
    as `numba.extending.overload`: in device code, a call of `func` asks the
    factory with the arguments' pydev.numba types; it returns a Python
    implementation (compiled as a device function for those types) or None
    to decline. Returns the factory unchanged. `jit_options` are
    `cuda.jit`'s (`fastmath`, `link`, ...); `inline` is accepted and
    ignored (pydev's backend decides inlining)."""
    if not callable(func):
        raise TypeError(f"overload() takes the Python function to overload, got {func!r}")
    if kwargs.get("target", "cuda") not in ("cuda", "generic", "gpu"):
        raise TypeError(
            f"overload(..., target={kwargs['target']!r}): pydev.numba implements device code only (target='cuda')"
        )
    unknown = set(kwargs) - {"target"}
    if unknown:
        raise TypeError(f"overload() got unexpected keyword arguments {sorted(unknown)}")
    options = dict(jit_options or {})
    options.pop("device", None)

    def decorate(factory):
        if not callable(factory):
            raise TypeError(f"@overload({getattr(func, '__name__', func)}) decorates a function, got {factory!r}")
        _overloads.register(func, factory, options, _Dispatcher, generic=kwargs.get("target") == "generic")
        return factory

    return decorate


def register_jitable(*args, **jit_options):
    """`@register_jitable` / `@register_jitable(**jit_options)`, as Numba's:
    the function stays plain Python on the host, and calls of it in device
    code compile it as a device function for their argument types."""

    def wrap(fn):
        if not inspect.isfunction(fn):
            raise TypeError(f"register_jitable decorates a Python function, got {fn!r}")

        def ol_generic(*arg_types):
            return fn

        ol_generic.__qualname__ = f"register_jitable({fn.__qualname__})"
        overload(fn, jit_options=jit_options)(ol_generic)
        return fn

    if args:
        if len(args) == 1 and not jit_options and callable(args[0]):
            return wrap(args[0])
        raise TypeError("register_jitable takes a function, or keyword options: @register_jitable(fastmath=True)")
    return wrap


def intrinsic(*args, **kwargs):
    """`@intrinsic` / `@intrinsic(prefer_literal=...)`, Numba's signature, on
    pydev.ir instead of llvmlite:

        @intrinsic
        def fma3(typingctx, a, b, c):          # typingctx is None in pydev.numba
            sig = types.float64(types.float64, types.float64, types.float64)
            def codegen(context, builder, sig, args):   # builder: the pydev.ir.Function
                return builder.ops.add(builder.ops.mul(args[0], args[1]), args[2])
            return sig, codegen                 # or None to decline these types

    Calls in device code convert the arguments to the signature's types and
    splice codegen's ops in at the call; on the host an intrinsic raises
    pydev.DeviceOnlyError (docs/numba.md, "Extending")."""

    def wrap(fn):
        if not callable(fn):
            raise TypeError(f"intrinsic decorates a function, got {fn!r}")
        return _overloads.Intrinsic(fn, kwargs)

    if args:
        if len(args) == 1 and not kwargs and callable(args[0]):
            return wrap(args[0])
        raise TypeError("intrinsic takes a function, or keyword options: @intrinsic(prefer_literal=True)")
    return wrap
