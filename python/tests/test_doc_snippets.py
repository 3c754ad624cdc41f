"""Every ```python block of the README, CONTRIBUTING.md and docs/*.md runs on
the host target as written.

A page's blocks run in order in one process, as a reader pasting them one
after the other would run them: a later block may use what an earlier one
defined. The script puts each block at its line of the markdown file (the
other lines blank), so a traceback's line number is the page's. A block that
cannot run here carries a marker on the line before it,
``<!-- skip: REASON -->``, and is reported as skipped with that reason;
fragments that are not programs (signatures, pseudo-code) use another fence
language (```text). CONTRIBUTING.md, "Snippets in the docs", states the
convention."""

import glob
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = ["README.md", "CONTRIBUTING.md"] + sorted(
    os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))
)
SKIP = re.compile(r"^<!-- skip: (.+?) -->$")


def python_blocks(page):
    """(first line of code, 1-based; code; skip reason or None) of each
    ```python block, dedented when the block sits in a list item."""
    lines = open(os.path.join(ROOT, page)).read().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            end = lines.index(indent + "```", i + 1)
            marker = SKIP.match(lines[i - 1].strip()) if i else None
            code = "\n".join(line.removeprefix(indent) for line in lines[i + 1 : end])
            blocks.append((i + 2, code, marker and marker.group(1)))
            i = end
        i += 1
    return blocks


def page_script(page):
    """The page's runnable blocks, each at its own line numbers."""
    out = []
    for first, code, skip in python_blocks(page):
        if skip is None:
            out += [""] * (first - 1 - len(out)) + code.split("\n")
    return "\n".join(out) + "\n"


RUNNABLE = [p for p in PAGES if any(skip is None for _, _, skip in python_blocks(p))]
SKIPPED = [(p, first, skip) for p in PAGES for first, _, skip in python_blocks(p) if skip]


@pytest.mark.parametrize("page", RUNNABLE)
def test_the_pages_python_runs_on_the_host(page, tmp_path):
    pytest.importorskip("pydev._pydev", reason="the native module pydev._pydev is not built (make wheel)")
    # The script's name says which page a traceback's line numbers belong to.
    script = tmp_path / (re.sub(r"\W", "_", page) + ".py")
    script.write_text(page_script(page))
    env = dict(os.environ, PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("PYDEV_BOUNDSCHECK", None)
    out = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, f"{page} (line numbers are the page's):\n{out.stderr}"


@pytest.mark.parametrize("page,line,reason", SKIPPED, ids=[f"{p}:{line}" for p, line, _ in SKIPPED])
def test_blocks_marked_skip(page, line, reason):
    pytest.skip(f"{page}:{line}: {reason}")


def test_skip_markers_precede_python_blocks():
    """A marker before anything but a ```python block would skip nothing."""
    for page in PAGES:
        lines = open(os.path.join(ROOT, page)).read().split("\n")
        for i, line in enumerate(lines[:-1]):
            if SKIP.match(line.strip()):
                assert lines[i + 1].strip() == "```python", (
                    f"{page}:{i + 1}: a skip marker must precede a ```python block"
                )
    assert "README.md" in RUNNABLE and "docs/backend.md" in RUNNABLE


def test_backend_md_shows_examples_ir_block_reduce_as_it_is():
    """docs/backend.md's second worked example is examples/ir_block_reduce.py
    (test_examples.py runs the file, this module the page)."""
    example = open(os.path.join(ROOT, "examples", "ir_block_reduce.py")).read()
    body = example[example.index("import numpy as np") :]
    assert body in [code + "\n" for _, code, skip in python_blocks("docs/backend.md") if skip is None]
