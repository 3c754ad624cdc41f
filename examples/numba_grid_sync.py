"""Numba-CUDA programs that need more than the basics, unchanged on pydev:
a grid-wide barrier (`cuda.cg.this_grid().sync()`), NumPy reductions and
ufuncs in device code, bfloat16 through `cuda.bf16`, and a kernel defined
by `exec` of a string (as code generators and Numba's own tests make them).

The grid-synchronized kernel normalizes a vector in one launch: every block
sums its part, the grid meets at the barrier, then every thread divides by
the total. On a GPU it is a cooperative launch; on the host target all
blocks run at once and meet at the barrier (a grid larger than the host
can keep resident is a LaunchError, as CUDA refuses a cooperative launch).

Run: python3 examples/numba_grid_sync.py
"""

import sys

import numpy as np

from pydev.numba import cuda, float64
from pydev.numba.core import config

# These grids are small on purpose: Numba's low-occupancy warning, off.
config.CUDA_LOW_OCCUPANCY_WARNINGS = 0
TPB = 128


@cuda.jit
def normalize(x, total):
    """x /= sum(x), in one launch: partial sums, a grid barrier, the division."""
    grid = cuda.cg.this_grid()
    partial = cuda.shared.array(TPB, float64)
    t = cuda.threadIdx.x
    acc = 0.0
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i]
    partial[t] = acc
    cuda.syncthreads()
    if t == 0:
        cuda.atomic.add(total, 0, partial.sum())  # NumPy's sum of the shared array
    grid.sync()
    s = total[0]
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        x[i] /= s


@cuda.jit
def row_stats(a, out):
    """out[i] = (max, mean) of row i, with NumPy functions in device code."""
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i]
        out[i, 0] = np.max(row)
        out[i, 1] = np.mean(row)


@cuda.jit
def bf16_axpy(a, x, y, out):
    """out = a * x + y in bfloat16 (cuda.bf16's fused multiply-add)."""
    i = cuda.grid(1)
    if i < out.size:
        r = cuda.bf16.hfma(
            cuda.bf16.float32_to_bfloat16(a), cuda.bf16.float32_to_bfloat16(x[i]), cuda.bf16.float32_to_bfloat16(y[i])
        )
        out[i] = cuda.bf16.bfloat16_to_float32(r)


GENERATED = """
def scale_{k}(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * {k}
"""


def main():
    rng = np.random.default_rng(2026)
    failures = 0

    def check(good, what):
        nonlocal failures
        failures += not good
        print(f"{'ok' if good else 'MISMATCH'}: {what}")

    x = rng.random(50_000) + 0.5
    want = x / x.sum()
    d = cuda.to_device(x)
    total = cuda.to_device(np.zeros(1))
    blocks = 8
    normalize[blocks, TPB](d, total)
    got = d.copy_to_host()
    check(
        np.allclose(got, want, rtol=1e-12),
        f"normalized {x.size} values in one launch across a grid barrier ({blocks} blocks)",
    )

    a = rng.standard_normal((300, 17))
    out = np.full((300, 2), np.nan)
    row_stats[(300 + 63) // 64, 64](a, out)
    check(
        np.allclose(out[:, 0], a.max(axis=1)) and np.allclose(out[:, 1], a.mean(axis=1)),
        "np.max / np.mean of rows in device code",
    )

    xs, ys = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    res = np.full(1000, np.nan, np.float32)
    bf16_axpy[(1000 + 127) // 128, 128](np.float32(2.0), xs, ys, res)
    # bfloat16 keeps 8 bits of mantissa: within 2**-7 relative of float32's result
    check(np.allclose(res, 2 * xs + ys, rtol=2**-7), "bfloat16 fma through cuda.bf16")

    ns = {"cuda": cuda}
    exec(GENERATED.format(k=3), ns)  # a kernel with no file: its text is found by its code object
    scale = cuda.jit(ns["scale_3"])
    v = rng.random(100)
    w = v.copy()
    scale[1, 128](w)
    check(np.allclose(w, 3 * v), "a kernel defined by exec() of a string")
    return failures


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
