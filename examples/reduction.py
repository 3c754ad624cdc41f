"""A sum reduction: each block reduces its slice in shared memory, then a
second launch of the same kernel reduces the blocks' partial sums.

Run: python3 examples/reduction.py   (PYDEV_TARGET=host|cuda picks the target)
"""

import sys

import numpy as np

import cuda.device as device
import pydev

THREADS = 256  # threads per block; a compile-time constant of the kernel


@device.kernel
def block_sum(partials, x):
    """partials[b] = the sum of the elements that block b's threads visit."""
    buf = device.shared_array(THREADS, device.float32)
    t = device.thread_idx.x
    # Grid-stride loop: any number of blocks covers any length of x.
    acc = device.float32(0.0)
    for i in range(device.tid(1), x.size, device.grid_size(1)):
        acc += x[i]
    buf[t] = acc
    device.syncthreads()
    # Tree reduction in shared memory: 128, 64, ..., 1.
    step = THREADS // 2
    while step > 0:
        if t < step:
            buf[t] += buf[t + step]
        device.syncthreads()
        step //= 2
    if t == 0:
        partials[device.block_idx.x] = buf[0]


def device_sum(x, blocks, stream):
    """Two launches: `blocks` partial sums, then one block sums those."""
    partials = pydev.to_device(np.full(blocks, np.nan, np.float32))  # NaN: unwritten shows
    total = pydev.to_device(np.full(1, np.nan, np.float32))
    device.launch(block_sum, partials, x, grid=blocks, block=THREADS, stream=stream)
    device.launch(block_sum, total, partials, grid=1, block=THREADS, stream=stream)
    return partials, total


def main():
    rng = np.random.default_rng(36)
    stream = pydev.default_stream()
    ok = True
    for n, blocks in ((100_003, 32), (1 << 16, 8), (1000, 1)):
        host = rng.standard_normal(n).astype(np.float32)
        partials, total = device_sum(pydev.to_device(host), blocks, stream)
        stream.synchronize()
        got_partials = partials.copy_to_host()
        got = float(total.copy_to_host()[0])
        want = float(host.astype(np.float64).sum())
        # Each partial is the sum of a fixed, known set of elements.
        idx = np.arange(n) % (blocks * THREADS) // THREADS
        want_partials = np.bincount(idx, weights=host.astype(np.float64), minlength=blocks)
        good = (
            not np.isnan(got_partials).any()
            and np.allclose(got_partials, want_partials, rtol=1e-4, atol=1e-3)
            and abs(got - want) <= 1e-4 * np.abs(host).sum()
        )
        print(f"{'ok' if good else 'MISMATCH'}: sum of {n} float32 in {blocks} blocks = {got:.4f} (NumPy {want:.4f})")
        ok &= good
    print("reduction", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
