"""Linking for the cuda target (docs/interop.md): CUDA C++ (`.cu`) through
NVRTC to LTO-IR, the kernel's own code through libNVVM to LTO-IR (from its
NVVM IR, `runtime/src/nvvm_ir.rs`) when any input is LTO-IR, else its PTX,
and `.ptx .ltoir .cubin .fatbin .o .a` through nvJitLink to a cubin
(link-time optimisation across the kernel and the C++ when any input is
LTO-IR). The libraries come from the nvidia-cuda-nvrtc, nvidia-nvjitlink
and nvidia-nvvm wheels (or $CUDA_HOME) and run without a GPU, so
`pydev.compile(..., stage="cubin")` and `stage="ltoir"` work in CI."""

import ctypes
import functools
import os

from . import _cache, _toolchain

KINDS = {".ptx": 2, ".ltoir": 3, ".cubin": 1, ".fatbin": 4, ".o": 5, ".a": 6}  # nvJitLinkInputType
_NVJITLINK_ABI = "13_0"


def _error(message):
    return _native_error()(message)


def _native_error():
    from . import _native

    return _native.error_class("CompileError")


@functools.lru_cache(maxsize=None)
def _lib(kind):
    wheel = _toolchain.LIBRARIES[kind][1]
    for path in _toolchain.library_candidates(kind):
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    raise _error(f"{kind} is not installed: pip install {wheel} (or set CUDA_HOME to a CUDA toolkit)")


def available(*kinds):
    """Whether the libraries `kinds` (default NVRTC and nvJitLink) can be
    loaded (tests skip otherwise)."""
    try:
        for kind in kinds or ("nvrtc", "nvjitlink"):
            _lib(kind)
        return True
    except Exception:
        return False


def warn_no_lineinfo(owner, stacklevel):
    """LTO-IR comes from NVVM IR, which drops debug locations: asked with
    line information, stage "ltoir" says so rather than dropping it silently.
    `stacklevel` is the caller's own, counted from this function, so that
    the warning names the user's line."""
    import warnings

    warnings.warn(
        f"the LTO-IR of {owner} has no line information: NVVM IR drops debug locations "
        "(stage 'ptx' and stage 'cubin' keep them)",
        RuntimeWarning,
        stacklevel=stacklevel,
    )


@functools.lru_cache(maxsize=None)
def _libdevice_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def nvvm_ltoir(nvvm_ir, arch, owner, fast_math=False, ptx=False):
    """LTO-IR (bytes) for `arch` (sm_XX) of NVVM IR text `nvvm_ir` (stage
    "nvvm-ir"), compiled by libNVVM with libdevice; libNVVM's log on
    failure. Without `fast_math`, IEEE division and square root, no flush
    to zero and fused multiply-add only where the IR says `contract`, as
    pydev's own PTX. `ptx=True`: libNVVM's PTX (str)
    instead (tests compare it with pydev's)."""
    nvvm = _lib("nvvm")
    prog = ctypes.c_void_p()
    if nvvm.nvvmCreateProgram(ctypes.byref(prog)) != 0:
        raise _error(f"libNVVM could not create a program for {owner}")
    try:
        data = nvvm_ir.encode()
        if nvvm.nvvmAddModuleToProgram(prog, data, ctypes.c_size_t(len(data)), owner.encode()) != 0:
            raise _error(f"libNVVM rejected the NVVM IR of {owner}")
        libdevice = _toolchain.libdevice()
        if libdevice:  # libNVVM links only the functions the code calls
            ld = _libdevice_bytes(libdevice)
            nvvm.nvvmLazyAddModuleToProgram(prog, ld, ctypes.c_size_t(len(ld)), b"libdevice.10.bc")
        opts = [f"-arch=compute_{arch[3:]}"] + ([] if ptx else ["-gen-lto"])
        # -fma=0: only the operations pydev marks `contract` are fused, as
        # LLVM 22's NVPTX does (libNVVM's default fuses every mul + add).
        opts += (
            ["-ftz=1", "-prec-sqrt=0", "-prec-div=0", "-fma=1"]
            if fast_math
            else ["-ftz=0", "-prec-sqrt=1", "-prec-div=1", "-fma=0"]
        )
        arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
        r = nvvm.nvvmCompileProgram(prog, len(opts), arr)
        size = ctypes.c_size_t()
        nvvm.nvvmGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value + 1)
        nvvm.nvvmGetProgramLog(prog, log)
        if r != 0:
            raise _error(
                f"libNVVM could not compile {owner} for {arch} (error {r}):\n{log.value.decode(errors='replace').strip()}"
            )
        nvvm.nvvmGetCompiledResultSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        nvvm.nvvmGetCompiledResult(prog, buf)
        return buf.value.decode() if ptx else buf.raw[: size.value]
    finally:
        nvvm.nvvmDestroyProgram(ctypes.byref(prog))


