"""pydev.numba (docs/numba.md): Numba-CUDA kernels on the host target,
checked against NumPy (fixed-seed inputs, NaN / sentinel-poisoned outputs),
Numba's typing rules, errors at the user's file:line:col with a caret,
dispatch and caching per signature, and PTX for sm_90 assembled by ptxas."""

import ast
import functools
import math
import operator
import os
import re
import subprocess

import numpy as np
import pytest

import pydev
import toolchain
from pydev.numba import (
    cuda,
    float32,
    float64,
    int32,
    int64,
    uint32,
    uint64,
    void,
    int8,
    uint8,
    int16,
    uint16,
    boolean,
    from_dtype,
)

import numba_kernels as K
from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)

SEED = 20261125
# test_numba_gpu.py runs this module again with PYDEV_NUMBA_TEST_TARGET=cuda on a GPU.
TARGET = os.environ.get("PYDEV_NUMBA_TEST_TARGET", "host")
host_only = pytest.mark.skipif(TARGET != "host", reason="a host-target test")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", TARGET)


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def sync():
    cuda.synchronize()


# --- the typical kernels ------------------------------------------------------------------


def test_vec_add_host_and_device_arrays(rng):
    a, b = rng.random(1000), rng.random(1000)
    out = np.full(1000, np.nan)
    K.vec_add[4, 256](a, b, out)
    sync()
    np.testing.assert_array_equal(out, a + b)
    da, db = cuda.to_device(a), cuda.to_device(b)
    dout = cuda.device_array_like(a)
    K.vec_add[(4,), (256,)](da, db, dout)
    sync()
    np.testing.assert_array_equal(dout.copy_to_host(), a + b)


def test_saxpy_signature_compiles_eagerly(rng):
    assert len(K.saxpy.overloads) == 1  # compiled at decoration
    x, y = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    out = np.full(1000, np.nan, np.float32)
    s = cuda.stream()
    K.saxpy[4, 256, s](2.5, x, y, out)
    s.synchronize()
    np.testing.assert_allclose(out, np.float32(2.5) * x + y, rtol=1e-6)
    with pytest.raises(TypeError, match=r"No matching definition for argument types \(.*\) of kernel 'saxpy'"):
        K.saxpy[1, 1](2.5, x.astype(np.float64), y, out)


def test_block_reduction_shared(rng):
    x = rng.random(1000, dtype=np.float32)
    out = np.full(8, np.nan, np.float32)
    K.block_sum[8, K.RED](x, out)
    sync()
    np.testing.assert_allclose(out, np.pad(x, (0, 24)).reshape(8, 128).sum(1), rtol=1e-5)


def test_block_reduction_after_an_early_return(rng):
    """`if i >= n: return` before the barriers of a block reduction: the
    threads that returned do not hold up the barriers (Numba-CUDA on a GPU;
    the host target as well), and syncthreads_count counts the others."""
    n = 1000 - int(rng.integers(1, 100))  # the last block is partly past the end
    x = rng.random(1024, dtype=np.float32)
    out = np.full(8, np.nan, np.float32)
    live = np.full(8, -1, np.int32)
    K.block_sum_early_return[8, K.RED](x, out, live, n)
    sync()
    want = np.empty(8, np.float32)
    for b in range(8):
        s = x[b * 128 : min(n, (b + 1) * 128)].copy()  # the tree of the kernel, in float32
        k = len(s)
        step = 64
        while step > 0:
            m = min(step, max(k - step, 0))
            s[:m] += s[step : step + m]
            step //= 2
        want[b] = s[0]
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(live, [min(128, max(0, n - b * 128)) for b in range(8)])


def test_warp_reduction_shfl_down(rng):
    x = rng.random(256)
    out = np.full(8, np.nan)
    K.warp_sum[2, 128](x, out)
    sync()
    np.testing.assert_allclose(out, x.reshape(8, 32).sum(1), rtol=1e-12)


def test_histogram_atomics(rng):
    x = rng.random(5000)
    hist = np.zeros(10, np.int32)
    K.histogram[8, 64](x, 10, hist)
    sync()
    np.testing.assert_array_equal(hist, np.histogram(x, bins=10, range=(0, 1))[0])


def test_transpose_shared_tile(rng):
    a = rng.random((37, 53), dtype=np.float32)
    out = np.full((53, 37), np.nan, np.float32)
    K.transpose[(4, 3), (K.TPB, K.TPB)](a, out)
    sync()
    np.testing.assert_array_equal(out, a.T)


