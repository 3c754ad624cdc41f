"""Kernels and device functions: lazy compilation per argument signature,
the in-memory and on-disk caches, argument packing and `launch`."""
import hashlib
import inspect
import os
import sys
import tempfile
import threading
import types

import numpy as np

from . import _arrays, _types

STATS = {"compiles": 0, "memory_hits": 0, "disk_hits": 0, "launches": 0}


def _native():
    from . import _native as n

    return n()


class _Function:
    def __init__(self, fn, interop):
        self.underlying = fn
        self.interop = interop
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn
        self._lock = threading.Lock()
        self._dispatch = {}

    def _source(self):
        path = inspect.getsourcefile(self.underlying)
        if path is None or not os.path.exists(path):
            raise TypeError(f"the source of '{self.__name__}' is not in a file: device code must be defined in a .py file")
        with open(path, encoding="utf-8") as f:
            return path, f.read()

    def _consts(self):
        """Values of module-level names the file's device code may read:
        numbers, strings and tuples of them."""
        g = self.underlying.__globals__
        names = set()
        for value in list(g.values()) + [self.underlying]:
            fn = getattr(value, "underlying", value) if isinstance(value, _Function) else None
            if fn is not None and getattr(fn, "__globals__", None) is g:
                _code_names(fn.__code__, names)
        out = {}
        for n in names:
            v = g.get(n)
            if _is_constant(v):
                out[n] = v
        return out

    def _structs(self):
        g = self.underlying.__globals__
        return {n: v.dtype for n, v in g.items() if isinstance(v, type) and getattr(v, "_pydev_struct", False)}


