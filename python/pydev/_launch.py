"""The launch stack every frontend shares (docs/ARCHITECTURE.md, "Layers"):
the launchable types (`LAUNCHABLE`: pydev.Program and the frontends'
kernels), argument packing (the kernel ABI, from a pydevc signature),
launch configurations, the native entry and its fast path (one Dispatch
per launchable, python/src/dispatch.rs), running a loaded program, and the
compile counters. It imports no frontend: a launchable brings its own
`__pydev_launch__` (the general path) and `_dispatch` table."""

import os
import re
import threading
import types

import numpy as np

from . import _arrays, _native, _streams, _types

STATS = {"compiles": 0, "memory_hits": 0, "disk_hits": 0, "launches": 0}
_STATS_LOCK = threading.Lock()


def _count(name, n=1):
    with _STATS_LOCK:
        STATS[name] += n


_FAST = object()
# The classes whose objects device.launch takes (the frontends' kernels,
# pydev.Program): the native entry reads this list at each launch. Each
# keeps its Dispatch in its `_dispatch` dict under _FAST and has
# `__pydev_launch__(args, *, grid, block, stream, shared, fast)`.
LAUNCHABLE = []


def launchable(cls):
    """Class decorator: device.launch takes objects of `cls`."""
    if cls not in LAUNCHABLE:
        LAUNCHABLE.append(cls)
    return cls


STAGES = ("python-ast", "pydev", "pydev-opt", "llvm", "llvm-ir", "nvvm-ir", "ptx")
_ARCH_RE = re.compile(r"^sm_(\d+)[a-z]?$")


# --- arguments ----------------------------------------------------------------------------


def pack_args(kernel, args, target, handle=0, check_device=True, start=0, device=None):
    """(signature string, packed arguments, ArrayArgs) for `args` (the
    first at position `start`); with `check_device`, arrays must live where
    `target` runs (on cuda: on `device`, None for the current one)."""
    structs = kernel._structs if kernel is not None else list  # looked up only for structured dtypes
    sig, packed, arrays = [], [], []
    for i, a in enumerate(args, start):
        if a is None:
            # None is heterogeneous (spec: None): no parameter, or a null
            # void* for an interoperable kernel.
            sig.append("None")
            if kernel is not None and getattr(kernel, "interop", False):
                packed.append(bytes(8))
            continue
        arr = _arrays.array_arg(a, i, stream=handle if target == "cuda" else None)
        if arr is not None:
            if not arr.shape:
                raise ValueError(
                    f"argument {i}: 0-dimensional arrays cannot be passed to a kernel: pass a scalar (a[()]) or a 1-element array"
                )
            sig.append(arr.signature(structs, i))
            packed.append(arr.descriptor())
            arrays.append((i, arr))
        else:
            t, b, _ = _types.scalar_arg(a, i)
            sig.append(t)
            packed.append(b)
    if check_device:  # after every argument's protocol data is validated
        code = getattr(getattr(kernel, "underlying", None), "__code__", None)
        names = code.co_varnames[: code.co_argcount] if code is not None else ()
        for i, arr in arrays:
            _arrays.check_device(arr, i, target, device, names[i] if i < len(names) else None)
    return ", ".join(sig), packed, [arr for _, arr in arrays]


def signature_of(kernel, args, target="host", handle=0, check_device=True):
    """The pydevc signature for example arguments."""
    return pack_args(kernel, args, target, handle, check_device)[0]