def test_stencil_5_point(rng):
    a = rng.random((30, 41))
    out = np.full_like(a, np.nan)
    K.stencil[(4, 6), (8, 8)](a, out)
    sync()
    want = np.full_like(a, np.nan)
    want[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    np.testing.assert_allclose(out, want, rtol=1e-14)


def test_record_update(rng):
    dt = np.dtype([("x", np.float64), ("vx", np.float32), ("n", np.int32)], align=True)
    recs = np.zeros(100, dt)
    recs["x"], recs["vx"], recs["n"] = rng.random(100), rng.random(100, dtype=np.float32), rng.integers(-5, 5, 100)
    want = recs.copy()
    K.record_update[1, 128](recs, 0.5)
    sync()
    np.testing.assert_allclose(recs["x"], want["x"] + want["vx"].astype(np.float64) * 0.5, rtol=1e-15)
    np.testing.assert_array_equal(recs["n"], want["n"] + 1)
    np.testing.assert_array_equal(recs["vx"], want["vx"])


# --- ports of Numba-CUDA documentation examples -------------------------------------------


def test_doc_shared_memory_matmul(rng):
    A, B = rng.random((40, 50), dtype=np.float32), rng.random((50, 30), dtype=np.float32)
    C = np.full((40, 30), np.nan, np.float32)
    bpg = (4, 4)  # the doc kernel loops over gridDim.x tiles: square grid covering both
    K.fast_matmul[bpg, (K.TPB, K.TPB)](A, B, C)
    sync()
    np.testing.assert_allclose(C, A @ B, rtol=1e-4)


def test_doc_sum_reduce_atomic(rng):
    a = rng.random(10_000)
    total = np.zeros(1)
    K.sum_reduce[16, 128](a, total)
    sync()
    assert total[0] == pytest.approx(a.sum(), rel=1e-12)


def test_random_free_monte_carlo_pi():
    n = 20_000
    hits = np.zeros(1, np.int64)
    K.mc_pi[(n + 127) // 128, 128](n, hits)
    sync()

    def vdc(k, base):
        q, bk = 0.0, 1.0 / base
        while k > 0:
            q += (k % base) * bk
            k //= base
            bk /= base
        return q

    want = sum(1 for i in range(n) if vdc(i + 1, 2) ** 2 + vdc(i + 1, 3) ** 2 <= 1.0)
    assert hits[0] == want
    assert abs(4 * hits[0] / n - math.pi) < 0.01


def test_atomics(rng):
    vals = rng.integers(-1000, 1000, 300).astype(np.int32)
    ai = np.array([-(2**31), 2**31 - 1, 0, -1, 0, 0, 12345, 11], np.int32)
    au = np.zeros(2, np.uint32)
    af = np.array([-np.inf, np.nan])
    old = np.full(300, -999999, np.int32)
    K.atomics_all[3, 128](ai, au, af, vals, old)
    sync()
    assert ai[0] == vals.max() and ai[1] == vals.min() and ai[2] == -vals.sum()
    assert (
        ai[3] == np.bitwise_and.reduce(vals) & -1
        and ai[4] == np.bitwise_or.reduce(vals)
        and ai[5] == np.bitwise_xor.reduce(vals)
    )
    assert ai[7] == 99
    # exch: the old values are the initial one and all but one of the values
    assert sorted(np.append(old, ai[6]).tolist()) == sorted(vals.tolist() + [12345])
    # inc wraps to 0 past 7: 300 incs from 0 -> 300 % 8; dec from 0 wraps to 5 then counts down
    assert au[0] == 300 % 8
    d = 0
    for _ in range(300):
        d = 5 if d == 0 or d > 5 else d - 1
    assert au[1] == d
    assert af[0] == vals.max() / 3 and af[1] == vals.min() / 3
    flag = np.zeros(1, np.int64)
    winners = np.full(64, -1, np.int64)
    K.cas_once[1, 64](flag, winners)
    sync()
    assert winners.sum() == 1 and flag[0] == np.argmax(winners) + 1


def test_cooperative_warp_code(rng):
    x = rng.integers(-20, 20, 64).astype(np.int32)
    x[32:] = 250 + (x[32:] % 3)  # the second warp: all in one hundred, all positive
    out = np.full((64, 11), -12345, np.int64)
    K.warp_vote[1, 64](x, out)
    sync()
    for w in range(2):
        xs = x[w * 32 : (w + 1) * 32]
        o = out[w * 32 : (w + 1) * 32]
        assert (o[:, 0] == (xs > 0).sum()).all()
        assert (o[:, 1] == 1).all()
        assert (o[:, 2] == int((xs > 5).any())).all()
        for lane in range(32):
            want = sum(1 << j for j in range(32) if xs[j] % 4 == xs[lane] % 4)
            assert o[lane, 3] == np.uint32(want).view(np.int32)  # int32 in Numba: lane 31 makes it negative
            assert o[lane, 4] == xs[lane ^ 1]
            assert o[lane, 5] == xs[0]
            assert o[lane, 6] == (xs[lane - 1] if lane else xs[0])
            assert o[lane, 7] == lane
            assert o[lane, 8] == lane
        same = int(len(set((xs // 100).tolist())) == 1)
        assert (o[:, 9] == same).all() and (o[:, 10] == same).all()


def test_control_flow_device_functions_and_python_semantics(rng):
    a = rng.integers(-10, 10, 50).astype(np.int64)
    a[0] = 0
    out = np.full(50, np.nan)
    qr = np.full((50, 5), -999, np.int64)
    K.control_flow[1, 64](a, out, qr)
    sync()
    ks = [k for k in range(1, 51) if k % 3]
    acc = np.array([sum(k * v for k in ks) for v in a.tolist()])
    np.testing.assert_allclose(out, np.clip(acc / 1000.0, -1, 1) * 2)
    np.testing.assert_array_equal(qr[:, 0], (a - 5) // 3)
    np.testing.assert_array_equal(qr[:, 1], (a - 5) % 3)
    np.testing.assert_array_equal(qr[:, 2], a * 0 + sum((1 << j) * j for j in range(4)) * a // np.where(a == 0, 1, 1))
    np.testing.assert_array_equal(qr[:, 3], -7 // 2 + (-7 % 3) + a**2)
    np.testing.assert_array_equal(qr[:, 4], ((a > 3) & (a < 8) | (a == 0)).astype(np.int64))


def test_math_functions(rng):
    x = rng.random(100) + 0.01
    out = np.full((100, 8), np.nan)
    K.math_kernel[1, 128](x, out)
    sync()
    lut = K.LUT[np.arange(100) % 6]
    want = np.stack(
        [
            np.sin(x) + np.cos(x),
            np.exp(x) * np.log(x + 1),
            np.sqrt(x) + np.arctan2(x, 0.5),
            np.floor(x * 10) + np.ceil(x * 10),
            x * 2 + 1 + np.cbrt(x),
            np.tanh(x) + x**1.5 + x,
            lut + np.hypot(x, 2.0),
            np.ones_like(x),
        ],
        1,
    )
    np.testing.assert_allclose(out, want, rtol=1e-12)


def test_bit_functions(rng):
    x = rng.integers(0, 2**31, 64).astype(np.uint32)
    x[0] = 0
    out = np.zeros((64, 4), np.uint32) + 7
    K.bits_kernel[1, 64](x, out)
    sync()
    for v, o in zip(x.tolist(), out.tolist()):
        assert o[0] == bin(v).count("1")
        assert o[1] == 32 - v.bit_length()
        assert o[2] == ((v & -v).bit_length() if v else 0)
        assert o[3] == int(f"{v:032b}"[::-1], 2)


def test_dynamic_shared_memory(rng):
    x = rng.random(64, dtype=np.float32)
    out = np.full(64, np.nan, np.float32)
    K.dyn_shared[1, 64, 0, 64 * 4](x, out)
    sync()
    np.testing.assert_array_equal(out, (x * 2)[::-1])


def test_grid3_and_forall():
    out = np.full((3, 5, 7), -1, np.int64)
    K.grid3[(1, 2, 3), (8, 4, 2)](out)
    sync()
    z, y, x = np.indices(out.shape)
    np.testing.assert_array_equal(out, x + 10 * y + 100 * z + 1000 * (8 + 8 + 6))
    o = np.full(1000, np.nan)
    K.vec_add.forall(1000)(np.arange(1000.0), np.ones(1000), o)
    sync()
    np.testing.assert_array_equal(o, np.arange(1000.0) + 1)


def test_array_views_and_slices(rng):
    a, b = rng.random((6, 5)), rng.random(7)
    out = np.full((6, 3), np.nan)
    a0 = a.copy()
    K.views[1, 8](a, b, out)
    sync()
    # The kernel's left-to-right sum (Python 3.12's sum() of floats is
    # compensated, which a GPU run on 3.12 showed differing in the last bit).
    np.testing.assert_array_equal(out[:, 0], [functools.reduce(operator.add, r, 0.0) for r in a0.tolist()])
    np.testing.assert_array_equal(out[:, 1], b[1] + b[-1] + a0[2, np.arange(6) % 4])
    np.testing.assert_array_equal(out[:, 2], a0[:, 2])
    np.testing.assert_array_equal(a[:, 4], -1.0)
    np.testing.assert_array_equal(a[:, :4], a0[:, :4])


def test_global_arrays_are_constants_and_shared_records(rng):
    x = rng.random(50)
    out = np.full(50, np.nan)
    recs = np.zeros(50, K.REC)
    recs["a"], recs["b"] = rng.integers(1, 9, 50), rng.random(50)
    want_b = recs["b"] + recs["a"][0]
    K.globals_and_shared_records[1, 64](x, out, recs)
    sync()
    np.testing.assert_allclose(out, 0.25 * np.roll(x, 1) + 0.5 * x + 0.25 * np.roll(x, -1) + 3, rtol=1e-15)
    np.testing.assert_array_equal(recs["b"], want_b)

    @cuda.jit
    def writes_a_global(o):
        K.WEIGHTS[0] = 1.0  # noqa: B018

    with pytest.raises(pydev.CompileError, match="cannot write to a read-only"):
        writes_a_global[1, 1](out)


def test_local_array_across_a_barrier_on_host():
    out = np.full(8, np.nan)
    K.local_across_barrier[1, 8](out)
    sync()
    np.testing.assert_array_equal(out, np.arange(8) + 0.5)


# The first draws of Numba-CUDA's generator for seed 1 (numba-cuda 0.30.4):
# uniform_float64 then uniform_float32 of states 0..7.
NUMBA_SEED1_F64 = [
    0.1331231503445619,
    0.8763487055503916,
    0.8710908939770295,
    0.936480755984957,
    0.6059928840201348,
    0.34505194439737386,
    0.47981445271330714,
    0.33050110138073174,
]
NUMBA_SEED1_F32 = [
    0.3780596852302551,
    0.21028068661689758,
    0.4541151821613312,
    0.9279626607894897,
    0.40711626410484314,
    0.8177064061164856,
    0.7879213690757751,
    0.8613483309745789,
]


def test_cuda_random_streams_equal_numbas():
    states = K.create_xoroshiro128p_states(8, seed=1)
    out = np.full((8, 3), np.nan)
    K.draws[1, 8](states, out)
    sync()
    assert out[:, 0].tolist() == NUMBA_SEED1_F64
    assert out[:, 1].tolist() == NUMBA_SEED1_F32
    assert np.isfinite(out[:, 2]).all() and (np.abs(out[:, 2]) < 6).all()


def test_doc_monte_carlo_pi_with_cuda_random():
    n = 256
    states = K.create_xoroshiro128p_states(n, seed=2026)
    out = np.full(n, np.nan, np.float32)
    K.compute_pi[n // 64, 64](states, 2000, out)
    sync()
    assert np.isfinite(out).all()
    assert abs(out.mean() - math.pi) < 0.02
    again = np.full(n, np.nan, np.float32)
    K.compute_pi[n // 64, 64](K.create_xoroshiro128p_states(n, seed=2026), 2000, again)
    sync()
    np.testing.assert_array_equal(out, again)  # same seed, same stream


@host_only
def test_print_with_numbas_formats(tmp_path):
    import sys

    script = tmp_path / "p.py"
    script.write_text(
        "import numpy as np\nimport numba_kernels as K\nfrom pydev.numba import cuda\n"
        "K.printer[1, 4](np.array([0.5, -1.25, 3.0]))\ncuda.synchronize()\n"
    )
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYDEV_TARGET="host", PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.splitlines()) == [
        f"thread {i} value {v:f} ({i}, 2.500000) 100%" for i, v in enumerate([0.5, -1.25, 3.0])
    ]


def test_complex_numbers(rng):
    a = (rng.random(40) + 1j * rng.random(40)).astype(np.complex64)
    a0 = a.copy()
    out = np.full(40, np.nan, np.float32)
    K.complex_kernel[1, 64](a, out, 0.5 + 0.25j)
    sync()
    z = a0.astype(np.complex128) ** 2 + 1j
    np.testing.assert_allclose(out, z.real + z.imag + abs(z) + np.exp(z).real + np.angle(z), rtol=2e-5)
    np.testing.assert_allclose(a, z / a0 - np.conj(z) + (1 + 2j) * (0.5 + 0.25j), rtol=2e-5)
    assert "complex<f64>" in next(iter(K.complex_kernel.overloads.values())).text  # 1j is complex128 as in Numba


def test_control_flow_joins_and_early_returns():
    a = np.array([3, 9, 7, 1, 12, 5], np.int64)
    out = np.full(11, -999, np.int64)
    K.control_flow2[1, 1](a, out)
    sync()
    s = sum(i * j for i in range(10) for j in range(10) if j <= i and (i + j) % 2 == 0)
    n = 0
    while n < 100 and a[n % 6] != 7:
        n += 3
    assert out.tolist() == [2, -1, 1, 12, s, -1, 1, n, 612, 13, 5]


def test_bool_arrays_float_strings_and_int_wraparound(rng):
    flags = np.ones(40, np.bool_)
    a = rng.random(40)
    out = np.full(40, np.nan)
    small = rng.integers(-30000, 30000, 40).astype(np.int16)
    want_small = (small.astype(np.int64) * 3).astype(np.int16)  # wraps as in Numba
    K.bools_and_small_ints[1, 64](flags, a, out, small)
    sync()
    np.testing.assert_array_equal(flags, a > 0.5)
    np.testing.assert_array_equal(out, a + (a > 0.5) + 1)
    np.testing.assert_array_equal(small, want_small)


def test_slice_assignment():
    a = np.full(8, np.nan)
    a[4] = -3.0
    b = np.arange(10.0)
    K.slice_assign[1, 1](a, b)
    sync()
    np.testing.assert_array_equal(a, [2.5, 7, 7, 7, -3, 0, 1, 2])


def test_integer_powers_as_numba():
    a, b = np.array([2, 1, -1, 3, 2, 5]), np.array([-1, -3, -3, 2, 0, 3])
    out = np.full(7, -99, np.int64)
    K.int_powers[1, 1](a, b, out)
    sync()
    assert out.tolist() == [0, 1, -1, 9, 1, 125, -10]  # numba.njit gives these


def test_division_by_zero_follows_numbas_error_models():
    a, b = np.array([7]), np.array([0])
    out, f = np.full(2, -9), np.array([np.nan, np.nan, 0.0, 0.0])
    K.divide[1, 1](a, b, out, f)  # NumPy error model (Numba-CUDA without debug): 0, inf, nan
    sync()
    assert out.tolist() == [0, 0] and f[0] == np.inf and np.isnan(f[1])
    # debug=True: Python's error model, Numba-CUDA's ZeroDivisionError (the
    # thread stops at the division: nothing more is written)
    out[:] = -9
    with pytest.raises(ZeroDivisionError, match=r"^tid=\[0, 0, 0\] ctaid=\[0, 0, 0\]: integer division by zero$"):
        K.divide_debug[1, 1](a, b, out, f)
    sync()
    assert out.tolist() == [-9, -9]


def test_tuple_argument():
    out = np.full(10, np.nan)
    K.tuple_arg[1, 16]((2.5, 1.0), out)
    sync()
    np.testing.assert_array_equal(out, 2.5 * np.arange(10) + 1)


def test_fp16(rng):
    a, b = rng.random(50).astype(np.float16), rng.random(50).astype(np.float16)
    out = np.full(50, np.nan, np.float16)
    K.fp16_kernel[1, 64](a, b, out)
    sync()
    np.testing.assert_allclose(
        out.astype(np.float32), (a.astype(np.float32) * b + (a + b).astype(np.float32)), rtol=2e-3
    )


def test_syncthreads_predicates(rng):
    x = rng.integers(-50, 50, 96).astype(np.int32)
    out = np.full(3, -9, np.int32)
    K.syncs[1, 96](x, out)
    sync()
    assert out.tolist() == [int((x > 0).sum()), 1, 0]


# --- Numba's typing -----------------------------------------------------------------------


# Result types as Numba 0.68 types them (checked with numba.njit's nopython_signatures).
@pytest.mark.parametrize(
    "a,b,op,want",
    [
        (int32, int64, "+", "si64"),
        (int32, int32, "+", "si64"),
        (uint32, uint32, "*", "ui64"),
        (uint64, int64, "+", "si64"),
        (uint32, int32, "-", "si64"),
        (int8, uint8, "+", "si64"),
        (float32, int64, "*", "f64"),
        (float32, int16, "*", "f32"),
        (float32, uint16, "*", "f64"),
        (float32, uint8, "-", "f32"),
        (boolean, float32, "+", "f32"),
        (boolean, uint64, "+", "si64"),
        (float32, float32, "+", "f32"),
        (int32, int32, "/", "f64"),
        (float32, float32, "/", "f32"),
        (int64, int64, "//", "si64"),
        (uint64, int8, "//", "si64"),
        (float32, int32, "**", "f32"),
        (int32, int64, "**", "si64"),
    ],
)  # also checked there: f32 * 2 is float64, i32 + 1 int64, u64 + 1 int64, max(i32, 1) int64, abs(i32) int32
def test_numba_binary_op_types(a, b, op, want):
    k = cuda.jit(_OPS_KERNELS[op])
    prog = k.compile((a, b, int64[::1]))
    ret = re.search(r"func.func @typed\(.*?\) -> \((\S+?)\)", prog.text)
    assert ret and ret.group(1) == want, prog.text


@cuda.jit(device=True)
def typed(v):
    return v


@cuda.jit
def _k_add(a, b, out):
    out[0] = typed(a + b)


@cuda.jit
def _k_mul(a, b, out):
    out[0] = typed(a * b)


@cuda.jit
def _k_sub(a, b, out):
    out[0] = typed(a - b)


@cuda.jit
def _k_div(a, b, out):
    out[0] = typed(a / b)


@cuda.jit
def _k_fdiv(a, b, out):
    out[0] = typed(a // b)


@cuda.jit
def _k_pow(a, b, out):
    out[0] = typed(a**b)


_OPS_KERNELS = {
    "+": _k_add.py_func,
    "*": _k_mul.py_func,
    "-": _k_sub.py_func,
    "/": _k_div.py_func,
    "//": _k_fdiv.py_func,
    "**": _k_pow.py_func,
}


@cuda.jit
def literals(out):
    x = 1
    y = 1.5
    out[0] = typed(x)
    out[1] = typed(y)
    out[2] = typed(cuda.threadIdx.x)
    out[3] = typed(cuda.grid(1))


def test_literal_and_index_types():
    prog = literals.compile((float64[::1],))
    rets = re.findall(r"func.func @typed\w*\(%arg0: (\S+?)\) -> \((\S+?)\)", prog.text)
    assert [r[1] for r in rets] == ["si64", "f64", "si32"], prog.text  # grid(1) is int64: the same callee as x


def test_variable_unification():
    @cuda.jit
    def k(a, out):
        s = 0
        for i in range(a.size):
            s += a[i]
        out[0] = typed(s)

    prog = k.compile((float32[::1], float64[::1]))
    assert "func.func @typed(%arg0: f64) -> (f64)" in prog.text  # int64 unified with float32 -> float64
    a = np.arange(5, dtype=np.float32) + 0.5
    out = np.full(1, np.nan)
    k[1, 1](a, out)
    sync()
    assert out[0] == a.sum()


def test_dispatch_per_signature_and_cache():
    @cuda.jit
    def k(a, out):
        out[0] = a[0] * 2

    for dt in (np.float32, np.float64, np.int32):
        a = np.array([3], dt)
        out = np.full(1, np.nan)
        k[1, 1](a, out)
        sync()
        assert out[0] == 6
    assert len(k.overloads) == 3
    p = k.overloads[(float32[::1], float64[::1])]
    k[1, 1](np.array([4], np.float32), np.full(1, np.nan))
    assert k.overloads[(float32[::1], float64[::1])] is p


def test_nested_kernel_and_closure_constants():
    def make(scale):
        @cuda.jit
        def k(out):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = i * scale

        return k

    for s in (2, 3):
        out = np.full(8, -1, np.int64)
        make(s)[1, 8](out)
        sync()
        np.testing.assert_array_equal(out, np.arange(8) * s)


@host_only
def test_simulator_switch(monkeypatch):
    monkeypatch.delenv("PYDEV_TARGET")
    monkeypatch.setenv("NUMBA_ENABLE_CUDASIM", "1")
    code = "import os; from pydev.numba import cuda; import pydev; print(pydev.active_target(), cuda.simulator_enabled)"
    env = dict(os.environ)
    env.pop("PYDEV_TARGET", None)
    r = subprocess.run([os.sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.stdout.split() == ["host", "True"], r.stderr


@host_only
def test_imports_under_numba_cudas_import_hook():
    """numba-cuda installs a meta-path finder that takes every module name
    containing "numba.cuda" for its own and recurses without end on others
    (_numba_cuda_redirector). pydev.numba's modules must import with such a
    finder first on sys.meta_path, under every documented name, without any
    finder being asked for a name containing "numba.cuda"."""
    code = (
        "import sys\n"
        "class Hook:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if 'numba.cuda' in name:\n"
        "            raise ImportError('a finder was asked for ' + name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Hook())\n"
        "from pydev.numba import cuda\n"
        "import pydev.numba.cuda\n"
        "import pydev.numba.cuda.random as r\n"
        "from pydev.numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32\n"
        "assert pydev.numba.cuda is cuda and cuda.random is r and callable(create_xoroshiro128p_states)\n"
        "print('ok')\n"
    )
    r = subprocess.run([os.sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.split() == ["ok"], r.stderr


def test_host_api():
    assert cuda.is_available()
    assert cuda.get_current_device().id == 0
    cuda.current_context().synchronize()
    p = cuda.pinned_array((3, 4), np.float32)
    assert p.shape == (3, 4) and p.dtype == np.float32
    d = cuda.device_array((5,), np.int32)
    assert d.shape == (5,)
    with pytest.raises(pydev.DeviceOnlyError, match="cuda.syncthreads"):
        cuda.syncthreads()
    with pytest.raises(ValueError, match="without a configuration"):
        K.vec_add(1, 2, 3)


# --- errors -------------------------------------------------------------------------------


def _line_of(fn, text):
    lines, start = __import__("inspect").getsourcelines(fn)
    for k, ln in enumerate(lines):
        if text in ln:
            return start + k, ln.index(text) + 1
    raise AssertionError(text)


def test_error_names_file_line_col_with_caret():
    @cuda.jit
    def bad(a):
        i = cuda.grid(1)
        a[i] = undefined_name + 1  # noqa: F821

    with pytest.raises(pydev.CompileError) as e:
        bad[1, 1](np.zeros(4))
    line, col = _line_of(bad.py_func, "undefined_name")
    msg = str(e.value)
    assert msg.startswith(f"{__file__}:{line}:{col}: error: name 'undefined_name' is not defined"), msg
    assert "a[i] = undefined_name + 1" in msg
    assert re.search(r"\n\s+\| +\^{14}$", msg), msg


def test_error_type_mismatch_and_unsupported():
    @cuda.jit
    def bad(a):
        x = cuda.grid(1)
        if a[0] > 0:
            # the type change under test: on one path, so the join cannot
            # unify (on every path it is a new version, as Numba's SSA)
            x = (1, 2)  # noqa: F841
        a[0] = 1

    with pytest.raises(pydev.CompileError, match=r"test_numba.py:\d+:\d+: error: variable 'x' is assigned a UniTuple"):
        bad[1, 1](np.zeros(4))

    @cuda.jit
    def bad2(a):
        with open("x"):
            pass

    with pytest.raises(pydev.CompileError, match="a with statement is not supported"):
        bad2[1, 1](np.zeros(4))

    @cuda.jit
    def bad3(a):
        a[0, 1] = 1.0

    with pytest.raises(pydev.CompileError, match=r"a 1-d array takes 1 indices, got 2"):
        bad3[1, 1](np.zeros(4))


def test_ir_errors_carry_user_locations():
    @cuda.jit
    def k(a):
        a[0] = cuda.atomic.add(a, 0, 1)

    with pytest.raises(pydev.CompileError, match=r"cuda.atomic.add\(\) is not supported on int8 arrays"):
        k[1, 1](np.zeros(4, np.int8))


def test_every_op_has_a_user_location():
    text = K.vec_add.compile((float64[::1], float64[::1], float64[::1])).text
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith(("^", "module", "}", "func.func")):
            assert "loc(" in s or s.startswith("//"), s
    assert f'loc("{K.__file__}"' in text or "test_numba" in text or "numba_kernels.py" in text


# --- PTX ----------------------------------------------------------------------------------


PTX_CASES = [
    (K.vec_add, (float32[::1], float32[::1], float32[::1])),
    (K.block_sum, (float32[::1], float32[::1])),
    (K.warp_sum, (float64[::1], float64[::1])),
    (K.histogram, (float64[::1], int64, int32[::1])),
    (K.transpose, (float32[:, ::1], float32[:, ::1])),
    (K.stencil, (float64[:, ::1], float64[:, ::1])),
    (K.fast_matmul, (float32[:, ::1], float32[:, ::1], float32[:, ::1])),
    (K.mc_pi, (int64, int64[::1])),
    (K.atomics_all, (int32[::1], uint32[::1], float64[::1], int32[::1], int32[::1])),
    (K.warp_vote, (int32[::1], int64[:, ::1])),
    (K.control_flow, (int64[::1], float64[::1], int64[:, ::1])),
    (K.math_kernel, (float64[::1], float64[:, ::1])),
    (K.bits_kernel, (uint32[::1], uint32[:, ::1])),
    (K.dyn_shared, (float32[::1], float32[::1])),
    (K.views, (float64[:, ::1], float64[::1], float64[:, ::1])),
    (K.printer, (float64[::1],)),
    (K.complex_kernel, (from_dtype(np.complex64)[::1], float32[::1], from_dtype(np.complex128))),
    (
        K.compute_pi,
        (from_dtype(np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True))[::1], int64, float32[::1]),
    ),
    (
        K.record_update,
        (from_dtype(np.dtype([("x", np.float64), ("vx", np.float32), ("n", np.int32)], align=True))[::1], float64),
    ),
    (K.fp16_kernel, (from_dtype(np.float16)[::1],) * 3),
    (K.tuple_arg, (__import__("pydev.numba.types", fromlist=["UniTuple"]).UniTuple(float64, 2), float64[::1])),
]


@pytest.mark.parametrize("kernel,types", PTX_CASES, ids=[k.__name__ for k, _ in PTX_CASES])
def test_ptx_sm90_assembles(kernel, types, tmp_path):
    ptx = kernel.inspect_asm(types)
    assert ".target sm_90" in ptx and ".entry" in ptx
    r = toolchain.assemble(ptx, tmp_path)
    if r is None:
        pytest.skip("no ptxas (pip install nvidia-cuda-nvcc)")
    assert r.returncode == 0, r.stderr


def test_stages():
    types = (float32[::1], float32[::1], float32[::1])
    assert "pydev.array_load" in K.vec_add.inspect_pydev(types, stage="pydev", target="host")
    assert "llvm.func" in K.vec_add.inspect_pydev(types, stage="llvm", target="host")
    assert "define" in K.vec_add.inspect_llvm(types)
    ptx, ret = cuda.compile_ptx(K.vec_add.py_func, "void(float32[::1], float32[::1], float32[::1])")
    assert ".entry vec_add" in ptx and ret == void


# --- the cuda target, under the fake CUDA driver ------------------------------------------


def _under_fake_driver(fake_driver, tmp_path, code):
    """Runs `code` in a new process whose libcuda is test/fakecuda (the
    cuda target, no GPU); its standard output, after checking it succeeded."""
    import sys
    import test_fake_driver

    env = {k: v for k, v in os.environ.items() if k not in ("PYDEV_TARGET", "PYDEV_ARCH", "PYDEV_CACHE")}
    here = os.path.dirname(os.path.abspath(__file__))
    env.update(
        LD_LIBRARY_PATH=test_fake_driver.prepend(fake_driver, env.get("LD_LIBRARY_PATH")),
        PYTHONPATH=test_fake_driver.prepend(here, env.get("PYTHONPATH")),
        PYDEV_CACHE_DIR=str(tmp_path / "cache"),
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=here, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


@host_only
def test_cuda_path_under_the_fake_driver(fake_driver, tmp_path):
    """Launch configuration, streams, dynamic shared memory, device arrays
    and NumPy arguments (copied to the device and back) reach the driver as
    Numba-CUDA would hand them."""
    code = """
import struct
import numpy as np
import fakecuda, pydev
from pydev.numba import cuda
import numba_kernels as K
from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)
assert pydev.active_target() == "cuda"
rng = np.random.default_rng(5)
x = rng.random(1000, dtype=np.float32)
dx, dy = cuda.to_device(x), cuda.to_device(x)
out = cuda.device_array_like(x)
K.saxpy[4, 256](2.5, dx, dy, out)
s = cuda.stream()
K.dyn_shared[1, 64, s, 256](dx, out)
host = np.full(1000, np.nan)
K.vec_add[(4, 1), (256, 1, 1)](np.ones(1000), np.ones(1000), host)
l = fakecuda.launches()
assert [a.kernel for a in l] == ["saxpy", "dyn_shared", "vec_add"], [a.kernel for a in l]
assert l[0].grid == (4, 1, 1) and l[0].block == (256, 1, 1) and l[0].shared == 0
assert struct.unpack("<f", l[0].params[0]) == (2.5,)
assert l[0].descriptor(1) == (dx.__cuda_array_interface__["data"][0], (1000,), (1,))
assert l[1].shared == 256 and l[1].stream == s.__cuda_stream__()[1]
assert l[2].descriptor(0)[0] != 0 and l[2].descriptor(0)[1] == (1000,)

class Producer:  # a CUDA Array Interface producer, as Numba's device arrays are
    def __init__(self, base):
        self.base = base
        cai = dict(base.__cuda_array_interface__)
        cai["stream"] = None
        self.__cuda_array_interface__ = cai
K.vec_add[4, 256](Producer(dx), Producer(dy), Producer(out))
l = fakecuda.launches()[-1]
assert l.kernel == "vec_add" and l.descriptor(0)[0] == dx.__cuda_array_interface__["data"][0]
assert l.descriptor(2) == (out.__cuda_array_interface__["data"][0], (1000,), (1,))

# Devices as the driver reports them (the fake's: sm_90 and sm_80).
d = cuda.get_current_device()
assert (d.id, d.compute_capability) == (0, (9, 0)), (d.id, d.compute_capability)
assert [x.compute_capability for x in cuda.list_devices()] == [(9, 0), (8, 0)]
cuda.select_device(1)
assert (cuda.get_current_device().id, cuda.get_current_device().compute_capability) == (1, (8, 0))
assert cuda.current_context().device.name == "CUDA device 1 (sm_80)"  # the fake driver has no cuDeviceGetName
cuda.select_device(0)
print("fake ok")
"""
    assert "fake ok" in _under_fake_driver(fake_driver, tmp_path, code)


@host_only
def test_docs_example_runs(tmp_path):
    """The example at the top of docs/numba.md runs as written (host target)."""
    import sys

    doc = open(os.path.join(ROOT, "docs", "numba.md")).read()
    code = re.search(r"```python\n(.*?)```", doc, re.S).group(1)
    env = dict(os.environ, PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    script = tmp_path / "example.py"  # kernels need their source in a file (or linecache)
    script.write_text(code)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("[")


# --- link=, declare_device, lineinfo, fastmath, cache, pinned memory (issue 16) ------------

# One CUDA C++ file for both targets: NVRTC compiles it for cuda, clang for
# the host (__host__/__device__ defined away there).
OPS_CU = r"""
extern "C" __host__ __device__ float scale_add(float x, float s, int k) { return x * s + (float)k; }
extern "C" __host__ __device__ double twice(double x) { return 2.0 * x; }
extern "C" __host__ __device__ bool is_odd(long long n) { return (n & 1) != 0; }
extern "C" __host__ __device__ void nothing(int k) { (void)k; }
"""


def _ops(tmp_path, text=OPS_CU, name="ops.cu"):
    f = tmp_path / name
    f.write_text(text)
    return str(f)


def _linked_kernels(path):
    scale_add = cuda.declare_device("scale_add", "float32(float32, float32, int32)", abi="c")
    twice = cuda.declare_device("twice", float64(float64), link=[path], abi="c")  # a signature object and a link file
    is_odd = cuda.declare_device("is_odd", "boolean(int64)", abi="c")
    nothing = cuda.declare_device("nothing", "void(int32)", abi="c")

    @cuda.jit(device=True, link=[path])
    def helper(x, i):
        return scale_add(x, 2.0, i)

    @cuda.jit(link=[path])
    def k(out, xs, ys, flags):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = helper(xs[i], i)
            ys[i] = twice(xs[i])
            flags[i] = is_odd(i)
            nothing(i)

    return k


def test_declare_device_calls_c_functions_from_link_files(rng, tmp_path):
    k = _linked_kernels(_ops(tmp_path))
    x = rng.random(300, dtype=np.float32)
    out, ys, flags = np.full(300, np.nan, np.float32), np.full(300, np.nan), np.zeros(300, np.bool_)
    k[3, 128](out, x, ys, flags)
    sync()
    np.testing.assert_allclose(out, x * np.float32(2) + np.arange(300, dtype=np.float32), rtol=1e-6)
    np.testing.assert_array_equal(ys, 2.0 * x.astype(np.float64))
    np.testing.assert_array_equal(flags, np.arange(300) % 2 == 1)
    prog = next(iter(k.overloads.values()))
    assert prog.link == (str(tmp_path / "ops.cu"),)  # the kernel's and its device function's, once
    assert [d[0] for d in prog.declared] == ["scale_add", "twice", "is_odd", "nothing"]
    assert 'func.func private @scale_add(f32, f32, si32) -> (f32) loc("' + __file__ in prog.text


def test_link_sources_in_memory(rng):
    # numba-cuda's cuda.CUSource: in-memory link sources, beside paths.
    src = cuda.CUSource(OPS_CU)
    k = _linked_kernels(src)
    x = rng.random(100, dtype=np.float32)
    out, ys, flags = np.full(100, np.nan, np.float32), np.full(100, np.nan), np.zeros(100, np.bool_)
    k[1, 128](out, x, ys, flags)
    sync()
    np.testing.assert_array_equal(ys, 2.0 * x.astype(np.float64))
    np.testing.assert_array_equal(flags, np.arange(100) % 2 == 1)
    prog = next(iter(k.overloads.values()))
    assert prog.link == (src.path(),) and src.path().endswith(".cu")
    assert cuda.CUSource(OPS_CU).path() == src.path()  # named by the contents
    assert open(src.path()).read() == OPS_CU
    with pytest.raises(NotImplementedError, match="cuda.PTXSource: setup_callback"):
        cuda.PTXSource("", setup_callback=print)


@host_only
def test_declare_device_errors(tmp_path):
    with pytest.raises(ValueError, match="the ABI is 'numba' or 'c'"):
        cuda.declare_device("f", "float32(float32)", abi="fortran")
    with pytest.raises(TypeError, match="Return type must be provided"):
        cuda.declare_device("f", (float32,))
    with pytest.raises(TypeError, match="cannot cross the C ABI"):
        cuda.declare_device("f", "float32(float32[:])", abi="c")
    with pytest.raises(FileNotFoundError, match=r"link file 'nowhere.c' of cuda.declare_device\('f'\) does not exist"):
        cuda.declare_device("f", "float32(float32)", link=["nowhere.c"], abi="c")
    with pytest.raises(FileNotFoundError, match=r"link file 'nowhere.cu' of @cuda.jit '.*kk' does not exist"):

        @cuda.jit(link=["nowhere.cu"])
        def kk(a):
            pass

    missing = cuda.declare_device("not_defined_anywhere", "float32(float32)", abi="c")
    path = _ops(tmp_path)

    @cuda.jit(link=[path])
    def k(a):
        a[0] = missing(a[0])

    with pytest.raises(pydev.CompileError, match="not_defined_anywhere"):
        k[1, 1](np.ones(1, np.float32))
    f = cuda.declare_device("scale_add", "float32(float32, float32, int32)", link=[path], abi="c")

    @cuda.jit
    def k2(a):
        a[0] = f(a[0], 1.0)

    with pytest.raises(
        pydev.CompileError,
        match=r"test_numba.py:\d+:\d+: error: external device function 'scale_add' takes 3 arguments",
    ):
        k2[1, 1](np.ones(1, np.float32))
    ptx = tmp_path / "x.ptx"
    ptx.write_text("// nothing\n")

    @cuda.jit(link=[str(ptx)])
    def k3(a):
        a[0] = 1.0

    with pytest.raises(pydev.CompileError, match=r"link file '.*x.ptx' of kernel 'k3' is cuda code \(.ptx\)"):
        k3[1, 1](np.ones(1, np.float32))


@host_only
def test_link_to_ptx_and_a_cubin(tmp_path):
    """On cuda a declared function is an external .func of the kernel's
    PTX; nvJitLink links it with the .cu (NVRTC) into a cubin."""
    k = _linked_kernels(_ops(tmp_path))
    types = (float32[::1], float32[::1], float64[::1], boolean[::1])
    ptx = k.inspect_asm(types)
    assert re.search(r"\.extern \.func\s+\(\.param \.b32 func_retval0\) scale_add", ptx), ptx
    assert re.search(r"call(\.uni)? \(retval0\),\s*scale_add", ptx)
    ptxas = toolchain.ptxas()
    if ptxas:  # relocatable: the extern functions stay for the linker
        (tmp_path / "k.ptx").write_text(ptx)
        r = subprocess.run(
            [ptxas, "-arch=sm_90", "-c", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.o")],
            capture_output=True,
            text=True,
        )
        assert r.returncode == 0, r.stderr
    # With lineinfo too (LLVM rejected the re-made declaration's DISubprogram
    # before pydev-drop-c-wrappers gave it the declaration's location).
    scale_add = cuda.declare_device("scale_add", "float32(float32, float32, int32)", abi="c")

    @cuda.jit(link=[k.link[0]], lineinfo=True)
    def k_lines(out, xs):
        out[0] = scale_add(xs[0], 2.0, 1)

    lines_ptx = k_lines.inspect_asm((float32[::1], float32[::1]))
    assert ".loc" in lines_ptx and re.search(r"\.extern \.func\s+\(\.param \.b32 func_retval0\) scale_add", lines_ptx)
    from pydev import _cudalink

    if not _cudalink.available():
        pytest.skip("no NVRTC/nvJitLink (pip install nvidia-cuda-nvrtc nvidia-nvjitlink)")
    prog = k.overloads[types]
    cubin = _cudalink.link_cubin(ptx, "k.ptx", prog.link, "sm_90", "kernel 'k'")
    assert cubin[:4] == b"\x7fELF" and b"scale_add" in cubin and b"k" in cubin


@host_only
def test_link_launches_on_the_fake_driver(fake_driver, tmp_path):
    from pydev import _cudalink

    if not _cudalink.available():
        pytest.skip("no NVRTC/nvJitLink (pip install nvidia-cuda-nvrtc nvidia-nvjitlink)")
    path = _ops(tmp_path)
    code = f"""
import numpy as np
import fakecuda, pydev
from pydev.numba import cuda
import test_numba
k = test_numba._linked_kernels({path!r})
x = cuda.to_device(np.ones(64, np.float32))
out, ys, flags = cuda.device_array(64, np.float32), cuda.device_array(64), cuda.device_array(64, np.bool_)
k[1, 64](out, x, ys, flags)
l = fakecuda.launches()[-1]
assert l.kernel == "k" and l.block == (64, 1, 1), l.kernel
assert fakecuda.LIB.fakecuda_elf_modules() == 1  # the linked cubin, not the PTX
print("linked ok")
"""
    assert "linked ok" in _under_fake_driver(fake_driver, tmp_path, code)


def test_link_file_contents_are_part_of_the_cache_keys(tmp_path):
    path = _ops(tmp_path, 'extern "C" __host__ __device__ int magic(void) { return 41; }\n', "magic.cu")

    def make():
        magic = cuda.declare_device("magic", "int32()", abi="c")

        @cuda.jit(link=[path])
        def k(out):
            out[0] = magic()

        return k

    out = np.zeros(1, np.int32)
    make()[1, 1](out)
    sync()
    assert out[0] == 41
    _ops(tmp_path, 'extern "C" __host__ __device__ int magic(void) { return 42; }\n', "magic.cu")
    make()[1, 1](out)  # a new dispatcher: same IR, another link file content
    sync()
    assert out[0] == 42


@host_only
def test_lineinfo_puts_the_users_file_and_lines_in_the_ptx():
    @cuda.jit(lineinfo=True)
    def k(out, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] * 2.0

    types = (float64[::1], float64[::1])
    ptx = k.inspect_asm(types)
    files = dict(re.findall(r'^\s*\.file\s+(\d+)\s+"([^"]+)"', ptx, re.M))
    assert __file__ in files.values(), files
    n = next(k for k, v in files.items() if v == __file__)
    lines = {int(m) for m in re.findall(rf"^\s*\.loc\s+{n}\s+(\d+)\s+\d+", ptx, re.M)}
    store, _ = _line_of(k.py_func, "out[i] = x[i] * 2.0")
    first, _ = _line_of(k.py_func, "def k(")
    assert store in lines and lines - {0} <= set(range(first, store + 1)), (lines, first, store)
    assert ".loc" not in K.vec_add.inspect_asm((float32[::1], float32[::1], float32[::1]))


def test_fastmath_changes_the_ptx_and_keeps_results_close(rng):
    def make(**opts):
        @cuda.jit(**opts)
        def k(out, x, y):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = x[i] / y[i] + math.sqrt(x[i]) * math.exp(y[i])

        return k

    fast, exact = make(fastmath=True), make()
    types = (float32[::1], float32[::1], float32[::1])
    if TARGET == "host":
        p_fast, p_exact = fast.inspect_asm(types), exact.inspect_asm(types)
        assert "div.rn.f32" in p_exact and "div.rn.f32" not in p_fast
        assert re.search(r"div\.(approx|full)(\.ftz)?\.f32", p_fast), p_fast
        assert "#arith.fastmath<fast>" in fast.compile(types).text and "fastmath" not in exact.compile(types).text
    x, y = rng.random(1000, dtype=np.float32) + 0.5, rng.random(1000, dtype=np.float32) + 0.5
    outs = []
    for k in (fast, exact):
        out = np.full(1000, np.nan, np.float32)
        k[4, 256](out, x, y)
        sync()
        outs.append(out)
    want = x.astype(np.float64) / y + np.sqrt(x.astype(np.float64)) * np.exp(y.astype(np.float64))
    np.testing.assert_allclose(outs[1], want, rtol=2e-6)
    np.testing.assert_allclose(outs[0], want, rtol=2e-5)
    assert make(fastmath={"fast"}).options["fastmath"] is True
    if TARGET == "host":
        ptx, _ = cuda.compile_ptx(fast.py_func, "void(float32[::1], float32[::1], float32[::1])", fastmath=True)
        assert "div.rn.f32" not in ptx and ".loc" not in ptx
        ptx, _ = cuda.compile_ptx(exact.py_func, "void(float32[::1], float32[::1], float32[::1])", lineinfo=True)
        assert "div.rn.f32" in ptx and ".loc" in ptx
    with pytest.raises(NotImplementedError, match="every fast-math flag or none"):
        make(fastmath={"nnan"})


@host_only
def test_cache_false_does_not_use_the_disk_cache(tmp_path, monkeypatch):
    cache = tmp_path / "numba-cache"
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(cache))

    def entries():
        return sorted(str(p) for p in cache.rglob("*.txt")) if cache.exists() else []

    def make(**opts):
        @cuda.jit(**opts)
        def k(out):
            out[0] = 7

        return k

    out = np.zeros(1, np.int64)
    make()[1, 1](out)  # the default: pydev's disk cache
    assert out[0] == 7 and len(entries()) == 1
    make(cache=True)[1, 1](out)
    assert len(entries()) == 1
    before = pydev.stats()
    make(cache=False)[1, 1](out)  # compiled again, although the disk holds it
    after = pydev.stats()
    assert after["compiles"] == before["compiles"] + 1 and after["disk_hits"] == before["disk_hits"]
    make(cache=False)[1, 1](out)  # in memory (as Numba keeps it)
    assert pydev.stats()["compiles"] == after["compiles"]
    for p in entries():
        os.remove(p)
    make(cache=False)[1, 1](out)
    assert entries() == []  # nothing written


def test_pinned_and_mapped_arrays(rng):
    p = cuda.pinned_array((3, 4), np.float32)
    m = cuda.mapped_array(100, np.float64)
    assert p.shape == (3, 4) and p.dtype == np.float32 and m.shape == (100,)
    if TARGET == "host":
        assert type(p) is np.ndarray and type(m) is np.ndarray  # the host target: plain NumPy memory
    x = rng.random(100)
    m[:] = x

    @cuda.jit
    def double(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= 2.0

    double[1, 128](m)
    sync()
    np.testing.assert_array_equal(m, 2 * x)
    assert cuda.pinned_array_like(p).shape == (3, 4) and cuda.mapped_array_like(m).dtype == np.float64


@host_only
def test_pinned_and_mapped_arrays_on_the_fake_driver(fake_driver, tmp_path):
    """cuda: page-locked memory from cuMemHostAlloc, freed when the array is
    collected; a mapped array is passed by its device address, in place."""
    code = """
import gc, ctypes
import numpy as np
import fakecuda, pydev
from pydev.numba import cuda
import numba_kernels as K
live = fakecuda.LIB.fakecuda_live_host_allocations
live.restype = ctypes.c_long
assert pydev.active_target() == "cuda"
p = cuda.pinned_array((10, 3), np.float32)
assert type(p) is np.ndarray and p.shape == (10, 3) and p.flags.c_contiguous and live() == 1
p[:] = 1.5
view = p[2:]
del p
gc.collect()
assert live() == 1 and view.sum() == 1.5 * 24  # a view keeps the memory
del view
gc.collect()
assert live() == 0
f = cuda.pinned_array((4, 5), np.int16, order="F")
assert f.flags.f_contiguous and live() == 1
del f
m = cuda.mapped_array(1000, np.float32)
cai = m.__cuda_array_interface__
assert cai["data"][0] == m.ctypes.data  # the fake driver maps memory at the same address
allocs = fakecuda.LIB.fakecuda_live_allocations()
K.vec_add[4, 256](m, m, m)
l = fakecuda.launches()[-1]
assert l.kernel == "vec_add" and l.descriptor(0) == (cai["data"][0], (1000,), (1,))
assert fakecuda.LIB.fakecuda_live_allocations() == allocs  # in place: no device copy
cuda.synchronize()  # the stream keeps a launch's arguments alive until then
del m, cai
gc.collect()
assert live() == 0
import os  # NumPy arguments of a launch prepared on the host target are copied once the target is cuda
os.environ["PYDEV_TARGET"] = "host"
a, out = np.ones(100), np.zeros(100)
K.vec_add[1, 128](a, a, out)
K.vec_add[1, 128](a, a, out)
assert (out == 2).all()
os.environ["PYDEV_TARGET"] = "cuda"
n = len(fakecuda.launches())
K.vec_add[1, 128](a, a, out)
l = fakecuda.launches()
assert len(l) == n + 1 and l[-1].descriptor(0)[0] not in (0, a.ctypes.data), l[-1].descriptor(0)
print("pinned ok")
"""
    assert "pinned ok" in _under_fake_driver(fake_driver, tmp_path, code)


@host_only
def test_a_kernel_without_source_is_a_clear_error():
    ns = {"cuda": cuda}
    # compiled from an AST: no file, no linecache entry, no text compiled under its file name
    exec(compile(ast.parse("def nosrc(a):\n    a[0] = 1\n"), "<string>", "exec"), ns)
    k = cuda.jit(ns["nosrc"])
    with pytest.raises(pydev.CompileError) as e:
        k[1, 1](np.zeros(1))
    msg = str(e.value)
    assert msg.startswith("<string>:1: error: cannot read the source of 'nosrc'"), msg
    assert "not from bytecode as Numba does" in msg and "linecache" in msg


def test_steady_state_launches_take_the_fast_path(rng):
    @cuda.jit
    def k(out, x, alpha, n, flag):
        i = cuda.grid(1)
        if i < n and flag:
            out[i] = alpha * x[i]

    x = cuda.to_device(rng.random(64))
    out = cuda.device_array(64)
    k[1, 64](out, x, 2.5, 64, True)
    before = pydev.stats()["fast_launches"]
    for _ in range(5):
        k[1, 64](out, x, 2.5, 64, True)  # Python float/int/bool: converted to the parameters' dtypes
    sync()
    assert pydev.stats()["fast_launches"] - before == 5
    assert len(k._fast) == 1 and len(k.overloads) == 1
    np.testing.assert_array_equal(out.copy_to_host(), 2.5 * x.copy_to_host())
    k[1, 64](out, x, np.float32(0.5), 64, True)  # another type: another specialisation
    assert len(k.overloads) == 2


def test_launch_configurations_are_reused_exactly():
    @cuda.jit
    def k(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = i

    out = np.full(64, -1, np.int64)
    s1, s2 = cuda.stream(), cuda.stream()
    assert k[2, 32] is k[2, 32] and k[2, 32, s1] is k[2, 32, s1] and k[2, 32, s1] is not k[2, 32, s2]
    assert k[(2,), 32] is not k[2, 32]
    with pytest.raises((TypeError, ValueError)):
        k[2.0, 32](out)  # not the cached k[2, 32]
    k[2, 32](out)
    sync()
    np.testing.assert_array_equal(out, np.arange(64))


# --- boundscheck= ---------------------------------------------------------------------------


@host_only
def test_boundscheck_checks_every_index(rng, monkeypatch):
    """@cuda.jit(boundscheck=True): an index outside its axis stops the
    launch with pydev.LaunchError naming the index, the extent and the
    Python line; boundscheck=False compiles no check even under
    PYDEV_BOUNDSCHECK=1; None leaves it to PYDEV_BOUNDSCHECK."""

    def body(a, x, n):
        i = cuda.grid(1)
        if i < n:
            a[i] = x[i] * 2.0

    checked = cuda.jit(boundscheck=True)(body)
    x = rng.random(16, dtype=np.float32)
    a = np.full(16, np.nan, np.float32)
    checked[1, 16](a, x, 16)
    sync()
    np.testing.assert_array_equal(a, x * np.float32(2))
    short = np.full(8, np.nan, np.float32)
    with pytest.raises(
        pydev.LaunchError, match=r"index (8|9|1[0-5]) is out of bounds for an axis of extent 8.*test_numba\.py:\d+"
    ):
        checked[1, 16](short, x, 16)
        sync()

    texts = {}
    for setting in (True, False, None):
        for env in ("0", "1"):
            monkeypatch.setenv("PYDEV_BOUNDSCHECK", env)
            k = cuda.jit("void(float32[::1], float32[::1], int32)", boundscheck=setting)(body)
            texts[setting, env] = next(iter(k.overloads.values())).compile("host", "llvm")
    assert texts[True, "0"] == texts[True, "1"] == texts[None, "1"]
    assert texts[False, "0"] == texts[False, "1"] == texts[None, "0"]
    assert texts[True, "0"] != texts[False, "0"]
