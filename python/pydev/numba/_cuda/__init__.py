"""`from pydev.numba import cuda`: Numba-CUDA's kernel language on pydev.

Kernels (`@cuda.jit`) are compiled from their Python source to pydev IR
with Numba's typing rules (python/pydev/numba/_compiler.py), wrapped in a
`pydev.Program` per argument-type signature and launched with
`device.launch`; everything here uses pydev's public API only."""

import os as _os
import pickle as _pickle
import sys as _sys
import threading as _threading
import warnings as _warnings

import numpy as _np

import cuda.device as _device
import pydev as _pydev

from .. import _builtins as _b
from .. import _compiler as _c
from .. import _cooperative, _exceptions, _jitlib
from ..core import config as _config
from . import _kernel, _numba_abi
from .. import types
from .. import types as _t
from ._vectors import vector_types as _vector_types

__all__ = [
    "types",
    "jit",
    "grid",
    "gridsize",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "laneid",
    "warpsize",
    "shared",
    "local",
    "const",
    "atomic",
    "syncthreads",
    "syncthreads_count",
    "syncthreads_and",
    "syncthreads_or",
    "syncwarp",
    "all_sync",
    "any_sync",
    "eq_sync",
    "ballot_sync",
    "shfl_sync",
    "shfl_up_sync",
    "shfl_down_sync",
    "shfl_xor_sync",
    "activemask",
    "lanemask_lt",
    "match_any_sync",
    "match_all_sync",
    "threadfence",
    "threadfence_block",
    "threadfence_system",
    "popc",
    "brev",
    "clz",
    "ffs",
    "fma",
    "cbrt",
    "selp",
    "nanosleep",
    "fp16",
    "cg",
    "to_device",
    "device_array",
    "device_array_like",
    "pinned_array",
    "pinned_array_like",
    "mapped_array",
    "mapped_array_like",
    "stream",
    "default_stream",
    "synchronize",
    "is_available",
    "current_context",
    "get_current_device",
    "detect",
    "list_devices",
    "is_cuda_array",
    "as_cuda_array",
    "compile_ptx",
    "Dispatcher",
    "simulator_enabled",
    "declare_device",
    "pinned",
    "mapped",
    "event",
    "event_elapsed_time",
    "gpus",
    "select_device",
    "external_stream",
    "legacy_default_stream",
    "per_thread_default_stream",
    "MemoryInfo",
    "close",
    "defer_cleanup",
    "Context",
    "Device",
    "Event",
    "vectorize",
    "guvectorize",
    "CUSource",
    "PTXSource",
    "LTOIR",
    "Cubin",
    "Fatbin",
    "Object",
    "Archive",
    "In",
    "Out",
    "InOut",
    "managed_array",
    "set_memory_manager",
    "from_cuda_array_interface",
    "devicearray",
]

# numba.cuda re-exports every type name (cuda.int32, cuda.void, ...), and
# cuda.float32x4, cuda.int16x2, ... and their C aliases (cuda.float4, cuda.double2, ...).
globals().update({_n: getattr(types, _n) for _n in types.__all__})
_VECTOR_TYPES = _vector_types()
globals().update(_VECTOR_TYPES)
__all__ += list(types.__all__) + sorted(_VECTOR_TYPES)

if _os.environ.get("NUMBA_ENABLE_CUDASIM", "").strip() not in ("", "0") and not _os.environ.get("PYDEV_TARGET"):
    _os.environ["PYDEV_TARGET"] = "host"  # Numba's simulator switch selects pydev's host target

simulator_enabled = _os.environ.get("NUMBA_ENABLE_CUDASIM", "").strip() not in ("", "0")


class _DeviceOnly:
    """A device-code function of the `cuda` namespace."""

    def __init__(self, name, impl):
        self._pydev_numba_name = f"cuda.{name}"
        self._impl = impl
        self.__name__ = name

    def _pydev_numba_call(self, c, args, kwargs, node):
        return self._impl(c, args, kwargs, node)

    def __call__(self, *args, **kwargs):
        raise _pydev.DeviceOnlyError(
            f"{self._pydev_numba_name}() can only be called in device code (in a @cuda.jit function)"
        )

    def __repr__(self):
        return f"<pydev.numba {self._pydev_numba_name}>"


class _Namespace:
    """A namespace of device-code functions (`cuda.shared.array`, `cuda.atomic.add`, ...)."""

    def __init__(self, name, doc=None, **members):
        self._pydev_numba_name = f"cuda.{name}"
        if doc:
            self.__doc__ = doc
        for k, v in members.items():
            setattr(self, k, _DeviceOnly(f"{name}.{k}", v))

    def __repr__(self):
        return f"<pydev.numba {self._pydev_numba_name}>"


class _Dim3:
    """A thread-positioning value of device code with `.x`, `.y`, `.z`."""

    _pydev_numba_dim3 = True  # what print tests (the compiler's modules do not import _cuda)

    def __init__(self, name):
        self.__doc__ = _DIM3_DOCS[name]
        self._pydev_numba_name = f"cuda.{name}"
        self._pydev_numba_attr = _b.dim_attr(name)

    def __getattr__(self, name):
        if name in ("x", "y", "z"):
            raise _pydev.DeviceOnlyError(f"{self._pydev_numba_name}.{name} can only be read in device code")
        raise AttributeError(name)


class _DeviceValue:
    """A value only device code reads (`cuda.laneid`)."""

    def __init__(self, name, make):
        self._pydev_numba_name = f"cuda.{name}"
        self._pydev_numba_value = make


_DIM3_DOCS = {
    "threadIdx": "The thread's index in its block (`.x`, `.y`, `.z`), in device code.",
    "blockIdx": "The block's index in the grid (`.x`, `.y`, `.z`), in device code.",
    "blockDim": "The number of threads of a block in each dimension (`.x`, `.y`, `.z`), in device code.",
    "gridDim": "The number of blocks of the grid in each dimension (`.x`, `.y`, `.z`), in device code.",
}
threadIdx, blockIdx, blockDim, gridDim = (_Dim3(n) for n in ("threadIdx", "blockIdx", "blockDim", "gridDim"))
laneid = _DeviceValue("laneid", lambda c, node: _c.TypedValue(_b._lane(c), _t.int32))
warpsize = 32

grid = _DeviceOnly("grid", _b.grid)
gridsize = _DeviceOnly("gridsize", _b.gridsize)
shared = _Namespace(
    "shared", "`cuda.shared.array(shape, dtype)`: an array in the block's shared memory.", array=_b.shared_array
)
local = _Namespace("local", "`cuda.local.array(shape, dtype)`: an array private to the thread.", array=_b.local_array)
const = _Namespace(
    "const",
    "`cuda.const.array_like(ary)`: a module-level NumPy array as a constant array.",
    array_like=_b.const_array_like,
)
atomic = _Namespace(
    "atomic",
    "Atomic read-modify-write on an array element: `cuda.atomic.add(ary, idx, val)` returns the old value "
    "(also sub, and_, or_, xor, exch, inc, dec, max, min, nanmax, nanmin, cas, compare_and_swap).",
    **_b.ATOMICS,
)
_names = [
    "syncthreads",
    "syncthreads_count",
    "syncthreads_and",
    "syncthreads_or",
    "syncwarp",
    "all_sync",
    "any_sync",
    "eq_sync",
    "ballot_sync",
    "shfl_sync",
    "shfl_up_sync",
    "shfl_down_sync",
    "shfl_xor_sync",
    "activemask",
    "lanemask_lt",
    "match_any_sync",
    "match_all_sync",
    "threadfence",
    "threadfence_block",
    "threadfence_system",
    "popc",
    "brev",
    "clz",
    "ffs",
    "fma",
    "cbrt",
    "selp",
    "nanosleep",
]
for _n in _names:
    globals()[_n] = _DeviceOnly(_n, getattr(_b, _n))


def _fp16_binary(op):
    def impl(c, args, kwargs, node):
        _b._nargs(c, args, kwargs, node, 2, name=f"cuda.fp16.{op}")
        a, b = (c.val(c.cast(c.num_arg(x, node), _t.float16, node), node) for x in args)
        return _c.TypedValue(
            getattr(c.f.ops, {"hadd": "add", "hsub": "sub", "hmul": "mul", "hmax": "max", "hmin": "min"}[op])(a, b),
            _t.float16,
        )

    return impl


def _fp16_div(c, args, kwargs, node):
    _b._nargs(c, args, kwargs, node, 2, name="cuda.fp16.hdiv")
    a, b = (c.val(c.cast(c.num_arg(x, node), _t.float16, node), node) for x in args)
    return _c.TypedValue(c.f.ops.truediv(a, b, result=_t.float16.ir), _t.float16)


