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
import linecache
import os
import time

os.environ["PYDEV_TARGET"] = "host"
os.environ["PYDEV_CACHE"] = "0"

import numpy as np  # noqa: E402

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def kernels(n, tag):
    out = []
    for i in range(n):
        name = f"<bench-memory-{tag}-{i}>"
        src = f"import cuda.device as device\n@device.kernel\ndef k{i}(a):\n    t = device.tid(1)\n    if t < a.size:\n        a[t] = a[t] + {i}.0\n"
        linecache.cache[name] = (len(src), None, src.splitlines(True), name)
        g = {}
        exec(compile(src, name, "exec"), g)
        out.append(g[f"k{i}"])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernels", type=int, default=100)
    n = p.parse_args().kernels
    a = np.zeros(64, np.float32)
    s = pydev.default_stream()
    warm = kernels(20, "warm")
    for k in warm:
        device.launch(k, a, grid=1, block=64, stream=s)
    gc.collect()
    r0, t0 = rss(), time.perf_counter()
    live = kernels(n, "live")
    for k in live:
        device.launch(k, a, grid=1, block=64, stream=s)
    gc.collect()
    r1, t1 = rss(), time.perf_counter()
    del live
    gc.collect()
    again = kernels(n, "again")
    for k in again:
        device.launch(k, a, grid=1, block=64, stream=s)
    del again
    gc.collect()
    r2 = rss()
    print(f"{(r1 - r0) / n / 1024:.0f} KB per live kernel ({n} kernels, {1e3 * (t1 - t0) / n:.1f} ms each to compile and launch)")
    print(f"{(r2 - r1) / n / 1024:.0f} KB per kernel for a second batch after the first was collected")


if __name__ == "__main__":
    main()
