#!/usr/bin/env python3
"""Instructions per cuda launch on the fake driver (test/fakecuda), counted
by valgrind: deterministic where wall time on a shared 2-core machine is
not, so two wheels' launch paths compare in one run. Each count is the
difference of runs of 20000 and 80000 launches of bench/launch.py's
`empty` kernel (three float32 arrays and a float), over 60000.

    python3 bench/launch_instructions.py PKG_DIR [PKG_DIR ...]

PKG_DIR: a release wheel installed with `pip install --no-deps --target`.
Kinds: `devicearrays` (on a pydev.Stream) and `dlpack` (the C producer's
native `__dlpack__`, as CuPy's, on the legacy default stream). Needs gcc,
valgrind and Python.h. A benchmark, not a test.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

LOOP = """
import os, sys
os.environ["PYDEV_TARGET"] = "cuda"
sys.path.insert(0, {here!r})
import numpy as np
import cuda.device as device, pydev
from launch import CDlpack, CoreStream, c_exchange_producer, empty
assert c_exchange_producer(0) is None
arrays = [pydev.to_device(np.random.default_rng(k).random(1024, dtype=np.float32)) for k in range(3)]
s, legacy = pydev.create_stream(), CoreStream(0)
kind, n = sys.argv[1], int(sys.argv[2])
a0, a1, a2 = arrays if kind == "devicearrays" else [CDlpack(a) for a in arrays]
stream = s if kind == "devicearrays" else legacy
launch = device.launch
for _ in range(n):
    launch(empty, a0, a1, a2, 1.5, grid=1, block=1, stream=stream)
"""


def count(pkg, kind, n, env, script):
    r = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, script, kind, str(n)],
        env=dict(env, PYTHONPATH=pkg),
        capture_output=True,
        text=True,
    )
    m = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode or not m:
        sys.exit(f"{pkg} {kind}: {r.stderr[-2000:]}")
    return int(m.group(1))


def main():
    pkgs = sys.argv[1:]
    if not pkgs or not shutil.which("valgrind") or not shutil.which("gcc"):
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                "gcc",
                "-shared",
                "-fPIC",
                "-O2",
                "-o",
                os.path.join(tmp, "libcuda.so"),
                os.path.join(HERE, "..", "test", "fakecuda", "fakecuda.c"),
            ],
            check=True,
        )
        script = os.path.join(tmp, "loop.py")
        with open(script, "w") as f:
            f.write(LOOP.format(here=HERE))
        env = dict(os.environ, LD_LIBRARY_PATH=tmp, FAKECUDA_DISCARD="1", OPENBLAS_NUM_THREADS="1")
        print("| package | DeviceArrays, a pydev.Stream | C `__dlpack__` arrays, legacy stream |")
        print("|---|---|---|")
        for pkg in pkgs:
            cells = [
                f"{(count(pkg, k, 80000, env, script) - count(pkg, k, 20000, env, script)) // 60000:,}"
                for k in ("devicearrays", "dlpack")
            ]
            print(f"| {pkg} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