def _fp16_unary(op):
    def impl(c, args, kwargs, node):
        _b._nargs(c, args, kwargs, node, 1, name=f"cuda.fp16.{op}")
        a = c.val(c.cast(c.num_arg(args[0], node), _t.float16, node), node)
        if op == "hneg":
            return _c.TypedValue(c.f.ops.neg(a), _t.float16)
        if op == "habs":
            return _c.TypedValue(c.f.ops.abs(a), _t.float16)
        if op == "hrcp":
            one = c.val(c.cast(c.lit(1.0, node), _t.float16, node), node)
            return _c.TypedValue(c.f.ops.truediv(one, a, result=_t.float16.ir), _t.float16)
        if op == "hexp10":  # 10**x as exp(x ln 10), in float32 (no math.exp10), rounded once to float16
            x = c.val(c.cast(_c.TypedValue(a, _t.float16), _t.float32, node), node)
            ln10 = c.val(c.cast(c.lit(2.302585092994046, node), _t.float32, node), node)
            e = _c.TypedValue(c.f.emit("math.exp", [c.f.ops.mul(x, ln10)], [_t.float32.ir]), _t.float32)
            return c.cast(e, _t.float16, node)
        name = {"hrint": "roundeven"}.get(op, op[1:])
        return _c.TypedValue(c.f.emit(f"math.{name}", [a], [_t.float16.ir]), _t.float16)

    return impl


def _fp16_fma(c, args, kwargs, node):
    _b._nargs(c, args, kwargs, node, 3, name="cuda.fp16.hfma")
    vals = [c.val(c.cast(c.num_arg(x, node), _t.float16, node), node) for x in args]
    return _c.TypedValue(c.f.emit("math.fma", vals, [_t.float16.ir]), _t.float16)


def _fp16_cmp(pred):
    def impl(c, args, kwargs, node):
        _b._nargs(c, args, kwargs, node, 2, name=f"cuda.fp16.h{pred}")
        a, b = (c.val(c.cast(c.num_arg(x, node), _t.float16, node), node) for x in args)
        return _c.TypedValue(c.f.ops.cmp(a, b, predicate=pred), _t.boolean)

    return impl


fp16 = _Namespace(
    "fp16",
    "Half-precision arithmetic on float16 values (`cuda.fp16.hadd(a, b)`, `hsub`, `hmul`, ...).",
    hadd=_fp16_binary("hadd"),
    hsub=_fp16_binary("hsub"),
    hmul=_fp16_binary("hmul"),
    hmax=_fp16_binary("hmax"),
    hmin=_fp16_binary("hmin"),
    hdiv=_fp16_div,
    hneg=_fp16_unary("hneg"),
    habs=_fp16_unary("habs"),
    hfma=_fp16_fma,
    hsqrt=_fp16_unary("hsqrt"),
    hexp=_fp16_unary("hexp"),
    hexp2=_fp16_unary("hexp2"),
    hexp10=_fp16_unary("hexp10"),
    hlog=_fp16_unary("hlog"),
    hlog2=_fp16_unary("hlog2"),
    hlog10=_fp16_unary("hlog10"),
    hrsqrt=_fp16_unary("hrsqrt"),
    hrcp=_fp16_unary("hrcp"),
    hrint=_fp16_unary("hrint"),
    hsin=_fp16_unary("hsin"),
    hcos=_fp16_unary("hcos"),
    hfloor=_fp16_unary("hfloor"),
    hceil=_fp16_unary("hceil"),
    htrunc=_fp16_unary("htrunc"),
    heq=_fp16_cmp("eq"),
    hne=_fp16_cmp("ne"),
    hlt=_fp16_cmp("lt"),
    hle=_fp16_cmp("le"),
    hgt=_fp16_cmp("gt"),
    hge=_fp16_cmp("ge"),
)

cg = _Namespace(
    "cg",
    "Cooperative groups: `g = cuda.cg.this_grid()` is the kernel's grid, `g.sync()` a grid-wide barrier "
    "(the kernel is then launched cooperatively: every block of its grid resident at once).",
    this_grid=_cooperative.this_grid,
)


# --- jit ---------------------------------------------------------------------------------

_OPTIONS = {
    "device",
    "inline",
    "fastmath",
    "lineinfo",
    "debug",
    "cache",
    "link",
    "opt",
    "max_registers",
    "forceinline",
    "boundscheck",
    "lto",
    "launch_bounds",
    "fmad",
    "passes",
    "plugins",
    "extensions",
    "shared_memory_carveout",
}


def _launch_bounds(bounds):
    """Numba's check of `launch_bounds=`: an int, or at most three of
    (max_threads_per_block, min_blocks_per_sm, max_blocks_per_cluster);
    ints that PTX's 32-bit directives hold, the first positive (a later 0
    sets no bound, as CUDA C's `__launch_bounds__`)."""
    if bounds is None:
        return
    many = bounds if isinstance(bounds, (tuple, list)) else (bounds,)
    if len(many) > 3:
        raise ValueError(
            f"Got {len(many)} launch bounds: {bounds}. A maximum of three are supported: "
            "(max_threads_per_block, min_blocks_per_sm, max_blocks_per_cluster)"
        )
    if not many:
        raise ValueError(
            "launch_bounds=() gives no bound: give max_threads_per_block (an int) or a tuple of 1 to 3 ints"
        )
    names = ("max_threads_per_block", "min_blocks_per_sm", "max_blocks_per_cluster")
    for i, (name, v) in enumerate(zip(names, many)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"launch_bounds: {name} must be an int, got {v!r}")
        if not (1 if i == 0 else 0) <= v < 1 << 31:
            kind = "a positive" if i == 0 else "a non-negative"
            raise ValueError(f"launch_bounds: {name} must be {kind} 32-bit int, got {v}")


def _max_registers(n):
    """`max_registers=`: None (no limit) or a positive int that PTX's
    `.maxnreg` holds."""
    if n is None:
        return
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"max_registers must be an int, got {n!r}")
    if not 1 <= n < 1 << 31:
        raise ValueError(f"max_registers must be a positive 32-bit int, got {n}")


def jit(func_or_sig=None, device=False, **options):
    """`@cuda.jit`, `@cuda.jit(device=True)`, `@cuda.jit("void(float32[:])")`,
    `@cuda.jit(["void(float32[:])", ...])`, `cuda.jit(sig)(fn)`."""
    for k in options:
        if k not in _OPTIONS:
            raise TypeError(f"cuda.jit() got an unexpected keyword argument '{k}'")
    _fastmath(options.get("fastmath"))  # checked when decorated
    if options.get("fmad") is not None and not isinstance(options["fmad"], bool):
        raise TypeError(f"cuda.jit(fmad=...) takes True or False, got {options['fmad']!r}")
    _launch_bounds(options.get("launch_bounds"))
    _max_registers(options.get("max_registers"))
    if options.get("passes") is not None or options.get("plugins") is not None:
        from ... import _passes  # extra passes at the pipeline's points: checked when decorated

        _passes.extra(options.get("passes"), options.get("plugins"), "cuda.jit")
    if options.get("shared_memory_carveout") is not None:
        _carveout(options["shared_memory_carveout"])
    if callable(func_or_sig) and not isinstance(func_or_sig, (_t.Type, _t.Signature)):
        return Dispatcher(func_or_sig, None, device, options)
    sigs = func_or_sig
    # As Numba: a list holds signatures; a tuple (of argument types) is one,
    # and a kernel jitted with one signature is specialized (`specialize` refuses it).
    specialized = sigs is not None and not isinstance(sigs, list) and not device
    if sigs is not None and not isinstance(sigs, list):
        sigs = [sigs]

    def decorate(fn):
        d = Dispatcher(fn, sigs, device, options)
        d._specialized = specialized
        return d

    return decorate


def _carveout(value):
    """cuda.jit(shared_memory_carveout=...): Numba's checks and values
    ("MaxL1" 0, "MaxShared" 100, "default" -1, or a percentage -1..100).
    It is a preference for the split of a unified L1 / shared memory that
    the driver may apply. On the host target there is no such split, so
    it has nothing to set (as on GPUs without one); on cuda pydev's
    launcher does not set a function's carveout, so a value other than the
    driver's default is refused there (at launch) rather than dropped."""
    if isinstance(value, str):
        named = {"default": -1, "maxl1": 0, "maxshared": 100}
        if value.lower() not in named:
            raise ValueError(
                f"Invalid carveout value: {value}. Must be -1 to 100 or one of {list(named)} (cuda.jit(shared_memory_carveout=...))"
            )
        return named[value.lower()]
    if isinstance(value, int) and not isinstance(value, bool):
        if not -1 <= value <= 100:
            raise ValueError(f"shared_memory_carveout={value}: Carveout must be between -1 and 100")
        return value
    raise TypeError(f"shared_memory_carveout must be str or int, got {type(value).__name__}")


