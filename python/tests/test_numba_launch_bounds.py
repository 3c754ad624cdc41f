"""`cuda.jit(launch_bounds=...)` (and `max_registers=`) on pydev.numba, as
numba-cuda documents it:
`max_threads_per_block` or `(max_threads_per_block, min_blocks_per_sm[,
max_blocks_per_cluster])` become the kernel's PTX directives `.maxntid`,
`.minnctapersm` and `.maxclusterrank` (through the NVVM dialect's kernel
attributes, which ptxas's register allocation honours), and a launch of a
larger block fails: on cuda the driver refuses it, on the host target the
runtime does (the same check, for the general and the fast path).
`max_registers=N` is the kernel's `.maxnreg N` (`nvvm.maxnreg`).

Host target, seeded random inputs, NaN-poisoned outputs; PTX for sm_90,
assembled by ptxas where it is installed."""

import re

import numpy as np
import pytest
import toolchain

import pydev
from pydev.numba import cuda, float32, float64, void

SEED = 20261128


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


def scale_kernel(bounds):
    @cuda.jit(launch_bounds=bounds)
    def scale(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = 3.0 * x[i] + 1.0

    return scale


# --- PTX ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bounds,min_ctas,cluster",
    [(128, None, None), ((128,), None, None), ((128, 2), 2, None), ((128, 2, 4), 2, 4)],
    ids=["int", "1-tuple", "min-ctas", "cluster"],
)
def test_ptx_has_the_directives(bounds, min_ctas, cluster, tmp_path):
    k = scale_kernel(bounds)
    ptx = k.inspect_asm((float32[::1], float32[::1]))
    assert ".target sm_90" in ptx
    assert re.search(r"\.maxntid 128, 1, 1\s*\n", ptx), ptx
    if min_ctas is None:
        assert ".minnctapersm" not in ptx
    else:
        assert re.search(rf"\.minnctapersm {min_ctas}\s*\n", ptx), ptx
    if cluster is None:
        assert ".maxclusterrank" not in ptx
    else:
        assert re.search(rf"\.maxclusterrank {cluster}\s*\n", ptx), ptx
    r = toolchain.assemble(ptx, tmp_path)
    if r is None:
        pytest.skip("no ptxas (pip install nvidia-cuda-nvcc)")
    assert r.returncode == 0, r.stderr


def test_nvvm_ir_has_the_annotations():
    # The libNVVM route (LTO-IR, for kernels with link= files): NVVM IR
    # annotations rather than PTX directives.
    k = scale_kernel((128, 2, 4))
    text = pydev.compile(k, (float32[::1], float32[::1]), target="sm_90", stage="nvvm-ir")
    for key, n in (("maxntidx", 128), ("maxntidy", 1), ("maxntidz", 1), ("minctasm", 2), ("cluster_max_blocks", 4)):
        assert re.search(rf'@scale, !"{key}", i32 {n}}}', text), (key, text)
    from pydev import _cudalink

    if not _cudalink.available("nvvm"):
        pytest.skip("libNVVM is not installed (pip install nvidia-nvvm)")
    ptx = _cudalink.nvvm_ltoir(text, "sm_90", "scale", ptx=True)
    for directive in (".maxntid 128, 1, 1", ".minnctapersm 2", ".maxclusterrank 4"):
        assert directive in ptx, (directive, ptx)


def test_a_zero_after_the_thread_bound_sets_no_bound():
    # As CUDA C's __launch_bounds__(N, 0): no .minnctapersm.
    ptx = scale_kernel((128, 0, 0)).inspect_asm((float32[::1], float32[::1]))
    assert re.search(r"\.maxntid 128, 1, 1\s*\n", ptx), ptx
    assert ".minnctapersm" not in ptx and ".maxclusterrank" not in ptx


def test_compile_ptx_takes_launch_bounds():
    def f(x):
        x[0] = 1.0

    ptx, ret = cuda.compile_ptx(f, "void(float32[::1])", launch_bounds=(64, 3))
    assert ret == void
    assert re.search(r"\.maxntid 64, 1, 1\s*\n", ptx) and re.search(r"\.minnctapersm 3\s*\n", ptx), ptx
    plain, _ = cuda.compile_ptx(f, "void(float32[::1])")
    assert ".maxntid" not in plain and ".minnctapersm" not in plain


