"""The host's link of interoperable code (spec: Python and CUDA C++;
docs/interop.md, "How the call is made on the host"): link= files built
with clang into one shared library the host JIT resolves a kernel's
external symbols from (`host_library`), cached by content; the C ABI
adapters of declared functions (`host_adapters`) and of Python interop
functions compiled to an object file (`host_object`, `reverse_adapters`),
written by the runtime (runtime/src/cabi_adapters.rs) from the functions'
type models (`_c_types`).
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from . import _cache, _facts, _toolchain
from ._c_types import Scalar, _mlir, signatures
from ._link_paths import CUDA_ONLY, HOST_BINARIES, HOST_SOURCES, LinkError, link_digest

ADAPTER_PREFIX = _facts.HOST_ADAPTER_PREFIX
PACKED_PREFIX = "__pydev_packed_"
PY_PREFIX = "__pydev_py_"
RPACKED_PREFIX = "__pydev_rpacked_"


def clang():
    """The clang that builds link= files for the host (_toolchain.clang)."""
    cc = _toolchain.clang()
    if cc is None:
        raise LinkError(
            "link= files are built for the host with clang, and none was found: install clang (LLVM 22) or set PYDEV_CLANG"
        )
    return cc


def host_adapters(declared):
    """(LLVM IR text, C++ text) of the adapters of declared functions
    `declared` ([(name, params, result, ...)]): `__pydev_cabi_<name>` takes
    the register form (what the host pipeline's call passes), writes each
    argument in its C layout and calls `__pydev_packed_<name>`, which the
    C++ compiler compiles into a C call of `<name>`
    (runtime/src/cabi_adapters.rs writes both)."""
    from . import _native

    return _native.get().cabi_host_adapters(
        [
            (name, [_mlir(m) for _, m in params], None if result is None else _mlir(result))
            for name, params, result, *_ in declared
        ]
    )


def _run(cmd, what):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise LinkError(f"{what} failed ({' '.join(cmd)}):\n{(r.stderr or r.stdout).strip()}")
    return r


def _cache_root():
    """Where the libraries built from link= files are written: the compile
    cache, or a private temporary directory when the cache is off, cannot be
    written or cannot be trusted (the JIT needs a file to load; one warning,
    never an error). Its directories pass the cache's trust check
    (_cache.make_dirs): a library found there is loaded as code."""
    d = _cache.cache_dir()
    if d is not None:
        link = os.path.join(d, "link")
        try:
            if _cache.make_dirs(d, link):  # else it warned: not trusted
                if os.access(link, os.W_OK):
                    return link
                raise PermissionError(13, "not writable")
        except OSError as e:
            _cache._warn_once("write", d, e)
    tmp = os.path.join(tempfile.gettempdir(), f"pydev-link-{os.getuid() if hasattr(os, 'getuid') else 0}")
    try:
        if _cache.make_dirs(tmp, tmp) and os.access(tmp, os.W_OK):
            return tmp
    except OSError:
        pass
    # The shared name is taken (another user made it first) or not ours to
    # trust: a directory of this process's own.
    global _PRIVATE_LINK_DIR
    if _PRIVATE_LINK_DIR is None:
        try:
            _PRIVATE_LINK_DIR = tempfile.mkdtemp(prefix="pydev-link-")
        except OSError as e:
            raise LinkError(
                f"no directory to build link= libraries in: {tempfile.gettempdir()} ({e.strerror or e})"
            ) from e
    return _PRIVATE_LINK_DIR


_PRIVATE_LINK_DIR = None


def _clang_version(cc):
    """The compiler's identity in cache keys: its resolved path, size and
    modification time (no process start on a disk-cache hit)."""
    real = os.path.realpath(cc)
    st = os.stat(real)
    return f"{real} {st.st_size} {st.st_mtime_ns}"


HOST_FLAGS = ["-O2", "-fPIC"]
CU_HOST_DEFINES = [
    "-D__host__=",
    "-D__device__=",
    "-D__global__=",
    "-D__forceinline__=inline",
    "-D__noinline__=",
    "-DPYDEV_HOST_CU=1",
]


def _compile_host_source(cc, path, kind, data, out):
    lang = {
        "c": ["-x", "c", "-std=c17"],
        "c++": ["-x", "c++", "-std=c++17"],
        "cu": ["-x", "c++", "-std=c++17", *CU_HOST_DEFINES],
        "ir": ["-x", "ir"],
    }[kind]
    _run([cc, *lang, *HOST_FLAGS, "-c", path, "-o", out], f"compiling {path} for the host")


def host_library(paths, declared=(), owner="the kernel"):
    """The path of a shared library built from link files `paths` (and the
    adapters of `declared` functions) for the host JIT, cached by content
    under the disk cache's directory. Undefined and duplicate symbols are
    LinkErrors naming them."""
    cc = clang()
    declared = signatures(declared)
    adapter_ll, adapter_cxx = host_adapters(declared) if declared else ("", "")
    h = hashlib.sha256()
    for part in (
        "pydev-host-link-1",
        _clang_version(cc),
        " ".join(HOST_FLAGS),
        adapter_ll,
        adapter_cxx,
        *(f"{p}\0{d}" for p, d in link_digest(paths)),
    ):
        b = part.encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    key = h.hexdigest()
    found = _cache.find_file(os.path.join("link", f"{key}.so"))  # trusted caches only
    if found is not None:
        return found
    root = _cache_root()
    lib = os.path.join(root, f"{key}.so")
    if os.path.isfile(lib) and _cache.trusted_file(root, lib):
        return lib
    work = tempfile.mkdtemp(prefix="pydev-link-", dir=root)
    try:
        objs, archives = [], []
        for i, p in enumerate(paths):
            suffix = os.path.splitext(p)[1].lower()
            if suffix in CUDA_ONLY:
                raise LinkError(
                    f"link file '{p}' of {owner} is cuda code ({suffix}), which the host target cannot link (the host links {', '.join(list(HOST_SOURCES) + list(HOST_BINARIES))})"
                )
            if suffix == ".o":
                objs.append(p)
            elif suffix == ".a":
                archives.append(p)
            else:
                out = os.path.join(work, f"{i}-{os.path.basename(p)}.o")
                _compile_host_source(cc, p, HOST_SOURCES[suffix], None, out)
                objs.append(out)
        if declared:
            for name, text, kind in (("adapters.ll", adapter_ll, "ir"), ("shims.cpp", adapter_cxx, "c++")):
                src = os.path.join(work, name)
                with open(src, "w") as f:
                    f.write(text)
                out = src + ".o"
                _compile_host_source(cc, src, kind, None, out)
                objs.append(out)
        tmp = os.path.join(work, "lib.so")
        cmd = [cc, "-shared", "-fPIC", "-o", tmp, *objs]
        if archives:
            cmd += ["-Wl,--whole-archive", *archives, "-Wl,--no-whole-archive"]
        cmd += ["-Wl,--no-undefined", "-lstdc++", "-lm"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise LinkError(_link_message(r.stderr or r.stdout, paths, declared, owner))
        os.replace(tmp, lib)
        return lib
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _link_message(log, paths, declared, owner):
    import re

    files = ", ".join(os.path.basename(p) for p in paths) or "no files"
    undefined = sorted(set(re.findall(r"undefined (?:reference to|symbol:?) [`'\"]?([A-Za-z_][\w$.]*)", log)))
    duplicate = sorted(set(re.findall(r"(?:multiple definition of|duplicate symbol:?) [`'\"]?([A-Za-z_][\w$.]*)", log)))
    sites = {d[0]: d[3] for d in declared}
    parts = []
    for s in undefined:
        site = sites.get(s)
        if site:
            parts.append(
                f"{site}: error: the interoperable function '{s}' is declared here, but no linked file defines it (linked: {files})"
            )
        else:
            parts.append(f"error: undefined symbol '{s}' at link time (linked for {owner}: {files})")
    for s in duplicate:
        parts.append(
            f"error: duplicate symbol '{s}' at link time: more than one linked file of {owner} defines it ({files})"
        )
    if not parts:
        parts.append(f"error: linking {files} for {owner} failed")
    return "\n".join(parts) + "\nlinker output:\n" + log.strip()


def _needs_adapter(params, result):
    return any(not isinstance(m, Scalar) for m in [m for _, m in params] + ([result] if result is not None else []))


def reverse_adapters(llvm_ir, name, params, result):
    """(LLVM IR, C++) that make Python interop function `name` callable with
    the platform's C ABI: the module's `@name` (register form) becomes
    `@__pydev_py_name`; `__pydev_rpacked_name(void**)` (LLVM IR) reads the
    arguments from their C layout and calls it; the C++ `name` takes the
    CUDA C++ types by value and calls that (runtime/src/cabi_adapters.rs)."""
    from . import _native

    return _native.get().cabi_reverse_adapter(
        llvm_ir, name, [_mlir(m) for _, m in params], None if result is None else _mlir(result)
    )


def host_object(llvm_ir, name, params=None, result=None, declared=()):
    """A relocatable object file (bytes) of host-stage LLVM IR text; with
    the annotated types of interop function `name`, its symbol takes the
    platform's C ABI for aggregates (`reverse_adapters`)."""
    cc = clang()
    with tempfile.TemporaryDirectory(prefix="pydev-object-") as work:
        src, out = os.path.join(work, "m.ll"), os.path.join(work, "m.o")
        cxx = None
        if params is not None and _needs_adapter(params, result):
            llvm_ir, cxx = reverse_adapters(llvm_ir, name, params, result)
        with open(src, "w") as f:
            f.write(llvm_ir)
        _run([cc, "-x", "ir", "-O3", "-fPIC", "-c", src, "-o", out], f"compiling '{name}' to an object file")
        if cxx is not None:
            shim, shim_o, both = (
                os.path.join(work, "shim.cpp"),
                os.path.join(work, "shim.o"),
                os.path.join(work, "all.o"),
            )
            with open(shim, "w") as f:
                f.write(cxx)
            _run(
                [cc, "-x", "c++", "-std=c++17", "-O2", "-fPIC", "-c", shim, "-o", shim_o],
                f"compiling the C ABI entry of '{name}'",
            )
            _run([cc, "-r", "-nostdlib", "-o", both, out, shim_o], f"combining the object file of '{name}'")
            out = both
        if declared:  # the adapters of the declared functions it calls
            a_ll, a_cxx = host_adapters(signatures(declared))
            parts = [out]
            for n, text, kind in (("adapters.ll", a_ll, "ir"), ("shims.cpp", a_cxx, "c++")):
                p = os.path.join(work, n)
                with open(p, "w") as f:
                    f.write(text)
                _compile_host_source(cc, p, kind, None, p + ".o")
                parts.append(p + ".o")
            both = os.path.join(work, "with-adapters.o")
            _run([cc, "-r", "-nostdlib", "-o", both, *parts], f"combining the object file of '{name}'")
            out = both
        with open(out, "rb") as f:
            return f.read()


if sys.platform == "win32":  # pragma: no cover - the host link path is ELF/Mach-O only
    HOST_FLAGS = ["-O2"]
