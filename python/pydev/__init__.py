"""pydev: the toolkit behind `cuda.device`.

Targets (`active_target()`), streams, device arrays, `compile(fn, argtypes,
target, stage)` for every stage of the pipeline, and compile/launch counters
(`stats()`). Kernels compile through the Rust/MLIR compiler in `pydev._pydev`.
"""
import os as _os

import numpy as _np

__version__ = "0.1.0"

_NATIVE = None


def _native():
    """The native module (`pydev._pydev`), imported on first use."""
    global _NATIVE
    if _NATIVE is None:
        from . import _pydev

        _NATIVE = _pydev
    return _NATIVE


from . import _arrays, _launch, _streams, _types  # noqa: E402
from ._arrays import DeviceArray  # noqa: E402
from ._streams import Stream  # noqa: E402


class TargetUnavailable(RuntimeError):
    """The requested target cannot run here (the message says why)."""


def __getattr__(name):
    # CompileError and LaunchError live in the native module.
    if name in ("CompileError", "LaunchError"):
        return getattr(_native(), name)
    raise AttributeError(f"module 'pydev' has no attribute '{name}'")


def active_target():
    """'cuda' or 'host': PYDEV_TARGET, else cuda when a driver and a device
    are present. Asking for cuda without one raises TargetUnavailable."""
    wanted = _os.environ.get("PYDEV_TARGET", "").strip().lower()
    if wanted not in ("", "cuda", "host"):
        raise ValueError(f"PYDEV_TARGET must be 'cuda' or 'host', got {wanted!r}")
    if wanted == "host":
        return "host"
    ok, why = _native().cuda_status()
    if wanted == "cuda" and not ok:
        raise TargetUnavailable(f"PYDEV_TARGET=cuda, but the cuda target is unavailable: {why}")
    return "cuda" if ok else "host"


_DEFAULT = {}


def default_stream():
    target = active_target()
    if target not in _DEFAULT:
        _DEFAULT[target] = Stream(target, 0)
    return _DEFAULT[target]


def create_stream():
    target = active_target()
    if target == "host":
        return Stream("host", 0)
    return Stream("cuda", _native().cuda_stream_create(), owned=True)


def device_array(shape, dtype, stream=None):
    target = active_target()
    return DeviceArray(shape, dtype, target, stream=stream)


def zeros(shape, dtype, stream=None):
    target = active_target()
    if target == "host":
        return DeviceArray(shape, dtype, target, stream=stream, _host=_np.zeros(shape, dtype))
    return to_device(_np.zeros(shape, dtype), stream=stream)


def to_device(array, stream=None):
    """A copy of host array `array` on the active target."""
    a = _np.ascontiguousarray(array)
    target = active_target()
    if target == "host":
        return DeviceArray(a.shape, a.dtype, target, stream=stream, _host=a.copy())
    d = DeviceArray(a.shape, a.dtype, target, stream=stream)
    _native().cuda_memcpy_htod(d._ptr, a, a.nbytes, getattr(stream, "handle", 0) or 0)
    return d


def to_host(array):
    """A new numpy.ndarray with the contents of any DLPack/CAI array."""
    if isinstance(array, DeviceArray):
        return array.copy_to_host()
    if isinstance(array, _np.ndarray):
        return array.copy()
    arg = _arrays.array_arg(array, 0)
    if arg is None:
        raise TypeError(f"to_host() takes an array, got {type(array).__name__}")
    out = _np.empty(arg.shape, arg.dtype)
    if arg.device == "cpu":
        src = _np.lib.stride_tricks.as_strided(
            _np.frombuffer((_np.ctypeslib.as_array((_np.ctypeslib.ctypes.c_byte * max(out.nbytes, 1)).from_address(arg.data))), dtype=arg.dtype)
            if out.nbytes else _np.empty(0, arg.dtype),
            arg.shape, [s * arg.dtype.itemsize for s in arg.strides])
        out[...] = src
        return out
    contiguous = list(arg.strides) == [int(_np.prod(arg.shape[k + 1:])) for k in range(len(arg.shape))]
    if not contiguous:
        raise ValueError("to_host() of a strided CUDA array is not supported: make it contiguous first")
    _native().cuda_memcpy_dtoh(out, arg.data, out.nbytes, 0)
    return out


def compile(fn, argtypes, target="sm_90", stage="ptx"):
    """The text of `stage` ("python-ast", "pydev", "pydev-opt", "llvm",
    "llvm-ir", "ptx") of kernel or device function `fn` compiled for
    `target` ("sm_XX" or "host"); `argtypes` is a signature string in
    pydevc's syntax or a list of example arguments."""
    if not isinstance(fn, _launch._Function):
        raise TypeError(f"compile() takes a @device.kernel or @device.func, got {fn!r}")
    if isinstance(argtypes, str):
        signature = argtypes
    else:
        t = "host" if target == "host" else "cuda"
        signature, _, _ = _launch.signature_of(fn, list(argtypes), t, check_device=False)
    path, source = fn._source()
    _launch.STATS["compiles"] += 1
    return _native().compile(path, source, fn.__name__, signature, fn._consts(), target, stage)


def stats():
    """Counters: compiles (frontend + pipeline runs), memory_hits and
    disk_hits (launches that compiled nothing), launches, and the native
    module's own."""
    out = dict(_launch.STATS)
    try:
        out.update(_native().stats())
    except ImportError:
        pass
    return out
