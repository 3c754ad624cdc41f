#!/usr/bin/env python3
"""Memory per compiled kernel on the host target: RSS growth per live
kernel (N distinct generated kernels compiled and launched, all kept), and
what is left after they are collected.

    python3 bench/memory.py [--kernels 100]

A benchmark, not a test (python/tests/test_host.py asserts the bound): it
prints the figures for docs/performance.md.
"""

import argparse
import gc
import os
import sys
import time

os.environ["PYDEV_TARGET"] = "host"
os.environ["PYDEV_CACHE"] = "0"

import numpy as np  # noqa: E402

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "tests"))
from generated_kernels import distinct_kernels  # noqa: E402 - the memory tests' kernels


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernels", type=int, default=100)
    n = p.parse_args().kernels
    a = np.zeros(64, np.float32)
    s = pydev.default_stream()
    warm = distinct_kernels(20, "warm")
    for k in warm:
        device.launch(k, a, grid=1, block=64, stream=s)
    gc.collect()
    r0, t0 = rss(), time.perf_counter()
    live = distinct_kernels(n, "live")
    for k in live:
        device.launch(k, a, grid=1, block=64, stream=s)
    gc.collect()
    r1, t1 = rss(), time.perf_counter()
    del live
    gc.collect()
    again = distinct_kernels(n, "again")
    for k in again:
        device.launch(k, a, grid=1, block=64, stream=s)
    del again
    gc.collect()
    r2 = rss()
    print(
        f"{(r1 - r0) / n / 1024:.0f} KB per live kernel ({n} kernels, {1e3 * (t1 - t0) / n:.1f} ms each to compile and launch)"
    )
    print(f"{(r2 - r1) / n / 1024:.0f} KB per kernel for a second batch after the first was collected")


if __name__ == "__main__":
    main()
