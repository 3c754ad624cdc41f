"""Interop on the cuda target without a GPU (issue 17, item 4): CUDA C++
compiled by NVRTC to LTO-IR and linked with Python interop functions' PTX
by nvJitLink into a cubin (pydev.compile(..., stage="cubin")); a GPU runs
the linked kernels where there is one."""
import ctypes
import os

import numpy as np
import pytest

import cuda.device as device
import pydev

from interop_kernels import FIXTURES

pytestmark = pytest.mark.usefixtures("native")
CU = os.path.join(FIXTURES, "calls_python.cu")
ARCH = os.environ.get("PYDEV_ARCH", "sm_90")


@pytest.fixture
def cudalink():
    from pydev import _cudalink

    if not _cudalink.available():
        pytest.skip("NVRTC / nvJitLink are not installed (pip install nvidia-cuda-nvrtc nvidia-nvjitlink; scripts/setup.sh does)")
    return _cudalink


def _linked_cubin(tmp_path, arch=ARCH):
    """axpy's cubin linked with calls_python.cu (NVRTC) and the PTX of the
    other Python functions the C++ calls (vscale, py_max)."""
    import interop_kernels as ik

    for f, sig in ((ik.vscale, "vec3, float32"), (ik.py_max, "float32, float32")):
        (tmp_path / f"{f.__name__}.ptx").write_text(pydev.compile(f, sig, target=arch, stage="ptx"))
    axpy = device.func(interop=True, link=[CU, tmp_path / "vscale.ptx", tmp_path / "py_max.ptx"])(ik.axpy.underlying)
    return pydev.compile(axpy, "float32, float32, float32", target=arch, stage="cubin")


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_cpp_kernels_calling_python_link_to_a_cubin(cudalink, tmp_path, arch):
    cubin = _linked_cubin(tmp_path, arch)
    assert isinstance(cubin, bytes) and cubin[:4] == b"\x7fELF"
    for sym in (b"saxpy_cpp", b"scale_cpp", b"max_cpp", b"axpy", b"vscale", b"py_max"):
        assert sym in cubin, sym


def test_nvrtc_errors_carry_the_log(cudalink, tmp_path):
    import interop_kernels as ik

    bad = tmp_path / "bad.cu"
    bad.write_text('extern "C" __global__ void k(float* x) { x[0] = undefined_thing; }\n')
    f = device.func(interop=True, link=[str(bad)])(ik.axpy.underlying)
    with pytest.raises(pydev.CompileError, match=r"(?s)compiling .*bad.cu with NVRTC for sm_90 failed.*undefined_thing"):
        pydev.compile(f, "float32, float32, float32", target="sm_90", stage="cubin")


def test_undefined_symbol_is_named(cudalink):
    import interop_kernels as ik

    f = device.func(interop=True, link=[CU])(ik.axpy.underlying)  # vscale, py_max are missing
    with pytest.raises(pydev.CompileError, match=r"undefined symbol 'py_max' at link time \(function 'axpy'; linked: axpy.ptx, calls_python.cu.ltoir\)"):
        pydev.compile(f, "float32, float32, float32", target="sm_90", stage="cubin")


def test_duplicate_symbol_is_named(cudalink, tmp_path):
    import interop_kernels as ik

    (tmp_path / "axpy_again.ptx").write_text(pydev.compile(ik.axpy, "float32, float32, float32", target="sm_90", stage="ptx"))
    f = device.func(interop=True, link=[str(tmp_path / "axpy_again.ptx")])(ik.axpy.underlying)
    with pytest.raises(pydev.CompileError, match="duplicate symbol 'axpy' at link time"):
        pydev.compile(f, "float32, float32, float32", target="sm_90", stage="cubin")


def test_host_files_on_cuda(cudalink):
    import interop_kernels as ik

    f = device.func(interop=True, link=[os.path.join(FIXTURES, "twice.c")])(ik.axpy.underlying)
    with pytest.raises(pydev.CompileError, match=r"twice.c' of function 'axpy' is host code \(.c\), which the cuda target cannot link"):
        pydev.compile(f, "float32, float32, float32", target="sm_90", stage="cubin")


def test_cubin_is_a_cuda_stage():
    import interop_kernels as ik

    with pytest.raises(ValueError, match="stage 'cubin' needs an sm_XX target"):
        pydev.compile(ik.axpy, "float32, float32, float32", target="host", stage="cubin")


# --- on a GPU: run the linked C++ kernels (driver API through ctypes) ---------------------


def _driver():
    from conftest import gpu_available

    if not gpu_available():
        pytest.skip("no GPU")
    cu = ctypes.CDLL("libcuda.so.1")

    def check(r, what):
        assert r == 0, f"{what} failed with CUDA error {r}"

    check(cu.cuInit(0), "cuInit")
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    major, minor = ctypes.c_int(), ctypes.c_int()
    check(cu.cuDeviceGetAttribute(ctypes.byref(major), 75, dev), "compute capability major")
    check(cu.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev), "compute capability minor")
    return cu, check, f"sm_{major.value}{minor.value}"