_FASTMATH_FLAGS = {"fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc"}


def _fastmath(value):
    """cuda.jit(fastmath=...): True/False, or Numba's set of LLVM flags;
    pydev applies all of them (`fast`) or none."""
    if value is None or value is False:
        return False
    if value is True:
        return True
    if isinstance(value, (set, frozenset, list, tuple, dict)):
        flags = set(value)
        if not flags <= _FASTMATH_FLAGS:
            raise ValueError(
                f"cuda.jit(fastmath=...): unknown fast-math flags {sorted(flags - _FASTMATH_FLAGS)} (known: {', '.join(sorted(_FASTMATH_FLAGS))})"
            )
        if not flags:
            return False
        if "fast" in flags or flags == _FASTMATH_FLAGS - {"fast"}:
            return True
        raise NotImplementedError(
            f"cuda.jit(fastmath={sorted(flags)}): pydev.numba applies every fast-math flag or none: pass fastmath=True"
        )
    raise TypeError(f"cuda.jit(fastmath=...) takes a bool or a set of fast-math flags, got {value!r}")


class _LinkableCode:
    """Numba-CUDA's in-memory link sources (`cuda.CUSource(code)`,
    `PTXSource`, `LTOIR`, `Cubin`, `Fatbin`, `Object`, `Archive`): `link=`
    takes them beside paths. Each is written once to a file named by its
    contents (so kernels' cache keys follow the contents) and linked as that
    file would be."""

    kind = ""

    def __init__(self, data, name=None, setup_callback=None, teardown_callback=None, nrt=False):
        if setup_callback is not None or teardown_callback is not None or nrt:
            raise NotImplementedError(
                f"cuda.{type(self).__name__}: setup_callback, teardown_callback and nrt are not supported by pydev.numba"
            )
        self.data = data
        self.name = name or f"<unnamed-{self.kind}>"
        self._path = None

    def path(self):
        if self._path is None:
            import hashlib
            import tempfile

            raw = self.data.encode() if isinstance(self.data, str) else bytes(self.data)
            d = _os.path.join(tempfile.gettempdir(), f"pydev-numba-link-{_os.getuid()}")
            _os.makedirs(d, exist_ok=True)
            p = _os.path.join(d, hashlib.sha256(raw).hexdigest()[:32] + "." + self.kind)
            if not _os.path.exists(p):
                tmp = f"{p}.{_os.getpid()}.tmp"
                with open(tmp, "wb") as f:
                    f.write(raw)
                _os.replace(tmp, p)
            self._path = p
        return self._path


class CUSource(_LinkableCode):
    """CUDA C++ source to link (`link=[cuda.CUSource(code)]`)."""

    kind = "cu"


class PTXSource(_LinkableCode):
    """PTX to link."""

    kind = "ptx"


class LTOIR(_LinkableCode):
    """LTO-IR to link."""

    kind = "ltoir"


class Cubin(_LinkableCode):
    """A cubin to link."""

    kind = "cubin"


class Fatbin(_LinkableCode):
    """A fatbin to link."""

    kind = "fatbin"


class Object(_LinkableCode):
    """An object file to link."""

    kind = "o"


class Archive(_LinkableCode):
    """An archive (static library) to link."""

    kind = "a"


def _links(link, base_file, owner):
    """The absolute paths of link files `link`: a relative path is relative
    to the directory of `base_file` (the Python file of the decorated or
    declaring code) when the file is there, else to the working directory."""
    if link is None or link == ():
        return ()
    if isinstance(link, (str, _os.PathLike, _LinkableCode)):
        link = [link]
    if not isinstance(link, (list, tuple, set)):
        raise TypeError(f"link= of {owner} must be a list of paths (str or os.PathLike), got {type(link).__name__}")
    base = (
        _os.path.dirname(_os.path.abspath(base_file)) if base_file and not base_file.startswith("<") else _os.getcwd()
    )
    out = []
    for p in link:
        if isinstance(p, _LinkableCode):
            p = p.path()
        if not isinstance(p, (str, _os.PathLike)):
            raise TypeError(f"link= of {owner} holds {p!r}, which is not a path (str or os.PathLike)")
        p = _os.fspath(p)
        full = p if _os.path.isabs(p) else _os.path.join(base, p)
        if not _os.path.exists(full) and not _os.path.isabs(p):
            full = _os.path.abspath(p)
        if not _os.path.isfile(full):
            raise FileNotFoundError(f"link file '{p}' of {owner} does not exist (looked for {full})")
        full = _os.path.normpath(full)
        if full not in out:
            out.append(full)
    return tuple(out)


class _ExternFunction:
    """A foreign device function (`cuda.declare_device`): a C-ABI function
    (`extern "C" __device__ float f(float, int)`) that link files define;
    callable from device code. pydev.numba declares it in the kernel's
    module (`pydev.ir.Module.declare`) and passes the link files to
    `pydev.Program(..., link=...)`, which calls it through pydev's C-ABI
    adapters on the host and links it with nvJitLink on cuda."""

    def __init__(self, name, sig, link, abi="c", symbol=None, unsupported=None):
        self.name = self.__name__ = name
        self.sig = sig
        self.link = link
        self.abi = abi
        self._symbol = symbol or name  # the function the kernel calls: Numba's ABI goes through an adapter
        self._unsupported = unsupported
        self._pydev_numba_name = f"'{name}'"

    def __repr__(self):
        return f"<pydev.numba external device function {self.name}{self.sig}>"

    def __reduce__(self):
        from .. import _pickling  # its link files travel by content

        return _pickling.reduce_extern(self)

    def __call__(self, *args, **kwargs):
        raise _pydev.DeviceOnlyError(f"external device function '{self.name}' can only be called in device code")

    def _pydev_numba_call(self, c, args, kwargs, node):
        if self._unsupported is not None:
            raise c.err(node, f"external device function '{self.name}' ({self.sig}): {self._unsupported}")
        if kwargs:
            raise c.err(node, f"external device function '{self.name}' takes positional arguments")
        if len(args) != len(self.sig.args):
            raise c.err(
                node,
                f"external device function '{self.name}' takes {len(self.sig.args)} arguments ({self.sig}), got {len(args)}",
            )
        vals = [
            c.val(c.cast(c.num_arg(a, node, f"argument {i} of '{self.name}'"), t, node), node)
            for i, (a, t) in enumerate(zip(args, self.sig.args))
        ]
        ret = self.sig.return_type
        void = ret is None or isinstance(ret, _t.NoneType)
        hit = c.mb.externs.get(self._symbol)
        if hit is None:
            if self._symbol in c.mb.names:
                raise c.err(
                    node, f"external device function '{self.name}' has the name of a function of this kernel's module"
                )
            c.mb.names.add(self._symbol)
            decl = c.mb.module.declare(
                self._symbol, [t.ir for t in self.sig.args], [] if void else [ret.ir], loc=c.src.loc(node)
            )
            hit = c.mb.externs[self._symbol] = (decl, self)
        elif hit[1] is not self and repr(hit[1].sig) != repr(self.sig):
            raise c.err(
                node,
                f"external device function '{self.name}' is declared twice with different signatures ({hit[1].sig} and {self.sig})",
            )
        c.mb.add_links(self.link)
        c.at(node)
        r = c.f.call(hit[0], *vals)
        return _c.CompileTimeValue(None) if void else _c.TypedValue(r, ret)


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """Declares a foreign device function: `name` is its C symbol (`extern
    "C"`), `sig` its signature ("float32(float32, int32)"), `link` the files
    that define it (added to every kernel that calls it). `abi="numba"`
    (numba-cuda's default): Numba's ABI, `int f(T* ret, args...)`, called
    through a generated C-ABI adapter (_numba_abi.py); `abi="c"`: `T f(args...)`.
    Arguments and results are numbers and booleans."""
    import sys

    if abi not in ("numba", "c"):
        raise ValueError(f"cuda.declare_device('{name}', ..., abi={abi!r}): the ABI is 'numba' or 'c'")
    if use_cooperative:
        raise NotImplementedError(
            "cuda.declare_device(..., use_cooperative=True): a foreign function that synchronizes the grid "
            "is not supported by pydev.numba (cuda.cg.this_grid().sync() in Python device code is)"
        )
    if not isinstance(name, str) or not name.replace("_", "a").isalnum() or name[0].isdigit():
        raise ValueError(f"cuda.declare_device: the name must be a C identifier, got {name!r}")
    sig = _as_signature(sig)
    if sig.return_type is None:
        raise TypeError(
            f"cuda.declare_device('{name}', {sig}): Return type must be provided for device declarations "
            "(int32(int32), void(float32), ...)"
        )
    frame = sys._getframe(1)
    links = _links(link, frame.f_code.co_filename, f"cuda.declare_device('{name}')")
    bad = next(
        (
            t
            for t in list(sig.args) + ([sig.return_type] if sig.return_type not in (None, _t.void) else [])
            if not _c._is_num(t) or getattr(t, "kind", None) == "c"
        ),
        None,
    )
    if abi == "c":
        if bad is not None:
            raise TypeError(
                f"cuda.declare_device('{name}', '{sig}'): {bad} cannot cross the C ABI in pydev.numba (numbers and booleans only)"
            )
        return _ExternFunction(name, sig, links)
    bad = bad if bad is not None else _numba_abi.unsupported(sig)
    if bad is not None:
        # Declared as numba-cuda declares it; a call is the error.
        why = f"{bad} cannot cross Numba's ABI in pydev.numba (numbers and booleans only)"
        return _ExternFunction(name, sig, links, abi="numba", unsupported=why)
    symbol, src = _numba_abi.adapter(name, sig)
    return _ExternFunction(name, sig, links + (CUSource(src).path(),), abi="numba", symbol=symbol)


