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
        pytest.skip(
            "NVRTC / nvJitLink are not installed (pip install nvidia-cuda-nvrtc nvidia-nvjitlink; scripts/setup.sh does)"
        )
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


@pytest.mark.parametrize("where", ["a file", "read-only"])
def test_a_cache_that_cannot_be_written_still_links(cudalink, tmp_path, monkeypatch, where):
    # The linked cubin is cached like every other entry: a cache directory
    # that cannot be written warns once and the link still succeeds.
    import warnings

    if where == "a file":
        (tmp_path / "cache").write_text("not a directory")
    else:
        (tmp_path / "cache").mkdir()
        os.chmod(tmp_path / "cache", 0o500)
        if os.access(tmp_path / "cache", os.W_OK):
            pytest.skip("root writes into read-only directories")
    (tmp_path / "out").mkdir()
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "cache"))
    from pydev import _cache

    monkeypatch.setattr(_cache, "_WARNED", set())  # one warning per process: this test's own
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        cubin = _linked_cubin(tmp_path / "out")
    assert cubin[:4] == b"\x7fELF" and b"saxpy_cpp" in cubin
    assert [str(w.message) for w in seen if "cache" in str(w.message)], "no warning about the cache"


def test_nvrtc_errors_carry_the_log(cudalink, tmp_path):
    import interop_kernels as ik

    bad = tmp_path / "bad.cu"
    bad.write_text('extern "C" __global__ void k(float* x) { x[0] = undefined_thing; }\n')
    f = device.func(interop=True, link=[str(bad)])(ik.axpy.underlying)
    with pytest.raises(
        pydev.CompileError, match=r"(?s)compiling .*bad.cu with NVRTC for sm_90 failed.*undefined_thing"
    ):
        pydev.compile(f, "float32, float32, float32", target="sm_90", stage="cubin")


def test_undefined_symbol_is_named(cudalink):
    import interop_kernels as ik

    f = device.func(interop=True, link=[CU])(ik.axpy.underlying)  # vscale, py_max are missing
    # Linked as LTO-IR (libNVVM installed) the kernel is axpy.ltoir, else axpy.ptx; either way a missing symbol is named.
    with pytest.raises(
        pydev.CompileError,
        match=r"undefined symbol '(py_max|vscale)' at link time \(function 'axpy'; linked: axpy.(ptx|ltoir), calls_python.cu.ltoir\)",
    ):
        pydev.compile(f, "float32, float32, float32", target="sm_90", stage="cubin")


def test_duplicate_symbol_is_named(cudalink, tmp_path):
    import interop_kernels as ik

    (tmp_path / "axpy_again.ptx").write_text(
        pydev.compile(ik.axpy, "float32, float32, float32", target="sm_90", stage="ptx")
    )
    f = device.func(interop=True, link=[str(tmp_path / "axpy_again.ptx")])(ik.axpy.underlying)
    with pytest.raises(pydev.CompileError, match="duplicate symbol 'axpy' at link time"):
        pydev.compile(f, "float32, float32, float32", target="sm_90", stage="cubin")


def test_host_files_on_cuda(cudalink):
    import interop_kernels as ik

    f = device.func(interop=True, link=[os.path.join(FIXTURES, "twice.c")])(ik.axpy.underlying)
    with pytest.raises(
        pydev.CompileError, match=r"twice.c' of function 'axpy' is host code \(.c\), which the cuda target cannot link"
    ):
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
    # axpy's `a * x + y` is one fused multiply-add on the GPU: one rounding
    # of the exact value, which float64 holds for these inputs.
    np.testing.assert_allclose(
        back(dy, np.full(n, np.nan, np.float32)), (2.5 * x.astype(np.float64) + y).astype(np.float32), rtol=1e-6
    )

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