def dim3(value, name):
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = (int(value),)
    if (
        not isinstance(value, (tuple, list))
        or not 1 <= len(value) <= 3
        or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value)
    ):
        raise TypeError(f"{name} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    v = tuple(int(x) for x in value) + (1,) * (3 - len(value))
    if any(x <= 0 for x in v):
        raise ValueError(f"{name} must be positive in every dimension, got {value!r}")
    if any(x >= 1 << 32 for x in v):
        raise ValueError(f"{name} {value!r} is too large (each dimension is a uint32)")
    return v


_ARCHS = {}  # device ordinal -> sm_XY


def cuda_arch(device=None):
    """The architecture to compile for on the cuda target: $PYDEV_ARCH (for
    every device), else that of `device` (None: the current device; when
    the native module can tell), else sm_90. Programs are compiled and
    cached per architecture and loaded per device."""
    env = os.environ.get("PYDEV_ARCH", "").strip()
    if env:
        if not _ARCH_RE.match(env):
            raise ValueError(f"PYDEV_ARCH must look like sm_90, got {env!r}")
        return env
    native = _native.get()
    if device is None:
        current = getattr(native, "cuda_current_device", None)
        try:
            device = current() if current is not None else 0
        except Exception:
            device = 0
    arch = _ARCHS.get(device)
    if arch is None:
        query = getattr(native, "cuda_arch", None)
        try:
            arch = query(device) if query is not None else "sm_90"
        except Exception:
            arch = "sm_90"
        _ARCHS[device] = arch
    return arch


def launch_device(target, stream=None):
    """The device a cuda launch on this thread runs on (that of the current
    CUDA context, else device 0; None on the host); a pydev.Stream of
    another device is a ValueError naming `stream`."""
    if target != "cuda":
        return None
    device = _native.get().cuda_current_device()
    if isinstance(stream, _streams.Stream) and stream.device != device:
        raise ValueError(
            f"stream is a stream of cuda device {stream.device}, but the launch runs on device {device} (the current device): "
            f"launch under pydev.Device({stream.device}), or on a stream of device {device}"
        )
    return device


# --- the launch fast path -------------------------------------------------------------------
# A launch whose arguments have the types of an earlier launch of the same
# kernel on the same target skips protocol parsing and signature building:
# after a general launch, the kernel's native Dispatch (kept in its dispatch
# table under _FAST, so clearing the table clears it) registers the program,
# how each argument packs and the module names its device code read; later
# launches are one native call (python/src/dispatch.rs). It takes every
# kind of argument but tuples and `__array_interface__` objects: arrays of
# any element type (NumPy arrays on the host, DeviceArrays), numbers
# (converted natively to the parameter's type), vectors and structs (packed
# natively by `value_plan`), and other libraries' arrays: those that export
# DLPack (CuPy, PyTorch) are exported natively at each launch, and on cuda
# those with only the CUDA Array Interface (Numba) have their dict read
# natively.

_KINDS = None


def _kinds():
    """The argument kinds' codes, by name: the native module's ARG_KINDS
    (python/src/dispatch.rs `Kind::ALL`), their one definition."""
    global _KINDS
    if _KINDS is None:
        _KINDS = types.SimpleNamespace(**{n.upper(): i for i, n in enumerate(_native.get().ARG_KINDS)})
    return _KINDS


# The kind of a Python number by the parameter type it converts to (IR
# type text; None: a kernel typed from its arguments, where a bool is a
# bool, an int an int32, a float a float32 and a complex a complex64).
_NUMBER_KINDS = {
    (bool, None): "bool",
    (bool, "i1"): "bool",
    (int, None): "int_si32",
    (float, None): "float_f32",
    (complex, None): "complex_f32",
}
for _bits in (8, 16, 32, 64):
    for _sign in ("si", "ui", "i"):
        _NUMBER_KINDS[int, f"{_sign}{_bits}"] = f"int_{_sign}{_bits}"
for _t in (int, float):
    for _bits in (16, 32, 64):
        _NUMBER_KINDS[_t, f"f{_bits}"] = f"float_f{_bits}"
for _t in (int, float, complex):
    for _bits in (32, 64):
        _NUMBER_KINDS[_t, f"complex<f{_bits}>"] = f"complex_f{_bits}"


def value_plan(t):
    """How a value of vector or struct class `t` packs natively
    (python/src/dispatch.rs `Plan`): `(size, code, fields)`, code 0 a
    NumPy scalar's buffer, 1 a vector's lanes, 2 a bool, 3 a struct's
    fields `((name, offset, plan), ...)`. Registering checks it against
    the value's `tobytes()`."""
    from ._structs import Struct, to_dtype
    from ._vectors import Vector

    if isinstance(t, type) and issubclass(t, Vector):
        return (t._storage.itemsize, 1, ())
    if isinstance(t, type) and issubclass(t, Struct):
        fields = tuple((f.name, f.offset, value_plan(f.value_type)) for f in t._fields)
        return (t.dtype.itemsize, 3, fields)
    if t is bool:
        return (1, 2, ())
    return (to_dtype(t).itemsize, 0, ())


def fast_kinds(args, target, interop=False, params=None):
    """(the packing kind of each argument, the layout of each vector or
    struct among them), or None when one needs the general path every
    time (tuples, `__array_interface__` objects, NumPy arrays on cuda). `params`:
    the parameter types of a pydev.Program, to which Python numbers
    convert (None: a kernel typed from its arguments). The native side
    checks at each launch that an array has the registered element type,
    rank and layout, and that a number fits its parameter."""
    K = _kinds()
    kinds, plans = [], []
    for i, a in enumerate(args):
        t = type(a)
        p = params[i].text if params is not None else None
        plan = None
        if t is np.ndarray and target == "host":
            kind = K.ARRAY
        elif t is _arrays.DeviceArray and a._fast_key is not None and a.target == target:
            kind = K.DEVICE_ARRAY
        elif t in (bool, int, float, complex):
            name = _NUMBER_KINDS.get((t, p))
            if name is None:
                return None
            kind = getattr(K, name.upper())
        elif a is None and params is None:
            kind = K.NULL if interop else K.SKIP
        elif isinstance(a, np.generic) or isinstance(a, _types.SoftFloat):
            kind = K.RAW  # a Program's general path accepted only the parameter's own dtype
        elif _types.is_value(a):  # vectors and structs
            kind, plan = K.VALUE, value_plan(t)
        elif isinstance(a, (np.ndarray, _arrays.DeviceArray)):
            return None  # a NumPy array on cuda; a DeviceArray of another target, or 0-d
        elif hasattr(a, "__dlpack__") and hasattr(a, "__dlpack_device__"):
            kind = K.DLPACK  # preferred when both exist, as in _arrays.array_arg
        elif target == "cuda" and hasattr(a, "__cuda_array_interface__"):
            kind = K.CAI
        else:
            return None
        kinds.append(kind)
        plans.append(plan)
    return kinds, plans


def register_fast(
    f, args, prog, target, handle=0, *, interop=False, params=None, globals=None, names=(), cells=(), packed=None
):
    """After a general launch of launchable `f`: registers `prog` in its
    Dispatch for the types of `args`, so that later launches with those
    types are one native call. `globals`, `names`, `cells`: the module
    dict, global names and closure cells the device code read (a change
    sends the launch back to the general path); `packed`: the general
    path's bytes of each parameter, which the native packing of numbers
    and values must equal."""
    native = _native.get()
    programs = tuple(getattr(native, n) for n in ("HostProgram", "CudaProgram") if hasattr(native, n))
    if not isinstance(prog, programs) or not hasattr(native, "Dispatch"):
        return  # a stand-in native module (tests)
    got = fast_kinds(args, target, interop, params)
    if got is None:
        return
    kinds, plans = got
    d = f._dispatch.get(_FAST)
    if d is None:
        d = f._dispatch[_FAST] = native.Dispatch(np.ndarray, _arrays.DeviceArray, {} if globals is None else globals)
    d.register(tuple(args), prog, kinds, list(names), handle, list(cells), plans, packed)


_ACTIVE_TARGET = None


def _host_target():
    global _ACTIVE_TARGET
    if os.environ.get("PYDEV_TARGET") == "host":
        return True
    if _ACTIVE_TARGET is None:
        from . import active_target

        _ACTIVE_TARGET = active_target
    return _ACTIVE_TARGET() == "host"


def _cuda_target():
    """Whether a launch on a cuda pydev.Stream (which only a working driver
    makes) is for the cuda target: PYDEV_TARGET unset or cuda."""
    return os.environ.get("PYDEV_TARGET", "cuda") == "cuda"


def try_fast(f, args, grid, block, stream, shared):
    """The launch fast path from Python: True when launchable `f` launched
    through its Dispatch (python/src/dispatch.rs). The native entry
    `fast_launch` does the same checks first, except the host target chosen
    by `active_target` rather than PYDEV_TARGET, which only this does."""
    if type(f) in LAUNCHABLE and type(shared) is int and shared >= 0:
        d = f._dispatch.get(_FAST)
        if d is not None:
            if type(stream) is _streams.Stream:
                if stream.target == "cuda":
                    return _cuda_target() and d.try_launch(args, grid, block, shared, stream)
                return _host_target() and d.try_launch(args, grid, block, shared)
            if stream is not None and _cuda_target():
                # A cuda.core Stream or another __cuda_stream__ object: its
                # owner keeps the arguments alive (as _streams.keep_alive says).
                return d.try_launch(args, grid, block, shared, None, _streams.stream_handle(stream))
    return False


def _fast_eligible(f, stream, shared):
    """Whether a general-path launch may register the fast path: the
    conditions try_fast checks before asking the Dispatch."""
    if type(f) not in LAUNCHABLE or type(shared) is not int or shared < 0:
        return False
    if type(stream) is _streams.Stream:
        return _cuda_target() if stream.target == "cuda" else _host_target()
    return stream is not None and _cuda_target()


def _general_launch(f, args, grid, block, stream, shared, tried=False):
    """device.launch beyond the native entry: the Python fast path (unless
    the native entry `tried` the Dispatch), else the launchable's general
    launch (which registers the fast path where it may)."""
    if not tried and try_fast(f, args, grid, block, stream, shared):
        return
    fast = _fast_eligible(f, stream, shared)
    while getattr(type(f), "__pydev_launch__", None) is None and callable(f) and hasattr(f, "__wrapped__"):
        f = f.__wrapped__  # a framework's functools.wraps wrapper of a kernel
        fast = False
    if getattr(type(f), "__pydev_launch__", None) is None:
        raise TypeError(f"launch() takes a @device.kernel, got {f!r}")
    f.__pydev_launch__(args, grid=grid, block=block, stream=stream, shared=shared, fast=fast)


def entry():
    """The function device.launch hands (f, args, grid, block, stream,
    shared): the native entry (python/src/dispatch.rs `fast_launch`: the
    fast path without a Python frame, then `_general_launch`), made on the
    first launch so that importing cuda.device loads no native code;
    `_general_launch` itself with a stand-in native module (tests)."""
    native = _native.get()
    fast = getattr(native, "fast_launch", None)
    if fast is None:
        return _general_launch
    native.launch_hooks(LAUNCHABLE, _streams.Stream, _FAST, _general_launch)
    return fast


def launch_config(grid, block, stream, shared):
    """(target, stream handle, grid, block) of a general-path launch, with
    what the fast path assumed checked: what kernels and pydev.Programs share."""
    from . import active_target

    handle = _streams.stream_handle(stream)
    grid, block = dim3(grid, "grid"), dim3(block, "block")
    if isinstance(shared, bool) or not isinstance(shared, (int, np.integer)) or shared < 0:
        raise ValueError(f"shared must be a non-negative number of bytes, got {shared!r}")
    target = active_target()
    if isinstance(stream, _streams.Stream) and stream.target != target:
        raise ValueError(
            f"stream is a {stream.target} pydev.Stream, but the active target is {target}: create streams with pydev.create_stream() on the target that launches"
        )
    launch_device(target, stream)
    return target, handle, grid, block


def run_loaded(prog, target, grid, block, shared, handle, packed, arrays, stream):
    """Launches a loaded program with packed arguments: at once on the host;
    on cuda after waiting for the streams CAI producers named, keeping the
    arrays alive until `stream` synchronizes."""
    _count("launches")
    if target == "host":
        keep = [a.keep for a in arrays]
        if keep:  # their buffer exports are held while the launch runs
            prog.launch(grid, block, int(shared), packed, keep=keep)
        else:
            prog.launch(grid, block, int(shared), packed)
        return
    native = _native.get()
    if _arrays.cai_sync_enabled():
        waited = set()
        for a in arrays:
            s = a.stream
            if s is not None and s != _arrays.normalize_stream(handle) and s not in waited:
                native.cuda_stream_wait(handle, s)
                waited.add(s)
    prog.launch(grid, block, int(shared), handle, packed)
    for a in arrays:
        if isinstance(a.keep, _arrays.DeviceArray):
            a.keep._last_stream = handle
    _streams.keep_alive(stream, arrays, native)
