"""Cooperative groups in pydev.numba (issue 31): `cuda.cg.this_grid().sync()`,
a grid-wide barrier. On the host target every block of the grid runs at
once (a cooperative launch) and the barrier holds all of them; on cuda the
PTX synchronizes through the cooperative launch's workspace, assembled by
ptxas, and the launch goes through `cuLaunchCooperativeKernel` (under the
fake CUDA driver). Fixed-seed random inputs, NaN-poisoned outputs."""

import numpy as np
import pytest

import pydev
import toolchain
from pydev.numba import cuda, float64, int32, int64
from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)

SEED = 20261128


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


@cuda.jit
def two_phase(x, tmp, out):
    """Phase 1 writes tmp over a grid-stride loop; after the grid barrier
    phase 2 reads elements that other blocks wrote."""
    g = cuda.cg.this_grid()
    start, stride, n = cuda.grid(1), cuda.gridsize(1), x.size
    for j in range(start, n, stride):
        tmp[j] = 2.0 * x[j] + 1.0
    g.sync()
    for j in range(start, n, stride):
        out[j] = tmp[j] - tmp[n - 1 - j]


@cuda.jit
def sequential_rows(m):
    """Row r from row r - 1 of the "opposite" thread, a grid barrier per
    row: without it threads of other blocks run ahead (numba-cuda's test)."""
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, m.shape[0]):
        m[row, col] = m[row - 1, m.shape[1] - col - 1] + 1
        g.sync()


@cuda.jit(device=True)
def _publish_then_sync(sh, v):
    sh[cuda.threadIdx.x] = v
    cuda.cg.this_grid().sync()


@cuda.jit
def block_sums(x, sums, out):
    """Shared memory per block survives the grid barrier (a device function
    holds it); each block then reads every block's sum."""
    sh = cuda.shared.array(64, float64)
    i = cuda.grid(1)
    _publish_then_sync(sh, x[i])
    if cuda.threadIdx.x == 0:
        s = 0.0
        for k in range(cuda.blockDim.x):
            s += sh[k]
        sums[cuda.blockIdx.x] = s
    cuda.cg.this_grid().sync()
    total = 0.0
    for b in range(cuda.gridDim.x):
        total += sums[b]
    out[i] = total - sh[cuda.threadIdx.x]


@cuda.jit
def plain(a):
    a[cuda.grid(1)] = 1


def test_two_phase_grid_stride_across_grid_sync(rng):
    blocks, threads = 24, 32
    x = rng.standard_normal(10_000)
    tmp = cuda.to_device(np.full_like(x, np.nan))
    out = cuda.to_device(np.full_like(x, np.nan))
    two_phase[blocks, threads](cuda.to_device(x), tmp, out)
    t = 2.0 * x + 1.0
    np.testing.assert_array_equal(out.copy_to_host(), t - t[::-1])
    (overload,) = two_phase.overloads.values()
    assert overload.cooperative and isinstance(overload, pydev.Program)


def test_sync_at_every_row_with_many_blocks():
    threads = 32
    overload = sequential_rows.compile((int32[:, ::1],))
    blocks = min(overload.max_cooperative_grid_blocks(threads), 48)
    assert blocks >= 2
    m = np.zeros((40, blocks * threads), dtype=np.int32)
    d = cuda.to_device(m)
    sequential_rows[blocks, threads](d)
    np.testing.assert_array_equal(d.copy_to_host(), np.tile(np.arange(40, dtype=np.int32), (blocks * threads, 1)).T)


def test_shared_memory_and_device_function_across_grid_sync(rng):
    blocks, threads = 8, 64
    x = rng.standard_normal(blocks * threads)
    sums = cuda.to_device(np.full(blocks, np.nan))
    out = cuda.to_device(np.full_like(x, np.nan))
    block_sums[blocks, threads](cuda.to_device(x), sums, out)
    want_sums = x.reshape(blocks, threads).sum(axis=1)
    np.testing.assert_allclose(sums.copy_to_host(), want_sums, rtol=1e-12)
    np.testing.assert_allclose(out.copy_to_host(), want_sums.sum() - x, rtol=1e-12, atol=1e-12)


