"""pydev.numba on a GPU (the cuda target): the typical kernels with NumPy
arguments (copied to the device and back, as Numba does) and with device
arrays and streams. Skips where there is no GPU."""
import numpy as np
import pytest

from conftest import gpu_available

pytestmark = pytest.mark.skipif(not gpu_available(), reason="no CUDA GPU")

SEED = 20261126


@pytest.fixture(autouse=True)
def _cuda(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "cuda")


def test_typical_kernels_on_the_gpu():
    from pydev.numba import cuda
    import numba_kernels as K
    rng = np.random.default_rng(SEED)
    a, b = rng.random(5000), rng.random(5000)
    out = np.full(5000, np.nan)
    K.vec_add[20, 256](a, b, out)  # NumPy arguments: copied in and back
    np.testing.assert_array_equal(out, a + b)
    x = rng.random(1000, dtype=np.float32)
    dx, dsums = cuda.to_device(x), cuda.to_device(np.full(8, np.nan, np.float32))
    s = cuda.stream()
    K.block_sum[8, K.RED, s](dx, dsums)
    s.synchronize()
    np.testing.assert_allclose(dsums.copy_to_host(), np.pad(x, (0, 24)).reshape(8, 128).sum(1), rtol=1e-5)
    xw = rng.random(256)
    ow = np.full(8, np.nan)
    K.warp_sum[2, 128](xw, ow)
    np.testing.assert_allclose(ow, xw.reshape(8, 32).sum(1), rtol=1e-12)
    h = np.zeros(10, np.int32)
    xs = rng.random(5000)
    K.histogram[8, 64](xs, 10, h)
    np.testing.assert_array_equal(h, np.histogram(xs, bins=10, range=(0, 1))[0])
    A, B = rng.random((40, 50), dtype=np.float32), rng.random((50, 30), dtype=np.float32)
    C = np.full((40, 30), np.nan, np.float32)
    K.fast_matmul[(4, 4), (K.TPB, K.TPB)](A, B, C)
    np.testing.assert_allclose(C, A @ B, rtol=1e-4)
    xv = rng.integers(-20, 20, 64).astype(np.int32)
    ov = np.full((64, 11), -12345, np.int64)
    K.warp_vote[1, 64](xv, ov)
    assert (ov[:, 7] == np.arange(64) % 32).all()
    assert (ov[:32, 4] == xv[:32][np.arange(32) ^ 1]).all()
