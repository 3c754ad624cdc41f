"""pydev.numba on a GPU (the cuda target): the whole of test_numba.py and
test_numba_host_api.py again with PYDEV_NUMBA_TEST_TARGET=cuda (NumPy arguments are copied to the device
and back, as Numba does; device arrays and streams as they are), plus a
direct check of the typical kernels. Skips where there is no GPU."""

import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import gpu_available

pytestmark = pytest.mark.skipif(not gpu_available(), reason="no CUDA GPU")

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261126


@pytest.fixture(autouse=True)
def _cuda(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "cuda")


def test_the_numba_suite_on_the_gpu(tmp_path):
    env = dict(os.environ, PYDEV_NUMBA_TEST_TARGET="cuda", PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            os.path.join(HERE, "test_numba.py"),
            os.path.join(HERE, "test_numba_host_api.py"),
        ],
        cwd=HERE,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]


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
    A, B = rng.random((40, 50), dtype=np.float32), rng.random((50, 30), dtype=np.float32)
    C = np.full((40, 30), np.nan, np.float32)
    K.fast_matmul[(4, 4), (K.TPB, K.TPB)](A, B, C)
    np.testing.assert_allclose(C, A @ B, rtol=1e-4)


def test_linked_kernel_pinned_and_mapped_memory_on_the_gpu(tmp_path):
    """A kernel calling a CUDA C++ function (NVRTC + nvJitLink, the cubin
    loaded by the driver), with page-locked and mapped host memory."""
    from pydev import _cudalink
    from pydev.numba import cuda
    import test_numba as T

    if not _cudalink.available():
        pytest.skip("no NVRTC/nvJitLink")
    k = T._linked_kernels(T._ops(tmp_path))
    rng = np.random.default_rng(SEED)
    x = cuda.pinned_array(1000, np.float32)
    x[:] = rng.random(1000, dtype=np.float32)
    out, ys, flags = cuda.device_array(1000, np.float32), cuda.device_array(1000), cuda.mapped_array(1000, np.bool_)
    flags[:] = True
    k[8, 128](out, cuda.to_device(x), ys, flags)
    cuda.synchronize()
    np.testing.assert_allclose(out.copy_to_host(), x * np.float32(2) + np.arange(1000, dtype=np.float32), rtol=1e-6)
    np.testing.assert_array_equal(ys.copy_to_host(), 2.0 * x.astype(np.float64))
    np.testing.assert_array_equal(flags, np.arange(1000) % 2 == 1)  # written in place through the mapping
