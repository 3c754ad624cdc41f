import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    # Each test gets its own on-disk cache, so cache behaviour is its own.
    monkeypatch.setenv("PYDEV_CACHE_DIR", str(tmp_path / "cache"))
    yield


def pytest_configure(config):
    # `make test` sets this: the native module must be there, so that the
    # host tests run rather than skip.
    if os.environ.get("PYDEV_REQUIRE_NATIVE") == "1":
        import pydev._pydev  # noqa: F401


def gpu_available():
    try:
        from pydev import _pydev

        return _pydev.cuda_status()[0]
    except ImportError:
        return False
