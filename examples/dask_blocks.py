"""Kernels on a Dask cluster: a LocalCluster of two worker processes maps a
2-D kernel over the blocks of dask arrays (`map_blocks`) and runs a task
that launches a kernel made by a factory (`client.submit`). The kernels are
defined here, in __main__, so cloudpickle carries them to the workers by
value (their source and the values they capture); each worker compiles
them once. With dask-cuda's LocalCUDACluster the same code puts one worker
on each GPU (docs/distributed.md).

Run: python3 examples/dask_blocks.py   (needs dask.distributed: scripts/setup.sh)
"""

import logging
import os
import sys

import numpy as np

import cuda.device as device
import pydev


@device.func
def lerp(a, b, t):
    return a + t * (b - a)


@device.kernel
def blend(out, a, b, t):
    i, j = device.tid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = lerp(a[i, j], b[i, j], t)


def make_threshold(cut):
    """A kernel made by a factory: `cut` is compiled into it."""

    @device.kernel
    def threshold(out, x):
        i = device.tid(1)
        if i < out.size:
            out[i] = 1.0 if x[i] > cut else 0.0

    return threshold


def blend_block(a, b, t):
    """Runs in a worker on one block of each array."""
    a, b = pydev.to_device(np.ascontiguousarray(a)), pydev.to_device(np.ascontiguousarray(b))
    out = pydev.to_device(np.full(a.shape, np.nan, np.float32))  # NaN: unwritten shows
    stream = pydev.default_stream()
    grid = ((a.shape[0] + 15) // 16, (a.shape[1] + 15) // 16)
    device.launch(blend, out, a, b, np.float32(t), grid=grid, block=(16, 16), stream=stream)
    return pydev.to_host(out)


def launch_in_worker(kernel, x):
    x = pydev.to_device(x)
    out = pydev.to_device(np.full(x.shape, np.nan, np.float32))
    device.launch(kernel, out, x, grid=(x.shape[0] + 127) // 128, block=128, stream=pydev.default_stream())
    return os.getpid(), pydev.to_host(out)


def worker_launches():
    return os.getpid(), pydev.stats()["launches"]


def main():
    try:
        import dask.array as da
        from distributed import Client, LocalCluster
    except ImportError as e:
        print(f"skipped: dask.distributed is not installed ({e}); scripts/setup.sh installs it")
        return 0
    rng = np.random.default_rng(32)
    a = rng.standard_normal((600, 300)).astype(np.float32)
    b = rng.standard_normal((600, 300)).astype(np.float32)
    x = rng.uniform(-1.0, 1.0, 10_000).astype(np.float32)
    ok = True

    def check(good, what):
        nonlocal ok
        print(f"{'ok' if good else 'MISMATCH'}: {what}")
        ok &= bool(good)

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
        ) as cluster,
        Client(cluster, timeout=60) as client,
    ):
        da_a, da_b = da.from_array(a, chunks=(150, 300)), da.from_array(b, chunks=(150, 300))
        # meta: the kind of block it returns, so Dask does not call it on empty blocks to find out
        mixed = da.map_blocks(blend_block, da_a, da_b, 0.25, meta=np.empty((0, 0), np.float32))
        got = client.compute(mixed).result(timeout=120)
        want = a + np.float32(0.25) * (b - a)
        check(
            not np.isnan(got).any() and np.allclose(got, want, rtol=1e-5, atol=1e-6),
            f"map_blocks: blend over {mixed.numblocks[0]} blocks of {a.shape} arrays",
        )
        pid, flags = client.submit(launch_in_worker, make_threshold(0.5), x).result(timeout=120)
        check(
            pid != os.getpid() and np.array_equal(flags, (x > 0.5).astype(np.float32)),
            f"client.submit: a factory-made kernel (cut 0.5) in worker {pid}",
        )
        launches = client.run(worker_launches)
        pids = sorted(p for p, _ in launches.values())
        check(
            sum(n for _, n in launches.values()) == mixed.npartitions + 1 and os.getpid() not in pids,
            f"launches in the workers {pids}: {dict(launches.values())}",
        )
    print("dask_blocks", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