include_dirs = _toolchain.include_dirs


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
            raise _error(
                f"compiling {path} with NVRTC for {arch} failed ({owner}):\n{log.value.decode(errors='replace').strip()}"
            )
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


def nvjitlink(inputs, arch, owner, ptx=False):
    """The cubin (bytes) linked from `inputs` [(kind, bytes, name)] for
    `arch`; `-lto` when any input is LTO-IR. Undefined and duplicate symbols
    are errors naming them (nvJitLink's log follows). `ptx=True` (LTO-IR
    inputs only): the linked and optimised PTX (str) instead."""
    lto = any(k == KINDS[".ltoir"] for k, _, _ in inputs)
    opts = [f"-arch={arch}"] + (["-lto"] if lto else []) + (["-ptx"] if ptx else [])
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
        if ptx:
            _jit("GetLinkedPtxSize")(handle, ctypes.byref(size))
            buf = ctypes.create_string_buffer(size.value)
            _jit("GetLinkedPtx")(handle, buf)
            return buf.value.decode()
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
    # nvJitLink names undefined symbols; after link-time optimisation, ptxas does ("Unresolved extern function").
    for s in sorted(
        set(re.findall(r"(?:[Uu]ndefined reference to|Unresolved extern (?:function|variable)) '([^']+)'", log))
    ):
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

    paths = _toolchain.library_candidates(kind)
    if not paths:
        _lib(kind)  # raises: not installed
    real = os.path.realpath(paths[0])
    st = os.stat(real)
    return hashlib.sha256(f"{real} {st.st_size} {st.st_mtime_ns}".encode()).hexdigest()[:16]


# What linking did in this process (tests: a launch from the disk cache
# links nothing): "links" counts NVRTC/nvJitLink runs, "cached" cubins read
# from the disk cache.
STATS = {"links": 0, "cached": 0}


def linked_program(ptx_text, symbol, links, arch, what, declared=(), nvvm_ir=None, fast_math=False):
    """The loaded native CudaProgram of kernel `symbol` (a list of kernels:
    the CudaModule of them all, a pydev.Program of several): its PTX `ptx_text`
    linked with link files `links` (absolute paths) for `arch` (sm_XX) by
    nvJitLink, as stage "cubin" links (`link_cubin`, cached on disk by the
    contents of every input). The driver loads the linked cubin; the
    parameter sizes come from the PTX's `.entry`. `what` names the owner in
    errors ("kernel 'k'"); `declared` are the declared interop functions
    the kernel calls (pydev._link_paths.program_links); `nvvm_ir` makes the
    kernel's NVVM IR text (see `link_cubin`)."""
    from . import _native

    if not isinstance(symbol, str):
        cubin = link_cubin(ptx_text, "module.ptx", links, arch, what, declared, nvvm_ir, fast_math)
        return _native.get().CudaModule(ptx_text, list(symbol), image=cubin)
    cubin = link_cubin(ptx_text, f"{symbol}.ptx", links, arch, what, declared, nvvm_ir, fast_math)
    return _native.get().CudaProgram(ptx_text, symbol, image=cubin)


