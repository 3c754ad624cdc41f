"""The same kernels on a GPU (skipped without one; runnable by hand on the
device machine): pydev arrays, CuPy/PyTorch via CAI and DLPack, streams."""
import numpy as np
import pytest

from conftest import gpu_available

pytestmark = pytest.mark.skipif(not gpu_available(), reason="no CUDA driver or device")

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402

import kernels  # noqa: E402

RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def cuda(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", "cuda")


def test_vector_add_device_arrays():
    a, b = RNG.random(4096, dtype=np.float32), RNG.random(4096, dtype=np.float32)
    s = pydev.create_stream()
    da, db = pydev.to_device(a, stream=s), pydev.to_device(b, stream=s)
    out = pydev.to_device(np.full(4096, np.nan, np.float32), stream=s)
    device.launch(kernels.vector_add, out, da, db, grid=16, block=256, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), a + b)


def test_block_sum_and_histogram():
    x = RNG.random(4096, dtype=np.float32)
    out = pydev.to_device(np.full(16, np.nan, np.float32))
    device.launch(kernels.block_sum, out, pydev.to_device(x), grid=16, block=256, stream=pydev.default_stream())
    np.testing.assert_allclose(out.copy_to_host(), x.reshape(16, 256).sum(1), rtol=1e-5)
    data = RNG.integers(0, 1000, 4096, dtype=np.int32)
    bins = pydev.zeros(97, np.uint32)
    device.launch(kernels.histogram, bins, pydev.to_device(data), grid=16, block=256, stream=pydev.default_stream())
    np.testing.assert_array_equal(bins.copy_to_host(), np.bincount(data % 97, minlength=97))


def test_cupy_arrays():
    cp = pytest.importorskip("cupy")
    a = cp.asarray(RNG.random(1000, dtype=np.float32))
    out = cp.full(1000, cp.nan, dtype=cp.float32)
    device.launch(kernels.vector_add, out, a, a, grid=4, block=256, stream=pydev.default_stream())
    cp.cuda.runtime.deviceSynchronize()
    np.testing.assert_array_equal(cp.asnumpy(out), 2 * cp.asnumpy(a))


def test_torch_arrays_and_cuda_core_streams():
    torch = pytest.importorskip("torch")
    a = torch.rand(1000, device="cuda")
    out = torch.full((1000,), float("nan"), device="cuda")
    try:
        from cuda.core.experimental import Device

        d = Device()
        d.set_current()
        stream = d.create_stream()
    except ImportError:
        stream = pydev.default_stream()
    device.launch(kernels.vector_add, out, a, a, grid=4, block=256, stream=stream)
    torch.cuda.synchronize()
    assert torch.equal(out, 2 * a)
