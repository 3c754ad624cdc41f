"""pydev: the toolkit behind `cuda.device`.

Targets (`active_target()`), streams (`default_stream()`, `create_stream()`),
device arrays (`to_device`, `device_array`, `zeros`, `to_host`,
`DeviceArray`), `compile(fn, argtypes, target, stage)` for every stage of
the pipeline, and counters (`stats()`). Kernels compile through the
Rust/MLIR compiler in the native module `pydev._pydev`, which is imported
on first use: everything that needs no compiling, launching or driver
works without it.
"""

import os as _os

import numpy as _np

__version__ = "0.1.0"

from . import _arrays, _launch, _native, _streams  # noqa: E402
from . import _cache, _types  # noqa: E402, F401 - pydev._types etc. after `import pydev` (pydev._dlpack: on first use)
from ._arrays import DeviceArray  # noqa: E402
from ._streams import Device, Stream, current_device, device_count  # noqa: E402
from ._types import DeviceOnlyError  # noqa: E402

__all__ = [
    "__version__",
    "active_target",
    "TargetUnavailable",
    "CompileError",
    "LaunchError",
    "DeviceOnlyError",
    "Stream",
    "default_stream",
    "create_stream",
    "Device",
    "current_device",
    "device_count",
    "DeviceArray",
    "to_device",
    "device_array",
    "zeros",
    "to_host",
    "compile",
    "cxx_header",
    "stats",
    "Program",
    "ir",
    "pinned_array",
]


class TargetUnavailable(RuntimeError):
    """The requested target cannot run here (the message says why)."""


