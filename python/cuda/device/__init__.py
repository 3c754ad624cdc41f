"""`cuda.device`: the names of the CUDA Python device-code specification.

Kernels and device functions written with these names compile through pydev
for the `cuda` target (PTX, run by the driver) or the `host` target (native
CPU code with full SIMT semantics); see `pydev` for the toolkit. In host
Python, heterogeneous entities (numbers, vectors, structs, `@func`
functions, target descriptions, numeric intrinsics) work as plain Python;
device-only entities (thread positions, shared memory, atomics,
synchronization, warp operations, kernels) raise pydev.DeviceOnlyError, a
RuntimeError.
"""

import math as _math
import sys as _sys

import numpy as _np

from pydev import _facts, _launch, _types

from . import _kernel
from pydev._types import (  # noqa: F401 - re-exported names of the spec
    WarpMask,
    bool_,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)

_module = _sys.modules[__name__]

# Made on first use (pydev._types binds them here through _bind_lazy): the
# vector types (int8x1 .. float64x4, float16xN, bfloat16xN, float8e4m3xN,
# float8e5m2xN) and Dim3; bfloat16, float8e4m3 and float8e5m2 (they import
# ml_dtypes, ~9 ms).
_LAZY_NAMES = _types._lazy_device_names()
# The names of structs and vectors (pydev._structs, pydev._vectors), imported
# on first use: a program of number arrays needs neither.
_FROM_TYPES = ("Atomic", "Vector", "align", "struct")


