"""The native module `pydev._pydev` (Rust: compiler, host runtime, driver
calls), imported on first use so that the pure-Python parts of `pydev` and
`cuda.device` (types, structs, protocols, caches) work without it.

What it offers is python/src/lib.rs's `#[pymodule]` (its list of classes
and functions, each with its doc comment); pydev reads it only through
`get()`, so a stand-in module (tests) can take its place. pydev's errors
live here: the native ones (error_class) and DeviceOnlyError, for a
device-only entity of cuda.device (thread positions, atomics,
synchronization, ...) used in host code."""

import os

from ._cache import sha256

_MODULE = None
_MISSING = None


class _FallbackCompileError(Exception):
    """pydev.CompileError while the native module is unavailable."""


class _FallbackLaunchError(RuntimeError):
    """pydev.LaunchError while the native module is unavailable."""


def get():
    """The native module; ImportError (with the reason) when it is missing."""
    global _MODULE, _MISSING
    if _MODULE is not None:
        return _MODULE
    if _MISSING is not None:
        raise ImportError(_MISSING)
    try:
        from . import _pydev
    except ImportError as e:
        _MISSING = (
            f"pydev's native module (pydev._pydev) is not available: {e}. "
            "Build and install the wheel (make wheel) to compile or launch kernels"
        )
        raise ImportError(_MISSING) from e
    _MODULE = _pydev
    return _MODULE


def available():
    try:
        get()
        return True
    except ImportError:
        return False


def error_class(name):
    """CompileError / LaunchError: the native classes, or stand-ins (never
    raised by anything) when the native module cannot be imported."""
    try:
        return getattr(get(), name)
    except ImportError:
        return {"CompileError": _FallbackCompileError, "LaunchError": _FallbackLaunchError}[name]


_STATUS = None


def cuda_status():
    """(ok, why) from the driver, asked once per process."""
    global _STATUS
    if _STATUS is None:
        ok, why = get().cuda_status()
        _STATUS = (bool(ok), str(why))
    return _STATUS


_FINGERPRINT = None


def fingerprint():
    """The compiler's identity for cache keys: version() plus the size and
    modification time of the native library, so that a rebuilt compiler
    with an unchanged version string does not reuse old cache entries."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        mod = get()
        parts = [str(mod.version())]
        path = getattr(mod, "__file__", None)
        if path:
            try:
                st = os.stat(path)
                parts += [str(st.st_size), str(st.st_mtime_ns)]
            except OSError:
                pass
        _FINGERPRINT = sha256("\0".join(parts).encode()).hexdigest()[:16] + ":" + parts[0]
    return _FINGERPRINT


class DeviceOnlyError(RuntimeError):
    """A device-only entity of cuda.device was used in host code."""


def device_only(name):
    """The error for using device-only `cuda.device.<name>` on the host."""
    return DeviceOnlyError(
        f"cuda.device.{name} is device-only: call it from a @device.kernel or @device.func compiled for a target "
        "(launch the kernel with device.launch(kernel, *args, grid=..., block=..., stream=...))"
    )
