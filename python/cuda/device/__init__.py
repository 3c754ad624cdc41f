"""`cuda.device`: the names of the CUDA Python device-code specification.

Kernels and device functions written with these names compile through pydev
for the `cuda` target (PTX, run by the driver) or the `host` target (native
CPU code with full SIMT semantics); see `pydev` for the toolkit. On the host,
heterogeneous entities (numbers, vectors, structs, `@func` functions, target
descriptions) work as plain Python; device-only entities raise a clear error.
"""
import sys as _sys

import numpy as _np

from pydev import _launch
from pydev._types import (
    Atomic,
    Dim3,
    WarpMask,
    align,
    bfloat16,
    bool_,
    complex64,
    complex128,
    float8e4m3,
    float8e5m2,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    struct,
    uint8,
    uint16,
    uint32,
    uint64,
    _VECTOR_TYPES,
)

# Vector types: int8x1 .. float64x4 (see pydev._types).
for _name, _cls in _VECTOR_TYPES.items():
    setattr(_sys.modules[__name__], _name, _cls)


def machine_representation():
    """The machine representation of interoperable functions' ABI."""
    return "itanium" if _sys.platform.startswith("linux") else "microsoft" if _sys.platform == "win32" else "itanium"


class ConstExpr:
    """`ConstExpr[T]` marks a parameter whose argument is a constant expression."""

    def __class_getitem__(cls, item):
        return cls


# --- functions -----------------------------------------------------------------

_DECORATOR_KEYWORDS = {"interop"}


def _check_keywords(decorator, kwargs):
    unknown = sorted(set(kwargs) - _DECORATOR_KEYWORDS)
    if unknown:
        raise TypeError(f"@device.{decorator}() got an unexpected keyword argument '{unknown[0]}' (supported: interop)")


def func(fn=None, **kwargs):
    """`@func` / `@func(interop=False)`: a heterogeneous function, callable from
    device code and, as plain Python, from host code."""
    _check_keywords("func", kwargs)

    def wrap(f):
        if isinstance(f, _launch.Kernel):
            raise TypeError(f"'{f.__name__}' is a @device.kernel: a function cannot be both a kernel and a @device.func")
        return _launch.DeviceFunction(f, interop=bool(kwargs.get("interop", False)))

    return wrap(fn) if fn is not None else wrap


def kernel(fn=None, **kwargs):
    """`@kernel` / `@kernel(interop=False)`: a kernel, launched with
    `device.launch`."""
    _check_keywords("kernel", kwargs)

    def wrap(f):
        if isinstance(f, _launch.DeviceFunction):
            raise TypeError(f"'{f.__name__}' is a @device.func: a function cannot be both a @device.kernel and a @device.func")
        return _launch.Kernel(f, interop=bool(kwargs.get("interop", False)))

    return wrap(fn) if fn is not None else wrap


def launch(f, *args, grid, block, stream, shared=0):
    """Runs kernel `f(*args)` on `grid` blocks of `block` threads (ints or 2-/3-
    tuples) with `shared` bytes of dynamic shared memory, on `stream`
    (asynchronous on cuda)."""
    return _launch.launch(f, args, grid=grid, block=block, stream=stream, shared=shared)


# --- target specialization ----------------------------------------------------


class TargetDescription:
    """A set of targets; `|`, `&` and `~` combine them. On host Python,
    `target(d)` is true when the host is in `d`."""

    def __init__(self, text, on_host):
        self._text = text
        self._on_host = on_host

    def __or__(self, other):
        return TargetDescription(f"or({self._text}, {other._text})", self._on_host or other._on_host)

    def __and__(self, other):
        return TargetDescription(f"and({self._text}, {other._text})", self._on_host and other._on_host)

    def __invert__(self):
        return TargetDescription(f"not({self._text})", not self._on_host)

    def __repr__(self):
        return f"<target {self._text}>"


class SMSelector:
    """An NVIDIA GPU architecture (`sm80` is compute capability 8.0)."""

    def __init__(self, number):
        self.number = number

    def __repr__(self):
        return f"sm{self.number}"


_SMS = [50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121]
for _sm in _SMS:
    setattr(_sys.modules[__name__], f"sm{_sm}", SMSelector(_sm))

is_host = TargetDescription("is_host", True)
is_device = TargetDescription("is_device", False)
any_target = TargetDescription("any_target", True)
no_target = TargetDescription("no_target", False)


def is_exactly(sm):
    return TargetDescription(f"is_exactly(sm_{sm.number})", False)


def provides(sm):
    return TargetDescription(f"provides(sm_{sm.number})", False)


def target(desc):
    """On the host: whether the host is one of the targets `desc` describes."""
    if not isinstance(desc, TargetDescription):
        raise TypeError(f"target() takes a TargetDescription, got {type(desc).__name__}")
    return desc._on_host


# --- device-only entities -------------------------------------------------------


class _DeviceOnly:
    """A device-only entity: usable in compiled device code; an error on host."""

    def __init__(self, name):
        self._name = name

    def _fail(self, *args, **kwargs):
        raise RuntimeError(
            f"cuda.device.{self._name} is device-only: use it in a @device.kernel or @device.func "
            "compiled for a target (launch the kernel with device.launch)"
        )

    __call__ = _fail

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._fail()

    def __repr__(self):
        return f"<device-only cuda.device.{self._name}>"


_DEVICE_ONLY = [
    "thread_idx", "block_idx", "block_dim", "grid_dim", "tid", "grid_size", "warp_size", "lane_id",
    "local_array", "shared_array", "dynamic_shared_array", "atomic_ref", "threadfence",
    "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or",
    "activemask", "lanemask_lt", "syncwarp", "all_sync", "any_sync", "eq_sync", "ballot_sync",
    "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "match_any_sync", "match_all_sync",
]
for _name in _DEVICE_ONLY:
    setattr(_sys.modules[__name__], _name, _DeviceOnly(_name))


# --- numeric intrinsics (heterogeneous) -------------------------------------------


def _bits(x):
    dt = _np.asarray(x).dtype
    if dt.kind not in "iu":
        raise TypeError(f"expected an integer, got {dt}")
    return int(_np.asarray(x).astype(_np.uint64 if dt.itemsize == 8 else _np.uint32)), dt.itemsize * 8


def popc(x):
    """The number of set bits of x (int32)."""
    v, _ = _bits(x)
    return _np.int32(bin(v).count("1"))


def brev(x):
    """x with its bits reversed (same type)."""
    v, n = _bits(x)
    r = int(f"{v:0{n}b}"[::-1], 2)
    return _np.asarray(r, dtype=_np.uint64 if n == 64 else _np.uint32).astype(_np.asarray(x).dtype)[()]


def clz(x):
    """The number of leading zero bits of x (int32)."""
    v, n = _bits(x)
    return _np.int32(n - v.bit_length())


def ffs(x):
    """The 1-based position of the lowest set bit of x, 0 if none (int32)."""
    v, _ = _bits(x)
    return _np.int32((v & -v).bit_length())


def cbrt(a):
    return _np.cbrt(a)


def fma(a, b, c):
    """a * b + c rounded once."""
    if isinstance(a, float) and isinstance(b, float) and isinstance(c, float):
        import math

        return math.fma(a, b, c) if hasattr(math, "fma") else float(_np.longdouble(a) * b + c)
    dt = _np.result_type(a, b, c)
    return dt.type(_np.longdouble(a) * _np.longdouble(b) + _np.longdouble(c))