def _as_signature(sig):
    if isinstance(sig, str):
        sig = _t.parse(sig)
    if isinstance(sig, _t.Signature):
        return sig
    if isinstance(sig, (tuple, list)):
        return _t.Signature(None, [_t.parse(a) if isinstance(a, str) else a for a in sig])
    raise TypeError(f"a signature is a string ('void(float32[:])'), a numba signature or a tuple of types, got {sig!r}")


def _complex_records(t):
    """Whether `t` is an array of records with complex fields (passed viewed
    with the complex parts as fields: types.Record.kernel_dtype)."""
    return isinstance(t, _t.Array) and isinstance(t.dtype, _t.Record) and t.dtype.kernel_dtype is not None


def _array_matches(got, want):
    return (
        isinstance(got, _t.Array)
        and got.dtype == want.dtype
        and got.ndim == want.ndim
        and (
            want.layout == "A"
            or got.layout == want.layout
            or got.ndim == 1
            and want.layout in "CF"
            and got.layout in "CF"
        )
    )


def _conversion(got, want):
    """Numba's kinds of argument conversion: 0 exact, 1 promote (a wider
    type of the same kind), 2 safe, 3 unsafe; None: not convertible (an
    array of another type, a complex number to a real type)."""
    if got == want:
        return 0
    if isinstance(want, _t.Array):
        return 0 if _array_matches(got, want) else None
    if not (_c._is_num(want) and _c._is_num(got)):
        return None
    if got.dtype.kind == "c" and want.dtype.kind != "c":
        return None
    if _np.can_cast(got.dtype, want.dtype, "safe"):
        return 1 if got.dtype.kind == want.dtype.kind else 2
    return 3


def _best_signature(signatures, types, what, ambiguity_is_error=True):
    """The signature the arguments convert to best, as Numba's overload
    resolution: fewest unsafe, then safe, then promoting conversions; None
    when none fits; when two fit equally well a TypeError for a kernel and
    the first of them for a device function (Numba's behaviour, its issue 8307)."""
    best, best_rank = [], None
    for sig in signatures:
        if len(sig.args) != len(types):
            continue
        kinds = [_conversion(got, want) for got, want in zip(types, sig.args)]
        if None in kinds:
            continue
        rank = (kinds.count(3), kinds.count(2), kinds.count(1))
        if best_rank is None or rank < best_rank:
            best, best_rank = [sig], rank
        elif rank == best_rank:
            best.append(sig)
    if len(best) > 1 and ambiguity_is_error:
        raise TypeError(
            f"Ambiguous overloading for {what} with argument types ({', '.join(map(str, types))}): "
            f"{', '.join(map(str, best))} fit equally well"
        )
    return best[0] if best else None


def _low_occupancy(grid):
    """numba-cuda's warning for a `kernel[grid, block]` of fewer than 128
    blocks (its heuristic: a grid under twice the SMs of most GPUs), given
    when the launch configuration is made (not again from the cache)."""
    blocks = grid[0] * grid[1] * grid[2]
    if blocks < 128:
        from ..core.errors import NumbaPerformanceWarning

        _warnings.warn(
            NumbaPerformanceWarning(
                f"Grid size {blocks} will likely result in GPU under-utilization due to low occupancy."
            ),
            stacklevel=3,
        )


def _reinterpreted(sig, types, args):
    """A specialized kernel (one signature) launches its sole overload
    without matching argument types (Numba's `_specialized` dispatcher): an
    array whose dtype differs from the parameter's but has its itemsize and
    dimensions passes its buffer as the parameter's dtype (Numba passes the
    data pointer as it is); (None, args) when an argument cannot."""
    if len(sig.args) != len(types):
        return None, args
    out = []
    for a, got, want in zip(args, types, sig.args):
        if (
            isinstance(want, _t.Array)
            and isinstance(got, _t.Array)
            and got.dtype != want.dtype
            and _array_matches(_t.Array(want.dtype, got.ndim, got.layout), want)
            and isinstance(getattr(want.dtype, "dtype", None), _np.dtype)
            and hasattr(a, "view")
            and _np.dtype(a.dtype).itemsize == want.dtype.dtype.itemsize
        ):
            a = a.view(want.dtype.dtype)
        elif _conversion(got, want) is None:
            return None, args
        out.append(a)
    return sig, tuple(out)


