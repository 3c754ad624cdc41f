"""Where pydev finds the CUDA and LLVM tools and files it uses, in one
place (a leaf module: it imports nothing of pydev, so scripts/find-*.sh
run it as a script: `python3 python/pydev/_toolchain.py ptxas sm_70`). Each is searched in
the same order: an environment variable naming it, the NVIDIA wheels
(`nvidia-nvvm`, `nvidia-cuda-nvrtc`, `nvidia-nvjitlink`,
`nvidia-cuda-nvcc`: the `nvidia` namespace package), then a CUDA toolkit
($CUDA_HOME, $CUDA_PATH, /usr/local/cuda), as Numba-CUDA looks."""

import functools
import os

# glob and shutil are imported where used: `import cuda.device` imports
# this module, and loads neither (python/tests/test_import_cost.py).


def _nvidia_roots():
    try:
        import nvidia  # the NVIDIA wheels' namespace package
    except ImportError:
        return []
    return list(nvidia.__path__)


def _cuda_homes():
    return [h for h in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda") if h]


@functools.lru_cache(maxsize=None)
def _found_libdevice():
    import glob

    candidates = []
    for root in _nvidia_roots():
        candidates += sorted(glob.glob(os.path.join(root, "*", "nvvm", "libdevice", "libdevice.10.bc")), reverse=True)
    for home in _cuda_homes():
        candidates.append(os.path.join(home, "nvvm", "libdevice", "libdevice.10.bc"))
    return next((c for c in candidates if os.path.isfile(c)), "")


def libdevice():
    """The libdevice.10.bc that CUDA math functions (`math.sin`, `abs` of a
    float...) link: $PYDEV_LIBDEVICE when set and not empty, else the nvidia-nvvm wheel's,
    else the CUDA toolkit's ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda), as
    Numba-CUDA looks for it; "" when there is none (a kernel that needs it
    is then a CompileError saying so)."""
    return os.environ.get("PYDEV_LIBDEVICE") or _found_libdevice()


# kind => (file pattern, wheel, folders under a wheel's package / a toolkit)
LIBRARIES = {
    "nvrtc": ("libnvrtc.so.1[0-9]*", "nvidia-cuda-nvrtc", ("lib",), ("lib64",)),
    "nvjitlink": ("libnvJitLink.so.1[0-9]*", "nvidia-nvjitlink", ("lib",), ("lib64",)),
    "nvvm": ("libnvvm.so*", "nvidia-nvvm", ("lib", os.path.join("nvvm", "lib64")), (os.path.join("nvvm", "lib64"),)),
}


def library_candidates(kind):
    """The paths of CUDA library `kind` (a key of LIBRARIES), best first."""
    import glob

    pattern, _, wheel_dirs, home_dirs = LIBRARIES[kind]
    out = []
    for root in _nvidia_roots():
        for d in wheel_dirs:
            out += sorted(glob.glob(os.path.join(root, "*", d, pattern)), reverse=True)
    for home in _cuda_homes():
        for d in home_dirs:
            out += sorted(glob.glob(os.path.join(home, d, pattern)), reverse=True)
    return [p for p in out if "builtins" not in os.path.basename(p)]


@functools.lru_cache(maxsize=None)
def include_dirs():
    """The CUDA headers of the wheels (cuda_fp16.h, vector types...)."""
    import glob

    out = []
    for root in _nvidia_roots():
        out += sorted(
            d for d in glob.glob(os.path.join(root, "*", "include")) if os.path.isfile(os.path.join(d, "cuda_fp16.h"))
        )
    return tuple(out)


def clang():
    """The clang that builds link= files for the host: $PYDEV_CLANG, else
    LLVM 22's (the toolchain pydev is built with), else clang on PATH; None
    when there is none."""
    import shutil

    for c in (
        os.environ.get("PYDEV_CLANG"),
        "/usr/lib/llvm-22/bin/clang",
        shutil.which("clang-22"),
        shutil.which("clang"),
    ):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def ptxas(arch=""):
    """The ptxas of the nvidia-cuda-nvcc wheels that assembles for `arch`
    (CUDA 13 dropped sm_70, sm_72 and sm_75's default, so those take the
    CUDA 12 wheel's), "" when there is none. $PTXAS wins when no `arch` is
    asked."""
    import glob

    if os.environ.get("PTXAS") and not arch:
        return os.environ["PTXAS"]
    found = {}
    for root in _nvidia_roots():
        for hit in glob.glob(os.path.join(root, "*", "bin", "ptxas")):
            found["12" if "cuda_nvcc" in hit else "13"] = hit
    old = arch in ("sm_70", "sm_72", "sm_75")
    return (found.get("12") if old else found.get("13", found.get("12"))) or ""


if __name__ == "__main__":  # scripts/find-ptxas.sh, scripts/find-libdevice.sh
    import sys

    what, *rest = sys.argv[1:] or ["libdevice"]
    found = ptxas(*rest) if what == "ptxas" else libdevice()
    if found:
        print(found)