def lto(paths, nvvm_ir):
    """Whether the kernel goes to nvJitLink as LTO-IR: some link file is
    LTO-IR (`.cu`, `.ltoir`), the caller can make its NVVM IR (`nvvm_ir`,
    None with line information, which NVVM IR drops), and libNVVM is
    installed. Without libNVVM the kernel is linked as PTX (calls into the
    link files are not inlined), and a warning says so once.
    `PYDEV_KERNEL_LTOIR=0` links the kernel as PTX regardless (to rule
    out the NVVM IR writer when a linked kernel misbehaves)."""
    if os.environ.get("PYDEV_KERNEL_LTOIR", "1") == "0":
        return False
    if nvvm_ir is None or not any(os.path.splitext(p)[1].lower() in (".cu", ".ltoir") for p in paths):
        return False
    if _toolchain.library_candidates("nvvm"):  # installed (found, not loaded: a cached cubin loads no library)
        return True
    if not _WARNED_NO_NVVM:
        import warnings

        _WARNED_NO_NVVM.append(True)
        warnings.warn(
            "libNVVM is not installed (pip install nvidia-nvvm): kernels with LTO-IR link files are linked as PTX, "
            "so their calls into C++ are not inlined",
            RuntimeWarning,
            stacklevel=3,
        )
    return False


_WARNED_NO_NVVM = []


def link_cubin(ptx, ptx_name, paths, arch, owner, declared=(), nvvm_ir=None, fast_math=False):
    """The cubin of PTX text `ptx` linked with link files `paths`, cached
    on disk by the contents of every input, the architecture and the
    NVRTC/nvJitLink/libNVVM libraries (docs/interop.md). When `lto(paths,
    nvvm_ir)`, the kernel goes in as LTO-IR that libNVVM compiles from
    `nvvm_ir()` (its NVVM IR text, made only when the cubin is not cached),
    so nvJitLink optimises the kernel and the C++ together."""
    import hashlib

    from . import _c_types, _interop, _link_paths

    for p in paths:  # host files: an error before anything is loaded
        suffix = os.path.splitext(p)[1].lower()
        if suffix != ".cu" and suffix not in KINDS:
            raise _error(
                f"link file '{p}' of {owner} is host code ({suffix}), which the cuda target cannot link (cuda links .cu, .ptx, .ltoir, .cubin, .fatbin, .o, .a)"
            )
    # Declared functions are called by their symbols in nvcc's layout
    # (pydev-lower-aggregates): checked here, never a silent mismatch.
    for name, params, result, site in _c_types.signatures(declared):
        _interop.check_interop_ptx(ptx, name, params, result, site, linkage="extern")
    h = hashlib.sha256()
    nvrtc = any(p.endswith(".cu") for p in paths)
    as_ltoir = lto(paths, nvvm_ir)
    for part in (
        "pydev-cubin-4",
        arch,
        _lib_identity("nvjitlink"),
        _lib_identity("nvrtc") if nvrtc else "",
        _lib_identity("nvvm") if as_ltoir else "ptx",
        f"fast_math={int(fast_math)}",
        ptx,
        repr(_link_paths.link_digest(paths)),
    ):
        b = part.encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    key = h.hexdigest()
    cubin = _cache.load_bytes(key, ".cubin")  # a cache that cannot be read or written never raises
    if cubin is not None:
        STATS["cached"] += 1
        return cubin
    STATS["links"] += 1
    first = (KINDS[".ptx"], ptx.encode() + b"\0", ptx_name)
    if as_ltoir:
        try:
            first = (
                KINDS[".ltoir"],
                nvvm_ltoir(nvvm_ir(), arch, owner, fast_math),
                f"{os.path.splitext(ptx_name)[0]}.ltoir",
            )
        except _native_error() as e:
            # Link-time optimisation is an optimisation: a kernel the NVVM IR
            # writer or libNVVM cannot take (docs/interop.md, "Refused")
            # still links, as PTX, and says so. The outcome is the same for
            # the same inputs, so the cache key stays right.
            import warnings

            reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            warnings.warn(
                f"{owner} is linked as PTX, not LTO-IR (its calls into link files are not inlined): {reason}",
                RuntimeWarning,
                stacklevel=3,
            )
    cubin = _link_cubin(first, paths, arch, owner)
    _cache.store(key, cubin, ".cubin")
    return cubin


def _link_cubin(first, paths, arch, owner):
    inputs = [first]
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
            raise _error(
                f"link file '{p}' of {owner} is host code ({suffix}), which the cuda target cannot link (cuda links .cu, .ptx, .ltoir, .cubin, .fatbin, .o, .a)"
            )
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
                raise _error(
                    f"error: duplicate symbol '{sym}' at link time: more than one input of {owner} defines it ({seen[sym]}, {name})"
                )
            seen[sym] = name
