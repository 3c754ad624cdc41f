"""Kernels on the engines people distribute work with (docs/distributed.md),
started inside the tests on the host target, bounded in time and torn down:
a Dask distributed LocalCluster of processes (map_blocks over a dask array,
client.submit), mpi4py under mpiexec -n 2 (ranks exchange arrays that
kernels produced, by the buffer protocol and by DLPack), and Ray
(`make test-distributed` only: its install is heavy). Also a disk cache
prepared by one process tree and used, unchanged, by another that has the
program elsewhere: nothing is compiled. Each test skips, saying why, where
its engine is not installed. Fixed seeds; outputs poisoned with NaN."""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import pydev

import pickle_kernels as pk

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261128

pytestmark = pytest.mark.usefixtures("native", "host_target")


@pytest.fixture
def x():
    x = np.random.default_rng(SEED).uniform(-4.0, 4.0, 1000).astype(np.float32)
    assert np.all(x != 0)
    return x


@pytest.fixture
def workers_import_the_tests(monkeypatch):
    """Worker processes an engine starts find pickle_kernels (by reference)
    and the pydev under test: the tests' directory on their PYTHONPATH."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]))


# --- a disk cache prepared in one place, used in another ------------------------------------

KERNELS = """
import cuda.device as device


@device.kernel
def axpb(out, x, a, b):
    i = device.tid(1)
    if i < out.size:
        out[i] = a * x[i] + b


@device.kernel
def square_minus(out, x):
    i = device.tid(1)
    if i < out.size:
        out[i] = x[i] * x[i] - 1
"""

RUN = """
import json
import numpy as np
import cuda.device as device
import pydev
import app_kernels as ak

x = np.random.default_rng(7).uniform(-2.0, 2.0, 500).astype(np.float32)
s = pydev.default_stream()
out = np.full_like(x, np.nan)
device.launch(ak.axpb, out, x, np.float32(3.0), np.float32(0.5), grid=8, block=64, stream=s)
assert np.allclose(out, 3 * x + 0.5, rtol=1e-6, atol=1e-6), out
out = np.full_like(x, np.nan)
device.launch(ak.square_minus, out, x, grid=8, block=64, stream=s)
assert np.allclose(out, x * x - 1, rtol=1e-6, atol=1e-6), out
print(json.dumps(pydev.stats()))
"""


def run_app(where, cache):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYDEV_CACHE")}
    env["PYTHONPATH"] = os.pathsep.join([str(where)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.update(PYDEV_TARGET="host", PYDEV_CACHE_DIR=str(cache))
    r = subprocess.run([sys.executable, "-c", RUN], cwd=where, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"the run failed:\n{r.stdout}\n{r.stderr}"
    return json.loads(r.stdout.strip().splitlines()[-1])


def snapshot(cache):
    out = {}
    for root, _, names in os.walk(cache):
        for n in names:
            path = os.path.join(root, n)
            out[os.path.relpath(path, cache)] = (os.stat(path).st_mtime_ns, open(path, "rb").read())
    return out


def test_a_cache_prepared_elsewhere_is_used_unchanged_without_compiling(tmp_path):
    """A cluster's cache filled by running the program once (on one
    machine, in one process tree), then copied as rsync would copy it to
    the others: a process with the program at another path and that copy
    as its PYDEV_CACHE_DIR compiles nothing and writes nothing."""
    first, second = tmp_path / "build" / "app", tmp_path / "node2" / "checkout"
    for d in (first, second):
        d.mkdir(parents=True)
        (d / "app_kernels.py").write_text(KERNELS)
    prepared = tmp_path / "prepared"
    made = run_app(first, prepared)
    assert made["compiles"] == 2 and made["disk_hits"] == 0, made
    copied = tmp_path / "node2" / "pydev-cache"
    shutil.copytree(prepared, copied)
    before = snapshot(copied)
    assert len(before) == 4, sorted(before)  # each kernel's compiled text and host object code
    used = run_app(second, copied)
    assert used["disk_hits"] == 2, used
    assert used["compiles"] == used["native_compiles"] == used["jit_compiles"] == 0, used
    assert snapshot(copied) == before


# --- Dask -------------------------------------------------------------------------------------


def test_a_dask_cluster_maps_a_kernel_over_blocks_and_submits_one(x, workers_import_the_tests):
    """LocalCluster(processes=True): two worker processes receive a
    closure-made kernel (by value, through cloudpickle) in the graph of
    `map_blocks` and in `client.submit`."""
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed (scripts/setup.sh)")
    da = pytest.importorskip("dask.array", reason="dask.array is not installed (scripts/setup.sh)")
    kernel = pk.make_scaled(1.5)
    expect = (x + 2) * np.float32(1.5)
    here = pydev.stats()["launches"]
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster, timeout=60) as client,
    ):
        blocks = da.from_array(x, chunks=250).map_blocks(pk.launch_on_block, kernel, meta=np.empty((0,), np.float32))
        mapped = client.compute(blocks).result(timeout=120)
        (submitted, target) = client.submit(pk.launch_in_worker, pk.make_scaled(-0.5), x).result(timeout=120)
        workers = client.run(lambda: (os.getpid(), __import__("pydev").stats()["launches"]))
    np.testing.assert_allclose(mapped, expect, rtol=1e-6)
    assert target == "host"
    np.testing.assert_allclose(submitted, (x + 2) * np.float32(-0.5), rtol=1e-6)
    pids = [pid for pid, _ in workers.values()]
    assert len(set(pids)) == 2 and os.getpid() not in pids
    assert sum(n for _, n in workers.values()) == 4 + 1  # four blocks and one submitted task, in the workers
    assert pydev.stats()["launches"] == here  # none here (map_blocks was given its meta)


# --- MPI --------------------------------------------------------------------------------------

RANK = """
import json, sys
import numpy as np
from mpi4py import MPI
import cuda.device as device
import pydev
import pickle_kernels as pk

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
peer = (rank + 1) % size
seed = int(sys.argv[1])


