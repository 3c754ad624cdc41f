"""MkDocs hook (mkdocs.yml `hooks:`): fills docs/api/tools.md with each
tool's `--help`, from the binaries `make build` made (target/release, then
target/debug; `$PYDEV_TOOLS_DIR` first when set), else from `PATH`. A tool
that is not built is said to be missing; nothing fails."""

import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = "<!-- tools-help -->"
# mlir-reduce's own options, and the pydev passes it can run.
_REDUCE_OPTIONS = (
    "--reduction-tree",
    "--traversal-mode",
    "--opt-reduction-pass",
    "--opt-pass=",
    "--test=",
    "--test-arg",
    "--pydev-",
    "-o ",
)
# (tool, arguments, keep: a line filter for tools whose help lists all of MLIR)
TOOLS = [
    ("pydevc", ["--help"], None),
    ("pydev-opt", ["--help"], None),
    (
        "pydev-reduce",
        ["--help"],
        lambda line: line.lstrip().startswith(_REDUCE_OPTIONS) or "USAGE" in line or "OVERVIEW" in line,
    ),
]


def _find(tool):
    dirs = [os.environ.get("PYDEV_TOOLS_DIR")] + [os.path.join(ROOT, "target", p) for p in ("release", "debug")]
    for d in dirs:
        if d and os.access(os.path.join(d, tool), os.X_OK):
            return os.path.join(d, tool)
    return shutil.which(tool)


def _help(tool, args, keep):
    exe = _find(tool)
    if exe is None:
        return f"`{tool}` is not built here (`make build` builds it); run `{tool} --help`."
    try:
        out = subprocess.run([exe, *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"`{tool} --help` could not run here: {e}"
    lines = (out.stdout or out.stderr).splitlines()
    if keep is not None:
        lines = [line for line in lines if keep(line)]
        note = f"The lines of `{tool} --help` about reducing, and the pydev passes (the rest list upstream MLIR's passes):\n\n"
    else:
        note = ""
    return note + "```text\n" + "\n".join(lines) + "\n```"


def on_page_markdown(markdown, page, **kwargs):
    if MARKER not in markdown:
        return markdown
    parts = [f"## `{tool}`\n\n{_help(tool, args, keep)}\n" for tool, args, keep in TOOLS]
    return markdown.replace(MARKER, "\n".join(parts))
