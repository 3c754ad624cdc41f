#!/usr/bin/env python3
"""The first launch of a fresh process from the disk cache (issue 18 item 4):
`import pydev, cuda.device` and a module with a kernel, then one launch of
the cached kernel, timed inside fresh processes after NumPy is imported and
the arrays are made (the program's own work). The first run fills the
cache; the others are timed. Several installed packages (PYTHONPATH
folders, e.g. release wheels of two commits installed with `pip install
--target`) run alternately, each with its own cache:

    python3 bench/first_launch.py [--runs 12] [--target host] [PKG_DIR ...]

Prints the minimum and median of the import, the launch and their sum, in ms.

On `--target cuda` the process makes its CUDA context (the driver's
primary context, through ctypes) before the clock starts, as a program
whose framework already uses the GPU has one; the launch column then holds
the two arrays' copies to the device, the launch and the copy back.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

KERNEL = textwrap.dedent("""
    import cuda.device as device

    @device.kernel
    def vector_add(out, a, b):
        i = device.tid(1)
        if i < out.size:
            out[i] = a[i] + b[i]
""")

RUN = textwrap.dedent("""
    import ctypes, os, sys, time
    import numpy as np
    x = np.random.default_rng(5).random(64, dtype=np.float32)
    out = np.full(64, np.nan, np.float32)
    on_gpu = os.environ["PYDEV_TARGET"] == "cuda"
    if on_gpu:
        cu = ctypes.CDLL("libcuda.so.1")
        dev, ctx = ctypes.c_int(), ctypes.c_void_p()
        assert cu.cuInit(0) == 0 and cu.cuDeviceGet(ctypes.byref(dev), 0) == 0
        assert cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) == 0 and cu.cuCtxSetCurrent(ctx) == 0
    sys.path.insert(0, {here!r})
    t0 = time.perf_counter()
    import pydev, cuda.device as device
    import first_launch_kernel as k
    t1 = time.perf_counter()
    if on_gpu:
        dx, dout = pydev.to_device(x), pydev.to_device(out)
        device.launch(k.vector_add, dout, dx, dx, grid=1, block=64, stream=pydev.default_stream())
        pydev.default_stream().synchronize()
        out = pydev.to_host(dout)
    else:
        device.launch(k.vector_add, out, x, x, grid=1, block=64, stream=pydev.default_stream())
    t2 = time.perf_counter()
    assert np.array_equal(out, 2 * x), out
    print((t1 - t0) * 1e3, (t2 - t1) * 1e3)
""")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=12)
    p.add_argument("--target", default="host", choices=["host", "cuda"])
    p.add_argument("packages", nargs="*", help="PYTHONPATH folders to compare (default: the installed pydev)")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="pydev-first-launch-")
    with open(os.path.join(work, "first_launch_kernel.py"), "w") as f:
        f.write(KERNEL)
    script = os.path.join(work, "run.py")
    with open(script, "w") as f:
        f.write(RUN.format(here=work))
    packages = args.packages or [""]
    times = {pkg: [] for pkg in packages}
    for i in range(args.runs + 1):
        for n, pkg in enumerate(packages):
            env = dict(
                os.environ,
                PYDEV_TARGET=args.target,
                PYDEV_CACHE_DIR=os.path.join(work, f"cache{n}"),
                OPENBLAS_NUM_THREADS="1",
            )
            env.pop("PYDEV_CACHE", None)
            if pkg:
                env["PYTHONPATH"] = pkg
            r = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True, timeout=600)
            if r.returncode != 0:
                sys.exit(f"the run failed ({pkg or 'installed pydev'}):\n{r.stderr}")
            if i:  # the first run fills the cache
                imp, launch = map(float, r.stdout.split())
                times[pkg].append((imp, launch, imp + launch))
    print("| package | import (min / median) | first launch | total |")
    print("|---|---|---|---|")
    for pkg, rows in times.items():
        cols = list(zip(*rows))
        cells = [f"{min(c):.1f} / {statistics.median(c):.1f} ms" for c in cols]
        print(f"| {pkg or 'installed'} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
