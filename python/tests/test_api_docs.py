"""The site `make docs` builds (mkdocs.yml: the user guide and the API
reference generated from the docstrings) builds without a warning, and the
reference holds the public names of each module. Skipped where MkDocs or
mkdocstrings is not installed (scripts/setup.sh installs both)."""

import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_reference_builds_without_warnings(tmp_path):
    for module in ("mkdocs", "mkdocstrings", "mkdocstrings_handlers.python"):
        if importlib.util.find_spec(module.split(".")[0]) is None:
            pytest.skip(f"{module} is not installed (scripts/setup.sh installs it)")
    pytest.importorskip("pydev._pydev")
    site = tmp_path / "site"
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "WARNING" not in out.stderr, out.stderr
    for page, names in {
        "cuda.device": ["cuda.device.launch", "cuda.device.kernel", "cuda.device.atomic_ref", "cuda.device.float32x4"],
        "pydev": ["pydev.Program", "pydev.compile", "pydev.DeviceArray", "pydev.Stream"],
        "pydev.ir": ["pydev.ir.Module", "pydev.ir.Function", "pydev.ir.array"],
        "pydev.numba": ["pydev.numba.cuda.jit", "pydev.numba.cuda.to_device", "pydev.numba.float32"],
    }.items():
        html = (site / "api" / page / "index.html").read_text()
        for name in names:
            assert f'id="{name}"' in html, f"{name} is not in the reference's {page} page"
    # The tools' page: each tool's --help, or where it is not built, a sentence saying so.
    tools = (site / "api" / "tools" / "index.html").read_text()
    assert all(tool in tools for tool in ("pydevc", "pydev-opt", "pydev-reduce")), tools
    assert "tools-help" not in tools  # the hook replaced its marker