def test_gpu_launches_python_kernel_calling_cpp_through_pydev(cudalink, monkeypatch):
    """The same kernel launched by device.launch: pydev links it with
    nvJitLink and the driver loads the cubin (test_interop_cuda_launch.py
    checks this path on the fake driver)."""
    _driver()
    import interop_kernels as ik

    monkeypatch.setenv("PYDEV_TARGET", "cuda")
    rng = np.random.default_rng(19)
    n = 300
    xs, ys = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    vs, ws = rng.standard_normal((n, 3)).astype(np.float32), rng.standard_normal((n, 3)).astype(np.float32)
    as_vec3 = lambda a: a.view(ik.vec3.dtype).reshape(n)  # noqa: E731
    h, c = pydev.to_device(np.full(n, np.nan, np.float32)), pydev.to_device(np.full(n, -1, np.int64))
    dv = pydev.to_device(as_vec3(vs.copy()))
    s = pydev.create_stream()
    device.launch(
        ik.uses_cpp,
        h,
        pydev.to_device(xs),
        pydev.to_device(ys),
        dv,
        pydev.to_device(as_vec3(ws)),
        c,
        grid=(n + 127) // 128,
        block=128,
        stream=s,
    )
    s.synchronize()
    np.testing.assert_array_equal(h.copy_to_host(), np.hypot(xs, ys).astype(np.float16).astype(np.float32))
    np.testing.assert_allclose(dv.copy_to_host().view(np.float32).reshape(n, 3), np.cross(vs, ws), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(
        c.copy_to_host(), np.clip(np.arange(n) * 1000000000 - 5000000000, -2000000000, 3000000000)
    )


# --- 3-lane vectors and align= structs: C++ called in nvcc's layout (test/interop/layouts.cu) ---

LAYOUTS_SIG = "cplx16[:], float32[:, :], uint8[:, :], float32[:, :], float64[:, :], int8[:, :], cplx16[:]"


def test_declared_functions_are_called_in_nvccs_layout(cudalink):
    """The PTX calls each declared C++ function by its symbol with the
    `.param`s nvcc's definition declares (NVRTC's PTX of
    test/interop/layouts.cu): float3 12 bytes aligned 4, cplx16 (align=16)
    16 aligned 16, withv3 {float3, float} 16 aligned 4, double3 24 aligned 8,
    the tuple result {char3, cplx16} 32 aligned 16."""
    import interop_kernels as ik
    from pydev import _interop

    ptx = pydev.compile(ik.uses_layouts, LAYOUTS_SIG, target="sm_90", stage="ptx")
    assert "__pydev_cabi_" not in ptx
    defined = _nvrtc_ptx(cudalink, open(ik.LAYOUTS_CU).read(), "sm_90")
    want = {
        "cmul_cu": ([(16, 16), (16, 16)], (16, 16)),
        "vdot3": ([(4, 12), None, (1, 3)], (4, 12)),
        "nest": ([(4, 16), (8, 24)], (16, 32)),
    }
    for name, layout in want.items():
        assert _interop._ptx_extern(ptx, name) == _interop._ptx_extern(defined, name, "visible") == layout, name


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_declared_layouts_link_to_a_cubin(cudalink, arch):
    import interop_kernels as ik

    cubin = pydev.compile(ik.uses_layouts, LAYOUTS_SIG, target=arch, stage="cubin")
    assert cubin[:4] == b"\x7fELF" and b"uses_layouts" in cubin and b"__pydev_cabi_" not in cubin


def test_linking_checks_the_declared_layouts(cudalink):
    """Where the kernel's PTX would pass a parameter otherwise than nvcc's
    definition takes it, linking is an error naming the declaration (never
    a silent mismatch)."""
    import interop_kernels as ik
    from pydev import _cudalink, _link_paths

    ptx = pydev.compile(ik.uses_layouts, LAYOUTS_SIG, target="sm_90", stage="ptx")
    declared = _link_paths.program_links(ik.uses_layouts._reached)[1]
    broken = ptx.replace(".param .align 8 .b8 nest_param_1[24]", ".param .align 32 .b8 nest_param_1[32]")
    assert broken != ptx
    with pytest.raises(
        pydev.CompileError,
        match=r"interop_kernels.py:\d+: error: the PTX calls the declared interoperable function 'nest' has parameters",
    ):
        _cudalink.link_cubin(broken, "k.ptx", [ik.LAYOUTS_CU], "sm_90", "kernel 'uses_layouts'", declared)


def test_gpu_runs_calls_in_nvccs_layout(cudalink, monkeypatch):
    _driver()
    import interop_kernels as ik

    monkeypatch.setenv("PYDEV_TARGET", "cuda")
    rng = np.random.default_rng(23)
    n = 257
    cs = rng.standard_normal((n, 4)).astype(np.float32)
    cs[:, 2:] = np.nan  # cplx16's padding
    vs = rng.standard_normal((n, 3)).astype(np.float32)
    hs = rng.integers(0, 255, (n, 3), dtype=np.uint8)
    ws = rng.standard_normal((n, 4)).astype(np.float32)
    ws[:, 3] = rng.integers(-100, 100, n)
    ds = rng.standard_normal((n, 3))
    ds[:, 1] = rng.integers(-100, 100, n)
    view = lambda a, t: a.view(t.dtype).reshape(n)  # noqa: E731
    d_cs, d_vs = pydev.to_device(view(cs.copy(), ik.cplx16)), pydev.to_device(vs.copy())
    o8, c2 = (
        pydev.to_device(np.full((n, 3), -128, np.int8)),
        pydev.to_device(view(np.full((n, 4), np.nan, np.float32), ik.cplx16)),
    )
    s = pydev.create_stream()
    device.launch(
        ik.uses_layouts,
        d_cs,
        d_vs,
        pydev.to_device(hs),
        pydev.to_device(ws),
        pydev.to_device(ds),
        o8,
        c2,
        grid=(n + 127) // 128,
        block=128,
        stream=s,
    )
    s.synchronize()
    got = d_cs.copy_to_host().view(np.float32).reshape(n, 4)
    np.testing.assert_array_equal(got[:, 0], -cs[:, 1])
    np.testing.assert_array_equal(got[:, 1], cs[:, 0])
    np.testing.assert_allclose(d_vs.copy_to_host().reshape(n, 3), vs * 2 + hs, rtol=1e-6)
    want8 = np.stack([ws[:, 3], ds[:, 1], np.where(ws[:, 1] + 0.5 > 0, 3, -3)], axis=1).astype(np.int8)
    np.testing.assert_array_equal(o8.copy_to_host().reshape(n, 3), want8)
    got2 = c2.copy_to_host().view(np.float32).reshape(n, 4)
    np.testing.assert_allclose(got2[:, 0], ws[:, 0] + ws[:, 2], rtol=1e-6)
    np.testing.assert_array_equal(got2[:, 1], ds[:, 2].astype(np.float32))


# --- C++ calling a Python function with 3-lane vectors and align= structs ------------------

PY_V3_SIG = "float32x3, cplx16, float32"


def _nvrtc_ptx(cudalink, source, arch):
    """NVRTC's PTX of CUDA C++ `source` (relocatable device code)."""
    nvrtc = cudalink._lib("nvrtc")
    prog = ctypes.c_void_p()
    assert nvrtc.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"ref.cu", 0, None, None) == 0
    try:
        opts = [f"-arch={arch}", "-rdc=true", "-std=c++17"] + [f"-I{d}" for d in cudalink.include_dirs()]
        arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
        size = ctypes.c_size_t()
        if nvrtc.nvrtcCompileProgram(prog, len(opts), arr) != 0:
            nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value)
            nvrtc.nvrtcGetProgramLog(prog, log)
            pytest.fail(log.value.decode())
        nvrtc.nvrtcGetPTXSize(prog, ctypes.byref(size))
        buf = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetPTX(prog, buf)
        return buf.value.decode()
    finally:
        nvrtc.nvrtcDestroyProgram(ctypes.byref(prog))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_python_interop_ptx_has_the_layout_cpp_calls_with(cudalink, arch):
    """A Python interop function taking a 3-lane vector and an align=16
    struct and returning a 3-lane vector: its PTX declares the parameters
    nvcc's callers pass (float3: `.align 4 .b8 [12]`; the struct: `.align 16
    .b8 [16]`), checked against NVRTC's PTX of the C++ caller
    (test/interop/calls_python_layouts.cu), whose cubin links with it as is."""
    import interop_kernels as ik
    from pydev import _c_types, _interop

    ptx = pydev.compile(ik.py_v3, PY_V3_SIG, target=arch, stage="ptx")
    assert ".visible .func  (.param .align 4 .b8 func_retval0[12]) py_v3(" in ptx
    caller = _nvrtc_ptx(cudalink, open(os.path.join(ik.FIXTURES, "calls_python_layouts.cu")).read(), arch)
    assert (
        _interop._ptx_extern(ptx, "py_v3", "visible")
        == _interop._ptx_extern(caller, "py_v3")
        == ([(4, 12), (16, 16), None], (4, 12))
    )
    params, result = _c_types.annotations(ik.py_v3.underlying)
    _interop.check_interop_ptx(ptx, "py_v3", params, result, "here")
    with pytest.warns(
        RuntimeWarning, match="'py_v3' is linked as PTX, not LTO-IR .*parameter 1 aligned beyond its members"
    ):
        cubin = pydev.compile(ik.py_v3, PY_V3_SIG, target=arch, stage="cubin")
    assert cubin[:4] == b"\x7fELF" and b"calls_v3" in cubin and b"py_v3" in cubin and b"__pydev_py_" not in cubin


