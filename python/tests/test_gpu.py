"""The test kernels on a GPU (skipped without a CUDA driver and device):
pydev DeviceArrays and streams, arrays from any CAI / DLPack producer,
CuPy and PyTorch arrays and cuda.core streams where those are installed.
Fresh random inputs, poisoned outputs."""

import numpy as np
import pytest

from conftest import gpu_available

pytestmark = pytest.mark.skipif(
    not gpu_available(), reason="no CUDA driver or device (pydev._pydev.cuda_status()[0] is False)"
)

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402
from pydev import _cache  # noqa: E402

import kernels  # noqa: E402
from producers import CAIOnly, DLPackOnly  # noqa: E402 - other frameworks' arrays, one protocol each


@pytest.fixture(autouse=True)
def cuda_target(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", "cuda")


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def poisoned(shape, dtype=np.float32):
    return pydev.to_device(np.full(shape, np.nan, dtype))


def test_active_target_is_cuda():
    assert pydev.active_target() == "cuda"
    s = pydev.create_stream()
    assert s.__cuda_stream__()[0] == 0 and s.__cuda_stream__()[1] == s.handle != 0


def test_vector_add_on_a_stream(rng):
    a, b = rng.random(4096, dtype=np.float32), rng.random(4096, dtype=np.float32)
    s = pydev.create_stream()
    da, db = pydev.to_device(a, stream=s), pydev.to_device(b, stream=s)
    out = poisoned(4096)
    device.launch(kernels.vector_add, out, da, db, grid=16, block=256, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), a + b)


def test_saxpy(rng):
    x, y = rng.random(100000, dtype=np.float32), rng.random(100000, dtype=np.float32)
    out = poisoned(100000)
    device.launch(
        kernels.saxpy,
        2.5,
        pydev.to_device(x),
        pydev.to_device(y),
        out,
        grid=64,
        block=128,
        stream=pydev.default_stream(),
    )
    np.testing.assert_allclose(out.copy_to_host(), np.float32(2.5) * x + y, rtol=1e-6)


def test_block_sum_warp_reductions_and_histogram(rng):
    x = rng.random(4096, dtype=np.float32)
    dx = pydev.to_device(x)
    out = poisoned(16)
    device.launch(kernels.block_sum, out, dx, grid=16, block=256, stream=pydev.default_stream())
    np.testing.assert_allclose(out.copy_to_host(), x.reshape(16, 256).sum(1), rtol=1e-5)
    sums = poisoned(128)
    device.launch(kernels.warp_sum, sums, dx, grid=16, block=256, stream=pydev.default_stream())
    np.testing.assert_allclose(sums.copy_to_host(), x.reshape(128, 32).sum(1), rtol=1e-5)
    maxes = poisoned(4096)
    device.launch(kernels.warp_max, maxes, dx, grid=16, block=256, stream=pydev.default_stream())
    np.testing.assert_array_equal(maxes.copy_to_host(), np.repeat(x.reshape(-1, 32).max(1), 32))
    data = rng.integers(0, 1 << 20, 50000, dtype=np.int32)
    bins = pydev.zeros(97, np.uint32)
    device.launch(kernels.histogram, bins, pydev.to_device(data), grid=196, block=256, stream=pydev.default_stream())
    np.testing.assert_array_equal(bins.copy_to_host(), np.bincount(data % 97, minlength=97))


def test_structs_vectors_and_tuples(rng):
    ps = np.zeros(500, dtype=kernels.Particle.dtype)
    ps["pos"] = rng.random((500, 4), dtype=np.float32)
    ps["mass"] = rng.random(500, dtype=np.float32)
    dps = pydev.to_device(ps)
    device.launch(kernels.push, dps, np.float32(0.5), grid=2, block=256, stream=pydev.default_stream())
    got = dps.copy_to_host()
    want = ps.copy()
    want["pos"][:, 0] += np.float32(0.5)
    want["pos"][:, 3] *= ps["mass"]
    np.testing.assert_allclose(got["pos"], want["pos"])
    pos = rng.random(4, dtype=np.float32)
    out = poisoned(40)
    device.launch(
        kernels.weigh,
        out,
        kernels.Particle(device.float32x4(*pos), 2.0),
        device.float32x2(0.5, 1.25),
        grid=1,
        block=64,
        stream=pydev.default_stream(),
    )
    np.testing.assert_allclose(out.copy_to_host(), np.float32(pos.sum() * 2 * 0.5 + 1.25), rtol=1e-6)
    x = rng.random(50, dtype=np.float32)
    out = poisoned(50)
    device.launch(kernels.affine, out, pydev.to_device(x), (3, 0.25), grid=1, block=64, stream=pydev.default_stream())
    np.testing.assert_allclose(out.copy_to_host(), 3 * x + np.float32(0.25), rtol=1e-6)


def test_target_inside_a_kernel_is_the_device():
    out = pydev.zeros(1, np.int32)
    device.launch(kernels.on_host, out, grid=1, block=1, stream=pydev.default_stream())
    assert out.copy_to_host()[0] == 2


def test_foreign_arrays_through_cai_and_dlpack(rng):
    a, b = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    da, db = pydev.to_device(a), pydev.to_device(b)
    out = poisoned(1000)
    device.launch(
        kernels.vector_add, CAIOnly(out), CAIOnly(da), DLPackOnly(db), grid=4, block=256, stream=pydev.default_stream()
    )
    np.testing.assert_array_equal(pydev.to_host(CAIOnly(out)), a + b)
    np.testing.assert_array_equal(pydev.to_host(DLPackOnly(out)), a + b)


def test_host_arrays_are_refused():
    x = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="pydev.to_device"):
        device.launch(kernels.vector_add, pydev.to_device(x), x, x, grid=1, block=4, stream=pydev.default_stream())


