"""Linking for the cuda target (docs/interop.md): CUDA C++ (`.cu`) through
NVRTC to LTO-IR, and the kernel's own PTX with `.ptx .ltoir .cubin
.fatbin .o .a` through nvJitLink to a cubin (link-time optimisation when
any input is LTO-IR). Both libraries come from the nvidia-cuda-nvrtc and
nvidia-nvjitlink wheels (or $CUDA_HOME) and run without a GPU, so
`pydev.compile(..., stage="cubin")` works in CI."""
import ctypes
import functools
import glob
import os

from . import _cache

KINDS = {".ptx": 2, ".ltoir": 3, ".cubin": 1, ".fatbin": 4, ".o": 5, ".a": 6}  # nvJitLinkInputType
_NVJITLINK_ABI = "13_0"


def _error(message):
    from . import _native

    return _native.error_class("CompileError")(message)


def _candidates(pattern):
    out = []
    try:
        import nvidia

        for root in nvidia.__path__:
            out += sorted(glob.glob(os.path.join(root, "*", "lib", pattern)), reverse=True)
    except ImportError:
        pass
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            out += sorted(glob.glob(os.path.join(home, "lib64", pattern)), reverse=True)
    return out


@functools.lru_cache(maxsize=None)
def _lib(kind):
    pattern, wheel = {"nvrtc": ("libnvrtc.so.1[0-9]*", "nvidia-cuda-nvrtc"), "nvjitlink": ("libnvJitLink.so.1[0-9]*", "nvidia-nvjitlink")}[kind]
    for path in _candidates(pattern):
        if "builtins" in os.path.basename(path):
            continue
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    raise _error(f"{kind} is not installed: pip install {wheel} (or set CUDA_HOME to a CUDA toolkit)")


def available():
    """Whether NVRTC and nvJitLink can be loaded (tests skip otherwise)."""
    try:
        _lib("nvrtc")
        _lib("nvjitlink")
        return True
    except Exception:
        return False


@functools.lru_cache(maxsize=None)
def include_dirs():
    """The CUDA headers of the wheels (cuda_fp16.h, vector types...)."""
    out = []
    try:
        import nvidia

        for root in nvidia.__path__:
            out += sorted(d for d in glob.glob(os.path.join(root, "*", "include")) if os.path.isfile(os.path.join(d, "cuda_fp16.h")))
    except ImportError:
        pass
    return tuple(out)


def nvrtc_ltoir(path, arch, owner):
    """LTO-IR (bytes) of CUDA C++ file `path` for `arch` (sm_XX), compiled
    by NVRTC as relocatable device code; its log on failure."""
    nvrtc = _lib("nvrtc")
    with open(path, "rb") as f:
        src = f.read()
    prog = ctypes.c_void_p()
    r = nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, os.path.basename(path).encode(), 0, None, None)
    if r != 0:
        raise _error(f"NVRTC could not create a program for {path} (error {r})")
    try:
        opts = [f"-arch={arch}", "-dlto", "-rdc=true", "-default-device", "-std=c++17"]
        opts += [f"-I{d}" for d in (os.path.dirname(os.path.abspath(path)), *include_dirs())]
        arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
        r = nvrtc.nvrtcCompileProgram(prog, len(opts), arr)
        size = ctypes.c_size_t()
        nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetProgramLog(prog, log)
        if r != 0:
            raise _error(f"compiling {path} with NVRTC for {arch} failed ({owner}):\n{log.value.decode(errors='replace').strip()}")
        nvrtc.nvrtcGetLTOIRSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        if nvrtc.nvrtcGetLTOIR(prog, buf) != 0:
            raise _error(f"NVRTC produced no LTO-IR for {path}")
        return buf.raw[: size.value]
    finally:
        nvrtc.nvrtcDestroyProgram(ctypes.byref(prog))


def _jit(name):
    f = getattr(_lib("nvjitlink"), f"__nvJitLink{name}_{_NVJITLINK_ABI}")
    return f