def _prototypes_and_definitions(ptx):
    """({callprototype parameter lists}, {function name: parameter list})
    of PTX text, each list as `(result, (param, ...))` of `.param` specs
    with the names dropped."""
    import re

    def specs(text):
        return tuple(
            re.sub(r"\s+", " ", re.sub(r"\s*[A-Za-z_$][\w$]*(\[\d+\])?\s*$", r"\1", p.strip()))
            for p in text.split(",")
            if p.strip()
        )

    protos = {(specs(r), specs(a)) for r, a in re.findall(r"\.callprototype\s*\(([^)]*)\)\s*_\s*\(([^)]*)\)", ptx)}
    defs = {}
    for r, name, a in re.findall(r"^(?:\.visible\s+)?\.func\s*(?:\(([^)]*)\))?\s*([\w$]+)\s*\(([^)]*)\)", ptx, re.M):
        defs[name] = (specs(r), specs(a))
    return protos, defs


def test_lto_calls_from_cpp_into_python_keep_the_definitions_layout(cudalink):
    """C++ (NVRTC LTO-IR) calling Python interop functions that link as
    LTO-IR: nvJitLink calls them through prototypes made from NVRTC's IR
    types, so each prototype must declare the `.param`s the definition
    declares (an H200 showed a call with an align=16 struct reading the
    wrong registers when they differed: such definitions link as PTX).
    Checked on the linked PTX, without a GPU."""
    import interop_kernels as ik

    inputs = [
        (cudalink.KINDS[".ltoir"], pydev.compile(f, sig, target="sm_90", stage="ltoir"), f"{f.__name__}.ltoir")
        for f, sig in (
            (ik.axpy, "float32, float32, float32"),
            (ik.vscale, "vec3, float32"),
            (ik.py_max, "float32, float32"),
        )
    ]
    inputs.append((cudalink.KINDS[".ltoir"], cudalink.nvrtc_ltoir(CU, "sm_90", "test"), "calls_python.cu.ltoir"))
    protos, defs = _prototypes_and_definitions(cudalink.nvjitlink(inputs, "sm_90", "test", ptx=True))
    assert "vscale" in defs and protos, (protos, defs)  # vscale is called, not inlined
    assert protos <= set(defs.values()), (protos, defs)