def test_streams_order_device_arrays(rng):
    s1, s2 = pydev.create_stream(), pydev.create_stream()
    x = rng.random(1 << 20, dtype=np.float32)
    a = pydev.to_device(x)
    b = poisoned(1 << 20)
    c = poisoned(1 << 20)
    device.launch(kernels.vector_add, b, a, a, grid=4096, block=256, stream=s1)
    device.launch(kernels.vector_add, c, b, a, grid=4096, block=256, stream=s2)  # waits for s1 (b)
    s2.synchronize()
    np.testing.assert_array_equal(c.copy_to_host(), 3 * x)


def test_a_stream_keeps_each_launchs_arguments_until_the_gpu_has_run_it(rng):
    # Each launch adds a fresh array that only the stream holds, over several
    # of the stream's generations (fences: _streams.keep_alive); the sum is
    # exact (the same float32 additions in the same order), and the first
    # generation's arrays are let go before any synchronize.
    import gc
    import weakref

    from pydev import _native

    s = pydev.create_stream()
    n = 1 << 14
    acc, want = pydev.to_device(np.zeros(n, np.float32), stream=s), np.zeros(n, np.float32)
    refs = []
    for _ in range(5 * (_native.get().STREAM_GENERATION + 1)):
        x = rng.random(n, dtype=np.float32)
        want += x
        dx = pydev.to_device(x, stream=s)
        refs.append(weakref.ref(dx))
        device.launch(kernels.vector_add, acc, acc, dx, grid=n // 256, block=256, stream=s)
        del dx
    gc.collect()
    early = sum(r() is not None for r in refs[: _native.get().STREAM_GENERATION])
    s.synchronize()
    np.testing.assert_array_equal(acc.copy_to_host(), want)
    # By the fifth fence the first generation is let go: passed, or waited
    # for (more than MAX_FENCES in flight).
    assert early == 0, early
    gc.collect()
    assert all(r() is None for r in refs)


def test_caching_on_cuda(rng):
    x = pydev.to_device(rng.random(256, dtype=np.float32))
    out = poisoned(256)
    kernels.vector_add._dispatch.clear()
    before = pydev.stats()
    device.launch(kernels.vector_add, out, x, x, grid=1, block=256, stream=pydev.default_stream())
    mid = pydev.stats()
    device.launch(kernels.vector_add, out, x, x, grid=1, block=256, stream=pydev.default_stream())
    after = pydev.stats()
    assert mid["compiles"] == before["compiles"] + 1 and after["compiles"] == mid["compiles"]
    (entry,) = _cache.entries()
    assert ".entry vector_add" in _cache.load(entry.rsplit("/", 1)[1][:-4])


def test_compile_errors_on_cuda():
    with pytest.raises(pydev.CompileError, match="kernels.py:[0-9]+:[0-9]+: error"):
        device.launch(kernels.returns_value, pydev.zeros(1), grid=1, block=1, stream=pydev.default_stream())


def test_cupy_arrays():
    cp = pytest.importorskip("cupy")
    rng = np.random.default_rng(8)
    a = cp.asarray(rng.random(1000, dtype=np.float32))
    out = cp.full(1000, cp.nan, dtype=cp.float32)
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        device.launch(kernels.vector_add, out, a, a[::-1], grid=4, block=256, stream=pydev.default_stream())
    cp.cuda.runtime.deviceSynchronize()
    np.testing.assert_array_equal(cp.asnumpy(out), cp.asnumpy(a) + cp.asnumpy(a)[::-1])


def test_torch_tensors_and_cuda_core_streams():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    a = torch.rand(1000, device="cuda")
    out = torch.full((1000,), float("nan"), device="cuda")
    try:
        try:
            from cuda.core import Device
        except ImportError:
            from cuda.core.experimental import Device
        d = Device()
        d.set_current()
        stream = d.create_stream()
    except ImportError:
        stream = pydev.create_stream()
    device.launch(kernels.vector_add, out, a, a, grid=4, block=256, stream=stream)
    stream.sync() if hasattr(stream, "sync") else stream.synchronize()
    torch.cuda.synchronize()
    assert torch.equal(out, 2 * a)
    t = torch.arange(12, dtype=torch.float64, device="cuda").reshape(3, 4).t()  # (4, 3) in F order, via DLPack
    res = pydev.zeros((3, 4), np.float64)
    device.launch(kernels.transpose2d, res, t, grid=1, block=(8, 8), stream=pydev.default_stream())
    np.testing.assert_array_equal(res.copy_to_host(), np.arange(12.0).reshape(3, 4))


def test_torch_tensors_take_the_fast_path_ordered_after_torch_streams(rng):
    # PyTorch publishes DLPack's C exchange API in recent versions, which
    # the fast path uses instead of __dlpack__ (older ones: __dlpack__). The
    # tensors are made on a side torch stream, current at the launch: the
    # launch's stream waits for it either way.
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    ts = torch.cuda.Stream()
    s = pydev.create_stream()
    before = pydev.stats()["fast_launches"]
    for k in range(4):
        with torch.cuda.stream(ts):
            x = torch.from_numpy(rng.random(1 << 20, dtype=np.float32)).cuda()
            y = torch.from_numpy(rng.random(1 << 20, dtype=np.float32)).cuda()
            out = torch.full((1 << 20,), float("nan"), device="cuda")
            device.launch(kernels.saxpy, 0.5 + k, x, y, out, grid=256, block=256, stream=s)
        s.synchronize()
        torch.testing.assert_close(out, (0.5 + k) * x + y, rtol=1e-6, atol=1e-6)
    assert pydev.stats()["fast_launches"] - before == 3
