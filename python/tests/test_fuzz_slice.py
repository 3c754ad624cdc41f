"""A fixed-seed slice of the fuzzers in scripts/fuzz (issue 19, item 1), and
regression tests for what their campaigns found (docs/reliability.md,
"Fuzzing campaigns").

- differential: random well-typed kernels (gen.py) run on the host and
  compared with the generator's reference semantics; a few also compiled
  for sm_70/80/90, assembled by ptxas, and compiled with line info (the PTX
  differs only by .loc/.file);
- mutation: kernels of the test suite and pydev-opt's lit inputs, edited at
  random, and lit inputs through random pydev passes in random orders,
  never make the compiler panic, crash, hang or say "internal error".
"""

import math
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FUZZ = os.path.join(ROOT, "scripts", "fuzz")
sys.path.insert(0, FUZZ)

import differential  # noqa: E402
import gen  # noqa: E402
import mutate  # noqa: E402

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402


@pytest.fixture(autouse=True)
def host(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", "host")
    monkeypatch.delenv("PYDEV_LINEINFO", raising=False)


def test_generator_is_deterministic_and_checks_itself():
    a, b = gen.generate(7), gen.generate(7)
    assert a.source == b.source
    for x, y in zip(a.args, b.args):
        np.testing.assert_array_equal(x, y)  # NaN poison equals NaN poison
    assert gen.generate(8).source != a.source
    # the reference is not trivially empty: every output is computed
    for name, want in a.expected.items():
        assert want.shape[0] in (gen.N, 8), name
    # and the comparison sees a wrong element
    got = [x.copy() for x in a.args]
    for name, want in a.expected.items():
        got[a.names.index(name)][...] = want
    assert gen.compare(a, got) == []
    got[a.names.index("o_int32")][5] += 1
    assert [n for n, _ in gen.compare(a, got)] == ["o_int32"]


def test_differential_host(tmp_path):
    results, findings = differential.campaign(range(0, 20), ptx=False, out=str(tmp_path), timeout=120)
    assert findings == []
    assert len(results) == 20
    covered = set().union(*(r["features"] for r in results))
    assert {
        "atomics",
        "loops",
        "structs",
        "vectors",
        "views",
        "warp shuffles",
        "warp votes",
        "shared memory + barriers",
    } <= covered


def test_differential_ptx(tmp_path):
    results, findings = differential.campaign(range(100, 103), ptx=True, out=str(tmp_path), timeout=300)
    assert findings == [] and len(results) == 3


def test_kernel_mutants(tmp_path):
    tried, findings = mutate.run_kernels(40, seed=19, out=str(tmp_path), timeout=120, log=lambda s: None)
    assert tried == 40 and findings == []


def test_mlir_mutants(tmp_path):
    if mutate.pydev_opt() is None:
        pytest.skip("pydev-opt is not built (make build)")
    tried, findings = mutate.run_mlir(100, seed=19, out=str(tmp_path), timeout=60, log=lambda s: None)
    assert tried == 100 and findings == []


def test_pass_order(tmp_path):
    """Lit inputs through random pydev passes in random orders: diagnostics, never crashes."""
    if mutate.pydev_opt() is None:
        pytest.skip("pydev-opt is not built (make build)")
    tried, findings = mutate.run_passes(60, seed=19, out=str(tmp_path), timeout=60, log=lambda s: None)
    assert tried == 60 and findings == []


# --- regressions found by the campaigns ------------------------------------------------------


@device.kernel
def mask_conversions(o64, o16, ou8, back, p):
    i = device.tid(1)
    m = device.ballot_sync(-1, lambda: p[i] > 0)
    o64[i] = device.int64(m)
    o16[i] = device.int16(m & 0x7FFF)
    ou8[i] = device.uint8(m & 0xFF)
    back[i] = device.int32(device.WarpMask(device.int64(m)))


def test_warp_mask_converts_to_every_integer():
    """Differential seed 42: device.int64(ballot) was "'pydev.cast' is not
    lowered to this target yet" (the passes lower warp_mask <-> int32 only;
    the frontend now converts other integers through int32)."""
    rng = np.random.default_rng(42)
    p = rng.integers(-3, 4, 64).astype(np.int32)
    p[31] = 1  # lane 31 set: a negative mask
    outs = [
        np.full(64, -77, np.int64),
        np.full(64, -77, np.int16),
        np.full(64, 7, np.uint8),
        np.full(64, -77, np.int32),
    ]
    device.launch(mask_conversions, *outs, p, grid=1, block=64, stream=pydev.default_stream())
    want = np.empty(64, np.int64)
    for w in range(2):
        bits = sum(1 << j for j in range(32) if p[32 * w + j] > 0)
        want[32 * w : 32 * w + 32] = bits - (1 << 32) if bits >= 1 << 31 else bits
    np.testing.assert_array_equal(outs[0], want)
    np.testing.assert_array_equal(outs[1], (want & 0x7FFF).astype(np.int16))
    np.testing.assert_array_equal(outs[2], (want & 0xFF).astype(np.uint8))
    np.testing.assert_array_equal(outs[3], want.astype(np.int32))
    ptx = pydev.compile(mask_conversions, outs + [p], target="sm_90")
    assert "vote.sync.ballot" in ptx


@device.kernel
def range_counters(o1, o2, o3, a):
    i = device.tid(1)
    for j in range(5, 0, -2):
        if j < 4:
            o1[i] = a[i] % -((j & 7) + 1)
    for j in range(0, 3):
        o2[i] = a[i] + j
    for j in range(3):
        o3[i] = a[i] + j


def test_range_counter_is_int32_not_a_weak_literal():
    """Differential seed 1325: the counter of range(5, 0, -2) was a weak
    Python int (range(3)'s was int32), so `uint16 % -(j + 1)` converted the
    negative divisor to uint16 and took an unsigned remainder (39 % -6 gave
    39). Every range over Python ints now counts in int32."""
    a = np.array([39, 40, 41, 7, 0, 65535, 100, 3], np.uint16)
    outs = [np.full(8, -99, np.int32) for _ in range(3)]
    device.launch(range_counters, *outs, a, grid=1, block=8, stream=pydev.default_stream())
    np.testing.assert_array_equal(outs[0], [int(x) % -2 for x in a])  # last j < 4 is 1
    np.testing.assert_array_equal(outs[1], a.astype(np.int32) + 2)  # int32: 65535 + 2 does not wrap
    np.testing.assert_array_equal(outs[2], a.astype(np.int32) + 2)


@device.kernel
def local_array_after_barrier(o, a16, a32, f64):
    i = device.tid(1)
    la0 = device.local_array(4, device.int32)
    for q in range(4):
        la0[q] = 8 + q
    v2 = la0[device.int32(a16[i]) & 3]
    sh = device.shared_array(64, device.float64)
    sh[device.thread_idx.x] = f64[i]
    device.syncthreads()
    v4 = sh[(device.thread_idx.x + 38) % 64]
    device.syncthreads()
    la5 = device.local_array(4, device.float64)
    for q in range(4):
        la5[q] = math.sin(v4) + q
    o[i] = la5[(v2 ^ a32[i // 2]) & 3]


def test_local_array_used_after_a_barrier_keeps_its_memory():
    """Differential seed 1262: host barrier fission hoisted a local array's
    alloca into the first stretch and carried its pointer across the
    barriers in the frame, so later stretches used the stack of a step
    function that had returned (garbage such as 6.9e-310 once a libm call
    reused that stack). Local arrays a rendezvous separates from their uses
    now live in the thread's frame."""
    rng = np.random.default_rng(1262)
    a16 = rng.integers(-20, 20, 128).astype(np.int16)
    a32 = rng.integers(-20, 20, 128).astype(np.int32)
    f64 = rng.uniform(-4, 4, 128)
    o = np.full(128, np.nan)
    device.launch(local_array_after_barrier, o, a16, a32, f64, grid=2, block=64, stream=pydev.default_stream())
    i = np.arange(128)
    t = i % 64
    v2 = 8 + (a16.astype(np.int64) & 3)
    v4 = f64[i - t + (t + 38) % 64]
    np.testing.assert_allclose(o, np.sin(v4) + ((v2 ^ a32[i // 2]) & 3), rtol=1e-14, atol=1e-14)
