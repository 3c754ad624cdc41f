"""The wheel's native module is built against CPython's stable ABI (pyo3
abi3, Python >= 3.11): the very file installed for this interpreter loads
in another CPython 3.x and compiles a kernel there. Skipped when no other
CPython >= 3.11 is on this machine (pyenv's, or python3.12/3.13 on PATH)."""

import glob
import os
import shutil
import subprocess
import sys

import pytest

SOURCE = "import cuda.device as device\n@device.kernel\ndef k(x):\n    x[device.tid(1)] = 1.0\n"

PROBE = """
import importlib.machinery, importlib.util, sys
path = sys.argv[1]
loader = importlib.machinery.ExtensionFileLoader("pydev._pydev", path)
spec = importlib.util.spec_from_file_location("pydev._pydev", path, loader=loader)
m = importlib.util.module_from_spec(spec)
loader.exec_module(m)
ptx = m.compile("k.py", sys.argv[2], "k", "float32[::1]", target="sm_90", stage="ptx")
assert ".visible .entry k(" in ptx, ptx[:300]
host = m.compile("k.py", sys.argv[2], "k", "float32[::1]", target="host", stage="llvm-ir")
assert "define" in host
print(sys.version_info[:2], m.version())
"""


def other_interpreters():
    mine = f"{sys.version_info.major}.{sys.version_info.minor}"
    found = {}
    candidates = [shutil.which(f"python3.{m}") for m in range(11, 15)]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[1-9].*/bin/python3")))
    for exe in filter(None, candidates):
        r = subprocess.run(
            [exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
        )
        version = r.stdout.strip()
        if r.returncode == 0 and version != mine and version not in found:
            found[version] = exe
    return sorted(found.items())


def test_the_native_module_loads_in_other_cpython_versions():
    native = pytest.importorskip("pydev._pydev", reason="the native module pydev._pydev is not built (make wheel)")
    assert native.__file__.endswith(".abi3.so"), native.__file__
    others = other_interpreters()
    if not others:
        pytest.skip("no other CPython >= 3.11 on this machine")
    for version, exe in others:
        r = subprocess.run([exe, "-c", PROBE, native.__file__, SOURCE], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"CPython {version} ({exe}) cannot use {native.__file__}:\n{r.stderr}"
