#!/usr/bin/env python3
"""A pydev.Program's launch beside the launch of the @device.kernel it was
made from (its `pydev` stage), on the host target: both go through the
native entry and its Dispatch (python/src/dispatch.rs), so they should cost
the same. A benchmark, not a test:

    PYDEV_TARGET=host python3 bench/program_launch.py [--launches 20000] [--runs 5]

Prints the minimum and median over runs of the time per launch, in µs.
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

os.environ.setdefault("PYDEV_TARGET", "host")
import cuda.device as device  # noqa: E402
import pydev  # noqa: E402


@device.kernel
def add1(out, x):
    i = device.thread_idx.x
    if i < out.size:
        out[i] = x[i] + 1.0


def per_launch(f, args, n, stream):
    launch = device.launch
    t = time.perf_counter()
    for _ in range(n):
        launch(f, *args, grid=1, block=32, stream=stream)
    return (time.perf_counter() - t) / n * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    rng = np.random.default_rng(3)
    x = rng.random(32, dtype=np.float32)
    out = np.full(32, np.nan, np.float32)
    stream = pydev.default_stream()
    sig = "float32[::1], float32[::1]"
    program = pydev.Program(pydev.compile(add1, sig, target="host", stage="pydev"), kernel="add1")
    rows = {"@device.kernel": add1, "pydev.Program": program}
    times = {k: [] for k in rows}
    for name, f in rows.items():  # compile and register the fast path
        device.launch(f, out, x, grid=1, block=32, stream=stream)
        assert np.array_equal(out, x + 1.0), name
    for _ in range(a.runs):
        for name, f in rows.items():
            times[name].append(per_launch(f, (out, x), a.launches, stream))
    print(f"| launch ({sys.argv[0]}, {a.launches} launches x {a.runs} runs) | min | median |")
    print("|---|---|---|")
    for name, t in times.items():
        print(f"| {name} | {min(t):.2f} µs | {statistics.median(t):.2f} µs |")
    k, p = statistics.median(times["@device.kernel"]), statistics.median(times["pydev.Program"])
    print(f"Program / kernel: {p / k:.2f}x")


if __name__ == "__main__":
    main()
