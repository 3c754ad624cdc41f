#!/usr/bin/env python3
"""Launch overhead: time per `device.launch` of an empty kernel with three
array arguments and one scalar, after warm-up, on the host target and (with
a GPU) on cuda, beside Numba-CUDA and CuPy launching the same empty kernel
when they are installed; and the time to the first launch in a fresh process
whose kernel is in the disk cache.

    python3 bench/launch.py [--launches 20000] [--no-fresh]

A benchmark, not a test: it prints a table for docs/performance.md. Times
are medians of 5 runs of --launches launches, in microseconds per launch.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import cuda.device as device
import pydev


@device.kernel
def empty(a, b, c, s):
    pass


def per_launch_us(fn, launches):
    for _ in range(200):
        fn()
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(launches):
            fn()
        runs.append((time.perf_counter() - t) / launches * 1e6)
    return statistics.median(runs)


def host_rows(launches):
    os.environ["PYDEV_TARGET"] = "host"
    a, b, c = (np.zeros(1024, np.float32) for _ in range(3))
    s = pydev.default_stream()
    total = per_launch_us(lambda: device.launch(empty, a, b, c, 1.5, grid=1, block=1, stream=s), launches)
    # The kernel's launch with its arguments already packed (the host
    # runtime running the block): the rest is dispatch.
    from pydev import _launch

    signature, packed, _ = _launch.pack_args(empty, (a, b, c, 1.5), "host")
    prog = empty.program(signature, "host", "host")
    native = per_launch_us(lambda: prog.launch((1, 1, 1), (1, 1, 1), 0, packed), launches)
    return [
        ("pydev host, NumPy arrays: device.launch", total),
        ("pydev host: the kernel's launch with packed arguments (runtime, one block)", native),
        ("pydev host: dispatch beyond it (type key, packing, checks)", total - native),
    ]


def cuda_rows(launches):
    rows = []
    os.environ["PYDEV_TARGET"] = "cuda"
    s = pydev.default_stream()
    arrays = [pydev.to_device(np.zeros(1024, np.float32)) for _ in range(3)]
    rows.append(("pydev cuda, pydev.DeviceArray: device.launch", per_launch_us(lambda: device.launch(empty, *arrays, 1.5, grid=1, block=1, stream=s), launches)))
    try:
        import cupy

        ca = [cupy.zeros(1024, cupy.float32) for _ in range(3)]
        rows.append(("pydev cuda, CuPy arrays: device.launch", per_launch_us(lambda: device.launch(empty, *ca, 1.5, grid=1, block=1, stream=s), launches)))
        raw = cupy.RawKernel(r'extern "C" __global__ void empty(float* a, float* b, float* c, float s) {}', "empty")
        f = np.float32(1.5)
        rows.append(("CuPy RawKernel, CuPy arrays", per_launch_us(lambda: raw((1,), (1,), (ca[0], ca[1], ca[2], f)), launches)))
    except ImportError:
        rows.append(("CuPy", "not installed"))
    try:
        from numba import cuda as ncuda

        @ncuda.jit
        def nempty(a, b, c, s):
            pass

        na = [ncuda.to_device(np.zeros(1024, np.float32)) for _ in range(3)]
        rows.append(("Numba-CUDA, device arrays", per_launch_us(lambda: nempty[1, 1](na[0], na[1], na[2], 1.5), launches)))
    except ImportError:
        rows.append(("Numba-CUDA", "not installed"))
    s.synchronize()
    return rows


FRESH = r"""
import os, sys, time
import numpy as np
sys.path.insert(0, {bench!r})
import cuda.device as device, pydev
import launch as bench
a, b, c = (np.zeros(1024, np.float32) for _ in range(3))
s = pydev.default_stream()
t = time.perf_counter()
device.launch(bench.empty, a, b, c, 1.5, grid=1, block=1, stream=s)
print((time.perf_counter() - t) * 1e3, pydev.stats()["compiles"], pydev.stats()["disk_hits"])
"""


def fresh_process_ms():
    """ms from the first device.launch call to its return, in a new process
    whose kernel the disk cache holds (the second of two runs)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYDEV_CACHE_DIR=cache, PYDEV_TARGET="host")
        code = FRESH.format(bench=os.path.dirname(os.path.abspath(__file__)))
        out = []
        for _ in range(2):
            r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            ms, compiles, hits = r.stdout.split()
            out.append((float(ms), int(compiles), int(hits)))
    (cold, c0, _), (warm, c1, h1) = out
    assert c0 == 1 and c1 == 0 and h1 == 1, out
    return cold, warm


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--launches", type=int, default=20000)
    p.add_argument("--no-fresh", action="store_true")
    args = p.parse_args()
    rows = host_rows(args.launches)
    if pydev._native.cuda_status()[0]:
        rows += cuda_rows(args.launches)
    else:
        rows.append(("cuda target", "no CUDA driver or device here"))
    if not args.no_fresh:
        cold, warm = fresh_process_ms()
        rows.append(("first launch in a fresh process, disk-cache miss (ms)", cold))
        rows.append(("first launch in a fresh process, disk-cache hit (ms)", warm))
    print("| launch | time |")
    print("|---|---|")
    for name, v in rows:
        unit = "" if isinstance(v, str) else (" ms" if "(ms)" in name else " µs")
        print(f"| {name.replace(' (ms)', '')} | {v if isinstance(v, str) else f'{v:.2f}'}{unit} |")


if __name__ == "__main__":
    main()