class Dispatcher:
    """A `@cuda.jit` function: a kernel (launch with `kernel[grid, block]`)
    or a device function (`device=True`, callable from device code)."""

    def __init__(self, py_func, sigs, device, options):
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__qualname__ = py_func.__qualname__
        self.__module__ = py_func.__module__  # pickled by this name when importable
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func
        self.device = bool(device)
        self.options = dict(options)
        self.link = _links(
            self.options.get("link"), py_func.__code__.co_filename, f"@cuda.jit '{py_func.__qualname__}'"
        )
        self.options["fastmath"] = _fastmath(self.options.get("fastmath"))
        self._src = None
        self._lock = _threading.Lock()
        self.overloads = {}  # argument types -> pydev.Program, for kernels
        self._fast = {}  # _fingerprint of each argument -> (Program, scalar converters, general path, NumPy arguments on the host)
        self._configs = {}  # kernel[config] -> its _Configured
        # Numba's argument-handler hook: objects with prepare_args(ty, val,
        # stream=, retr=), applied last to first at each launch. One list for
        # the dispatcher's life (its launchers hold it): assigning replaces its items.
        self._extensions = list(self.options.get("extensions") or [])
        self._specialized = False
        self.specializations = {}  # (target, device, argument types) -> specialized Dispatcher
        self._resources = {}  # argument types -> _kernel_info.resources of its Program
        self._captures = {}  # argument types -> the device arrays its Program reads from globals (trailing arguments)
        self._declared = []
        self._pydev_numba_name = f"'{py_func.__qualname__}'"
        if sigs:
            for s in sigs:
                sig = _as_signature(s)
                if not self.device and sig.return_type not in (None, _t.void):
                    raise TypeError(f"a kernel returns void, the signature {sig} returns {sig.return_type}")
                self._declared.append(sig)
                if not self.device:
                    self.compile(tuple(sig.args))

    def __repr__(self):
        return f"<pydev.numba {'device function' if self.device else 'kernel'} {self.py_func.__qualname__}>"

    @property
    def signatures(self):
        """numba-cuda's: the signatures of the function. Those it was given;
        for a kernel given none, one per argument types it has compiled for
        (`void(...)`, in compile order)."""
        if self._declared or self.device:
            return self._declared
        return [_t.Signature(_t.void, types) for types in self.overloads]

    @property
    def extensions(self):
        """Numba's argument handlers: objects whose `prepare_args(ty, val,
        stream=..., retr=...)` returns `(ty, val)`; at each launch every
        argument goes through them, from the last to the first, before it is
        passed (`val` may become a `cuda.In`/`Out`/`InOut` hint); `retr`
        collects zero-argument functions called after the launch."""
        return self._extensions

    @extensions.setter
    def extensions(self, value):
        self._extensions[:] = list(value or [])

    @property
    def specialized(self):
        """True for a kernel jitted with one signature or made by `specialize`."""
        return self._specialized

    def __reduce_ex__(self, protocol):
        """By reference when importable, else by value, without its compiled
        overloads, lock or launch caches (pydev.numba._pickling)."""
        from .. import _pickling

        return _pickling.reduce_dispatcher(self)

    # -- source and compiling --
    def source(self):
        if self._src is None:
            try:
                self._src = _c.Src(self.py_func)
            except (OSError, SyntaxError) as e:
                code = self.py_func.__code__
                raise _pydev.CompileError(
                    f"{code.co_filename}:{code.co_firstlineno}: error: cannot read the source of '{self.py_func.__qualname__}' ({e}): "
                    "pydev.numba compiles @cuda.jit functions from their Python source, not from bytecode as Numba does\n"
                    "  = help: define the function in a file, a notebook cell, an IPython session, `python -c`, or a string "
                    "given to exec()/compile() after pydev.numba is imported; or register the text of its file in linecache "
                    "(linecache.cache[filename] = (size, None, lines, filename))"
                ) from None
        return self._src

    def local_names(self):
        code = self.py_func.__code__
        return set(code.co_varnames) | set(code.co_cellvars)

    def compile(self, argtypes):
        """The pydev.Program for these argument types (compiled once)."""
        argtypes = tuple(argtypes)
        hit = self.overloads.get(argtypes)
        if hit is not None:
            return hit
        if self.device:
            raise TypeError("a device function is compiled into the kernels that call it")
        for i, t in enumerate(argtypes):
            if isinstance(t, _t.CPointer):
                raise TypeError(
                    f"kernel '{self.__name__}': parameter {i} has the pointer type {t}; pydev.numba has no pointer "
                    "values (pass an array: a device array, or cuda.as_cuda_array of the memory)"
                )
        with self._lock:
            hit = self.overloads.get(argtypes)
            if hit is not None:
                return hit
            try:
                module, name, mb = _c.compile_kernel(self, argtypes)
            except _c.NumbaError as e:
                from ..core import errors

                raise getattr(errors, e.kind or "TypingError")(
                    _c.render(getattr(e, "src", None) or self.source(), e.node, e.message, e.help)
                ) from None
            self._captures[argtypes] = mb.kernel_captures
            links = list(self.link)
            for p in mb.links:
                if p not in links:
                    links.append(p)
            program = _pydev.Program(
                module,
                kernel=name,
                filename=self.source().file,
                link=links,
                lineinfo=bool(self.options.get("lineinfo")) or mb.lineinfo,
                fastmath=self.options["fastmath"],
                # cache=False: no disk cache (Numba keeps such kernels in memory only)
                cache=self.options.get("cache", True) is not False,
                # None: PYDEV_BOUNDSCHECK decides (Numba: NUMBA_BOUNDSCHECK)
                boundscheck=None if self.options.get("boundscheck") is None else bool(self.options["boundscheck"]),
                # fmad=False: no multiply-add contraction (None: PYDEV_FMAD decides)
                fmad=self.options.get("fmad"),
                passes=self.options.get("passes"),
                plugins=self.options.get("plugins"),
            )
            # debug=True: the exceptions its device code raises (class, arguments,
            # where), by the id the failure record names (_exceptions.host_exception)
            program._pydev_numba_exceptions = tuple(getattr(mb, "exceptions", ()))
            _kernel.add_cooperative_api(program, mb.grid_sync)
            program._type_annotation = _kernel.TypeAnnotation(mb.kernel_typemap)
            self.overloads[argtypes] = program
            return program

    @property
    def definitions(self):
        return dict(self.overloads)

    def _pydev_numba_call(self, c, args, kwargs, node):
        if kwargs:
            raise c.err(node, "device functions take positional arguments in pydev.numba")
        if not self.device and self._declared:
            # Without signatures a @cuda.jit function called from device code
            # is compiled as a device function, as in Numba-CUDA.
            raise c.err(
                node,
                f"kernel '{self.__name__}' (compiled for its signatures) cannot be called from device code "
                "(make it @cuda.jit(device=True))",
            )
        types = []
        literal_types = []  # with literal arguments as constants (Numba's literal typing)
        for a in args:
            if isinstance(a, _c.CompileTimeValue):
                if self._declared:
                    raise c.err(
                        node,
                        f"{_c._describe(a.obj)} cannot be passed to a device function with a signature "
                        "(leave the signature out: it is compiled for each such constant)",
                    )
                types.append(_t.Constant(a.obj))  # first-class types and functions, as in Numba
                literal_types.append(types[-1])
                continue
            lit = None if self._declared else _c.literal_of(a)
            types.append(a.t)
            literal_types.append(a.t if lit is None else _t.Constant(None, literal=lit))
        if self._declared:
            try:
                sig = _best_signature(self._declared, types, f"device function '{self.__name__}'", False)
            except TypeError as e:
                raise c.err(node, str(e)) from None
            if sig is None:
                raise c.err(
                    node,
                    f"No matching definition of '{self.__name__}' for argument types "
                    f"({', '.join(map(str, types))}); signatures: {', '.join(map(str, self._declared))}",
                )
            args = [c.cast(a, t, node) if _c._is_num(t) else a for a, t in zip(args, sig.args)]
            types = list(sig.args)
        try:
            fn, rtype = _c.compile_device(c.mb, self, types, node)
        except _c.NumbaError:
            # As Numba: the callee is typed with the arguments' plain types
            # first, and with its literal arguments as constants (a shape
            # from an argument) when that fails.
            if literal_types == types:
                raise
            types = literal_types
            fn, rtype = _c.compile_device(c.mb, self, types, node)
        c.mb.add_links(self.link)
        c.mb.lineinfo |= bool(self.options.get("lineinfo"))
        flat = []
        for a, t in zip(args, types):
            if not isinstance(t, _t.Constant):  # constants have no run-time value
                flat += c._flatten(a, node)
        for captured in c.mb.captures.get(id(fn), ()):  # the device arrays the callee reads from globals
            flat.append(c.val(c.captured_array(captured, node), node))
        c.at(node)
        r = c.f.call(fn, *flat)
        _exceptions.after_call(c, fn.name)  # its thread raised there: the caller returns too
        if rtype is None or isinstance(rtype, _t.NoneType):
            return _c.CompileTimeValue(None)
        vals = [r] if not isinstance(r, tuple) else list(r)
        return c._unflatten(rtype, vals)

    def __call__(self, *args, **kwargs):
        if self.device:
            raise _pydev.DeviceOnlyError(f"device function '{self.__name__}' can only be called in device code")
        raise ValueError(
            f"kernel '{self.__name__}' launched without a configuration (launch configuration was not specified): "
            f"use {self.__name__}[griddim, blockdim](...)"
        )

    # -- launching --
    def __getitem__(self, config):
        if self.device:  # Numba's error and words
            raise RuntimeError(
                f"Cannot compile a device function as a kernel: device function '{self.__name__}' cannot be launched "
                "(call it from a @cuda.jit kernel)"
            )
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError(
                "a launch configuration is [griddim, blockdim] or [griddim, blockdim, stream, dynamic_shared_bytes]"
            )
        # Kept by exact ints (1.0 == 1 must not find 1's entry) and the
        # stream object's identity (the cached entry holds it: its id stays its own).
        cacheable = all(
            type(x) is int or type(x) is tuple and all(type(y) is int for y in x) for x in config[:2] + config[3:]
        )
        key = config[:2] + (id(config[2]),) + config[3:] if len(config) > 2 else config
        hit = self._configs.get(key) if cacheable else None
        if hit is not None and not hit.pre_launch_callbacks:  # callbacks belong to the one configuration given them
            # Its low-occupancy warning was given when it was made (numba-cuda
            # warns at each `kernel[grid, block]`; Python's default filter
            # shows a warning once per line anyway): warnings.warn would be
            # the cached launch's largest cost.
            return hit
        grid, block = config[0], config[1]
        for what, dim in (("griddim", grid), ("blockdim", block)):  # Numba's checks and messages
            seq = list(dim) if isinstance(dim, (tuple, list)) else [dim]
            if not 1 <= len(seq) <= 3:
                raise ValueError(f"{what} must be a sequence of 1, 2 or 3 integers, got {seq}")
            if not all(isinstance(x, (int, _np.integer)) for x in seq):
                raise TypeError(f"{what} must be a sequence of integers, got {seq}")
        # As Numba's launcher: .griddim and .blockdim are 3-tuples.
        grid, block = (tuple(int(x) for x in (list(d) if isinstance(d, (tuple, list)) else [d])) for d in (grid, block))
        grid, block = grid + (1,) * (3 - len(grid)), block + (1,) * (3 - len(block))
        stream = config[2] if len(config) > 2 else 0
        shared_bytes = config[3] if len(config) > 3 else 0
        hit = _Configured(self, grid, block, stream, shared_bytes)
        if _config.CUDA_LOW_OCCUPANCY_WARNINGS and not _config.DISABLE_PERFORMANCE_WARNINGS:
            _low_occupancy(grid)
        if cacheable:
            try:
                if len(self._configs) >= 64:
                    self._configs.clear()
                self._configs[key] = hit  # a launch configuration used again is the same object
            except TypeError:
                pass
        return hit

    def configure(self, griddim, blockdim, stream=0, sharedmem=0):
        """Numba's `kernel.configure(grid, block, stream, sharedmem)`: the
        launcher `kernel[grid, block, stream, sharedmem]` is."""
        return self[griddim, blockdim, stream, sharedmem]

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """Launches with at least `ntasks` threads in 1-d blocks of `tpb` (128 when 0)."""
        if ntasks < 0:
            raise ValueError(f"Can't create ForAll with negative task count: {ntasks}")
        tpb = int(tpb) or 128
        return _Configured(self, max(1, (int(ntasks) + tpb - 1) // tpb), tpb, stream, sharedmem)

    def _types_of(self, args):
        types = tuple(_t.typeof(a) for a in args)
        if not self._declared:
            return types, args
        sig = _best_signature(self._declared, types, f"kernel '{self.__name__}'")
        if sig is None and self._specialized:
            sig, args = _reinterpreted(self._declared[0], types, args)
        if sig is not None:
            conv = [
                _scalar_converter(want)(a) if _c._is_num(want) and not isinstance(want, _t.Array) else a
                for a, want in zip(args, sig.args)
            ]
            return tuple(sig.args), tuple(conv)
        raise TypeError(
            f"No matching definition for argument types ({', '.join(map(str, types))}) of kernel "
            f"'{self.__name__}' (Numba's words); its signatures: {', '.join(map(str, self._declared))}"
        )

    def _launch(self, args, grid, block, stream, shared_bytes):
        """Steady state: a cheap fingerprint of the arguments' types
        (`_fingerprint`) finds the compiled specialisation and the
        converters of its scalar arguments (Python numbers become NumPy
        scalars of the parameter's dtype, which the launch fast path packs
        natively); then `device.launch` of the pydev.Program."""
        try:
            key = tuple(map(_fingerprint, args))
            hit = self._fast.get(key)
        except TypeError:  # an unhashable argument
            key = hit = None
        if hit is None:
            hit = self._prepare(args)
            if key is not None and None not in key:
                if len(self._fast) >= 512:  # many shapes of strided arrays: start again
                    self._fast.clear()
                self._fast[key] = hit
        program, conv, general, host_arrays = hit
        if self._extensions:
            general = True  # each argument goes through the handlers
        if host_arrays and _pydev.active_target() != "host":
            general = True  # NumPy arguments prepared on the host target: cuda copies them
        if stream is None or (type(stream) is int and stream == 0):  # Numba's default stream argument is the int 0
            stream = _pydev.default_stream()
        if general:
            return self._launch_general(args, grid, block, stream, shared_bytes)
        if conv is not None:
            args = list(args)
            for i, c in conv:
                args[i] = c(args[i])
        _device.launch(program, *args, grid=grid, block=block, stream=stream, shared=shared_bytes)

    def _prepare(self, args):
        """(Program, converters or None, general) for arguments like `args`:
        `general` when the launch needs more than conversions (tuples to
        flatten, NumPy or mapped arrays that may need the device)."""
        types, converted = self._types_of(args)
        program = self.compile(types)
        carveout = self.options.get("shared_memory_carveout")
        if carveout is not None and _carveout(carveout) != -1 and _pydev.active_target() == "cuda":
            raise NotImplementedError(
                f"kernel '{self.__name__}': shared_memory_carveout={carveout!r} is not applied by pydev's launcher on "
                "the cuda target (leave it out, or 'default' / -1)"
            )
        general = (
            any(c is not a for c, a, t in zip(converted, args, types) if isinstance(t, _t.Array))  # reinterpreted
            or any(isinstance(t, _t.Constant) for t in types)  # enum members: no run-time value
            or bool(self._captures.get(types))
            or any(isinstance(t, (_t.UniTuple, _t.Tuple, _t.Record)) or _complex_records(t) for t in types)
            or any(_datetimes(t) for t in types)
            or bool(getattr(program, "_pydev_numba_exceptions", ()))  # the launch raises what the kernel raised
            or any(
                isinstance(a, (_np.ndarray, _ArgHint))
                and (type(a) is not _np.ndarray or _pydev.active_target() == "cuda")
                for a in args
            )
        )
        conv = []  # (position, converter)
        for i, (a, t) in enumerate(zip(args, types)):
            if _c._is_num(t) and not isinstance(t, _t.Boolean) and type(a) is not t.dtype.type:
                conv.append(
                    (i, _scalar_converter(t))
                )  # a Python number (or another dtype, with a signature) to the parameter's dtype
            elif isinstance(t, _t.Boolean) and type(a) is not bool:
                conv.append((i, bool))
        # NumPy arguments pass as they are on the host target only: whether
        # the target is still the host is checked on each such launch.
        host_arrays = not general and any(isinstance(a, _np.ndarray) for a in args)
        return program, (tuple(conv) or None), general, host_arrays

    def _launch_general(self, args, grid, block, stream, shared_bytes):
        types, args = self._types_of(args)
        program = self.compile(types)
        captured = self._captures.get(types, ())
        retr = []  # what the argument hints do after the launch (copies back)
        if self._extensions or any(isinstance(a, _ArgHint) for a in args):
            args, types = self._apply_hints(args, types, stream, retr)
        flat = []
        records = []  # (the record argument, the 1-element array the kernel reads and writes)
        for a, t in zip(args, types):
            if isinstance(t, _t.Constant):
                continue  # a compile-time constant of the kernel (an enum member): no parameter
            if isinstance(t, (_t.UniTuple, _t.Tuple)):
                flat += _flatten_value(a)
            elif isinstance(t, _t.Record):
                # By reference, as Numba: the kernel gets a 1-element array,
                # copied back into the record after the launch.
                tmp = _np.array([a], dtype=t.dtype_np)
                records.append((a, tmp))
                flat.append(tmp if t.kernel_dtype is None else tmp.view(t.kernel_dtype))
            elif _complex_records(t):
                if not isinstance(a, _np.ndarray):
                    raise NotImplementedError(
                        f"argument of type {t}: records with complex fields pass to kernels in NumPy arrays only "
                        "(pydev.numba views them with the complex parts as fields)"
                    )
                flat.append(a.view(t.dtype.kernel_dtype))
            elif _c._is_num(t) and not isinstance(t, _t.Boolean):
                flat.append(_scalar_converter(t)(a))
            elif _datetimes(t):
                # The kernel's datetimes and timedeltas are int64 counts of their unit.
                flat.append(
                    a.view(_np.int64) if isinstance(t, _t.Array) else _np.int64(_np.asarray(a, t.dtype).view(_np.int64))
                )
            else:
                flat.append(a)
        flat += captured  # device arrays read from globals: the kernel's trailing parameters
        copies = []
        if any(isinstance(a, _np.ndarray) for a in flat) and _pydev.active_target() == "cuda":
            for i, a in enumerate(flat):
                if callable(getattr(a, "device_view", None)):  # a mapped array (pydev.pinned_array(..., mapped=True))
                    flat[i] = a.device_view()  # the device's view of mapped memory: read and written in place
                elif isinstance(a, _np.ndarray):
                    # Numba copies NumPy arguments to the device and back
                    d = _pydev.to_device(a, stream=stream)
                    copies.append((a, d))
                    flat[i] = d
        if getattr(program, "_pydev_numba_exceptions", ()):
            _launch_raising(program, flat, grid, block, stream, shared_bytes)
        else:
            _device.launch(program, *flat, grid=grid, block=block, stream=stream, shared=shared_bytes)
        if retr:
            stream.synchronize()
            for done in retr:
                done()
        if copies:
            stream.synchronize()
            for host, d in copies:
                host[...] = d.copy_to_host()
        if records:
            if not copies:
                synchronize()
            for rec, tmp in records:
                if isinstance(rec, _np.void) and rec.dtype.names:
                    for name in rec.dtype.names:
                        rec[name] = tmp[0][name]

    def _apply_hints(self, args, types, stream, retr):
        """Numba's argument preparation: each argument through the
        extensions (last to first), then a `cuda.In`/`Out`/`InOut` hint
        replaced by what its transfer gives the kernel."""
        out_args, out_types = [], []
        for a, t in zip(args, types):
            for ext in reversed(self._extensions):
                t, a = ext.prepare_args(t, a, stream=stream, retr=retr)
            if isinstance(a, _ArgHint):
                a = a.to_device(retr, stream)
            out_args.append(a)
            out_types.append(t)
        return tuple(out_args), tuple(out_types)

    # -- inspection --
    def inspect_types(self, signature=None, file=None):
        """The pydev IR of each compiled signature (Numba prints annotated types)."""
        out = []
        for argtypes, prog in self._select(signature):
            out.append(f"{self.__name__} ({', '.join(map(str, argtypes))})\n{prog.text}")
        text = "\n".join(out)
        if file is not None:
            print(text, file=file)
            return None
        print(text)
        return None

    def _select(self, signature):
        items = list(self.overloads.items())
        if signature is not None:
            key = (
                tuple(_as_signature(signature).args)
                if not isinstance(signature, tuple) or not all(isinstance(x, _t.Type) for x in signature)
                else tuple(signature)
            )
            items = [(k, v) for k, v in items if k == key]
            if not items:
                items = [(key, self.compile(key))]
        return items

    def _stage(self, stage, signature, cc=None):
        target = f"sm_{cc[0]}{cc[1]}" if cc else "sm_90"
        res = {types: prog.compile(target=target, stage=stage) for types, prog in self._select(signature)}
        if signature is not None:
            return next(iter(res.values()))
        return res

    def inspect_asm(self, signature=None, cc=None):
        """PTX (a dict by signature, or one text for `signature`)."""
        return self._stage("ptx", signature, cc)

    def inspect_llvm(self, signature=None, cc=None):
        return self._stage("llvm-ir", signature, cc)

    def inspect_pydev(self, signature=None, stage="pydev", target="sm_90"):
        """Any pydev stage: 'pydev', 'pydev-opt', 'llvm', 'llvm-ir', 'ptx'."""
        res = {types: prog.compile(target=target, stage=stage) for types, prog in self._select(signature)}
        return next(iter(res.values())) if signature is not None else res

    def specialize(self, *args):
        """Numba's `kernel.specialize(*args)`: a new kernel compiled for the
        types of `args` (values, or pydev.numba types) that compiles nothing
        else; the same object for the same types (`specializations`). A
        specialized kernel cannot be specialized again (RuntimeError)."""
        if self.device:
            raise RuntimeError(f"device function '{self.__name__}' cannot be specialized as a kernel")
        types = tuple(a if isinstance(a, _t.Type) else _t.typeof(a) for a in args)
        if self._specialized:
            raise RuntimeError(f"Dispatcher already specialized: kernel '{self.__name__}' compiles only its signature")
        key = (_pydev.active_target(), _pydev.current_device(), types)
        hit = self.specializations.get(key)
        if hit is None:
            options = {k: v for k, v in self.options.items() if k != "extensions"}
            hit = Dispatcher(self.py_func, [_t.Signature(None, types)], False, options)
            hit._extensions = self._extensions  # the same handlers, as Numba's target options share them
            hit._specialized = True
            self.specializations[key] = hit
        return hit

    # -- resource usage (Numba's kernel properties: _kernel_info.py says how each target measures them) --
    def _resource(self, what, signature):
        if self.device:
            raise RuntimeError(f"device function '{self.__name__}' has no {what.replace('_', ' ')} of its own")

        def of(types):
            hit = self._resources.get(types)
            if hit is None:
                from . import _kernel_info

                hit = self._resources[types] = _kernel_info.resources(self.compile(types))
            return hit[what]

        if signature is not None:
            sig = signature if isinstance(signature, tuple) else tuple(_as_signature(signature).args)
            if sig not in self.overloads:
                raise KeyError(
                    f"kernel '{self.__name__}' is not compiled for {sig} (its overloads: {list(self.overloads)})"
                )
            return of(sig)
        if self._specialized:
            return of(next(iter(self.overloads)))
        return {types: of(types) for types in list(self.overloads)}

    def get_regs_per_thread(self, signature=None):
        """Registers per thread of the kernel compiled for `signature` (a
        signature or a tuple of argument types; a dict by argument types for
        every compiled signature when None, the one figure when specialized)."""
        return self._resource("regs_per_thread", signature)

    def get_shared_mem_per_block(self, signature=None):
        """Bytes of static shared memory per block (as get_regs_per_thread)."""
        return self._resource("shared_mem_per_block", signature)

    def get_local_mem_per_thread(self, signature=None):
        """Bytes of local memory per thread (as get_regs_per_thread)."""
        return self._resource("local_mem_per_thread", signature)

    def get_const_mem_size(self, signature=None):
        """Bytes of user constant memory (as get_regs_per_thread)."""
        return self._resource("const_mem_size", signature)

    def get_max_threads_per_block(self, signature=None):
        """The largest block the kernel launches with (as get_regs_per_thread)."""
        return self._resource("max_threads_per_block", signature)

    def inspect_sass(self, signature=None):
        """SASS is not produced by pydev.numba's pipeline (a RuntimeError for a
        device function, as Numba's; NotImplementedError for a kernel)."""
        if self.device:
            raise RuntimeError("Cannot inspect SASS of a device function")
        raise NotImplementedError(
            f"inspect_sass of kernel '{self.__name__}': pydev.numba gives PTX (inspect_asm) and the cubin "
            "(pydev.compile(kernel, sig, stage='cubin')), not disassembled SASS"
        )

    # -- the backend's protocols: pydev.compile and device.launch take a kernel as they take a Program --
    def __pydev_compile__(self, argtypes, target, stage, fmad=None, extra=None):
        """pydev.compile(kernel, argtypes, target, stage): that stage of the
        pydev.Program of `argtypes` (a signature: 'void(float32[:])', a
        Numba signature or a tuple of Numba types; or a list of example
        arguments; None: the kernel's only signature or compiled overload)."""
        if self.device:
            raise TypeError(
                f"'{self.__name__}' is a device function: it is compiled into the kernels that call it; compile one of them"
            )
        if argtypes is None:
            known = [tuple(s.args) for s in self._declared] or list(self.overloads)
            if len(known) != 1:
                raise TypeError(
                    f"kernel '{self.__name__}' has {len(known)} signatures: pass argtypes (a signature or example arguments)"
                )
            types = known[0]
        elif isinstance(argtypes, (str, _t.Signature)) or (
            isinstance(argtypes, (tuple, list)) and all(isinstance(a, (_t.Type, str)) for a in argtypes)
        ):
            types = tuple(_as_signature(argtypes).args)
        elif isinstance(argtypes, (tuple, list)):
            types, _ = self._types_of(tuple(argtypes))
        else:
            raise TypeError(
                f"argtypes must be a signature, a tuple of Numba types or a list of example arguments, got {argtypes!r}"
            )
        return self.compile(types).__pydev_compile__(None, target, stage, fmad, extra)

    def __pydev_launch__(self, args, *, grid, block, stream, shared, fast):
        """device.launch(kernel, *args, ...): as kernel[grid, block, stream, shared](*args)."""
        if self.device:
            raise TypeError(f"launch() takes a kernel; '{self.__name__}' is a device function (call it from a kernel)")
        self._launch(tuple(args), grid, block, stream, shared)


_jitlib.register_dispatcher(Dispatcher)


_DeviceArray = _pydev.DeviceArray
# Importing it makes `cuda.args` the module (numba.cuda.args).
from .args import ArgHint as _ArgHint  # noqa: E402
from .args import In, InOut, Out  # noqa: E402,F401

_device_launch = _device.launch
_SCALAR_TYPES = (int, float, bool, complex)


def _fingerprint(a):
    """A cheap key that determines the Numba type of launch argument `a`
    (None: none, the argument is typed every launch)."""
    t = type(a)
    if t is _DeviceArray:
        # pydev.DeviceArray's interned "target:signature" key (its dtype,
        # rank and layout), fixed for the array's life; computing strides
        # on cuda costs more than the rest of the launch.
        k = a.type_key
        return k if k is not None else (t, a.dtype, a.shape, a.strides)
    if t is _np.ndarray:
        fl = a.flags
        return (t, a.dtype, a.ndim, fl.c_contiguous, fl.f_contiguous)
    if t in _SCALAR_TYPES:
        return t
    if isinstance(a, _np.generic) and t is not _np.void:
        return t
    return None


def _scalar_converter(t):
    """How a Python or NumPy number becomes a kernel parameter of number type
    `t`: the dtype's scalar; an integer out of the parameter's range wraps
    modulo 2**bits, as numba-cuda's `ctypes.c_<type>(value)` does
    (0xFFFFFFFF for an int32 is -1)."""
    to = t.dtype.type
    if t.dtype.kind not in "iu":
        return to
    lo, span = int(_np.iinfo(t.dtype).min), 1 << (8 * t.dtype.itemsize)

    def wrap(a):
        try:
            return to(a)
        except OverflowError:
            return to((int(a) - lo) % span + lo)

    return wrap


def _flatten_value(v):
    out = []
    for x in v:
        out += _flatten_value(x) if isinstance(x, tuple) else [x]
    return out


def _datetimes(t):
    """Whether `t` is a datetime64 or timedelta64 type, or an array of them."""
    return isinstance(t, _t.NPDatetime) or isinstance(t, _t.Array) and isinstance(t.dtype, _t.NPDatetime)


class _Configured:
    """kernel[grid, block, stream, shared]: launches with that configuration."""

    __slots__ = ("dispatcher", "griddim", "blockdim", "stream", "sharedmem", "pre_launch_callbacks", "_fast", "_ext")

    def __init__(self, disp, grid, block, stream, shared_bytes):
        self.dispatcher, self.griddim, self.blockdim, self.stream, self.sharedmem = (
            disp,
            grid,
            block,
            stream,
            shared_bytes,
        )
        # numba-cuda's: each is called as callback(kernel, launch_config)
        # just before each launch of this configuration.
        self.pre_launch_callbacks = []
        self._fast = disp._fast
        self._ext = disp._extensions

    def __reduce__(self):
        if self.pre_launch_callbacks:
            raise _pickle.PicklingError("Cannot pickle configured launches with pre-launch callbacks")
        return _Configured, (self.dispatcher, self.griddim, self.blockdim, self.stream, self.sharedmem)

    def __call__(self, *args):
        if self.pre_launch_callbacks:
            # The kernel the arguments select (compiled now if new), as numba-cuda passes it.
            kernel = self.dispatcher.compile(self.dispatcher._types_of(args)[0])
            for callback in self.pre_launch_callbacks:
                callback(kernel, self)
        # The steady state inline (Dispatcher._launch is the whole story).
        try:
            hit = self._fast.get(tuple(map(_fingerprint, args)))
        except TypeError:
            hit = None
        stream = self.stream
        if hit is None or hit[2] or self._ext or (hit[3] and _pydev.active_target() != "host"):
            return self.dispatcher._launch(args, self.griddim, self.blockdim, stream, self.sharedmem)
        if stream is None or (type(stream) is int and stream == 0):
            stream = _pydev.default_stream()  # of the current device, asked each launch
        conv = hit[1]
        if conv is not None:
            args = list(args)
            for i, c in conv:
                args[i] = c(args[i])
        _device_launch(hit[0], *args, grid=self.griddim, block=self.blockdim, stream=stream, shared=self.sharedmem)


def _launch_raising(program, args, grid, block, stream, shared_bytes):
    """Launches a kernel compiled with debug=True whose device code raises
    exceptions, and waits for it as Numba-CUDA does: the first exception a
    thread raised is raised here (`_exceptions.host_exception`)."""
    try:
        _device.launch(program, *args, grid=grid, block=block, stream=stream, shared=shared_bytes)
        stream.synchronize()
    except _pydev.LaunchError as e:
        exc = _exceptions.host_exception(program, e)
        if exc is None:
            raise
        raise exc from None


def compile_ptx(
    pyfunc,
    sig,
    device=False,
    fastmath=False,
    cc=None,
    opt=True,
    debug=False,
    lineinfo=False,
    abi="numba",
    abi_info=None,
    forceinline=False,
    launch_bounds=None,
):
    """(ptx, return type) of `pyfunc` for `sig`, as numba.cuda.compile_ptx
    (`fastmath`, `lineinfo`, `debug` and `launch_bounds` as cuda.jit takes
    them; `opt` and `forceinline` accepted as cuda.jit accepts them).
    `device=True`: the device function alone (_device_ptx.py), with Numba's
    ABI (`abi="numba"`, `int f(T *ret, args...)`) or the C ABI (`abi="c"`,
    named by `abi_info={"abi_name": ...}`); a kernel has its own ABI."""
    if abi not in ("numba", "c"):
        raise NotImplementedError(f"cuda.compile_ptx(..., abi={abi!r}): the ABIs are 'numba' and 'c'")
    _launch_bounds(launch_bounds)
    sig = _as_signature(sig)
    target = f"sm_{cc[0]}{cc[1]}" if cc else "sm_90"
    if device:
        from . import _device_ptx

        disp = Dispatcher(pyfunc, None, True, {"fastmath": fastmath, "lineinfo": lineinfo, "debug": debug})
        return _device_ptx.compile_device_ptx(disp, sig, target, abi, abi_info)
    if abi_info is not None:
        raise NotImplementedError(f"cuda.compile_ptx(..., abi_info={abi_info!r}): abi_info names device functions")
    options = {"fastmath": fastmath, "lineinfo": lineinfo, "debug": debug, "launch_bounds": launch_bounds}
    disp = Dispatcher(pyfunc, None, False, options)
    prog = disp.compile(tuple(sig.args))
    return prog.compile(target=target, stage="ptx"), sig.return_type or _t.void


# --- host side: python/pydev/numba/_cuda/_host.py ----------------------------------------

from ._host import (  # noqa: E402 - after the kernel language, which it does not need
    Context,
    Device,
    Event,
    MemoryInfo,
    as_cuda_array,
    close,
    current_context,
    default_stream,
    defer_cleanup,
    detect,
    device_array,
    device_array_like,
    event,
    event_elapsed_time,
    external_stream,
    from_cuda_array_interface,
    get_current_device,
    gpus,
    is_cuda_array,
    legacy_default_stream,
    list_devices,
    managed_array,
    mapped,
    mapped_array,
    mapped_array_like,
    per_thread_default_stream,
    pinned,
    pinned_array,
    pinned_array_like,
    select_device,
    set_memory_manager,
    stream,
    synchronize,
    to_device,
)
from . import devicearray  # noqa: E402,F401 - cuda.devicearray, as numba.cuda has it
from . import kernels  # noqa: E402,F401 - cuda.kernels (transpose), as numba.cuda has it


def vectorize(ftylist_or_function=(), **kws):
    """`@cuda.vectorize(["float32(float32, float32)", ...])`: a CUDA ufunc
    (element-wise over broadcast arrays; `_ufunc.py`)."""
    from . import _ufunc

    return _ufunc.vectorize(_sys.modules[__name__], ftylist_or_function, **kws)


def guvectorize(ftylist, signature, **kws):
    """`@cuda.guvectorize(["void(float32[:, :], float32[:, :], float32[:, :])"],
    "(m,n),(n,p)->(m,p)")`: a generalized CUDA ufunc (`_ufunc.py`)."""
    from . import _ufunc

    return _ufunc.guvectorize(_sys.modules[__name__], ftylist, signature, **kws)


def is_available():
    """True when pydev's active target can run kernels (the host target always can)."""
    try:
        _pydev.active_target()
        return True
    except Exception:
        return False


def is_bfloat16_supported():
    """numba-cuda's: whether device code has bfloat16 (`cuda.bf16`):
    compute capability 8.0 and later (the host target reports 9.0)."""
    return tuple(get_current_device().compute_capability) >= (8, 0)


def is_fp8_supported():
    """numba-cuda's: whether device code has the float8 types (`cuda.fp8`):
    compute capability 8.9 and later (the host target reports 9.0)."""
    return tuple(get_current_device().compute_capability) >= (8, 9)


# bfloat16 and float8 (numba.cuda.bf16, numba-cuda's float8 bindings): they use _DeviceOnly above.
from . import bf16, fp8  # noqa: E402

__all__ += ["bf16", "fp8", "is_bfloat16_supported", "is_fp8_supported"]
# numba-cuda's literal_unroll (numba.cuda.literal_unroll, also numba.literal_unroll)
from .._npfuncs import literal_unroll  # noqa: E402

__all__ += ["literal_unroll"]

# numba-cuda's reduction object (numba.cuda.Reduce, numba.cuda.reduce)
from ._reduction import Reduce, reduce  # noqa: E402

__all__ += ["Reduce", "reduce"]

# numba-cuda's cache-hinted loads and stores (cuda.ldca ... cuda.stwt)
from .. import _cachehints  # noqa: E402

for _name, _impl in [_cachehints.load(o) for o in _cachehints.LOADS] + [
    _cachehints.store(o) for o in _cachehints.STORES
]:
    globals()[_name] = _DeviceOnly(_name, _impl)
    __all__.append(_name)
