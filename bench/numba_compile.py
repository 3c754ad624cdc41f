"""Warm compile time to PTX (sm_90) per typical kernel: pydev.numba against
`@device.kernel` of the same kernel, disk cache off.

    PYDEV_CACHE=0 python3 bench/numba_compile.py [repeats]

Each measurement compiles a fresh function object (no in-memory cache
hit): pydev.numba is source -> pydev IR (Python) + Program (parse, verify)
+ the pipeline to PTX; cuda.device is pydev.compile(fn, sig, stage="ptx").
Times are process CPU time, the minimum over the repeats: on a shared
machine the wall-clock median measures the neighbours as much as pydev."""

import os
import sys
import tempfile
import textwrap
import time
import importlib.util

os.environ.setdefault("PYDEV_CACHE", "0")

import pydev  # noqa: E402
from pydev.numba import types as T  # noqa: E402

NUMBA = """
import math
from pydev.numba import cuda, float32
@cuda.jit
def vec_add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]
@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]
@cuda.jit
def block_sum(x, out):
    s = cuda.shared.array(128, dtype=float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    step = 64
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]
@cuda.jit
def stencil(a, out):
    i, j = cuda.grid(2)
    n, m = a.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        out[i, j] = float32(0.2) * (a[i, j] + a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
"""

DEVICE = """
import cuda.device as device
@device.kernel
def vec_add(a, b, out):
    i = device.tid(1)
    if i < out.size:
        out[i] = a[i] + b[i]
@device.kernel
def saxpy(a, x, y, out):
    i = device.tid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]
@device.kernel
def block_sum(x, out):
    s = device.shared_array(128, device.float32)
    t = device.thread_idx.x
    i = device.tid(1)
    s[t] = x[i] if i < x.size else device.float32(0)
    device.syncthreads()
    step = 64
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        device.syncthreads()
        step //= 2
    if t == 0:
        out[device.block_idx.x] = s[0]
@device.kernel
def stencil(a, out):
    i, j = device.tid(2)
    n, m = a.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        out[i, j] = 0.2 * (a[i, j] + a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
"""

F1 = T.float32[::1]
F2 = T.float32[:, ::1]
SIGS = {
    "vec_add": ((F1, F1, F1), "float32[::1], float32[::1], float32[::1]"),
    "saxpy": ((T.float32, F1, F1, F1), "float32, float32[::1], float32[::1], float32[::1]"),
    "block_sum": ((F1, F1), "float32[::1], float32[::1]"),
    "stencil": ((F2, F2), "float32[:, ::1], float32[:, ::1]"),
}


def load(src, tag, k):
    d = tempfile.mkdtemp()
    path = os.path.join(d, f"{tag}_{k}.py")
    with open(path, "w") as f:
        f.write(textwrap.dedent(src))
    spec = importlib.util.spec_from_file_location(f"{tag}_{k}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    # warm up both pipelines once
    m = load(NUMBA, "nb", "warm")
    m.vec_add.compile(SIGS["vec_add"][0]).compile("sm_90", "ptx")
    d = load(DEVICE, "dv", "warm")
    pydev.compile(d.vec_add, SIGS["vec_add"][1], target="sm_90", stage="ptx")
    print(f"warm compile to PTX sm_90, PYDEV_CACHE={os.environ.get('PYDEV_CACHE')}, CPU time, min of {reps} (ms)")
    print(f"{'kernel':<10} {'pydev.numba':>12} {'(frontend)':>11} {'cuda.device':>12} {'ratio':>6}")
    for name, (ntypes, dsig) in SIGS.items():
        tn, tf, td = [], [], []
        for r in range(reps):
            m = load(NUMBA, "nb", f"{name}{r}")
            d = load(DEVICE, "dv", f"{name}{r}")
            t0 = time.process_time()
            prog = getattr(m, name).compile(ntypes)
            t1 = time.process_time()
            prog.compile("sm_90", "ptx")
            t2 = time.process_time()
            pydev.compile(getattr(d, name), dsig, target="sm_90", stage="ptx")
            t3 = time.process_time()
            tn.append((t2 - t0) * 1e3)
            tf.append((t1 - t0) * 1e3)
            td.append((t3 - t2) * 1e3)
        print(f"{name:<10} {min(tn):>12.2f} {min(tf):>11.2f} {min(td):>12.2f} {min(tn) / min(td):>6.2f}")


if __name__ == "__main__":
    main()
