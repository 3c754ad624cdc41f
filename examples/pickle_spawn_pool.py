"""Kernels in other processes: a multiprocessing pool with the "spawn"
start method (what Dask, Ray and CUDA programs use) runs kernels that the
parent pickles and sends to it (docs/distributed.md). Kernels, device
functions and structs of __main__ travel by value (their source and the
values they capture); a DeviceArray travels by value as its contents.

Run: python3 examples/pickle_spawn_pool.py
"""

import multiprocessing
import os
import pickle
import sys

import numpy as np

import cuda.device as device
import pydev


@device.struct
class Affine:
    scale: device.float32
    shift: device.float32


def make_clipper(lo, hi):
    """Kernels made by a factory: lo and hi are compile-time constants of each."""

    @device.func
    def clip(v):
        return min(max(v, lo), hi)

    @device.kernel
    def apply(out, x, f):
        i = device.tid(1)
        if i < out.size:
            out[i] = clip(f.scale * x[i] + f.shift)

    return apply


def run(kernel, x, f):
    """Runs in a worker: the kernel arrives pickled and compiles on first launch."""
    x = pydev.to_device(x)
    out = pydev.to_device(np.full(x.shape, np.nan, np.float32))  # NaN: unwritten shows
    stream = pydev.default_stream()
    device.launch(kernel, out, x, f, grid=(x.shape[0] + 127) // 128, block=128, stream=stream)
    stream.synchronize()
    return os.getpid(), out  # the DeviceArray goes back pickled by value


def main():
    rng = np.random.default_rng(8)
    chunks = np.array_split(rng.standard_normal(40_000).astype(np.float32), 4)
    kernels = [make_clipper(-1.0, 1.0), make_clipper(0.0, 0.5)]
    f = Affine(1.5, 0.25)
    blob = pickle.dumps(kernels[0])
    print(f"a kernel pickles to {len(blob)} bytes; a struct value to {len(pickle.dumps(f))}")
    jobs = [(kernels[j % 2], chunk, f) for j, chunk in enumerate(chunks)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.starmap(run, jobs)

    ok = True
    for j, ((pid, out), chunk) in enumerate(zip(results, chunks)):
        lo, hi = (-1.0, 1.0) if j % 2 == 0 else (0.0, 0.5)
        got = pydev.to_host(out)
        want = np.clip(np.float32(1.5) * chunk + np.float32(0.25), lo, hi)
        good = pid != os.getpid() and not np.isnan(got).any() and np.allclose(got, want, rtol=1e-6, atol=1e-6)
        print(f"{'ok' if good else 'MISMATCH'}: chunk {j} ({chunk.size} values, clip to [{lo}, {hi}]) in worker {pid}")
        ok &= good
    print("pickle_spawn_pool", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
