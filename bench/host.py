#!/usr/bin/env python3
"""The host target beside NumPy, Warp's CPU backend and Numba's CUDA
simulator, on the typical kernels of test/gpu/kernels.py.

    python3 bench/host.py [--repeat 20] [--no-sim] [--no-warp]

Needs `pydev._pydev` (the wheel, or PYTHONPATH pointing at a built one);
warp-lang and numba are optional. Sizes: 2^20 elements, 1024x1024 matrices;
the simulator runs 4096 elements (it needs seconds even there). Times are
medians of --repeat runs after one warm-up, in milliseconds; the first
compile is the frontend + pipeline + JIT of one kernel in this process.
A benchmark, not a test: it prints a table for docs/performance.md.
"""

import argparse
import ctypes
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KERNELS_PY = os.path.join(ROOT, "test", "gpu", "kernels.py")
sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
from run import SIGNATURES  # noqa: E402

N = 1 << 20
M = 1024


KEEP = []  # arrays whose addresses are in descriptors stay alive


def desc(a):
    KEEP.append(a)
    n = a.ndim
    shape = list(a.shape)
    strides = [s // a.itemsize for s in a.strides]
    return (ctypes.c_uint64 * (1 + 2 * n))(a.ctypes.data, *shape, *strides)


def median_ms(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def cases(rng, n, m):
    """kernel -> (grid, block, args builder, numpy equivalent)."""
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    data = rng.integers(0, 1 << 20, n, dtype=np.int32)
    mat = rng.random((m, m), dtype=np.float32)
    particle = np.dtype(
        {"names": ["pos", "mass"], "formats": [("<f4", (4,)), "<f4"], "offsets": [0, 16], "itemsize": 32}
    )
    ps = np.zeros(n, dtype=particle)
    ps["pos"] = rng.random((n, 4), dtype=np.float32)
    ps["mass"] = rng.random(n, dtype=np.float32)
    out = np.empty(n, np.float32)
    sums = np.empty(n // 256, np.float32)
    one = np.zeros(1, np.float32)
    bins = np.zeros(97, np.uint32)
    mt = np.empty((m, m), np.float32)
    lap = np.zeros((m, m), np.float32)

    def np_stencil():
        lap[1:-1, 1:-1] = mat[:-2, 1:-1] + mat[2:, 1:-1] + mat[1:-1, :-2] + mat[1:-1, 2:] - 4 * mat[1:-1, 1:-1]

    def np_push():
        ps["pos"][:, 0] += np.float32(0.5)
        ps["pos"][:, 3] *= ps["mass"]

    return {
        "vector_add": ((n // 256,), (256,), [desc(out), desc(x), desc(y)], lambda: np.add(x, y, out=out)),
        "saxpy": (
            (n // 256,),
            (256,),
            [ctypes.c_float(2.5), desc(x), desc(y), desc(out)],
            lambda: np.add(2.5 * x, y, out=out),
        ),
        "block_sum": ((n // 256,), (256,), [desc(sums), desc(x)], lambda: x.reshape(-1, 256).sum(1)),
        "warp_sum": ((n // 256,), (256,), [desc(one), desc(x)], lambda: x.sum()),
        "histogram": ((n // 256,), (256,), [desc(bins), desc(data)], lambda: np.bincount(data % 97, minlength=97)),
        "transpose": ((m // 32, m // 32), (32, 32), [desc(mt), desc(mat)], lambda: np.copyto(mt, mat.T)),
        "stencil": ((m // 16, m // 16), (16, 16), [desc(lap), desc(mat)], np_stencil),
        "push": ((n // 256,), (256,), [desc(ps), ctypes.c_float(0.5)], np_push),
    }


def pad3(t):
    return tuple(t) + (1,) * (3 - len(t))


def bench_pydev(repeat):
    from pydev import _pydev

    source = open(KERNELS_PY).read()
    rng = np.random.default_rng(7)
    table = {}
    for name, (grid, block, args, np_fn) in cases(rng, N, M).items():
        t = time.perf_counter()
        llvm = _pydev.compile(KERNELS_PY, source, name, SIGNATURES[name], {}, "host", "llvm")
        prog = _pydev.HostProgram(llvm, name)
        first = (time.perf_counter() - t) * 1e3
        raw = [bytes(a) for a in args]
        ms = median_ms(lambda: prog.launch(pad3(grid), pad3(block), 0, raw), repeat)
        table[name] = {"pydev": ms, "numpy": median_ms(np_fn, repeat), "first_compile": first}
    return table


def bench_warp(repeat, table):
    import warp as wp

    wp.config.quiet = True
    wp.init()

    @wp.kernel
    def vector_add(out: wp.array(dtype=float), a: wp.array(dtype=float), b: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = a[i] + b[i]

    @wp.kernel
    def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = a * x[i] + y[i]

    @wp.kernel
    def histogram(bins: wp.array(dtype=wp.uint32), data: wp.array(dtype=wp.int32)):
        i = wp.tid()
        wp.atomic_add(bins, data[i] % bins.shape[0], wp.uint32(1))

    @wp.kernel
    def transpose(out: wp.array2d(dtype=float), inp: wp.array2d(dtype=float)):
        i, j = wp.tid()
        out[j, i] = inp[i, j]

    @wp.kernel
    def stencil(out: wp.array2d(dtype=float), u: wp.array2d(dtype=float)):
        i, j = wp.tid()
        n = u.shape[0]
        m = u.shape[1]
        if i > 0 and i < n - 1 and j > 0 and j < m - 1:
            out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]

    @wp.struct
    class Particle:
        pos: wp.vec4
        mass: float

    @wp.kernel
    def push(ps: wp.array(dtype=Particle), dt: float):
        i = wp.tid()
        p = ps[i]
        v = p.pos
        p.pos = wp.vec4(v[0] + dt, v[1], v[2], v[3] * p.mass)
        ps[i] = p

    rng = np.random.default_rng(7)
    dev = "cpu"
    x = wp.array(rng.random(N, dtype=np.float32), device=dev)
    y = wp.array(rng.random(N, dtype=np.float32), device=dev)
    out = wp.zeros(N, dtype=float, device=dev)
    data = wp.array(rng.integers(0, 1 << 20, N, dtype=np.int32), device=dev)
    bins = wp.zeros(97, dtype=wp.uint32, device=dev)
    mat = wp.array(rng.random((M, M), dtype=np.float32), device=dev)
    mt = wp.zeros((M, M), dtype=float, device=dev)
    ps = wp.zeros(N, dtype=Particle, device=dev)
    runs = {
        "vector_add": (vector_add, N, [out, x, y]),
        "saxpy": (saxpy, N, [2.5, x, y, out]),
        "histogram": (histogram, N, [bins, data]),
        "transpose": (transpose, (M, M), [mt, mat]),
        "stencil": (stencil, (M, M), [mt, mat]),
        "push": (push, N, [ps, 0.5]),
    }
    for name, (k, dim, args) in runs.items():
        t = time.perf_counter()
        wp.launch(k, dim=dim, inputs=args, device=dev)
        wp.synchronize()
        first = (time.perf_counter() - t) * 1e3

        def go():
            wp.launch(k, dim=dim, inputs=args, device=dev)
            wp.synchronize()

        table[name]["warp_cpu"] = median_ms(go, repeat)
        table[name]["warp_first"] = first


SIM_N = 4096


def bench_sim(table, names):
    """Numba's CUDA simulator, in a subprocess (it needs its env var)."""
    import subprocess

    code = r"""
import sys, time, numpy as np
from numba import cuda
sys.path.insert(0, %r)
import numba_kernels as nk
n = %d
vector_add, saxpy, histogram, block_sum, warp_sum, transpose, stencil = (cuda.jit(getattr(nk, k)) for k in
    ("vector_add", "saxpy", "histogram", "block_sum", "warp_sum", "transpose", "stencil"))
@cuda.jit
def push(pos, mass, dt):
    i = cuda.grid(1)
    if i < mass.size:
        pos[i, 0] += dt
        pos[i, 3] *= mass[i]
x = np.random.default_rng(1).random(n, dtype=np.float32); y = x.copy(); out = np.empty_like(x)
data = np.arange(n, dtype=np.int32); bins = np.zeros(97, np.uint32); sums = np.empty(n // 256, np.float32)
m = int(n ** 0.5); mat = x.reshape(m, m); mt = np.empty_like(mat); lap = np.zeros_like(mat)
pos = np.random.default_rng(2).random((n, 4), dtype=np.float32); mass = x.copy()
runs = {"vector_add": (vector_add, (out, x, y), n // 256, 256), "saxpy": (saxpy, (np.float32(2.5), x, y, out), n // 256, 256),
        "histogram": (histogram, (bins, data), n // 256, 256), "block_sum": (block_sum, (sums, x), n // 256, 256),
        "warp_sum": (warp_sum, (np.zeros(1, np.float32), x), n // 256, 256),
        "transpose": (transpose, (mt, mat), (m // 32, m // 32), (32, 32)),
        "stencil": (stencil, (lap, mat), (m // 16, m // 16), (16, 16)),
        "push": (push, (pos, mass, np.float32(0.5)), n // 256, 256)}
for name in sys.argv[1:]:
    k, args, grid, block = runs[name]
    t = time.perf_counter(); k[grid, block](*args); print(name, (time.perf_counter() - t) * 1e3, flush=True)
""" % (HERE, SIM_N)
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    p = subprocess.run([sys.executable, "-c", code, *names], env=env, capture_output=True, text=True)
    for line in p.stdout.splitlines():
        name, ms = line.split()
        table[name]["sim_4096"] = float(ms)


def bench_pydev_small(table, repeat):
    """pydev on the simulator's size, for the ratio."""
    from pydev import _pydev

    source = open(KERNELS_PY).read()
    rng = np.random.default_rng(7)
    for name, (grid, block, args, _) in cases(rng, SIM_N, 64).items():
        if "sim_4096" not in table[name]:
            continue
        prog = _pydev.HostProgram(_pydev.compile(KERNELS_PY, source, name, SIGNATURES[name], {}, "host", "llvm"), name)
        raw = [bytes(a) for a in args]
        table[name]["pydev_4096"] = median_ms(lambda: prog.launch(pad3(grid), pad3(block), 0, raw), repeat)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--no-warp", action="store_true")
    ap.add_argument("--no-sim", action="store_true")
    args = ap.parse_args()
    table = bench_pydev(args.repeat)
    if not args.no_warp:
        try:
            bench_warp(args.repeat, table)
        except ImportError:
            print("warp-lang not installed: no Warp column")
    if not args.no_sim:
        # The simulator has no warp shuffles: warp_sum cannot run there.
        bench_sim(table, [k for k in table if k != "warp_sum"])
        bench_pydev_small(table, args.repeat)
    cols = ["pydev", "numpy", "warp_cpu", "first_compile", "warp_first", "pydev_4096", "sim_4096"]
    print("| kernel | " + " | ".join(c + " (ms)" for c in cols) + " | warp/pydev | sim/pydev (4096) |")
    print("|---" * (len(cols) + 3) + "|")
    for name, row in table.items():
        cells = [f"{row[c]:.3f}" if c in row else "-" for c in cols]
        ratio = f"{row['warp_cpu'] / row['pydev']:.2f}" if "warp_cpu" in row else "-"
        sim = f"{row['sim_4096'] / row['pydev_4096']:.0f}x" if "sim_4096" in row else "-"
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio} | {sim} |")


if __name__ == "__main__":
    main()
