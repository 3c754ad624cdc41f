"""Kernels and device functions: lazy compilation per argument signature,
the in-memory dispatch cache and the on-disk cache, argument packing
(the kernel ABI) and `launch`."""

import functools
import linecache
import os
import re
import sys
import threading
import types

import numpy as np

from . import _arrays, _cache, _native, _streams, _types

STATS = {"compiles": 0, "memory_hits": 0, "disk_hits": 0, "launches": 0}
_STATS_LOCK = threading.Lock()


def _count(name, n=1):
    with _STATS_LOCK:
        STATS[name] += n


_FAST = object()
# The classes whose objects device.launch takes (the frontends' kernels,
# pydev.Program): the native entry reads this list at each launch. Each
# keeps its Dispatch in its `_dispatch` dict under _FAST and has
# `_launch_general(args, *, grid, block, stream, shared, fast)`.
LAUNCHABLE = []


def launchable(cls):
    """Class decorator: device.launch takes objects of `cls`."""
    if cls not in LAUNCHABLE:
        LAUNCHABLE.append(cls)
    return cls


@functools.lru_cache(maxsize=None)
def _found_libdevice():
    import glob

    candidates = []
    try:
        import nvidia  # the nvidia-nvvm / nvidia-cuda-nvcc wheels

        for root in nvidia.__path__:
            candidates += sorted(
                glob.glob(os.path.join(root, "*", "nvvm", "libdevice", "libdevice.10.bc")), reverse=True
            )
    except ImportError:
        pass
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            candidates.append(os.path.join(home, "nvvm", "libdevice", "libdevice.10.bc"))
    return next((c for c in candidates if os.path.isfile(c)), "")


def libdevice():
    """The libdevice.10.bc that CUDA math functions (`math.sin`, `abs` of a
    float...) link: $PYDEV_LIBDEVICE when set and not empty, else the nvidia-nvvm wheel's,
    else the CUDA toolkit's ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda), as
    Numba-CUDA looks for it; "" when there is none (a kernel that needs it
    is then a CompileError saying so)."""
    return os.environ.get("PYDEV_LIBDEVICE") or _found_libdevice()


STAGES = ("python-ast", "pydev", "pydev-opt", "llvm", "llvm-ir", "nvvm-ir", "ptx")
_ARCH_RE = re.compile(r"^sm_(\d+)[a-z]?$")


