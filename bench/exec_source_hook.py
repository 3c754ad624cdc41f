"""Cost of pydev._exec_source's audit hook (the texts of exec/compile of
strings, for kernels defined that way): each case in processes without and
with the hook, alternating, in process CPU time (the machine is shared),
min over the rounds.

    python3 bench/exec_source_hook.py [ROUNDS]

Cases: audited builtins (`id()`, `sys._getframe()`), code made of them
(`copy.deepcopy`), `compile()` of a large file and of a small `def` (which
the hook records), `exec` of a string without a def, `dataclasses`
(exec of defs), and the import of 116 standard-library modules compiled
from source (copied to a temporary directory without bytecode)."""

import copy
import dataclasses
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import typing

PACKAGES = ["asyncio", "email", "http", "xml", "json", "unittest", "logging", "concurrent"]
IMPORTS = (
    "import asyncio, email.mime.multipart, email.parser, http.server, http.client, xml.dom.minidom, "
    "xml.etree.ElementTree, json, unittest.mock, logging.handlers, concurrent.futures"
)


def _cases():
    big = open(typing.__file__).read()
    small_def = "def f(a, b):\n    return a + b\n"
    nested = {"a": [1, 2, {"b": (3, 4)}] * 20}
    count = [0]

    def make_dataclass():
        count[0] += 1
        return dataclasses.make_dataclass(f"D{count[0]}", [("x", int), ("y", float)])

    return {
        "id(x)": (lambda: id(big), 1_000_000),
        "sys._getframe()": (lambda: sys._getframe(), 1_000_000),
        "copy.deepcopy(a small nested dict)": (lambda: copy.deepcopy(nested), 2000),
        "compile(typing.py, its path)": (lambda: compile(big, typing.__file__, "exec"), 10),
        "compile(a small def, '<string>') (recorded)": (lambda: compile(small_def, "<string>", "exec"), 10_000),
        "exec('x = 1') (no def)": (lambda: exec("x = 1", {}), 100_000),
        "dataclasses.make_dataclass (exec of defs)": (make_dataclass, 1000),
    }


def _child(hook, src):
    """One process's figures: microseconds per call of each case, then the import."""
    from pydev import _exec_source  # imported either way: pydev's heap makes imports' GC slower

    if hook:
        _exec_source.install()
    for name, (f, n) in _cases().items():
        best = float("inf")
        for _ in range(5):
            t = time.process_time()
            for _ in range(n):
                f()
            best = min(best, time.process_time() - t)
        print(f"{name}\t{best / n * 1e6}")
    sys.path.insert(0, src)
    t = time.process_time()
    exec(IMPORTS)
    print(f"import of 116 modules from source\t{(time.process_time() - t) * 1e6}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2] == "1", sys.argv[3])
        return
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    src = tempfile.mkdtemp(prefix="exec-source-bench-")
    std = sysconfig.get_paths()["stdlib"]
    for p in PACKAGES:
        shutil.copytree(
            os.path.join(std, p), os.path.join(src, p), ignore=shutil.ignore_patterns("__pycache__", "test*")
        )
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    best, order = {}, []
    try:
        for _ in range(rounds):
            for hook in ("0", "1"):
                out = subprocess.run(
                    [sys.executable, __file__, "--child", hook, src],
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                for line in out.splitlines():
                    name, us = line.split("\t")
                    if name not in order:
                        order.append(name)
                    best[hook, name] = min(best.get((hook, name), float("inf")), float(us))
    finally:
        shutil.rmtree(src, ignore_errors=True)
    print(
        f"{'case (us per call, min of ' + str(rounds) + ' rounds)':52} {'without':>12} {'with hook':>12} {'extra':>10}"
    )
    for name in order:
        a, b = best["0", name], best["1", name]
        print(f"{name:52} {a:12.3f} {b:12.3f} {b - a:+10.3f}")


if __name__ == "__main__":
    main()