@pytest.mark.parametrize(
    "name, sig, what",
    [
        ("py_v3", PY_V3_SIG, "takes parameter 1 aligned beyond its members"),
        ("conj16", "cplx16", "takes parameter 0 aligned beyond its members"),
    ],
)
def test_ltoir_refuses_interop_definitions_with_over_aligned_values(cudalink, name, sig, what):
    """NVRTC's LTO-IR calls a Python interop function through a prototype
    with NVRTC's IR types, which aligns an align=16 struct to 4: the call
    would read the wrong registers (an H200 showed it). Such a definition
    has no LTO-IR; the cubin links it as PTX (test above)."""
    import interop_kernels as ik

    with pytest.raises(
        pydev.CompileError,
        match=f"interoperable function '{name}' {what}, which CUDA C\\+\\+ linked by link-time optimisation",
    ):
        pydev.compile(getattr(ik, name), sig, target="sm_90", stage="ltoir")
    # natural alignment (a 3-lane vector of floats, a plain struct): LTO-IR as before
    assert pydev.compile(ik.vscale, "vec3, float32", target="sm_90", stage="ltoir")


def test_every_aggregate_kind_crosses_in_nvccs_layout(cudalink):
    """Interop functions with structs over-aligned by align=, tuples holding
    them and 3-lane vectors, as parameters and results: each PTX prototype
    is NVRTC's for the same C++ declarations."""
    import interop_kernels as ik
    from pydev import _interop

    ptx = pydev.compile(ik.layouts_kernel, "float32[::1], readonly float32[::1]", target="sm_90", stage="ptx")
    caller = _nvrtc_ptx(cudalink, ik.LAYOUTS_CXX, "sm_90")
    for name in ("conj16", "mixed"):
        mine = _interop._ptx_extern(ptx, name, "visible")
        assert mine is not None and mine == _interop._ptx_extern(caller, name, "visible"), (name, mine)