class _Function:
    """What @kernel and @func share: the Python function (`underlying`), its
    file's source, and the module constants its file's device code reads."""

    link = ()  # link=[paths] (absolute), set by the decorator (pydev._interop.check_link)

    def __init__(self, fn, interop, lineinfo=False):
        self.underlying = fn
        self.interop = bool(interop)
        self.lineinfo = bool(lineinfo)
        self._program_lines = False  # some function of the last _program asked for lineinfo
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn
        self._lock = threading.Lock()
        self._dispatch = {}
        self._names = None
        self._src = None
        self._cells = ()
        self._watch = set()
        self._read = None  # the names its code reads (co_names, nested code too)
        self._const_idx = None

    def _source(self):
        """(file name, whole text of the file that defines the function)."""
        if self._src is None:
            path = self.underlying.__code__.co_filename
            text = None
            if os.path.exists(path):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            else:  # a notebook cell, the 3.13 REPL, generated code: linecache knows them
                lines = linecache.getlines(path)
                text = "".join(lines) if lines else None
            if not text:
                raise TypeError(
                    f"the source of '{self.__qualname__}' is not available (it was compiled from {path}): pydev compiles "
                    "device code from its Python source, so it must live in a .py file, a notebook cell, or source "
                    "registered in linecache before it is executed, e.g.\n"
                    "    src = 'import cuda.device as device\\n@device.kernel\\ndef k(out):\\n    out[0] = 1\\n'\n"
                    "    name = '<generated-1>'\n"
                    "    linecache.cache[name] = (len(src), None, src.splitlines(True), name)\n"
                    "    exec(compile(src, name, 'exec'), namespace)\n"
                    "(see docs/frontend.md, 'Where device code may live')"
                )
            self._src = (path, text)
        return self._src

    def _const_params(self):
        """Indices of the parameters annotated ConstExpr / ConstExpr[T]: a
        kernel is compiled for their values at launch (as Triton's constexpr)."""
        if self._const_idx is None:
            code = self.underlying.__code__
            ann = getattr(self.underlying, "__annotations__", None) or {}
            names = code.co_varnames[: code.co_argcount]
            self._const_idx = tuple(i for i, n in enumerate(names) if _is_const_expr(ann.get(n)))
        return self._const_idx

    def _program(self, const_args=()):
        """What the compiler gets besides the source: this function and every
        device function it reaches through its free names, each as (first
        line, qualified name, kind, interop, ((name, value), ...)) with the
        values Python binds those names to now (closure cells, then globals;
        builtins are the compiler's), and what the launch fast path watches
        (the global names read, the closure cells)."""
        funcs, index, cells, watch = [], {}, [], set()
        root_file = self.underlying.__code__.co_filename
        lines = [False]
        reached = self._reached = []  # the _Function objects (their link= files: _interop)

        def visit(f):
            i = index.get(id(f))
            if i is not None:
                return i
            i = index[id(f)] = len(funcs)
            funcs.append(None)
            reached.append(f)
            lines[0] |= f.lineinfo
            fn = f.underlying
            code = fn.__code__
            env = {}
            outer = getattr(code, "co_qualname", fn.__qualname__).rsplit(".<locals>.", 1)
            where = f"captured from '{outer[0].rsplit('.', 1)[-1]}'" if len(outer) == 2 else "captured"
            for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
                try:
                    value = cell.cell_contents
                except ValueError:
                    continue  # not bound yet: the compiler says the name is not defined
                cells.append(cell)
                env[name] = _free_value(value, visit, root_file) or ("host", f"{_describe(value)} {where}")
            if f._read is None:
                names = set()
                _code_names(code, names)
                f._read = tuple(sorted(names))
            g = fn.__globals__
            for name in f._read:
                if name not in env and name in g:
                    watch.add(name)
                    v = g[name]
                    value = _free_value(v, visit, root_file)
                    if value is None and not _defined_in(v, root_file):
                        value = ("host", f"{_describe(v)} (a global of {g.get('__name__', 'its module')})")
                    if value is not None:  # else the file's own definition says what it is
                        env[name] = value
            kind = "kernel" if isinstance(f, Kernel) else "func"
            qualname = getattr(code, "co_qualname", fn.__qualname__)
            funcs[i] = (
                code.co_firstlineno,
                qualname,
                kind,
                f.interop,
                tuple(sorted(env.items())),
                const_args if f is self else (),
            )
            return i

        visit(self)
        self._program_lines = lines[0]
        return tuple(funcs), cells, watch

    def _is_declaration(self):
        """Whether this is an interop declaration (a body of only `...`)."""
        d = self.__dict__.get("_declaration")
        if d is None:
            from . import _interop

            d = self._declaration = self.interop and _interop.is_declaration(self.underlying)
        return d

    def _lineinfo(self, target):
        """Whether PTX for `target` gets `.file`/`.loc` line information:
        PYDEV_LINEINFO=1, or lineinfo=True on this function or a device
        function its last `_program` reaches (never on the host)."""
        if target == "host":
            return False
        return self._program_lines or os.environ.get("PYDEV_LINEINFO", "0").strip() == "1"

    def _device_functions(self):
        """The @kernel / @func functions of this file (this one included) and
        the @func methods of its @struct classes."""
        g = self.underlying.__globals__
        out = [self.underlying]
        for value in list(g.values()):
            if isinstance(value, _Function) and value.underlying.__globals__ is g:
                out.append(value.underlying)
            elif _types.is_struct(value) and value.__module__ == self.__module__:
                out += [v.underlying for v in vars(value).values() if isinstance(v, _Function)]
        return out

    def _consts(self):
        """{name: value} of the module globals that the file's device code
        may read as constants: bool, int, float, str and tuples of them."""
        if self._names is None:
            names = set()
            for fn in self._device_functions():
                _code_names(fn.__code__, names)
            self._names = sorted(names)
        g = self.underlying.__globals__
        out = {}
        for n in self._names:
            if n in g and is_constant(g[n]):
                out[n] = g[n]
        return out

    def _structs(self):
        """@struct classes visible to this file's device code: those its
        device functions capture (structs defined in functions), then the
        module's."""
        g = self.underlying.__globals__
        captured, seen, todo = [], set(), [self]
        while todo:
            f = todo.pop()
            if id(f) in seen:
                continue
            seen.add(id(f))
            for cell in f.underlying.__closure__ or ():
                try:
                    v = cell.cell_contents
                except ValueError:
                    continue
                if isinstance(v, _Function):
                    todo.append(v)
                elif _types.is_struct(v) and v not in captured:
                    captured.append(v)
        mine = [v for v in g.values() if _types.is_struct(v) and v.__module__ == self.__module__]
        others = [v for v in g.values() if _types.is_struct(v) and v.__module__ != self.__module__]
        return captured + mine + others


