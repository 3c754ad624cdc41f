#!/usr/bin/env python3
"""Where a cuda launch's time goes, on a GPU (issue 18, item 2): the same
empty kernel (bench/launch.py's `empty`: three arrays and a float) launched
by the driver from C (bench/launch_floor.c, the floor), by CuPy's RawKernel,
and by pydev with each argument kind and stream, each as wall time and as
the calling thread's CPU time per launch (a launch that waits on the GPU,
for a full queue or a synchronize, shows wall time above CPU time).

    python3 bench/launch_anatomy.py [--launches 20000]

A benchmark, not a test: it prints a table for docs/performance.md.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["PYDEV_TARGET"] = "cuda"
import cuda.device as device  # noqa: E402
import pydev  # noqa: E402
from launch import CDlpack, CoreStream, c_exchange_producer, empty  # noqa: E402


def per_launch(fn, launches, sync=None):
    """(wall µs, thread CPU µs) per launch: medians of 5 runs, each after a
    synchronize (`sync`) so that no run inherits another's queue."""
    for _ in range(200):
        fn()
    walls, cpus = [], []
    for _ in range(5):
        if sync:
            sync()
        w, c = time.perf_counter(), time.thread_time()
        for _ in range(launches):
            fn()
        walls.append((time.perf_counter() - w) / launches * 1e6)
        cpus.append((time.thread_time() - c) / launches * 1e6)
    return statistics.median(walls), statistics.median(cpus)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--launches", type=int, default=20000)
    n = p.parse_args().launches
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "launch_floor")
        subprocess.run(["gcc", "-O2", "-o", exe, os.path.join(HERE, "launch_floor.c"), "-ldl"], check=True)
        out = subprocess.run([exe, str(n)], check=True, capture_output=True, text=True).stdout
    floor = [line for line in out.splitlines() if line.startswith("|")]

    s = pydev.create_stream()
    legacy = CoreStream(0)
    arrays = [pydev.to_device(np.random.default_rng(k).random(1024, dtype=np.float32)) for k in range(3)]

    cases = []

    def run(name, fn, launches=n, sync=None):
        cases.append((name, fn, launches, sync))

    import cupy

    raw = cupy.RawKernel(r'extern "C" __global__ void empty(float* a, float* b, float* c, float s) {}', "empty")
    ca = [cupy.asarray(a) for a in arrays]
    f32 = np.float32(1.5)
    run(
        "CuPy RawKernel, CuPy arrays, legacy default stream",
        lambda: raw((1,), (1,), (ca[0], ca[1], ca[2], f32)),
        sync=cupy.cuda.Device().synchronize,
    )
    run(
        "pydev, DeviceArrays, a pydev.Stream",
        lambda: device.launch(empty, *arrays, 1.5, grid=1, block=1, stream=s),
        sync=s.synchronize,
    )
    run(
        "pydev, DeviceArrays, a pydev.Stream, 1000 launches a run (at most 4 fence generations)",
        lambda: device.launch(empty, *arrays, 1.5, grid=1, block=1, stream=s),
        1000,
        sync=s.synchronize,
    )
    s.synchronize()
    run(
        "pydev, DeviceArrays, legacy default stream (__cuda_stream__)",
        lambda: device.launch(empty, *arrays, 1.5, grid=1, block=1, stream=legacy),
        sync=cupy.cuda.Device().synchronize,
    )
    from pydev import _launch

    signature, packed, _ = _launch.pack_args(empty, (*arrays, 1.5), "cuda", 0)
    prog = empty.program(signature, "cuda", _launch.cuda_arch())
    run(
        "pydev, the program's launch with packed arguments, legacy default stream",
        lambda: prog.launch((1, 1, 1), (1, 1, 1), 0, 0, packed),
        sync=cupy.cuda.Device().synchronize,
    )
    run(
        "pydev, CuPy arrays, legacy default stream",
        lambda: device.launch(empty, *ca, 1.5, grid=1, block=1, stream=legacy),
        sync=cupy.cuda.Device().synchronize,
    )
    run("CuPy's 3 __dlpack__(stream=1) exports", lambda: [a.__dlpack__(stream=1) for a in ca], n // 10)
    run(
        "CuPy's 3 __dlpack__(stream=1, max_version=(1, 0)) exports (as pydev asks)",
        lambda: [a.__dlpack__(stream=1, max_version=(1, 0)) for a in ca],
        n // 10,
    )
    why = c_exchange_producer(0)
    if why:
        print("the C producer:", why)
    else:
        cd = [CDlpack(a) for a in arrays]
        run(
            "pydev, a C producer's __dlpack__ (bench/exchange_producer.c), legacy default stream",
            lambda: device.launch(empty, *cd, 1.5, grid=1, block=1, stream=legacy),
            sync=cupy.cuda.Device().synchronize,
        )
        run(
            "its 3 __dlpack__(stream=1, max_version=(1, 0)) exports",
            lambda: [a.__dlpack__(stream=1, max_version=(1, 0)) for a in cd],
            n // 10,
        )
    try:
        import torch

        ta = [torch.as_tensor(a, device="cuda") for a in ca]
        run(
            "pydev, PyTorch tensors, legacy default stream",
            lambda: device.launch(empty, *ta, 1.5, grid=1, block=1, stream=legacy),
            sync=torch.cuda.synchronize,
        )
    except ImportError:
        print("PyTorch is not installed")
    # The cases in turn, three times: a machine's drift lands on all alike.
    got = {name: [] for name, *_ in cases}
    for _ in range(3):
        for name, fn, launches, sync in cases:
            got[name].append(per_launch(fn, launches, sync))
    for name, *_ in cases:
        w, c = (statistics.median(v) for v in zip(*got[name]))
        rows.append(f"| {name} | {w:.2f} µs | {c:.2f} µs |")
    print("| launch (empty kernel, 3 arrays and a float) | wall per launch | thread CPU per launch |")
    print("|---|---|---|")
    for line in floor:
        print(line + " |")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