def nvjitlink(inputs, arch, owner):
    """The cubin (bytes) linked from `inputs` [(kind, bytes, name)] for
    `arch`; `-lto` when any input is LTO-IR. Undefined and duplicate symbols
    are errors naming them (nvJitLink's log follows)."""
    lto = any(k == KINDS[".ltoir"] for k, _, _ in inputs)
    opts = [f"-arch={arch}"] + (["-lto"] if lto else [])
    handle = ctypes.c_void_p()
    arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
    r = _jit("Create")(ctypes.byref(handle), ctypes.c_uint32(len(opts)), arr)
    if r != 0:
        raise _error(f"nvJitLink could not start for {arch} (error {r})")
    try:

        def log():
            size = ctypes.c_size_t()
            _jit("GetErrorLogSize")(handle, ctypes.byref(size))
            buf = ctypes.create_string_buffer(size.value + 1)
            _jit("GetErrorLog")(handle, buf)
            return buf.value.decode(errors="replace").strip()

        for kind, data, name in inputs:
            if _jit("AddData")(handle, ctypes.c_int(kind), data, ctypes.c_size_t(len(data)), name.encode()) != 0:
                raise _error(f"nvJitLink rejected {name} ({owner}):\n{log()}")
        if _jit("Complete")(handle) != 0:
            raise _error(_link_message(log(), inputs, owner))
        size = ctypes.c_size_t()
        _jit("GetLinkedCubinSize")(handle, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        _jit("GetLinkedCubin")(handle, buf)
        return buf.raw[: size.value]
    finally:
        _jit("Destroy")(ctypes.byref(handle))


def _link_message(log, inputs, owner):
    import re

    names = ", ".join(n for _, _, n in inputs)
    parts = []
    for s in sorted(set(re.findall(r"[Uu]ndefined reference to '([^']+)'", log))):
        parts.append(f"error: undefined symbol '{s}' at link time ({owner}; linked: {names})")
    for s in sorted(set(re.findall(r"[Mm]ultiple definition of '([^']+)'", log))):
        parts.append(f"error: duplicate symbol '{s}' at link time: more than one input of {owner} defines it ({names})")
    if not parts:
        parts.append(f"error: nvJitLink failed to link {owner} ({names})")
    return "\n".join(parts) + "\nnvJitLink log:\n" + log


def _lib_identity(kind):
    """The library's identity in cache keys (path, size, mtime: a cache hit
    loads neither library)."""
    import hashlib

    pattern = {"nvrtc": "libnvrtc.so.1[0-9]*", "nvjitlink": "libnvJitLink.so.1[0-9]*"}[kind]
    paths = [p for p in _candidates(pattern) if "builtins" not in os.path.basename(p)]
    if not paths:
        _lib(kind)  # raises: not installed
    real = os.path.realpath(paths[0])
    st = os.stat(real)
    return hashlib.sha256(f"{real} {st.st_size} {st.st_mtime_ns}".encode()).hexdigest()[:16]


# What linking did in this process (tests: a launch from the disk cache
# links nothing): "links" counts NVRTC/nvJitLink runs, "cached" cubins read
# from the disk cache.
STATS = {"links": 0, "cached": 0}


def linked_program(ptx_text, symbol, links, arch, what, declared=()):
    """The loaded native CudaProgram of kernel `symbol`: its PTX `ptx_text`
    linked with link files `links` (absolute paths) for `arch` (sm_XX) by
    nvJitLink, as stage "cubin" links (`link_cubin`, cached on disk by the
    contents of every input). The driver loads the linked cubin; the
    parameter sizes come from the PTX's `.entry`. `what` names the owner in
    errors ("kernel 'k'"); `declared` are the declared interop functions
    the kernel calls (pydev._interop.program_links)."""
    from . import _native

    cubin = link_cubin(ptx_text, f"{symbol}.ptx", links, arch, what, declared)
    return _native.get().CudaProgram(ptx_text, symbol, image=cubin)


def link_cubin(ptx, ptx_name, paths, arch, owner, declared=()):
    """The cubin of PTX text `ptx` linked with link files `paths`, cached
    on disk by the contents of every input, the architecture and the
    NVRTC/nvJitLink libraries (docs/interop.md)."""
    import hashlib

    from . import _interop

    for p in paths:  # host files: an error before anything is loaded
        suffix = os.path.splitext(p)[1].lower()
        if suffix != ".cu" and suffix not in KINDS:
            raise _error(f"link file '{p}' of {owner} is host code ({suffix}), which the cuda target cannot link (cuda links .cu, .ptx, .ltoir, .cubin, .fatbin, .o, .a)")
    # Declared functions are called by their symbols in nvcc's layout
    # (pydev-lower-aggregates): checked here, never a silent mismatch.
    for name, params, result, site in _interop._signatures(declared):
        _interop.check_interop_ptx(ptx, name, params, result, site, linkage="extern")
    h = hashlib.sha256()
    nvrtc = any(p.endswith(".cu") for p in paths)
    for part in ("pydev-cubin-2", arch, _lib_identity("nvjitlink"), _lib_identity("nvrtc") if nvrtc else "", ptx, repr(_interop.link_digest(paths))):
        b = part.encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    key = h.hexdigest()
    cubin = _cache.load_bytes(key, ".cubin")  # a cache that cannot be read or written never raises
    if cubin is not None:
        STATS["cached"] += 1
        return cubin
    STATS["links"] += 1
    cubin = _link_cubin(ptx, ptx_name, paths, arch, owner)
    _cache.store(key, cubin, ".cubin")
    return cubin


def _link_cubin(ptx, ptx_name, paths, arch, owner):
    inputs = [(KINDS[".ptx"], ptx.encode() + b"\0", ptx_name)]
    for p in paths:
        suffix = os.path.splitext(p)[1].lower()
        if suffix == ".cu":
            inputs.append((KINDS[".ltoir"], nvrtc_ltoir(p, arch, owner), os.path.basename(p) + ".ltoir"))
        elif suffix in KINDS:
            with open(p, "rb") as f:
                data = f.read()
            if suffix == ".ptx":
                data += b"\0"
            inputs.append((KINDS[suffix], data, os.path.basename(p)))
        else:
            raise _error(f"link file '{p}' of {owner} is host code ({suffix}), which the cuda target cannot link (cuda links .cu, .ptx, .ltoir, .cubin, .fatbin, .o, .a)")
    _check_ptx_duplicates(inputs, owner)
    return nvjitlink(inputs, arch, owner)


def _check_ptx_duplicates(inputs, owner):
    """Duplicate definitions among PTX inputs, named before nvJitLink sees
    them (nvJitLink 13.5 crashes on two PTX inputs defining one function
    without -lto)."""
    import re

    seen = {}
    pattern = re.compile(rb"^\s*\.visible\s+\.(?:func|entry)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)", re.M)
    for kind, data, name in inputs:
        if kind != KINDS[".ptx"]:
            continue
        for sym in pattern.findall(data):
            sym = sym.decode()
            if sym in seen:
                raise _error(f"error: duplicate symbol '{sym}' at link time: more than one input of {owner} defines it ({seen[sym]}, {name})")
            seen[sym] = name
