"""Grid barriers (`cuda.cg.this_grid().sync()`) on the active target:
numba-cuda's `sequential_rows`, one grid barrier per row, best of 3.

    PYDEV_TARGET=host python3 bench/numba_grid_sync.py

Reports figures; asserts nothing about speed (docs/performance.md)."""

import time

import numpy as np

from pydev.numba import cuda


@cuda.jit
def rows(m):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, m.shape[0]):
        m[row, col] = m[row - 1, m.shape[1] - col - 1] + 1
        g.sync()


def main():
    for blocks, threads, nrows in ((32, 32, 1024), (64, 32, 1024), (8, 256, 1024)):
        a = cuda.to_device(np.zeros((nrows, blocks * threads), np.int32))
        rows[blocks, threads](a)
        cuda.synchronize()
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            rows[blocks, threads](a)
            cuda.synchronize()
            best = min(best, time.perf_counter() - t)
        per = best / (nrows - 1) * 1e6
        print(
            f"{blocks} blocks x {threads} threads, {nrows - 1} grid barriers: {best * 1e3:.1f} ms ({per:.1f} us each)"
        )


if __name__ == "__main__":
    main()
