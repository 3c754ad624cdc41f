"""Foreign functions of Numba's ABI in pydev.numba (issue 31):
`cuda.declare_device(name, sig)` (numba-cuda's default `abi="numba"`)
calls `extern "C" __device__ int f(T* ret, args...)` through a generated
C-ABI adapter linked with the kernel. Host target (clang builds the .cu
files) with fixed-seed inputs and poisoned outputs; on cuda the PTX calls
the adapter and nvJitLink links it with NVRTC's code of both files."""

import re

import numpy as np
import pytest

import pydev
from pydev.numba import cuda, float32, float64, int32, int64

SEED = 20261128

TIMES = cuda.CUSource(
    'extern "C" __device__ int times2(int *out, int a) { *out = a * 2; return 0; }\n'
    'extern "C" __device__ int times3(int *out, int a) { *out = a * 3; return 0; }\n'
)
# A second file calling the first one's function, as numba-cuda's test does.
TIMES4 = cuda.CUSource(
    'extern "C" __device__ int times2(int *out, int a);\n'
    'extern "C" __device__ int times4(int *out, int a) { int t; times2(&t, a); *out = 2 * t; return 0; }\n'
)
MIXED = cuda.CUSource(
    'extern "C" __device__ int axpb(double *out, float a, double x, long long b, bool neg) {\n'
    "  *out = neg ? -(a * x + b) : a * x + b; return 0; }\n"
)

times2 = cuda.declare_device("times2", "int32(int32)", link=TIMES)
times3 = cuda.declare_device("times3", int32(int32), link=[TIMES])
times4 = cuda.declare_device("times4", "int32(int32)", link=[TIMES, TIMES4])
axpb = cuda.declare_device("axpb", "float64(float32, float64, int64, boolean)", link=MIXED)


@cuda.jit(device=True)
def via_device_function(x):
    return times2(x) + times4(x)


@cuda.jit
def kernel(xs, ys, out_i, out_f):
    i = cuda.grid(1)
    if i < xs.size:
        out_i[i] = times2(xs[i]) + times3(xs[i] + i) + via_device_function(xs[i])
        out_f[i] = axpb(float32(0.5), ys[i], int64(i), xs[i] % 2 == 1)


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


def test_numba_abi_functions_compute_on_the_host():
    rng = np.random.default_rng(SEED)
    n = 200
    xs = rng.integers(-10_000, 10_000, n, dtype=np.int32)
    ys = rng.standard_normal(n)
    out_i = cuda.to_device(np.full(n, -(2**31), dtype=np.int32))
    out_f = cuda.to_device(np.full(n, np.nan))
    kernel[2, 128](cuda.to_device(xs), cuda.to_device(ys), out_i, out_f)
    i = np.arange(n)
    np.testing.assert_array_equal(out_i.copy_to_host(), 2 * xs + 3 * (xs + i) + 2 * xs + 4 * xs)
    want = np.float32(0.5) * ys + i
    np.testing.assert_array_equal(out_f.copy_to_host(), np.where(xs % 2 == 1, -want, want))


def test_declarations_have_numba_cudas_attributes():
    f1 = cuda.declare_device("f1", int32(float32[:]))
    assert f1.name == "f1" and f1.sig.args == (float32[:],) and f1.sig.return_type == int32
    assert f1.abi == "numba" and axpb.abi == "numba"
    assert cuda.declare_device("f2", "float64(float64)", abi="c").abi == "c"

    @cuda.jit
    def uses_an_array(a, out):
        out[0] = f1(a)

    with pytest.raises(pydev.CompileError, match=r"'f1' \(int32\(array\(float32, 1d, A\)\)\): .* Numba's ABI"):
        uses_an_array[1, 1](np.ones(3, np.float32), np.zeros(1, np.int32))


def test_ptx_calls_the_adapter_and_links(tmp_path):
    ptx = kernel.inspect_asm((int32[::1], float64[::1], int32[::1], float64[::1]))
    assert re.search(r"\.extern \.func\s+\(\.param \.b32 func_retval0\) __pydev_numba_abi_times2", ptx), ptx
    assert "__pydev_numba_abi_axpb" in ptx and not re.search(r"\.extern \.func[^;]*\btimes2\(", ptx)
    from pydev import _cudalink

    if not _cudalink.available():
        pytest.skip("no NVRTC/nvJitLink (pip install nvidia-cuda-nvrtc nvidia-nvjitlink)")
    prog = kernel.overloads[(int32[::1], float64[::1], int32[::1], float64[::1])]
    cubin = _cudalink.link_cubin(ptx, "k.ptx", prog.link, "sm_90", "kernel 'kernel'")
    assert cubin[:4] == b"\x7fELF" and b"times4" in cubin