def test_gpu_runs_cpp_kernels_calling_python(cudalink, tmp_path):
    cu, check, arch = _driver()
    cubin = _linked_cubin(tmp_path, arch)
    mod = ctypes.c_void_p()
    check(cu.cuModuleLoadData(ctypes.byref(mod), cubin), "cuModuleLoadData")
    rng = np.random.default_rng(17)

    def dev_copy(a):
        p = ctypes.c_uint64()
        check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(a.nbytes)), "cuMemAlloc")
        check(cu.cuMemcpyHtoD_v2(p, a.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(a.nbytes)), "cuMemcpyHtoD")
        return p

    def back(p, a):
        check(cu.cuCtxSynchronize(), "cuCtxSynchronize")
        check(cu.cuMemcpyDtoH_v2(a.ctypes.data_as(ctypes.c_void_p), p, ctypes.c_size_t(a.nbytes)), "cuMemcpyDtoH")
        return a

    def launch(name, args, grid, block):
        f = ctypes.c_void_p()
        check(cu.cuModuleGetFunction(ctypes.byref(f), mod, name.encode()), f"cuModuleGetFunction {name}")
        ptrs = (ctypes.c_void_p * len(args))(*[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
        check(cu.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, None, ptrs, None), f"cuLaunchKernel {name}")

    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    dx, dy = dev_copy(x), dev_copy(y)
    launch("saxpy_cpp", [ctypes.c_float(2.5), dx, dy, ctypes.c_int(n)], (n + 127) // 128, 128)
    np.testing.assert_allclose(back(dy, np.full(n, np.nan, np.float32)), 2.5 * x + y, rtol=1e-6)

    v = rng.standard_normal((n, 3)).astype(np.float32)
    dv = dev_copy(v)
    launch("scale_cpp", [dv, ctypes.c_float(-2.0), ctypes.c_int(n)], (n + 127) // 128, 128)
    np.testing.assert_allclose(back(dv, np.full((n, 3), np.nan, np.float32)), -2.0 * v, rtol=1e-6)

    x256 = rng.standard_normal(256).astype(np.float32)
    dx256, dout = dev_copy(x256), dev_copy(np.full(1, np.nan, np.float32))
    launch("max_cpp", [dx256, dout], 1, 256)
    assert back(dout, np.full(1, np.nan, np.float32))[0] == np.float32(np.float16(x256.max()))


# --- a Python kernel calling C++ device functions (test/interop/both.cu) --------------------

USES_CPP_SIG = "float32[:], float32[:], float32[:], vec3[:], vec3[:], int64[:]"


def test_python_kernel_calls_cpp_device_functions(cudalink):
    """The declared functions are `.extern .func` in the kernel's PTX, with
    nvcc's parameter layout; nvJitLink resolves them from both.cu (NVRTC,
    cuda_fp16.h) with link-time optimisation."""
    import interop_kernels as ik

    ptx = pydev.compile(ik.uses_cpp, USES_CPP_SIG, target="sm_90", stage="ptx")
    assert ".extern .func  (.param .align 4 .b8 func_retval0[12]) cross3" in ptx
    assert "_mlir_ciface" not in ptx
    cubin = pydev.compile(ik.uses_cpp, USES_CPP_SIG, target="sm_90", stage="cubin")
    assert cubin[:4] == b"\x7fELF" and b"uses_cpp" in cubin


def test_gpu_runs_python_kernel_calling_cpp(cudalink, tmp_path):
    cu, check, arch = _driver()
    import struct

    import interop_kernels as ik

    cubin = pydev.compile(ik.uses_cpp, USES_CPP_SIG, target=arch, stage="cubin")
    mod, f = ctypes.c_void_p(), ctypes.c_void_p()
    check(cu.cuModuleLoadData(ctypes.byref(mod), cubin), "cuModuleLoadData")
    check(cu.cuModuleGetFunction(ctypes.byref(f), mod, b"uses_cpp"), "cuModuleGetFunction")
    rng = np.random.default_rng(17)
    n = 300
    xs, ys = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    vs, ws = rng.standard_normal((n, 3)).astype(np.float32), rng.standard_normal((n, 3)).astype(np.float32)
    arrays = [np.full(n, np.nan, np.float32), xs, ys, vs.copy(), ws, np.full(n, -1, np.int64)]
    ptrs, params = [], []
    for a in arrays:
        p = ctypes.c_uint64()
        check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(a.nbytes)), "cuMemAlloc")
        check(cu.cuMemcpyHtoD_v2(p, a.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(a.nbytes)), "cuMemcpyHtoD")
        ptrs.append(p)
        # The kernel ABI: {T* data; u64 shape[1]; u64 strides[1]} (strides in elements).
        params.append(ctypes.create_string_buffer(struct.pack("<QQQ", p.value, n, 1), 24))
    args = (ctypes.c_void_p * len(params))(*[ctypes.cast(b, ctypes.c_void_p) for b in params])
    check(cu.cuLaunchKernel(f, (n + 127) // 128, 1, 1, 128, 1, 1, 0, None, args, None), "cuLaunchKernel")
    check(cu.cuCtxSynchronize(), "cuCtxSynchronize")
    out = [np.empty_like(a) for a in arrays]
    for o, p in zip(out, ptrs):
        check(cu.cuMemcpyDtoH_v2(o.ctypes.data_as(ctypes.c_void_p), p, ctypes.c_size_t(o.nbytes)), "cuMemcpyDtoH")
    np.testing.assert_array_equal(out[0], np.hypot(xs, ys).astype(np.float16).astype(np.float32))
    np.testing.assert_allclose(out[3], np.cross(vs, ws), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out[5], np.clip(np.arange(n) * 1000000000 - 5000000000, -2000000000, 3000000000))


def test_ltoir_stage_says_it_is_not_there():
    import interop_kernels as ik

    with pytest.raises(pydev.CompileError, match="stage 'ltoir' of 'axpy' is not implemented yet"):
        pydev.compile(ik.axpy, "float32, float32, float32", target="sm_90", stage="ltoir")
