"""The README's quick start runs as written (on the host here)."""

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_quick_start(tmp_path):
    pytest.importorskip("pydev._pydev")
    readme = open(os.path.join(ROOT, "README.md")).read()
    code = re.search(r"## Quick start.*?```python\n(.*?)```", readme, re.S).group(1)
    # `make demo` runs the same program from test/samples/vector_add.py.
    assert code == open(os.path.join(ROOT, "test", "samples", "vector_add.py")).read()
    script = tmp_path / "vadd.py"
    script.write_text(code)
    env = dict(os.environ, PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert "vector_add ok on" in out.stdout


def _make_plan(*targets):
    """The commands `make` would run for `targets` (make -n: nothing runs)."""
    out = subprocess.run(["make", "-n", "-s", *targets], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_readmes_path_builds_the_optimized_wheel():
    """`make wheel` and `make demo` (the README's path) build the release
    profile (an unoptimized build made an empty host launch cost 35-55 µs
    against 3.4-3.7); `make test` builds and tests the dev profile, the
    developers' fast loop; the README says which is which."""
    for target in ("wheel", "demo"):
        plan = _make_plan(target)
        assert "maturin build --profile release" in plan and "--profile dev" not in plan, plan
    assert "maturin build --profile dev" in _make_plan("dev-wheel")
    assert "maturin build --profile dev" in _make_plan("test-python")
    readme = open(os.path.join(ROOT, "README.md")).read()
    assert "make dev-wheel" in readme and "release profile" in readme