def test_cooperative_only_when_the_grid_synchronizes():
    plain[1, 32](cuda.device_array(32, np.int64))
    assert not any(o.cooperative for o in plain.overloads.values())


def test_max_cooperative_grid_blocks_depends_on_the_threads_only():
    o = two_phase.compile((float64[::1],) * 3)
    b = o.max_cooperative_grid_blocks(256)
    assert b >= 1 and b == o.max_cooperative_grid_blocks((16, 16)) == o.max_cooperative_grid_blocks((16, 4, 4))
    assert o.max_cooperative_grid_blocks(32) >= b


def test_a_grid_too_large_to_be_resident_is_refused():
    x = cuda.device_array(64, np.float64)
    o = two_phase.compile((float64[::1],) * 3)
    too_many = o.max_cooperative_grid_blocks(1024) + 1
    with pytest.raises(pydev.LaunchError, match="synchronizes its grid.*max_cooperative_grid_blocks"):
        two_phase[too_many, 1024](x, x, x)


def test_a_block_that_returns_before_a_grid_sync_is_a_deadlock():
    @cuda.jit
    def early(a):
        if cuda.blockIdx.x == 1:
            return
        cuda.cg.this_grid().sync()
        a[cuda.grid(1)] = 1

    with pytest.raises(pydev.LaunchError, match="grid sync was reached by 2 of the grid's 3 blocks"):
        early[3, 32](cuda.device_array(96, np.int64))


def test_grid_sync_needs_no_arguments_and_has_only_sync():
    @cuda.jit
    def bad(a):
        cuda.cg.this_grid().thread_rank()

    with pytest.raises(pydev.CompileError, match="has no attribute 'thread_rank'"):
        bad[1, 1](cuda.device_array(1, np.int64))


def test_ptx_of_a_grid_sync_assembles(tmp_path):
    ptx = two_phase.inspect_asm((float64[::1], float64[::1], float64[::1]))
    assert "%envreg1" in ptx and "atom.add.release.gpu.u32" in ptx and "ld.acquire.gpu.u32" in ptx
    r = toolchain.assemble(ptx, tmp_path)
    if r is None:
        pytest.skip("no ptxas installed")
    assert r.returncode == 0, r.stderr
    assert "%envreg" not in plain.inspect_asm((int64[::1],))


def test_cuda_launch_is_cooperative_under_the_fake_driver(fake_driver, tmp_path):  # noqa: F811
    from test_numba import _under_fake_driver

    # Kernels from a file: pydev.numba compiles from source (`python -c` has none).
    (tmp_path / "coop_kernels.py").write_text(
        "from pydev.numba import cuda\n\n"
        "@cuda.jit\ndef k(a):\n    a[cuda.grid(1)] = 1\n    cuda.cg.this_grid().sync()\n\n"
        "@cuda.jit\ndef p(a):\n    a[cuda.grid(1)] = 1\n"
    )
    code = f"""
import sys
sys.path.insert(0, {str(tmp_path)!r})
import numpy as np, fakecuda, pydev
from pydev.numba import cuda
from coop_kernels import k, p
assert pydev.active_target() == "cuda"
a = cuda.device_array(64, np.int32)
fakecuda.reset_calls()
k[2, 32](a)
p[2, 32](a)
cuda.synchronize()
calls = fakecuda.calls("cuLaunchCooperativeKernel", "cuLaunchKernel")
assert calls == {{"cuLaunchCooperativeKernel": 1, "cuLaunchKernel": 1}}, calls
launch = fakecuda.launches()[-2]
assert launch.grid == (2, 1, 1) and launch.block == (32, 1, 1), (launch.grid, launch.block)
assert all(o.cooperative for o in k.overloads.values()) and not any(o.cooperative for o in p.overloads.values())
print("cooperative ok")
"""
    assert "cooperative ok" in _under_fake_driver(fake_driver, tmp_path, code)