def _code_names(code, out):
    out.update(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _code_names(c, out)


_DEVICE_NAMES = None


def _device_names():
    """{id: name} of the entities of cuda.device (dtypes, vector types,
    functions, SM selectors, target descriptions...)."""
    global _DEVICE_NAMES
    if _DEVICE_NAMES is None:
        import cuda.device as device

        _DEVICE_NAMES = {
            id(v): k
            for k, v in vars(device).items()
            if not k.startswith("_") and not isinstance(v, (bool, int, float, str))
        }
    return _DEVICE_NAMES


def _describe(value):
    t = type(value)
    return f"a {t.__module__ + '.' if t.__module__ not in ('builtins', None) else ''}{t.__qualname__}"


def _target_tree(d):
    sm = next((a.number for a in d._args if hasattr(a, "number")), 0)
    return (d._op, sm, tuple(_target_tree(a) for a in d._args if not hasattr(a, "number")))


def _const_value(v):
    """A compile-time constant's description, or None."""
    if isinstance(v, (bool, int, float)) and type(v) in (bool, int, float):
        return ("num", v)
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, np.generic) and v.dtype.kind in "biuf":
        name = _types.dtype_name(v.dtype)
        return ("typed", name, v.item()) if name else None
    if isinstance(v, tuple):
        items = tuple(_const_value(x) for x in v)
        return ("tuple", items) if all(x is not None for x in items) else None
    return None


_MODULES = None


def _is_const_expr(annotation):
    """Whether a parameter annotation is ConstExpr or ConstExpr[T] (also as
    a string, under `from __future__ import annotations`)."""
    if annotation is None:
        return False
    if isinstance(annotation, str):
        return re.fullmatch(r"(\w+\.)*ConstExpr(\[.*\])?", annotation.strip()) is not None
    device = sys.modules.get("cuda.device")
    return device is not None and (annotation is device.ConstExpr or isinstance(annotation, device.ConstExpr))


def const_args(f, args):
    """((index, constant), ...) for the ConstExpr parameters of kernel `f`."""
    out = []
    code = f.underlying.__code__
    for i in f._const_params():
        if i >= len(args):
            break
        c = _const_value(args[i])
        if c is None or c[0] not in ("num", "typed"):
            raise TypeError(
                f"argument '{code.co_varnames[i]}' of kernel '{f.__name__}' is annotated ConstExpr: pass a number "
                f"(bool, int, float or a NumPy scalar), which the kernel is compiled for; got {_describe(args[i])}"
            )
        out.append((i, c))
    return tuple(out)


def _defined_in(v, filename):
    """Whether `v` is a plain function or class of file `filename`, whose
    definition the frontend can name in its error (not decorated...)."""
    if isinstance(v, types.FunctionType):
        return v.__code__.co_filename == filename
    if isinstance(v, type):
        module = sys.modules.get(getattr(v, "__module__", None) or "")
        return getattr(module, "__file__", None) == filename
    return False


