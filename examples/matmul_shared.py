"""Tiled matrix multiply: each block stages TILE x TILE tiles of A and B in
shared memory, so every element is read from global memory once per tile
instead of once per product term.

Run: python3 examples/matmul_shared.py
"""

import sys

import numpy as np

import cuda.device as device
import pydev

TILE = 16


@device.kernel
def matmul(c, a, b):
    """c = a @ b for float32 matrices of any shape (edges are padded with 0)."""
    sa = device.shared_array((TILE, TILE), device.float32)
    sb = device.shared_array((TILE, TILE), device.float32)
    tx = device.thread_idx.x
    ty = device.thread_idx.y
    row = device.block_idx.y * TILE + ty
    col = device.block_idx.x * TILE + tx
    n = a.shape[1]
    acc = device.float32(0.0)
    for t0 in range(0, n, TILE):
        # Stage one tile of each operand (zeros past the edges).
        k = t0 + tx
        sa[ty, tx] = a[row, k] if row < a.shape[0] and k < n else 0.0
        k = t0 + ty
        sb[ty, tx] = b[k, col] if k < n and col < b.shape[1] else 0.0
        device.syncthreads()
        for j in range(TILE):
            acc += sa[ty, j] * sb[j, tx]
        device.syncthreads()  # nobody overwrites a tile still being read
    if row < c.shape[0] and col < c.shape[1]:
        c[row, col] = acc


def multiply(a, b, stream):
    m, n = a.shape[0], b.shape[1]
    c = pydev.to_device(np.full((m, n), np.nan, np.float32))  # NaN: unwritten shows
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    device.launch(matmul, c, pydev.to_device(a), pydev.to_device(b), grid=grid, block=(TILE, TILE), stream=stream)
    return c


def main():
    rng = np.random.default_rng(2026)
    stream = pydev.default_stream()
    ok = True
    # Square, rectangular and ragged shapes (not multiples of TILE).
    for m, k, n in ((64, 64, 64), (70, 33, 45), (1, 100, 17)):
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        c = multiply(a, b, stream)
        stream.synchronize()
        got = c.copy_to_host()
        want = a.astype(np.float64) @ b.astype(np.float64)
        err = float(np.nanmax(np.abs(got - want))) if got.size else 0.0
        good = not np.isnan(got).any() and np.allclose(got, want, rtol=1e-4, atol=1e-4)
        print(f"{'ok' if good else 'MISMATCH'}: ({m}x{k}) @ ({k}x{n}), max abs error {err:.2e}")
        ok &= good
    print("matmul_shared", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
