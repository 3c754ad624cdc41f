import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # tests import the device code of kernels.py


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    # Each test gets its own on-disk cache, so cache behaviour is its own.
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PYDEV_CACHE", raising=False)
    monkeypatch.delenv("PYDEV_CAI_SYNC", raising=False)
    # pydev.numba's low-occupancy warning off, as numba-cuda's CUDATestCase
    # turns it off (tests launch small grids); its own test turns it on.
    monkeypatch.setenv("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")
    config = sys.modules.get("pydev.numba.core.config")
    if config is not None:
        monkeypatch.setattr(config, "CUDA_LOW_OCCUPANCY_WARNINGS", 0)
    yield


@pytest.fixture
def native():
    """The native module; tests that compile or launch take this fixture and
    are skipped where it is not built."""
    return pytest.importorskip("pydev._pydev", reason="the native module pydev._pydev is not built (make wheel)")


@pytest.fixture
def host_target(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", "host")


def pytest_configure(config):
    # `make test-python` sets this: the native module must be there, so that
    # the end-to-end tests run rather than skip.
    if os.environ.get("PYDEV_REQUIRE_NATIVE") == "1":
        import pydev._pydev  # noqa: F401


def gpu_available():
    try:
        from pydev import _pydev

        return bool(_pydev.cuda_status()[0])
    except ImportError:
        return False