@pytest.mark.parametrize("target", ["host", "cuda"])
def test_a_kernel_calling_interop_functions_computes_the_same_on_both_targets(monkeypatch, target):
    """On cuda each call converts its arguments to the CUDA C++ layout and
    the result back (the host keeps the register form): the same values."""
    from conftest import gpu_available

    import interop_kernels as ik

    if target == "cuda" and not gpu_available():
        pytest.skip("no GPU")
    monkeypatch.setenv("PYDEV_TARGET", target)
    x = np.random.default_rng(31).standard_normal(300).astype(np.float32)
    out = pydev.to_device(np.full_like(x, np.nan))
    device.launch(ik.layouts_kernel, out, pydev.to_device(x), grid=3, block=128, stream=pydev.default_stream())
    pydev.default_stream().synchronize()
    out = np.asarray(pydev.to_host(out))
    # r = (x, -(x + 1)); mixed gives ((x, 3x), (x, -(x + 1), -(x + 1)))
    want = x - 2 * (x + 1) + 3 * x + 12 * x + 5 * (x - 2 * (x + 1))
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


def test_interop_ptx_check_names_a_layout_mismatch(cudalink):
    import interop_kernels as ik
    from pydev import _c_types, _interop

    ptx = pydev.compile(ik.py_v3, PY_V3_SIG, target="sm_90", stage="ptx")
    params, result = _c_types.annotations(ik.py_v3.underlying)
    broken = ptx.replace(".param .align 4 .b8 py_v3_param_0[12]", ".param .align 16 .b8 py_v3_param_0[16]")
    with pytest.raises(pydev.CompileError, match="error: the PTX of the interoperable function 'py_v3' has parameters"):
        _interop.check_interop_ptx(broken, "py_v3", params, result, "here")
    # scalars: nothing to check beyond the symbol
    _interop.check_interop_ptx(ptx, "axpy", [("a", _c_types.Scalar("float32"))], _c_types.Scalar("float32"), "here")


