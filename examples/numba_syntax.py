"""Numba-CUDA's kernel language on pydev: change `from numba import cuda` to
`from pydev.numba import cuda` and the kernels stay as they are.

A 1-D convolution with a shared-memory halo, a `register_jitable` helper, a
shared-memory block scan with cuda.atomic, and Numba's host API (streams,
to_device, device_array_like, copy_to_host into an array, events).

Run: python3 examples/numba_syntax.py
"""

import sys

import numpy as np

import pydev
from pydev.numba import cuda, float32
from pydev.numba.extending import register_jitable

RADIUS = 3
TPB = 128  # threads per block


@register_jitable
def clamp(x, lo, hi):
    """Plain Python on the host, a device function in kernels (a library's
    helper, as with numba.extending.register_jitable)."""
    return min(max(x, lo), hi)


@cuda.jit
def convolve(out, x, w):
    """out[i] = sum_k w[k] * x[i + k - RADIUS], x clamped at its ends."""
    tile = cuda.shared.array(TPB + 2 * RADIUS, float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    n = x.size
    base = cuda.blockIdx.x * cuda.blockDim.x - RADIUS
    # The block's elements plus RADIUS on each side (the halo).
    for j in range(t, TPB + 2 * RADIUS, TPB):
        tile[j] = x[clamp(base + j, 0, n - 1)]
    cuda.syncthreads()
    if i < n:
        acc = float32(0.0)
        for k in range(2 * RADIUS + 1):
            acc += w[k] * tile[t + k]
        out[i] = acc


@cuda.jit
def count_and_sum(stats, x, threshold):
    """stats[0] += count of x > threshold, stats[1] += their sum (atomics)."""
    i = cuda.grid(1)
    if i < x.size and x[i] > threshold:
        cuda.atomic.add(stats, 0, 1.0)
        cuda.atomic.add(stats, 1, x[i])


def main():
    rng = np.random.default_rng(1234)
    n = 20_000
    x = rng.standard_normal(n).astype(np.float32)
    w = rng.random(2 * RADIUS + 1).astype(np.float32)
    w /= w.sum()

    stream = cuda.stream()
    d_x = cuda.to_device(x, stream=stream)
    d_w = cuda.to_device(w, stream=stream)
    d_out = cuda.to_device(np.full_like(x, np.nan), stream=stream)  # NaN: unwritten shows
    start, stop = cuda.event(), cuda.event()
    start.record(stream)
    convolve[(n + TPB - 1) // TPB, TPB, stream](d_out, d_x, d_w)
    stop.record(stream)
    got = np.empty_like(x)
    d_out.copy_to_host(got, stream=stream)  # Numba's signature: copies into `got`
    stream.synchronize()

    padded = np.pad(x.astype(np.float64), RADIUS, mode="edge")
    want = np.convolve(padded, w[::-1].astype(np.float64), mode="valid")
    ok = True
    good = not np.isnan(got).any() and np.allclose(got, want, rtol=1e-5, atol=1e-5)
    print(f"{'ok' if good else 'MISMATCH'}: convolution of {n} samples with {w.size} taps")
    ok &= good
    print(f"   (took {cuda.event_elapsed_time(start, stop):.3f} ms between events)")

    stats = cuda.to_device(np.zeros(2, np.float32))
    count_and_sum.forall(n)(stats, d_x, np.float32(1.0))
    cuda.synchronize()
    c, s = stats.copy_to_host()
    sel = x[x > 1.0]
    good = int(c) == sel.size and np.isclose(s, sel.sum(dtype=np.float64), rtol=1e-4)
    print(
        f"{'ok' if good else 'MISMATCH'}: cuda.atomic.add counted {int(c)} values > 1 (NumPy {sel.size}), sum {s:.3f}"
    )
    ok &= good

    good = clamp(7, 0, 5) == 5  # register_jitable: the same function on the host
    print(f"{'ok' if good else 'MISMATCH'}: the register_jitable clamp runs on the host too")
    ok &= good
    print("signatures compiled for convolve:", len(convolve.overloads))
    print("numba_syntax", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