def _code_names(code, out):
    out.update(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _code_names(c, out)


def _is_constant(v):
    if isinstance(v, bool) or isinstance(v, (int, float, str)) and not isinstance(v, np.generic):
        return True
    return isinstance(v, tuple) and all(_is_constant(x) for x in v)


class DeviceFunction(_Function):
    """A `@func`: heterogeneous, so on the host it is the Python function."""

    def __call__(self, *args, **kwargs):
        return self.underlying(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        # Methods of @struct classes bind like plain functions on the host.
        return self if obj is None else types.MethodType(self.underlying, obj)

    def __repr__(self):
        return f"<cuda.device.func {self.__name__}>"


class Kernel(_Function):
    """A `@kernel`: compiled on first launch for the argument types seen."""

    def __call__(self, *args, **kwargs):
        raise TypeError(f"kernel '{self.__name__}' is launched with device.launch({self.__name__}, *args, grid=..., block=..., stream=...), not called")

    def __repr__(self):
        return f"<cuda.device.kernel {self.__name__}>"

    def program(self, signature, target, arch):
        key = (signature, target, arch)
        prog = self._dispatch.get(key)
        if prog is not None:
            STATS["memory_hits"] += 1
            return prog
        with self._lock:
            prog = self._dispatch.get(key)
            if prog is None:
                prog = self._build(signature, target, arch)
                self._dispatch[key] = prog
        return prog

    def _build(self, signature, target, arch):
        native = _native()
        path, source = self._source()
        consts = self._consts()
        stage = "llvm" if target == "host" else "ptx"
        tgt = "host" if target == "host" else arch
        text = _disk_get(source, consts, signature, tgt, stage, self.__name__)
        if text is None:
            STATS["compiles"] += 1
            text = native.compile(path, source, self.__name__, signature, consts, tgt, stage)
            _disk_put(source, consts, signature, tgt, stage, self.__name__, text)
        else:
            STATS["disk_hits"] += 1
        if target == "host":
            return native.HostProgram(text, self.__name__)
        return native.CudaProgram(text, self.__name__)


# --- the on-disk cache ----------------------------------------------------------------


def _cache_dir():
    if os.environ.get("PYDEV_CACHE", "1") == "0":
        return None
    return os.environ.get("PYDEV_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "pydev")


def cache_key(source, consts, signature, target, stage, name):
    from . import __version__

    h = hashlib.sha256()
    for part in (source, repr(sorted(consts.items())), signature, target, stage, name, __version__, _native().version()):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def _disk_get(*key):
    d = _cache_dir()
    if d is None:
        return None
    path = os.path.join(d, cache_key(*key) + ".txt")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return text or None
    except OSError:
        return None


def _disk_put(source, consts, signature, target, stage, name, text):
    d = _cache_dir()
    if d is None:
        return
    try:
        os.makedirs(d, exist_ok=True)
        # Written whole, then renamed: concurrent processes see all or nothing.
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, os.path.join(d, cache_key(source, consts, signature, target, stage, name) + ".txt"))
    except OSError:
        pass  # a cache that cannot be written is only slower


# --- arguments --------------------------------------------------------------------------


def _scalar(value, position):
    """(signature type, bytes) of a scalar, vector, struct or tuple argument."""
    if isinstance(value, bool):
        return "bool", np.bool_(value).tobytes()
    if isinstance(value, int):
        return "int32", np.int32(value).tobytes()
    if isinstance(value, float):
        return "float32", np.float32(value).tobytes()
    if isinstance(value, complex):
        return "complex64", np.complex64(value).tobytes()
    if isinstance(value, np.generic):
        name = _types.dtype_name(value.dtype)
        if name is None:
            raise TypeError(f"argument {position}: NumPy scalars of {value.dtype} cannot be passed to a kernel")
        return name, value.tobytes()
    if isinstance(value, _types.Vector):
        return type(value).__name__, value.tobytes()
    if isinstance(value, _types.Struct):
        return type(value).__name__, value.tobytes()
    if isinstance(value, tuple):
        parts = [_scalar(v, position) for v in value]
        # A C struct of the members: natural alignment and padding.
        out, offset, max_align = b"", 0, 1
        for t, b in parts:
            a = min(len(b), 16) if len(b) in (1, 2, 4, 8, 16) else 4
            pad = (-offset) % a
            out += b"\0" * pad + b
            offset += pad + len(b)
            max_align = max(max_align, a)
        out += b"\0" * ((-offset) % max_align)
        return "(" + ", ".join(t for t, _ in parts) + ")", out
    raise TypeError(f"argument {position}: a {type(value).__name__} cannot be passed to a kernel (arrays, numbers, vectors, structs and tuples can)")


def signature_of(kernel, args, target, stream_handle=0, check_device=True):
    """The signature string and packed arguments for `args`; with
    `check_device`, arrays must live where `target` runs."""
    structs = kernel._structs() if kernel is not None else {}
    types_, packed, arrays = [], [], []
    for i, a in enumerate(args):
        arr = _arrays.array_arg(a, i, stream=None if target == "host" else (stream_handle or None))
        if arr is not None:
            if check_device and target == "cuda" and arr.device == "cpu":
                raise ValueError(f"argument {i}: a host (CPU) array cannot be passed to a cuda launch: copy it with pydev.to_device(a)")
            if check_device and target == "host" and arr.device == "cuda":
                raise ValueError(f"argument {i}: a CUDA device array cannot be passed to a host launch: use pydev.to_host(a), or run with PYDEV_TARGET=cuda")
            types_.append(arr.signature(structs))
            packed.append(arr.descriptor())
            arrays.append(arr)
        else:
            t, b = _scalar(a, i)
            types_.append(t)
            packed.append(b)
    return ", ".join(types_), packed, arrays


def _dim3(value, name):
    if isinstance(value, (int, np.integer)):
        value = (int(value),)
    if not isinstance(value, (tuple, list)) or not 1 <= len(value) <= 3 or not all(isinstance(v, (int, np.integer)) for v in value):
        raise TypeError(f"{name} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    v = tuple(int(x) for x in value) + (1,) * (3 - len(value))
    if any(x <= 0 for x in v):
        raise ValueError(f"{name} must be positive in every dimension, got {value!r}")
    return v


def launch(f, args, *, grid, block, stream, shared=0):
    from . import _streams, active_target

    if not isinstance(f, Kernel):
        raise TypeError(f"launch() takes a @device.kernel, got {f!r}")
    handle = _streams.stream_handle(stream)
    grid, block = _dim3(grid, "grid"), _dim3(block, "block")
    if not isinstance(shared, (int, np.integer)) or shared < 0:
        raise ValueError(f"shared must be a non-negative number of bytes, got {shared!r}")
    target = active_target()
    signature, packed, arrays = signature_of(f, args, target, handle)
    arch = _cuda_arch() if target == "cuda" else "host"
    prog = f.program(signature, target, arch)
    STATS["launches"] += 1
    if target == "host":
        prog.launch(grid, block, int(shared), packed)
        return
    native = _native()
    if _arrays.cai_sync_enabled():
        for a in arrays:
            if a.stream is not None and a.stream != handle:
                native.cuda_stream_wait(handle, a.stream)
    prog.launch(grid, block, int(shared), handle, packed)
    _streams.keep_alive(stream, arrays)


_ARCH = None


def _cuda_arch():
    global _ARCH
    if _ARCH is None:
        _ARCH = os.environ.get("PYDEV_ARCH") or _native().cuda_arch()
    return _ARCH


if sys.version_info < (3, 11):  # pragma: no cover
    raise ImportError("pydev needs Python 3.11 or newer")