def _hungry(x, out):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        s0, s1, s2, s3, s4, s5, s6, s7 = a, a + 1, a + 2, a + 3, a + 4, a + 5, a + 6, a + 7
        t0, t1, t2, t3, t4, t5, t6, t7 = a * 2, a * 3, a * 4, a * 5, a * 6, a * 7, a * 8, a * 9
        for j in range(64):
            s0, s1, s2, s3 = s0 * t1 + s7, s1 * t2 + s0, s2 * t3 + s1, s3 * t4 + s2
            s4, s5, s6, s7 = s4 * t5 + s3, s5 * t6 + s4, s6 * t7 + s5, s7 * t0 + s6
            t0, t1, t2, t3 = t0 + s1, t1 + s2, t2 + s3, t3 + s4
            t4, t5, t6, t7 = t4 + s5, t5 + s6, t6 + s7, t7 + s0
        out[i] = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7 + t0 + t1 + t2 + t3 + t4 + t5 + t6 + t7


def test_ptxas_allocates_registers_for_the_bounds():
    # 1024 threads and 2 blocks per SM leave 65536 / 2048 = 32 registers a
    # thread: ptxas must fit a register-hungry kernel into them.
    if not toolchain.ptxas("sm_90"):
        pytest.skip("no ptxas (pip install nvidia-cuda-nvcc): the host target's register figures are ptxas's")

    sig = void(float64[::1], float64[::1])
    free = cuda.jit(sig)(_hungry).get_regs_per_thread()
    bounded = cuda.jit(sig, launch_bounds=(1024, 2))(_hungry).get_regs_per_thread()
    assert bounded <= 32 < free, (bounded, free)


def test_max_registers_is_the_kernels_maxnreg():
    sig = void(float64[::1], float64[::1])
    k = cuda.jit(sig, max_registers=40)(_hungry)
    ptx = k.inspect_asm(sig)
    assert re.search(r"^\s*\.maxnreg 40$", ptx, re.M), ptx[:2000]
    assert ".maxnreg" not in cuda.jit(sig)(_hungry).inspect_asm(sig)
    # and on the host target the kernel runs as without it
    rng = np.random.default_rng(SEED)
    x = rng.random(100) * 1e-3
    out, want = np.full(100, np.nan), np.full(100, np.nan)
    k[1, 128](x, out)
    cuda.jit(sig)(_hungry)[1, 128](x, want)
    np.testing.assert_array_equal(out, want)


def test_ptxas_allocates_registers_within_max_registers():
    if not toolchain.ptxas("sm_90"):
        pytest.skip("no ptxas (pip install nvidia-cuda-nvcc): the host target's register figures are ptxas's")
    sig = void(float64[::1], float64[::1])
    free = cuda.jit(sig)(_hungry).get_regs_per_thread()
    capped = cuda.jit(sig, max_registers=40)(_hungry).get_regs_per_thread()
    assert capped <= 40 < free, (capped, free)


@pytest.mark.parametrize("bad,error", [("32", TypeError), (True, TypeError), (0, ValueError), (-8, ValueError)])
def test_max_registers_takes_a_positive_int(bad, error):
    with pytest.raises(error, match="max_registers"):
        cuda.jit(max_registers=bad)


# --- launches on the host target ---------------------------------------------------------------


def _expected(x):
    # Numba's typing: 3.0 and 1.0 are float64, so the kernel computes in
    # float64 and rounds once to float32.
    return (3.0 * x.astype(np.float64) + 1.0).astype(np.float32)


def _inputs(n):
    rng = np.random.default_rng(SEED)
    x = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, dtype=np.float32)  # poisoned: unwritten elements show
    return x, out


def test_a_launch_within_the_bounds_runs():
    k = scale_kernel((128, 2))
    x, out = _inputs(1000)
    k[8, 128](x, out)
    np.testing.assert_allclose(out, _expected(x), rtol=1e-6)
    x2, out2 = _inputs(1000)
    x2 = x2[::-1].copy()
    k[16, 64](x2, out2)  # a smaller block is fine too (the fast path)
    np.testing.assert_allclose(out2, _expected(x2), rtol=1e-6)