def _free_value(v, visit, root_file):
    """What device code sees for Python value `v` of a free name (see
    _Function._program), or None for a value it cannot hold."""
    global _MODULES
    t = type(v)
    if t is int or t is float or t is bool:
        return ("const", ("num", v))
    if _MODULES is None:
        import math

        import cuda
        import cuda.device

        _MODULES = {id(cuda.device): "device", id(cuda): "cuda", id(math): "math", id(np): "numpy"}
    m = _MODULES.get(id(v))
    if m is not None:
        return ("module", m)
    device = sys.modules["cuda.device"]
    while not isinstance(v, _Function) and callable(v) and hasattr(v, "__wrapped__"):
        v = v.__wrapped__  # functools.wraps around a kernel or device function
    if isinstance(v, _Function):
        code = v.underlying.__code__
        if code.co_filename != root_file:
            return (
                "host",
                f"the device function '{v.__qualname__}' of {code.co_filename} (device code calls device functions of its own file only)",
            )
        return ("func", visit(v))
    c = _const_value(v)
    if c is not None:
        return ("const", c)
    if _types.is_struct(v):
        if v._site[0] != root_file:
            return ("struct", v.__name__)  # the compiler names a struct of another file
        # Its @func methods are the program's, with the names they read.
        for m in vars(v).values():
            if isinstance(m, _Function):
                visit(m)
        return ("struct", _types.sig_name(v))
    name = _device_names().get(id(v))
    if name is not None:
        return ("device", name)
    if isinstance(v, device.TargetDescription):
        return ("target", _target_tree(v))
    if isinstance(v, device.SMSelector):
        return ("device", f"sm{v.number}")
    if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
        name = _types.dtype_name(v)
        if name is not None:
            return ("dtype", name)
    return None


def is_constant(v):
    if isinstance(v, np.generic):
        return False  # device code sees Python constants (their dtype would be lost)
    if isinstance(v, (bool, int, float, str)):
        return True
    return isinstance(v, tuple) and all(is_constant(x) for x in v)


