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


def _links(text):
    """The targets of the markdown links of `text` (code left out), without #anchors."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    return re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)


def test_the_readme_is_for_users():
    """No path outside the repository; every page it links exists; each way
    in has its section."""
    readme = open(os.path.join(ROOT, "README.md")).read()
    assert "../" not in readme and "shared/" not in readme
    for link in _links(readme):
        if "://" not in link:
            assert os.path.exists(os.path.join(ROOT, link)), link
    for heading in (
        "cuda.device",
        "pydev.numba",
        "pydev.Program",
        "C and CUDA C++",
        "host target",
        "Several GPUs",
        "Tools",
        "Debugging",
        "Performance",
    ):
        assert re.search(rf"^### .*{re.escape(heading)}", readme, re.M), heading
    for fact in (
        "PYDEV_BOUNDSCHECK",
        "lineinfo",
        "KeyboardInterrupt",
        "pydev-lsp-server",
        "pydev-reduce",
        "--load-dialect-plugin",
        "pydevc",
        "pydev-opt",
    ):
        assert fact in readme, fact


@pytest.mark.parametrize(
    "page",
    [
        "README.md",
        "CONTRIBUTING.md",
        "examples/README.md",
        "docs/index.md",
        "docs/host.md",
        "docs/devices.md",
        "docs/tools.md",
    ],
)
def test_relative_links_resolve(page):
    """Every relative link of the user guide's pages names a file of the repository."""
    path = os.path.join(ROOT, page)
    for link in _links(open(path).read()):
        if "://" not in link:
            target = os.path.normpath(os.path.join(os.path.dirname(path), link))
            assert target.startswith(ROOT) and os.path.exists(target), f"{page}: {link}"


def test_the_guide_map_reaches_every_page():
    index = open(os.path.join(ROOT, "docs", "index.md")).read()
    for name in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        if name.endswith(".md") and name != "index.md":
            assert f"]({name}" in index, f"docs/index.md does not link docs/{name}"
