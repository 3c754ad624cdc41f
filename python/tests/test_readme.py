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