class DeviceFunction(_Function):
    """A `@func`: heterogeneous, so on the host it is the Python function."""

    def __call__(self, *args, **kwargs):
        if self.interop and self._is_declaration():
            raise _types.DeviceOnlyError(
                f"'{self.__name__}' is a declaration (its body is ...): linked code defines it, so call it from device code "
                "(docs/interop.md); its Python body would return None"
            )
        return self.underlying(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        # Methods of @struct classes bind like plain functions on the host.
        return self if obj is None else types.MethodType(self.underlying, obj)

    def __repr__(self):
        return f"<cuda.device.func {self.__qualname__}>"

    def _launch_general(self, args, **config):
        raise TypeError(f"launch() takes a @device.kernel; '{self.__name__}' is a @device.func (call it from a kernel)")


@launchable
class Kernel(_Function):
    """A `@kernel`: compiled on first launch for the argument types seen,
    per (signature, target, arch, module constants)."""

    def _launch_general(self, args, *, grid, block, stream, shared, fast):
        _launch(self, args, grid=grid, block=block, stream=stream, shared=shared, fast=fast)

    def __call__(self, *args, **kwargs):
        raise _types.DeviceOnlyError(
            f"kernel '{self.__name__}' is device-only: launch it with device.launch({self.__name__}, *args, grid=..., block=..., stream=...)"
        )

    def __repr__(self):
        return f"<cuda.device.kernel {self.__qualname__}>"

    def program(self, signature, target, arch, consts=None, const_args=()):
        """The loaded program for a signature (compiling it if needed), and
        for the values `const_args` ((index, constant), ...) of its ConstExpr
        parameters."""
        if consts is None:
            consts = self._consts()
        program, self._cells, self._watch = self._program(const_args)
        lines = self._lineinfo(target)
        # repr tells True from 1 and -0.0 from 0.0, which == does not.
        # PYDEV_BOUNDSCHECK=1 compiles another program (index checks, on
        # either target), as it is another disk-cache entry.
        checks = os.environ.get("PYDEV_BOUNDSCHECK", "0") == "1"
        key = (signature, target, arch, lines, checks, repr((sorted(consts.items()), program)))
        prog = self._dispatch.get(key)
        if prog is not None:
            _count("memory_hits")
            return prog
        with self._lock:
            prog = self._dispatch.get(key)
            if prog is None:
                prog = self._build(signature, target, arch, consts, program, lines)
                self._dispatch[key] = prog
            else:
                _count("memory_hits")
        return prog

    def _build(self, signature, target, arch, consts, program, lines=False):
        native = _native.get()
        path, source = self._source()
        stage = "llvm" if target == "host" else "ptx"
        tgt = "host" if target == "host" else arch
        symbol = self.underlying.__code__.co_name  # the kernel's entry point is its def's name

        links, declared = _interop_links(self)
        libraries = []

        def load(text):
            if target == "host" and (links or declared) and not libraries:
                from . import _interop  # link= files built into a shared library the JIT links

                libraries.append(_interop.host_library(links, declared, f"kernel '{self.__name__}'"))
            if target != "host" and (links or declared):
                from . import _cudalink  # the PTX linked with the link= files by nvJitLink; the driver loads the cubin

                # With LTO-IR link files the kernel goes in as LTO-IR, from its NVVM IR (not with line information, which NVVM IR drops).
                nvvm_ir = (
                    None
                    if lines
                    else (
                        lambda: native.compile(
                            path, source, symbol, signature, consts, tgt, "nvvm-ir", libdevice=lib, program=program
                        )
                    )
                )
                return _cudalink.linked_program(
                    text, symbol, links, arch, f"kernel '{self.__name__}'", declared, nvvm_ir
                )
            return (
                _cache.host_program(native, text, symbol, key, libraries)
                if target == "host"
                else native.CudaProgram(text, symbol)
            )

        lib = "" if target == "host" else libdevice()
        libkey = lib
        if links:  # the link files' contents are part of the key
            from . import _interop

            libkey = (lib, _interop.link_digest(links))
        key = _cache.cache_key(
            source, consts, signature, tgt, stage, symbol, _native.fingerprint(), libkey, program, lineinfo=lines
        )
        text = _cache.load(key)
        if text is not None:
            try:
                prog = load(text)
                _count("disk_hits")
                return prog
            except Exception:
                pass  # an unusable entry: compile again and replace it
        _count("compiles")
        text = native.compile(
            path, source, symbol, signature, consts, tgt, stage, libdevice=lib, program=program, line_info=lines
        )
        _cache.store(key, text)
        return load(text)


def _interop_links(f):
    """(link paths, declared interop functions) of the functions kernel `f`'s
    last _program reached (pydev._interop.program_links)."""
    reached = getattr(f, "_reached", None) or [f]
    if not any(g.link or g.interop for g in reached):
        return (), []
    from . import _interop

    return _interop.program_links(reached)


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
# launches are one native call (python/src/dispatch.rs). On cuda it takes
# pydev.DeviceArrays, numbers, and other libraries' arrays on a
# pydev.Stream: those that export DLPack (CuPy, PyTorch) are exported
# natively at each launch, and those with only the CUDA Array Interface
# (Numba) have their dict read natively.

_KINDS = None


def _kinds():
    """The argument kinds' codes, by name: the native module's ARG_KINDS
    (python/src/dispatch.rs `Kind::ALL`), their one definition."""
    global _KINDS
    if _KINDS is None:
        _KINDS = types.SimpleNamespace(**{n.upper(): i for i, n in enumerate(_native.get().ARG_KINDS)})
    return _KINDS


def fast_kinds(args, target, interop=False, params=None):
    """The packing kind of each argument, or None when one needs the
    general path every time (structured or ml_dtypes arrays, vectors,
    structs, tuples, host foreign arrays, NumPy arrays on cuda). `params`:
    the parameter types of a pydev.Program, whose Python numbers pack only
    for a parameter of their own type (None: a kernel typed from its
    arguments, where a float is float32 and an int int32). The native side
    checks at each launch that a foreign array is a cuda array of the
    registered type and layout."""
    K = _kinds()
    kinds = []
    for i, a in enumerate(args):
        t = type(a)
        p = params[i].text if params is not None else None
        if t is np.ndarray and a.dtype.isbuiltin == 1 and target == "host":
            kinds.append(K.ARRAY)
        elif t is _arrays.DeviceArray and a.type_key is not None and a.target == target:
            kinds.append(K.DEVICE_ARRAY)
        elif t is float and (p is None or p == "f32"):
            kinds.append(K.FLOAT32)
        elif t is int and (p is None or p in ("si32", "i32")):
            kinds.append(K.INT32)
        elif t is bool and (p is None or p == "i1"):
            kinds.append(K.BOOL)
        elif a is None and params is None:
            kinds.append(K.NULL if interop else K.SKIP)
        elif isinstance(a, np.generic) and a.dtype.isbuiltin == 1:
            kinds.append(K.RAW)  # a Program's general path accepted only the parameter's own dtype
        elif target != "cuda" or isinstance(
            a, (np.ndarray, np.generic, _arrays.DeviceArray, _types.Vector, _types.Struct)
        ):
            return None
        elif hasattr(a, "__dlpack__") and hasattr(a, "__dlpack_device__"):
            kinds.append(K.DLPACK)  # preferred when both exist, as in _arrays.array_arg
        elif hasattr(a, "__cuda_array_interface__"):
            kinds.append(K.CAI)
        else:
            return None
    return kinds


def register_fast(f, args, prog, target, handle=0, *, interop=False, params=None, globals=None, names=(), cells=()):
    """After a general launch of launchable `f`: registers `prog` in its
    Dispatch for the types of `args`, so that later launches with those
    types are one native call. `globals`, `names`, `cells`: the module
    dict, global names and closure cells the device code read (a change
    sends the launch back to the general path)."""
    native = _native.get()
    programs = tuple(getattr(native, n) for n in ("HostProgram", "CudaProgram") if hasattr(native, n))
    if not isinstance(prog, programs) or not hasattr(native, "Dispatch"):
        return  # a stand-in native module (tests)
    kinds = fast_kinds(args, target, interop, params)
    if kinds is None:
        return
    d = f._dispatch.get(_FAST)
    if d is None:
        d = f._dispatch[_FAST] = native.Dispatch(np.ndarray, _arrays.DeviceArray, {} if globals is None else globals)
    d.register(tuple(args), prog, kinds, list(names), handle, list(cells))


def _register_fast(f, args, prog, target, handle=0):
    if f._const_params():
        return  # the fast path keys on argument types, not on ConstExpr values
    names = sorted(set(f._names or ()) | f._watch)
    register_fast(
        f, args, prog, target, handle, interop=f.interop, globals=f.underlying.__globals__, names=names, cells=f._cells
    )


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
    while getattr(type(f), "_launch_general", None) is None and callable(f) and hasattr(f, "__wrapped__"):
        f = f.__wrapped__  # a framework's functools.wraps wrapper of a kernel
        fast = False
    if getattr(type(f), "_launch_general", None) is None:
        raise TypeError(f"launch() takes a @device.kernel, got {f!r}")
    f._launch_general(args, grid=grid, block=block, stream=stream, shared=shared, fast=fast)


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


def _launch(f, args, *, grid, block, stream, shared, fast):
    target, handle, grid, block = launch_config(grid, block, stream, shared)
    code = f.underlying.__code__
    if not code.co_flags & 0x04 and len(args) != code.co_argcount:  # no *args: the count is fixed
        names = ", ".join(code.co_varnames[: code.co_argcount])
        raise TypeError(
            f"kernel '{f.__name__}' takes {code.co_argcount} argument{'s' * (code.co_argcount != 1)} ({names}), got {len(args)}"
        )
    device = launch_device(target)
    signature, packed, arrays = pack_args(f, args, target, handle, device=device)
    arch = cuda_arch(device) if target == "cuda" else "host"
    prog = f.program(signature, target, arch, const_args=const_args(f, args))
    run_loaded(prog, target, grid, block, shared, handle, packed, arrays, stream)
    if fast:
        _register_fast(f, args, prog, target, handle if target == "cuda" else 0)