def data(r):
    return np.random.default_rng(seed + r).uniform(-4.0, 4.0, 4096).astype(np.float32)


# Rank 0 makes the kernel; mpi4py pickles it to the others (by value: a closure).
kernel = comm.bcast(pk.make_scaled(1.5) if rank == 0 else None, root=0)
x = data(rank)
out = np.full_like(x, np.nan)
device.launch(kernel, out, x, grid=64, block=64, stream=pydev.default_stream())
got = np.full_like(x, np.nan)
comm.Sendrecv(out, dest=peer, recvbuf=got, source=peer)  # NumPy: the buffer protocol
# A pydev.DeviceArray: DLPack (host memory here; device memory with a CUDA-aware MPI).
d = pydev.to_device(out)
got_d = pydev.to_device(np.full_like(x, np.nan))
comm.Sendrecv(d, dest=peer, recvbuf=got_d, source=peer)
want = (data(peer) + 2) * np.float32(1.5)
result = {
    "rank": rank, "size": size, "target": pydev.active_target(),
    "buffer": bool(np.allclose(got, want, rtol=1e-6)),
    "dlpack": bool(np.allclose(pydev.to_host(got_d), want, rtol=1e-6)),
}
# A file per rank: mpiexec may interleave the ranks' standard output mid-line.
with open(f"{sys.argv[2]}/rank{rank}.json", "w") as f:
    json.dump(result, f)
"""


def test_mpi_ranks_exchange_arrays_that_kernels_produced(tmp_path, workers_import_the_tests):
    """mpiexec -n 2: rank 0 broadcasts a kernel (pickled by mpi4py), each
    rank launches it on its own data, and the ranks swap the results as
    NumPy arrays (buffer protocol) and as pydev.DeviceArrays (DLPack)."""
    pytest.importorskip("mpi4py", reason="mpi4py is not installed (scripts/setup.sh)")
    mpiexec = shutil.which("mpiexec")
    if mpiexec is None:
        pytest.skip("mpiexec is not installed (Debian's openmpi-bin, scripts/setup.sh)")
    script = tmp_path / "rank.py"
    script.write_text(RANK)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    # One machine, no network: shared memory between the ranks.
    env.update(OMPI_MCA_btl="self,vader", OMPI_MCA_btl_vader_single_copy_mechanism="none")
    cmd = [mpiexec, "-n", "2", "--oversubscribe", "-x", "PYTHONPATH", "-x", "PYDEV_TARGET", "-x", "PYDEV_CACHE_DIR"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    r = subprocess.run(
        cmd + [sys.executable, str(script), str(SEED), str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, f"{r.stdout}\n{r.stderr}"
    ranks = [json.loads((tmp_path / f"rank{n}.json").read_text()) for n in range(2)]
    assert ranks == [{"rank": n, "size": 2, "target": "host", "buffer": True, "dlpack": True} for n in range(2)]


# --- Ray (make test-distributed) --------------------------------------------------------------


@pytest.mark.skipif(
    os.environ.get("PYDEV_TEST_RAY") != "1",
    reason="Ray runs in `make test-distributed` (PYDEV_TEST_RAY=1): its install is too heavy for make test",
)
def test_ray_tasks_launch_kernels(x, workers_import_the_tests):
    """ray.init(num_cpus=2): remote tasks receive kernels (one by reference,
    two made by a factory, by value) and launch them in Ray's workers."""
    ray = pytest.importorskip("ray", reason="ray is not installed (scripts/setup.sh --distributed)")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(pk.launch_in_worker)
        jobs = [
            (pk.pair_sum, x + (x + 2)),  # the kernel's order of additions
            (pk.make_scaled(0.5), (x + 2) * np.float32(0.5)),
            (pk.make_scaled(3.0), (x + 2) * np.float32(3.0)),
        ]
        got = ray.get([task.remote(k, x) for k, _ in jobs], timeout=120)
    finally:
        ray.shutdown()
    for (out, target), (_, want) in zip(got, jobs):
        assert target == "host"
        np.testing.assert_allclose(out, want, rtol=1e-6)