def _refused(k, griddim, blockdim, x, out, threads):
    with pytest.raises(pydev.LaunchError) as e:
        k[griddim, blockdim](x, out)
    msg = str(e.value)
    assert "'scale'" in msg and "at most 128 threads per block" in msg, msg
    assert f"a block of {threads} threads" in msg and "CUDA_ERROR_INVALID_VALUE" in msg, msg
    assert np.isnan(out).all()  # nothing ran


def test_a_launch_past_the_bounds_fails_naming_kernel_bound_and_block():
    k = scale_kernel(128)
    x, out = _inputs(512)
    _refused(k, 2, 256, x, out, 256)
    _refused(k, 2, 256, x, out, 256)  # again: the second launch, as the first
    _refused(k, 2, (16, 16), x, out, 256)  # the total counts, not x alone


def test_the_fast_path_checks_the_bounds_too():
    k = scale_kernel(128)
    x, out = _inputs(512)
    k[4, 128](x, out)  # registers the fast path for these argument types
    np.testing.assert_allclose(out, _expected(x), rtol=1e-6)
    out[:] = np.nan
    _refused(k, 2, 256, x, out, 256)
    _refused(k, 1, 129, x, out, 129)
    configured = k[2, 256]  # a configuration made once, launched twice
    for _ in range(2):
        with pytest.raises(pydev.LaunchError, match="at most 128 threads per block"):
            configured(x, out)
    k[4, 128](x, out)  # the kernel still launches within its bounds
    np.testing.assert_allclose(out, _expected(x), rtol=1e-6)


def test_without_bounds_a_full_block_runs():
    k = scale_kernel(None)
    x, out = _inputs(2048)
    k[2, 1024](x, out)
    np.testing.assert_allclose(out, _expected(x), rtol=1e-6)


def test_a_program_with_nvvm_maxntid_is_checked_on_the_host():
    # The backend's route, which pydev.numba takes: the NVVM dialect's
    # attribute on a pydev.Program's kernel bounds its launches.
    text = """
func.func @fill(%out: !pydev.array<f32, 1>) attributes {pydev.kernel, nvvm.maxntid = array<i32: 8, 4, 1>} {
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_dim x
  %row = arith.muli %ty, %bx : index
  %i = arith.addi %row, %tx : index
  %v = arith.index_cast %i : index to i32
  %f = arith.sitofp %v : i32 to f32
  pydev.array_store %f, %out[%i] : f32, !pydev.array<f32, 1>, index
  return
}
"""
    from cuda import device

    prog = pydev.Program(text, kernel="fill")
    out = np.full(32, np.nan, dtype=np.float32)
    device.launch(prog, out, grid=1, block=(8, 4), stream=pydev.default_stream())
    np.testing.assert_array_equal(out, np.arange(32, dtype=np.float32))
    with pytest.raises(pydev.LaunchError, match=r"'fill'.*at most 32 threads per block.*a block of 64 threads"):
        device.launch(prog, out, grid=1, block=(8, 8), stream=pydev.default_stream())


# --- invalid values: numba's errors ---------------------------------------------------------


def test_more_than_three_bounds_is_numbas_value_error():
    with pytest.raises(ValueError, match="Got 4 launch bounds:"):
        cuda.jit("void()", launch_bounds=(128, 2, 4, 8))(lambda: None)
    with pytest.raises(ValueError, match="Got 4 launch bounds:"):
        cuda.compile_ptx(lambda: None, "void()", launch_bounds=(128, 2, 4, 8))


@pytest.mark.parametrize(
    "bounds,error,words",
    [
        ((), ValueError, "gives no bound"),
        (0, ValueError, "max_threads_per_block must be a positive 32-bit int, got 0"),
        ((128, -1), ValueError, "min_blocks_per_sm must be a non-negative 32-bit int, got -1"),
        ((128, 2, 1 << 31), ValueError, "max_blocks_per_cluster must be a non-negative 32-bit int"),
        (128.0, TypeError, "max_threads_per_block must be an int, got 128.0"),
        ((128, True), TypeError, "min_blocks_per_sm must be an int, got True"),
    ],
)
def test_invalid_bounds_are_errors_naming_the_bound(bounds, error, words):
    with pytest.raises(error, match=re.escape(words)):
        cuda.jit(launch_bounds=bounds)
