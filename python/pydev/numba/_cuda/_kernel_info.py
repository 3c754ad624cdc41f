"""The resource figures of a compiled kernel, as Numba's
`kernel.get_regs_per_thread()`, `get_shared_mem_per_block()`,
`get_local_mem_per_thread()`, `get_const_mem_size()` and
`get_max_threads_per_block()` report them.

On the cuda target they are the driver's (`cuFuncGetAttribute` of the
kernel's cubin for the current device, loaded once for the question, as
Numba asks the loaded function). On the host target, a CPU, registers and
GPU memory spaces do not exist; the figures are those of the kernel's PTX
for compute capability 9.0 (the device the host target reports) as `ptxas
-v` gives them: what the same kernel uses on such a GPU. The maximum block
size on the host target is its launch limit (1024 threads), which every
kernel launches at."""

import ctypes
import os
import re
import subprocess
import tempfile

import pydev as _pydev

# CUfunction_attribute codes (cuda.h)
_FUNC_ATTRIBUTES = {
    "max_threads_per_block": 0,
    "shared_mem_per_block": 1,
    "const_mem_size": 2,
    "local_mem_per_thread": 3,
    "regs_per_thread": 4,
}

_HOST_MAX_THREADS_PER_BLOCK = 1024  # _host._host_attributes' MAX_THREADS_PER_BLOCK


def resources(program):
    """{"regs_per_thread", "shared_mem_per_block", "local_mem_per_thread",
    "const_mem_size", "max_threads_per_block"} of a kernel's pydev.Program
    on the active target (ints)."""
    if _pydev.active_target() == "cuda":
        return _driver_resources(program)
    return _ptxas_resources(program.compile(target="sm_90", stage="ptx"), str(program.kernel), "sm_90")


def _driver_resources(program):
    from . import _driver

    dev = _pydev.Device(_pydev.current_device())
    cubin = program.compile(target=dev.arch, stage="cubin")
    _driver.ensure_context()
    what = "kernel resource query"
    module, func = ctypes.c_void_p(), ctypes.c_void_p()
    _driver.call(what, "cuModuleLoadData", ctypes.byref(module), ctypes.c_char_p(bytes(cubin)))
    try:
        _driver.call(what, "cuModuleGetFunction", ctypes.byref(func), module, str(program.kernel).encode())
        out = {}
        for name, code in _FUNC_ATTRIBUTES.items():
            v = ctypes.c_int()
            _driver.call(f"get_{name}()", "cuFuncGetAttribute", ctypes.byref(v), ctypes.c_int(code), func)
            out[name] = int(v.value)
        return out
    finally:
        _driver.call(what, "cuModuleUnload", module)


def parse_ptxas_info(text, kernel):
    """The figures `ptxas -v` prints for entry `kernel`: registers, shared
    memory (smem), the stack frame (local memory) and the user constant
    banks (cmem[N], N > 0: bank 0 holds the parameters)."""
    out = {"regs_per_thread": 0, "shared_mem_per_block": 0, "local_mem_per_thread": 0, "const_mem_size": 0}
    lines = text.splitlines()
    start = next(
        (i for i, ln in enumerate(lines) if "Compiling entry function" in ln and f"'{kernel}'" in ln),
        None,
    )
    if start is None:
        raise RuntimeError(f"ptxas printed no figures for kernel '{kernel}':\n{text}")
    for ln in lines[start + 1 :]:
        if "Compiling entry function" in ln:
            break
        m = re.search(r"(\d+) bytes stack frame", ln)
        if m:
            out["local_mem_per_thread"] = int(m.group(1))
        m = re.search(r"Used (\d+) registers", ln)
        if m:
            out["regs_per_thread"] = int(m.group(1))
        m = re.search(r"(\d+) bytes smem", ln)
        if m:
            out["shared_mem_per_block"] = int(m.group(1))
        for size, bank in re.findall(r"(\d+) bytes cmem\[(\d+)\]", ln):
            if int(bank) != 0:
                out["const_mem_size"] += int(size)
    return out


def _ptxas_resources(ptx, kernel, arch):
    from ... import _toolchain

    ptxas = _toolchain.ptxas(arch)
    if not ptxas:
        raise NotImplementedError(
            "kernel resource queries on the host target read ptxas's figures for the kernel's PTX, and no ptxas "
            "was found (install the nvidia-cuda-nvcc wheel or set $PTXAS)"
        )
    with tempfile.TemporaryDirectory(prefix="pydev-numba-ptxas-") as d:
        src = os.path.join(d, "kernel.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        r = subprocess.run(
            [ptxas, "-v", f"-arch={arch}", "-o", os.path.join(d, "kernel.cubin"), src],
            capture_output=True,
            text=True,
        )
    if r.returncode != 0:
        raise RuntimeError(f"ptxas could not assemble kernel '{kernel}' for {arch}:\n{r.stderr}")
    out = parse_ptxas_info(r.stdout + r.stderr, kernel)
    out["max_threads_per_block"] = _HOST_MAX_THREADS_PER_BLOCK
    return out