def test_gpu_runs_cpp_calling_python_with_3_lane_vectors(cudalink):
    cu, check, arch = _driver()
    import interop_kernels as ik

    cubin = pydev.compile(ik.py_v3, PY_V3_SIG, target=arch, stage="cubin")
    mod, f = ctypes.c_void_p(), ctypes.c_void_p()
    check(cu.cuModuleLoadData(ctypes.byref(mod), cubin), "cuModuleLoadData")
    check(cu.cuModuleGetFunction(ctypes.byref(f), mod, b"calls_v3"), "cuModuleGetFunction")
    rng = np.random.default_rng(29)
    n = 300
    v = rng.standard_normal((n, 3)).astype(np.float32)
    c = rng.standard_normal((n, 4)).astype(np.float32)
    ptrs = []
    for a in (v, c):
        p = ctypes.c_uint64()
        check(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(a.nbytes)), "cuMemAlloc")
        check(cu.cuMemcpyHtoD_v2(p, a.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(a.nbytes)), "cuMemcpyHtoD")
        ptrs.append(p)
    args = [ptrs[0], ptrs[1], ctypes.c_float(1.5), ctypes.c_int(n)]
    arr = (ctypes.c_void_p * 4)(*[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
    check(cu.cuLaunchKernel(f, (n + 127) // 128, 1, 1, 128, 1, 1, 0, None, arr, None), "cuLaunchKernel")
    check(cu.cuCtxSynchronize(), "cuCtxSynchronize")
    out = np.full((n, 3), np.nan, np.float32)
    check(cu.cuMemcpyDtoH_v2(out.ctypes.data_as(ctypes.c_void_p), ptrs[0], ctypes.c_size_t(out.nbytes)), "cuMemcpyDtoH")
    v64, c64 = v.astype(np.float64), c.astype(np.float64)  # fused multiply-adds: one rounding each
    want = np.stack([v64[:, 0] * 1.5 + c64[:, 0], v64[:, 1] * 1.5 - c64[:, 1], v64[:, 2] * 1.5], axis=1).astype(
        np.float32
    )
    np.testing.assert_allclose(out, want, rtol=1e-6)


def test_python_and_cpp_link_as_ltoir_both_ways(cudalink, tmp_path):
    """Stage "ltoir" of the Python functions the C++ kernels call, linked
    with NVRTC's LTO-IR: every input LTO-IR, one optimised program."""
    import interop_kernels as ik

    if not cudalink.available("nvvm"):
        pytest.skip("libNVVM is not installed (pip install nvidia-nvvm)")
    inputs = [(cudalink.KINDS[".ltoir"], cudalink.nvrtc_ltoir(CU, ARCH, "test"), "calls_python.ltoir")]
    for f, sig in (
        (ik.axpy, "float32, float32, float32"),
        (ik.vscale, "vec3, float32"),
        (ik.py_max, "float32, float32"),
    ):
        inputs.append(
            (cudalink.KINDS[".ltoir"], pydev.compile(f, sig, target=ARCH, stage="ltoir"), f"{f.__name__}.ltoir")
        )
    ptx = cudalink.nvjitlink(inputs, ARCH, "test", ptx=True)
    for k in ("saxpy_cpp", "scale_cpp", "max_cpp"):
        assert f".entry {k}(" in ptx
    # py_max (scalars) is inlined into max_cpp: nothing calls it.
    body = ptx[ptx.index(".entry max_cpp(") :]
    body = body[: body.index("\n}\n")]
    assert "call" not in body, body


def test_the_header_compiles_under_nvrtc(cudalink, tmp_path):
    """pydev.cxx_header's header of every aggregate kind under NVRTC (CUDA's
    own vector and half types; no C library headers there): its
    static_asserts hold for nvcc's layouts too."""
    import interop_header_kernels as hk

    h = pydev.cxx_header(
        hk.Plain,
        hk.Padded,
        hk.Over,
        hk.Nested,
        hk.WithVectors,
        hk.WithAligned,
        hk.Halves,
        hk.takes_all,
        hk.tuples,
        hk.vectors,
        hk.arrays,
        hk.kern,
    )
    src = tmp_path / "uses_header.cu"
    src.write_text(h + "\n__device__ int64_t use_it(Plain p) { return (int64_t)sizeof(p); }\n")
    cudalink.nvrtc_ltoir(str(src), "sm_90", "test")