def __getattr__(name):
    # CompileError and LaunchError are the native module's classes (stand-ins
    # that nothing raises when it cannot be imported).
    if name in ("CompileError", "LaunchError"):
        return _native.error_class(name)
    if name == "ir":  # the IR builder (docs/backend.md), imported on first use
        import importlib

        return importlib.import_module(".ir", __name__)
    if name == "pinned_array":  # page-locked memory (docs/backend.md), imported on first use
        from ._pinned import pinned_array

        return pinned_array
    if (
        name == "Program"
    ):  # the backend API (docs/backend.md), imported on first use: a launch of a kernel never needs it
        from ._program import Program

        return Program
    raise AttributeError(f"module 'pydev' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(__all__))


def active_target():
    """'cuda' or 'host': $PYDEV_TARGET, else 'cuda' when a CUDA driver and a
    device are present. PYDEV_TARGET=cuda without them raises
    TargetUnavailable; it never falls back silently."""
    wanted = _os.environ.get("PYDEV_TARGET", "").strip().lower()
    if wanted not in ("", "cuda", "host"):
        raise ValueError(f"PYDEV_TARGET must be 'cuda' or 'host', got {wanted!r}")
    if wanted == "host":
        return "host"
    if wanted == "cuda" and not _native.available():
        raise TargetUnavailable(f"PYDEV_TARGET=cuda, but the cuda target is unavailable: {_native._MISSING}")
    ok, why = _native.cuda_status()
    if wanted == "cuda" and not ok:
        raise TargetUnavailable(f"PYDEV_TARGET=cuda, but the cuda target is unavailable: {why}")
    return "cuda" if ok else "host"


_DEFAULT_STREAMS = {}


def default_stream():
    """The default stream of the active target (on cuda: the legacy default
    stream, handle 0, of the current device). One object per target and
    device, so that the arguments of launches on it stay alive until it
    synchronizes."""
    target = active_target()
    key = (target, _native.get().cuda_current_device() if target == "cuda" else 0)
    s = _DEFAULT_STREAMS.get(key)
    if s is None:
        s = _DEFAULT_STREAMS[key] = Stream(target, 0, device=key[1])
    return s


def create_stream(device=None):
    """A new stream of the active target (on cuda: a non-blocking driver
    stream of `device`, by default the current device)."""
    target = active_target()
    if target == "host":
        return Stream("host", 0)
    dev = _device_of(None, device, target)
    return Stream("cuda", _native.get().cuda_stream_create(dev), owned=True, device=dev)


def _device_of(stream, device, target):
    """The cuda device of a new array or stream: `device` (an ordinal or a
    pydev.Device), else `stream`'s (a pydev.Stream), else the current
    device; a `device` other than `stream`'s is a ValueError."""
    if target != "cuda":
        if device is not None and int(Device(device)) != 0:
            raise ValueError(f"device={int(device)}: the host target has only device 0")
        return 0
    on = stream.device if isinstance(stream, Stream) and stream.target == "cuda" else None
    if device is None:
        return on if on is not None else _streams.current_device()
    dev = Device(device).id
    if on is not None and on != dev:
        raise ValueError(
            f"device={dev}, but stream is a stream of cuda device {on}: pass a stream of device {dev} (pydev.create_stream(device={dev}))"
        )
    return dev


def _target_and_handle(stream):
    target = active_target()
    handle = _streams.stream_handle(stream) if stream is not None else 0
    return target, handle


def device_array(shape, dtype=_np.float64, stream=None, device=None):
    """An uninitialized array on the active target (on cuda: on `device`,
    by default `stream`'s device or the current device)."""
    target, _ = _target_and_handle(stream)
    return DeviceArray(shape, dtype, target, stream=stream, device=_device_of(stream, device, target))


def zeros(shape, dtype=_np.float64, stream=None, device=None):
    """An array of zeros on the active target (on `device`, as device_array)."""
    target, _ = _target_and_handle(stream)
    host = _np.zeros(shape, _arrays._as_dtype(dtype))
    if target == "host":
        _device_of(stream, device, target)
        return DeviceArray(host.shape, host.dtype, target, stream=stream, _host=host)
    return to_device(host, stream=stream, device=device)


def to_device(array, stream=None, device=None):
    """A copy of `array` (NumPy, anything array-like, or any DLPack / CAI
    array) on the active target, as a DeviceArray in the same layout: C or
    Fortran order kept, a strided view copied compactly in the order of its
    strides (NumPy's order='K'), as CuPy and Numba copy. On cuda it is on
    `device` (an ordinal or a pydev.Device), by default `stream`'s device
    or the current device."""
    target, handle = _target_and_handle(stream)
    return _arrays.device_copy(array, target, stream=stream, handle=handle, device=_device_of(stream, device, target))


def to_host(array):
    """A new numpy.ndarray with the contents of any DLPack / CAI array (a
    DeviceArray, NumPy, CuPy, PyTorch, ...)."""
    if isinstance(array, DeviceArray):
        return array.copy_to_host()
    if isinstance(array, _np.ndarray):
        return array.copy()
    arg = _arrays.array_arg(array, 0)
    if arg is None:
        raise TypeError(f"to_host() takes an array (DLPack, CUDA Array Interface or NumPy), got {type(array).__name__}")
    return _arrays.host_copy(arg)


def compile(fn, argtypes=None, target="sm_90", stage=None, *, fmad=None, passes=None, plugins=None):  # noqa: A001 - the documented name
    """The text of `stage` of `fn` compiled for `target` ("sm_XX" or
    "host"): "python-ast" (a Python frontend's functions), "pydev" (as
    emitted), "pydev-opt" (after the pydev passes), "llvm" (LLVM dialect),
    "llvm-ir", "nvvm-ir" (sm_XX only: the LLVM IR in NVVM IR 2.0's LLVM 7
    syntax, for libNVVM), "ptx" (sm_XX only). The default stage is "ptx"
    for sm_XX and "llvm" for host. Bytes (docs/interop.md): "cubin" and
    "ltoir" (sm_XX: linked with the `link=` files; the code's own LTO-IR),
    "object" (host: a relocatable object file).

    `fn` is a @device.kernel or @device.func, a pydev.Program or a
    pydev.numba kernel: whatever brings a `__pydev_compile__(argtypes,
    target, stage)` method (the backend imports no frontend). `argtypes`
    is a signature in pydevc's syntax ('float32[::1], int32'), or a list
    of example arguments (arrays, numbers, vectors, structs, tuples) or of
    type strings; a pydev.Program has its own signature and takes None.
    `fmad=False` compiles without multiply-add contraction (None: the
    object's own `fmad=`, or `PYDEV_FMAD`); the object's method then takes
    `fmad=` as a keyword. `passes={"POINT": "pass-a,pass-b"}` and
    `plugins=[path.so]` compile with extra passes at a point of the pipeline
    instead of the object's own (with `PYDEV_PASSES` added; points:
    "after-frontend", "after-promotion", "before-lowering", "llvm",
    "llvm-ir"; docs/research.md); the method then takes `extra=`."""
    f = fn
    while getattr(f, "__pydev_compile__", None) is None and callable(f) and hasattr(f, "__wrapped__"):
        f = f.__wrapped__  # a framework's functools.wraps wrapper
    method = getattr(f, "__pydev_compile__", None)
    if method is None:
        raise TypeError(
            f"compile() takes a @device.kernel or @device.func, a pydev.Program or a pydev.numba kernel, got {fn!r}"
        )
    from . import _stages

    target, stage = _stages.check(target, stage)
    kwargs = {}
    if fmad is not None:
        if not isinstance(fmad, bool):
            raise TypeError(f"fmad must be True, False or None (the object's own setting), got {fmad!r}")
        kwargs["fmad"] = fmad
    if passes is not None or plugins is not None:
        from . import _passes

        extra = _passes.extra(passes, plugins, "pydev.compile")
        kwargs["extra"] = _passes.combine(extra, _passes.from_env())
    return method(argtypes, target, stage, **kwargs)


def cxx_header(*objs):
    """A C++ header (str) declaring @device.struct classes (with
    static_asserts on sizeof, alignof and each offsetof), the interoperable
    array descriptor, and interoperable functions and kernels whose
    parameters and result are annotated: what CUDA C++ includes to call
    Python (docs/interop.md). `pydevc FILE --emit cxx-header` writes the same."""
    from . import _c_types

    return _c_types.cxx_header(*objs)


def stats():
    """Counters: "compiles" (frontend + pipeline runs), "memory_hits" and
    "disk_hits" (kernel programs found in the dispatch / disk cache),
    "launches", and the native module's own (when it is loaded)."""
    out = dict(_launch.STATS)
    if _native.available():
        try:
            for k, v in _native.get().stats().items():
                out.setdefault(k, v)
        except Exception:
            pass
        # Fast-path launches (python/src/dispatch.rs) hit the dispatch cache.
        fast = out.get("fast_launches", 0)
        out["memory_hits"] += fast
        out["launches"] += fast
    return out
