"""Atomics with memory orders and scopes:

- a histogram: per-block bins in shared memory updated with scope="block",
  merged into global bins with relaxed device-scope adds;
- stream compaction: a device-scope counter hands each kept element a slot;
- "the last block finishes": every block publishes a partial result and
  takes a ticket with acq_rel order; the block that draws the last ticket
  sees every other block's partial and writes the total;
- atomic max and compare-and-swap.

Run: python3 examples/atomics.py
"""

import sys

import numpy as np

import cuda.device as device
import pydev

BINS = 64
THREADS = 128


@device.kernel
def histogram(bins, data):
    local = device.shared_array(BINS, device.int32)
    t = device.thread_idx.x
    for b in range(t, BINS, THREADS):
        local[b] = 0
    device.syncthreads()
    for i in range(device.tid(1), data.size, device.grid_size(1)):
        device.atomic_ref(local, data[i] % BINS).add(1, memory="relaxed", scope="block")
    device.syncthreads()
    for b in range(t, BINS, THREADS):
        device.atomic_ref(bins, b).add(local[b], memory="relaxed", scope="device")


@device.kernel
def compact(out, count, x, threshold):
    """Copy the elements above threshold to out[0:count], in any order."""
    i = device.tid(1)
    if i < x.size and x[i] > threshold:
        slot = device.atomic_ref(count, 0).add(1, memory="relaxed", scope="device")
        out[slot] = x[i]


@device.kernel
def sum_last_block(total, partials, tickets, x):
    buf = device.shared_array(THREADS, device.float32)
    is_last = device.shared_array(1, device.int32)
    t = device.thread_idx.x
    i = device.tid(1)
    buf[t] = x[i] if i < x.size else 0.0
    device.syncthreads()
    if t == 0:
        s = device.float32(0.0)
        for j in range(THREADS):
            s += buf[j]
        partials[device.block_idx.x] = s
        # release: our partial is visible before the ticket; acquire: we see
        # the partials of the blocks that took earlier tickets.
        ticket = device.atomic_ref(tickets, 0).add(1, memory="acq_rel", scope="device")
        is_last[0] = 1 if ticket == device.grid_dim.x - 1 else 0
    device.syncthreads()
    if is_last[0] == 1 and t == 0:
        s = device.float32(0.0)
        for b in range(partials.size):
            s += device.atomic_ref(partials, b).load(memory="relaxed", scope="device")
        total[0] = s


@device.kernel
def max_and_first(result, x):
    """result[0] = max(x) (atomic max); result[1] = a CAS-claimed index whose x is the max."""
    i = device.tid(1)
    if i < x.size:
        device.atomic_ref(result, 0).max(x[i])
    device.syncthreads()  # one block: every max is in before anyone reads it
    if i < x.size and x[i] == device.atomic_ref(result, 0).load(memory="acquire", scope="block"):
        device.atomic_ref(result, 1).cas(-1, i, memory="seq_cst", scope="block")


def report(name, good):
    print(f"{'ok' if good else 'MISMATCH'}: {name}")
    return good


def main():
    rng = np.random.default_rng(99)
    stream = pydev.default_stream()
    ok = True

    data = rng.integers(0, 1 << 20, 50_000).astype(np.int32)
    bins = pydev.zeros(BINS, np.int32)  # a histogram starts at zero by definition
    device.launch(histogram, bins, pydev.to_device(data), grid=16, block=THREADS, stream=stream)
    stream.synchronize()
    ok &= report(
        "histogram of 50000 values in 64 bins",
        np.array_equal(bins.copy_to_host(), np.bincount(data % BINS, minlength=BINS)),
    )

    x = rng.standard_normal(10_000).astype(np.float32)
    out = pydev.to_device(np.full_like(x, np.nan))  # NaN: only count slots are written
    count = pydev.zeros(1, np.int32)
    device.launch(
        compact,
        out,
        count,
        pydev.to_device(x),
        0.5,
        grid=(x.size + THREADS - 1) // THREADS,
        block=THREADS,
        stream=stream,
    )
    stream.synchronize()
    k = int(count.copy_to_host()[0])
    got = out.copy_to_host()
    good = (
        k == int((x > 0.5).sum()) and np.array_equal(np.sort(got[:k]), np.sort(x[x > 0.5])) and np.isnan(got[k:]).all()
    )
    ok &= report(f"compaction kept {k} of {x.size}, each once", good)

    n = 100 * THREADS - 17
    y = rng.random(n, dtype=np.float32)
    blocks = (n + THREADS - 1) // THREADS
    total = pydev.to_device(np.full(1, np.nan, np.float32))
    partials = pydev.to_device(np.full(blocks, np.nan, np.float32))
    tickets = pydev.zeros(1, np.int32)
    device.launch(
        sum_last_block, total, partials, tickets, pydev.to_device(y), grid=blocks, block=THREADS, stream=stream
    )
    stream.synchronize()
    got_total = float(total.copy_to_host()[0])
    good = int(tickets.copy_to_host()[0]) == blocks and abs(got_total - float(y.sum(dtype=np.float64))) < 1e-3 * n
    ok &= report(
        f"last of {blocks} blocks summed the partials: {got_total:.3f} (NumPy {y.sum(dtype=np.float64):.3f})", good
    )

    z = rng.integers(-1000, 1000, 200).astype(np.int32)
    result = pydev.to_device(np.array([np.iinfo(np.int32).min, -1], np.int32))
    device.launch(max_and_first, result, pydev.to_device(z), grid=1, block=256, stream=stream)
    stream.synchronize()
    m, idx = result.copy_to_host()
    ok &= report(f"atomic max {m} (NumPy {z.max()}), CAS claimed index {idx}", m == z.max() and z[idx] == z.max())

    print("atomics", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