def __getattr__(name):
    if name in _FROM_TYPES:
        value = globals()[name] = getattr(_types, name)
        if _kernel._DEVICE_NAMES is not None:
            _kernel._DEVICE_NAMES[id(value)] = name
        return value
    load = _LAZY_NAMES.get(name)
    if load is not None:
        load()
        return globals()[name]
    raise AttributeError(f"module 'cuda.device' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_NAMES) | set(_FROM_TYPES))


def _bind_lazy():
    """Binds here what pydev._types has made of the lazy names (and adds
    them to the launcher's table of cuda.device entities, if it was built
    without them)."""
    g = globals()
    made = vars(_types)
    new = {}
    for name in _LAZY_NAMES:
        if name not in g:
            value = made.get(name)
            if value is None:
                value = made.get("VECTOR_TYPES", made.get("_VECTORS", {})).get(name)
            if value is not None:
                new[name] = value
    g.update(new)
    if _kernel._DEVICE_NAMES is not None:
        _kernel._DEVICE_NAMES.update({id(v): n for n, v in new.items()})


def machine_representation():
    """The machine representation of interoperable functions' ABI:
    "itanium" on Linux (and other Itanium C++ ABI platforms), "msvc" on Windows."""
    return "msvc" if _sys.platform == "win32" else "itanium"


class ConstExpr:
    """`ConstExpr` / `ConstExpr[T]`: a type hint for a parameter whose argument
    must be a constant expression (of type T)."""

    def __init__(self, type_=None):
        self.type = type_

    def __class_getitem__(cls, item):
        return cls(item)

    def __repr__(self):
        return "ConstExpr" if self.type is None else f"ConstExpr[{getattr(self.type, '__name__', self.type)}]"


# --- kernels and device functions ---------------------------------------------------------

_DECORATOR_KEYWORDS = ("interop", "lineinfo", "link", "fmad", "passes", "plugins")


def _check_keywords(decorator, kwargs):
    for k in kwargs:
        if k not in _DECORATOR_KEYWORDS:
            raise TypeError(
                f"@device.{decorator}() got an unexpected keyword argument '{k}' (supported: {', '.join(_DECORATOR_KEYWORDS)})"
            )


def _decorate(decorator, fn, kwargs, make, other_cls, other_name):
    _check_keywords(decorator, kwargs)

    def wrap(f):
        # A framework's functools.wraps wrapper: the device code is the function it wraps.
        while not isinstance(f, _kernel._Function) and callable(f) and hasattr(f, "__wrapped__"):
            f = f.__wrapped__
        if isinstance(f, other_cls):
            raise TypeError(
                f"'{f.__name__}' is already a @device.{other_name}: a function cannot be both a @device.kernel and a @device.func"
            )
        if isinstance(f, _kernel._Function):
            f = f.underlying
        if isinstance(f, type):
            raise TypeError(f"@device.{decorator} decorates a function; use @device.struct for the class {f.__name__}")
        if not callable(f) or not hasattr(f, "__code__"):
            raise TypeError(f"@device.{decorator} decorates a Python function, got {f!r}")
        link = kwargs.get("link")
        if link is not None:  # link=[paths]: docs/interop.md (imported here: an import costs 5 ms)
            from pydev import _link_paths

            link = _link_paths.check_link(link, f, decorator)
        else:
            link = ()
        fmad = kwargs.get("fmad", True)
        if not isinstance(fmad, bool):
            raise TypeError(f"@device.{decorator}(fmad=...) takes True or False, got {fmad!r}")
        made = make(f, interop=bool(kwargs.get("interop", False)), lineinfo=bool(kwargs.get("lineinfo", False)))
        made.link = link
        made.fmad = fmad
        if kwargs.get("passes") is not None or kwargs.get("plugins") is not None:
            from pydev import _passes  # extra passes at the pipeline's points: docs/research.md

            made.passes = _passes.extra(
                kwargs.get("passes"), kwargs.get("plugins"), f"@device.{decorator} '{f.__name__}'"
            )
        return made

    return wrap(fn) if fn is not None else wrap


def func(fn=None, /, **kwargs):
    """`@func` / `@func(interop=False, lineinfo=False, fmad=True, passes=None, plugins=None)`:
    a heterogeneous function, callable from device code and, as plain Python, from host
    code. `.underlying` is the decorated function. `fmad=False` turns off multiply-add
    contraction in the kernels that call it; `passes=`/`plugins=` add passes at the
    pipeline's points to them (docs/research.md). Unknown keywords raise TypeError."""
    return _decorate("func", fn, kwargs, _kernel.DeviceFunction, _kernel.Kernel, "kernel")


def kernel(fn=None, /, **kwargs):
    """`@kernel` / `@kernel(interop=False, lineinfo=False, fmad=True)`: a kernel
    (device-only), launched with `device.launch`; compiled on first launch for the
    argument types seen. `.underlying` is the decorated function. `fmad=False` (or
    `PYDEV_FMAD=0`) turns off multiply-add contraction: each `*` and `+` rounds, as
    NumPy's, on both targets. `passes={"POINT": "pass-a,pass-b"}` and
    `plugins=[path.so]` add passes at a point of the pipeline (docs/research.md)."""
    return _decorate("kernel", fn, kwargs, _kernel.Kernel, _kernel.DeviceFunction, "func")


def launch(f, *args, grid, block, stream, shared=0):
    """Runs kernel `f(*args)` on `grid` blocks of `block` threads (ints or 1-
    to 3-tuples) with `shared` bytes of dynamic shared memory, on `stream`
    (a pydev.Stream, a cuda.core Stream or any object with
    __cuda_stream__): asynchronous on cuda, at once on host. `f` may be a
    pydev.Program (a kernel in pydev IR, docs/backend.md)."""
    entry = _ENTRY
    if entry is None:
        entry = _first_entry()
    return entry(f, args, grid, block, stream, shared)


_ENTRY = None


def _first_entry():
    global _ENTRY
    _ENTRY = _launch.entry()
    return _ENTRY


# --- target specialization ------------------------------------------------------------------


class SMSelector:
    """An NVIDIA GPU architecture: `sm80` is compute capability 8.0."""

    __slots__ = ("number",)

    def __init__(self, number):
        object.__setattr__(self, "number", int(number))

    def __setattr__(self, name, value):
        raise AttributeError("SMSelector objects are immutable")

    def __eq__(self, other):
        return isinstance(other, SMSelector) and other.number == self.number

    def __hash__(self):
        return hash(("sm", self.number))

    def __repr__(self):
        return f"sm{self.number}"


class TargetDescription:
    """A set of targets; `|` (either), `&` (both) and `~` (not) combine them.
    `matches(kind, sm)` says whether target ("host", None) or ("device", 90)
    is in the set; in host Python, `target(desc)` asks it for the host."""

    __slots__ = ("_op", "_args")

    def __init__(self, op, *args):
        object.__setattr__(self, "_op", op)
        object.__setattr__(self, "_args", args)

    def __setattr__(self, name, value):
        raise AttributeError("TargetDescription objects are immutable")

    def _other(self, other, op):
        if not isinstance(other, TargetDescription):
            raise TypeError(f"TargetDescription {op} takes a TargetDescription, got {type(other).__name__}")
        return other

    def __or__(self, other):
        return TargetDescription("or", self, self._other(other, "|"))

    def __and__(self, other):
        return TargetDescription("and", self, self._other(other, "&"))

    def __invert__(self):
        return TargetDescription("not", self)

    def __bool__(self):
        raise TypeError("a TargetDescription has no truth value: test it with device.target(desc)")

    def matches(self, kind, sm=None):
        op, a = self._op, self._args
        if op == "is_host":
            return kind == "host"
        if op == "is_device":
            return kind == "device"
        if op == "any_target":
            return True
        if op == "no_target":
            return False
        if op == "is_exactly":
            return kind == "device" and sm == a[0].number
        if op == "provides":
            return kind == "device" and sm is not None and sm >= a[0].number
        if op == "or":
            return a[0].matches(kind, sm) or a[1].matches(kind, sm)
        if op == "and":
            return a[0].matches(kind, sm) and a[1].matches(kind, sm)
        if op == "not":
            return not a[0].matches(kind, sm)
        raise AssertionError(op)

    def __repr__(self):
        op, a = self._op, self._args
        if op in ("or", "and"):
            return f"({a[0]!r} {'|' if op == 'or' else '&'} {a[1]!r})"
        if op == "not":
            return f"~{a[0]!r}"
        if a:
            return f"{op}({a[0]!r})"
        return op


SM_ARCHS = _facts.SM_ARCHS  # the dialect's Pydev_SmArch
for _sm in SM_ARCHS:
    setattr(_module, f"sm{_sm}", SMSelector(_sm))

is_host = TargetDescription("is_host")
is_device = TargetDescription("is_device")
any_target = TargetDescription("any_target")
no_target = TargetDescription("no_target")


def _sm(sm, what):
    if not isinstance(sm, SMSelector):
        raise TypeError(f"{what}() takes an SMSelector such as device.sm80, got {sm!r}")
    return sm


def is_exactly(sm):
    """The target `sm` only."""
    return TargetDescription("is_exactly", _sm(sm, "is_exactly"))


def provides(sm):
    """Every target with the capabilities of `sm` (sm and newer)."""
    return TargetDescription("provides", _sm(sm, "provides"))


def target(desc):
    """Whether the current target matches `desc`. In host Python the current
    target is the host: target(is_host) is True, target(is_device) and
    target(provides(smXX)) are False."""
    if not isinstance(desc, TargetDescription):
        raise TypeError(f"target() takes a TargetDescription, got {type(desc).__name__}")
    return desc.matches("host")


# --- device-only entities -------------------------------------------------------------------


class _DeviceOnly:
    """A device-only entity: usable in compiled device code; any use in host
    Python raises pydev.DeviceOnlyError (a RuntimeError)."""

    __slots__ = ("_name",)

    def __init__(self, name):
        object.__setattr__(self, "_name", name)

    def _fail(self, *args, **kwargs):
        raise _types.device_only(self._name)

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        raise _types.device_only(f"{self._name}.{attr}")

    def __setattr__(self, name, value):
        self._fail()

    def __repr__(self):
        return f"<device-only cuda.device.{self._name}>"

    __call__ = __bool__ = __int__ = __index__ = __float__ = __len__ = __iter__ = __getitem__ = __setitem__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = __rpow__ = __neg__ = __pos__ = _fail
    # == and != too: `lane_id == 0` in a heterogeneous @func run on the host
    # must not quietly be False. Hashing stays by identity.
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _fail
    __hash__ = object.__hash__
    __abs__ = __round__ = __divmod__ = __rdivmod__ = __complex__ = __format__ = __trunc__ = __floor__ = __ceil__ = _fail
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rshift__ = __invert__ = _fail


DEVICE_ONLY = _facts.DEVICE_ONLY  # the frontend's builtins::DEVICE_ONLY
for _name in DEVICE_ONLY:
    setattr(_module, _name, _DeviceOnly(_name))


class AtomicInterface:
    """The interface of atomically accessed scalars (`atomic_ref(a, i)`,
    `Atomic` fields): load, store, exch, cas, add, sub, and_, or_, xor, max,
    min, nanmax, nanmin (device-only)."""

    def __init__(self, *args, **kwargs):
        raise _types.device_only("AtomicInterface")


# --- numeric intrinsics (heterogeneous) -------------------------------------------------------


def _int_bits(x, what):
    a = _np.asarray(x)
    if isinstance(x, bool) or a.dtype.kind == "b":
        raise TypeError(f"{what}() takes an integer, got a bool")
    if isinstance(x, int):
        a = _np.asarray(int32(x))
    if a.dtype.kind not in "iu" or a.ndim:
        raise TypeError(f"{what}() takes an integer, got {type(x).__name__}")
    bits = a.dtype.itemsize * 8
    return int(a) & ((1 << bits) - 1), bits, a.dtype


def popc(x):
    """The number of bits set in integer x (int32)."""
    v, _, _ = _int_bits(x, "popc")
    return _np.int32(bin(v).count("1"))


def brev(x):
    """Integer x with its bit pattern reversed (same type)."""
    v, bits, dt = _int_bits(x, "brev")
    r = int(f"{v:0{bits}b}"[::-1], 2)
    if dt.kind == "i" and r >= 1 << (bits - 1):
        r -= 1 << bits
    return dt.type(r)


def clz(x):
    """The number of leading zero bits of integer x (int32)."""
    v, bits, _ = _int_bits(x, "clz")
    return _np.int32(bits - v.bit_length())


def ffs(x):
    """The 1-based position of the least significant bit set in x, 0 if none (int32)."""
    v, _, _ = _int_bits(x, "ffs")
    return _np.int32((v & -v).bit_length())


def cbrt(a):
    """The real cube root of floating-point a (same type)."""
    if isinstance(a, float) and not isinstance(a, _np.generic):
        a = float32(a)
    dt = _np.asarray(a).dtype
    if dt.kind == "f" and dt.itemsize < 8 or dt.name == "bfloat16":
        # NumPy's float32 cbrt is off by an ulp on exact cubes (27 -> 2.9999998);
        # in float64, then rounded once, it matches CUDA's cbrtf.
        return _np.cbrt(_np.float64(a)).astype(dt)
    r = _np.cbrt(a)
    if dt == _np.float64:
        # Some libm builds are an ulp off on exact cubes (27 -> 3.0000000000000004):
        # of r and its neighbours take the one whose cube is nearest, exactly.
        r = _np.vectorize(_nearest_cbrt, otypes=[_np.float64])(_np.float64(a), r)
        r = r[()] if r.ndim == 0 else r
    return r


def _nearest_cbrt(a, r):
    from fractions import Fraction

    if not _np.isfinite(r) or r == 0:
        return r
    candidates = (_np.nextafter(r, -_np.inf), r, _np.nextafter(r, _np.inf))
    return min(candidates, key=lambda c: abs(Fraction(float(c)) ** 3 - Fraction(float(a))))


def _fma_exact(a, b, c, dt):
    """a * b + c of NumPy floating type `dt`, rounded once (to nearest even)."""
    from fractions import Fraction

    a, b, c = float(a), float(b), float(c)
    if not all(_math.isfinite(v) for v in (a, b, c)):
        return dt.type(a * b + c)
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    r = float(exact)  # correctly rounded to float64
    if dt != _np.float64 and Fraction(r) != exact and not (_np.float64(r).view(_np.int64) & 1):
        # round to odd, so that the narrower rounding below is single
        r = float(_np.nextafter(r, _math.inf if exact > Fraction(r) else -_math.inf))
    if r == 0 and exact == 0:
        r = a * b + c  # the sign of an exact zero
    with _np.errstate(over="ignore"):
        return dt.type(r)


def fma(a, b, c):
    """a * b + c, rounded once."""
    if all(isinstance(v, (int, float)) and not isinstance(v, _np.generic) for v in (a, b, c)):
        # Python floats are float32 in device code.
        return _fma_exact(float32(a), float32(b), float32(c), _np.dtype(_np.float32))
    dt = _np.result_type(a, b, c)
    if dt.kind != "f":
        raise TypeError(f"fma() takes floating-point numbers, got {dt}")
    return _fma_exact(a, b, c, dt)


__all__ = sorted([n for n in dir(_module) if not n.startswith("_") and n not in ("SM_ARCHS", "DEVICE_ONLY")])

_bind_lazy()  # what pydev._types made before this module was imported
