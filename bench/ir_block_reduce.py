#!/usr/bin/env python3
"""What examples/ir_block_reduce.py (docs/backend.md's second worked example)
costs: building its pydev.ir module and Program, the first launch in a new
process with an empty disk cache (the compile), the first launch of a second
process with that cache, and later launches (µs per launch of a block of 256
on 256 floats). A benchmark, not a test:

    PYDEV_TARGET=host python3 bench/ir_block_reduce.py [--launches 20000] [--runs 5]

Each measurement runs in its own process with a private PYDEV_CACHE_DIR.
Time the release wheel (`make wheel`): the dev wheel's launches cost about
ten times as much.
"""

import argparse
import json
import os
import runpy
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "examples", "ir_block_reduce.py")


def child(example, launches, runs):
    """One process: build, first launch, then `runs` x `launches` launches."""
    t0 = time.perf_counter()
    import numpy as np

    import cuda.device as device
    import pydev

    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    program = runpy.run_path(example, run_name="bench")["program"]  # builds, verifies, makes the Program
    t_build = time.perf_counter() - t0
    x = np.random.default_rng(1).random(256, dtype=np.float32)
    out = np.zeros(1, np.float32)
    stream = pydev.default_stream()
    t0 = time.perf_counter()
    device.launch(program, x, out, grid=1, block=256, stream=stream)
    stream.synchronize()
    t_first = time.perf_counter() - t0
    assert abs(out[0] - x.sum(dtype=np.float64)) < 1e-3, (out[0], x.sum())
    per = []
    launch = device.launch
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(launches):
            launch(program, x, out, grid=1, block=256, stream=stream)
        stream.synchronize()
        per.append((time.perf_counter() - t0) / launches * 1e6)
    print(json.dumps({"import_s": t_import, "build_s": t_build, "first_s": t_first, "per_launch_us": per}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--example", default=EXAMPLE, help="the program to time (default: %(default)s)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(a.example, a.launches, a.runs)
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYDEV_CACHE_DIR=cache)
        env.setdefault("PYDEV_TARGET", "host")
        res = []
        for launches, runs in ((a.launches, a.runs), (10, 1)):  # empty cache, then the cache it left
            cmd = [
                sys.executable,
                __file__,
                "--child",
                "--example",
                a.example,
                f"--launches={launches}",
                f"--runs={runs}",
            ]
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            res.append(json.loads(out.stdout.strip().splitlines()[-1]))
    cold, warm = res
    import pydev

    print(
        f"| examples/ir_block_reduce.py, {env['PYDEV_TARGET']} target, pydev at {os.path.dirname(pydev.__file__)} | |"
    )
    print("|---|---|")
    print(f"| import cuda.device and pydev | {cold['import_s'] * 1e3:.0f} ms |")
    print(f"| build the pydev.ir module, verify it, make the Program | {cold['build_s'] * 1e3:.1f} ms |")
    print(f"| first launch, empty disk cache (the compile) | {cold['first_s'] * 1e3:.0f} ms |")
    print(f"| first launch of a second process (disk cache) | {warm['first_s'] * 1e3:.1f} ms |")
    per = cold["per_launch_us"]
    print(
        f"| later launches ({a.launches} x {a.runs}: min / median) | {min(per):.2f} / {statistics.median(per):.2f} µs |"
    )


if __name__ == "__main__":
    sys.exit(main())
