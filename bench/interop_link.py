"""What linking adds to a first compile (docs/performance.md, "Linking").

    python3 bench/interop_link.py host    # a kernel calling a one-function .c, first launch
    python3 bench/interop_link.py cuda    # a Python interop function linked with a one-function .cu
    python3 bench/interop_link.py cuda-launch [--fake]   # first launch on cuda of a kernel calling a one-function .cu
                                                         # (--fake: test/fakecuda's driver, no GPU: compile, link, load)
    ... [--ptx-kernel]   # the kernel linked as PTX (PYDEV_KERNEL_LTOIR=0), not as LTO-IR from libNVVM

Each run uses a fresh $PYDEV_CACHE_DIR (cold) and then the same one again in
a new process (from the disk cache); medians of --repeat runs."""

import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import os, sys, time
import numpy as np
import cuda.device as device
import pydev

src, mode = sys.argv[1], sys.argv[2]

@device.func(interop=True, link=[src])
def axpy1(a: device.float32, x: device.float32, y: device.float32) -> device.float32: ...

@device.kernel
def linked(out, xs):
    i = device.tid(1)
    if i < out.size:
        out[i] = axpy1(2.0, xs[i], 1.0)

@device.kernel
def plain(out, xs):
    i = device.tid(1)
    if i < out.size:
        out[i] = 2.0 * xs[i] + 1.0

@device.func(interop=True)
def scale2(x: device.float32) -> device.float32:
    return 2.0 * x

if mode in ("plain-cuda", "linked-cuda"):
    k = linked if mode == "linked-cuda" else plain
    h = np.arange(256, dtype=np.float32)
    xs, out = pydev.to_device(h), pydev.to_device(np.full_like(h, np.nan))
    s = pydev.default_stream()
    t = time.perf_counter()
    device.launch(k, out, xs, grid=1, block=256, stream=s)
    s.synchronize()
    dt = time.perf_counter() - t
    if not os.environ.get("PYDEV_BENCH_FAKE"):  # the fake driver runs no kernel
        assert np.allclose(out.copy_to_host(), 2 * h + 1)
elif mode in ("plain", "linked"):
    k = linked if mode == "linked" else plain
    xs = np.arange(256, dtype=np.float32); out = np.full_like(xs, np.nan)
    t = time.perf_counter()
    device.launch(k, out, xs, grid=1, block=256, stream=pydev.default_stream())
    dt = time.perf_counter() - t
    assert np.allclose(out, 2 * xs + 1)
else:
    pydev.compile(scale2, "float32", target="sm_90", stage="ptx")  # the compiler's context is warm
    f = device.func(interop=True, link=[src])(scale2.underlying)
    t = time.perf_counter()
    pydev.compile(f, "float32", target="sm_90", stage="ptx" if mode == "ptx" else "cubin")
    dt = time.perf_counter() - t
print(f"{dt * 1000:.1f}")
"""


def run(child, args, cache, extra=None):
    env = dict(
        os.environ, PYDEV_CACHE_DIR=cache, PYDEV_TARGET="cuda" if args[1].endswith("-cuda") else "host", **(extra or {})
    )
    r = subprocess.run([sys.executable, child, *args], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(r.stderr)
    return float(r.stdout.split()[-1])


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "host"
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 7
    with tempfile.TemporaryDirectory() as d:
        c = os.path.join(d, "one.c")
        with open(c, "w") as f:
            f.write("float axpy1(float a, float x, float y) { return a * x + y; }\n")
        cu = os.path.join(d, "one.cu")
        with open(cu, "w") as f:
            f.write(
                'extern "C" __device__ float scale2(float x);\n'
                'extern "C" __global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = scale2(x[i]); }\n'
            )
        child = os.path.join(d, "child.py")  # device code lives in a file
        with open(child, "w") as f:
            f.write(CHILD)
        dev_cu = os.path.join(d, "one_dev.cu")
        with open(dev_cu, "w") as f:
            f.write('extern "C" __device__ float axpy1(float a, float x, float y) { return a * x + y; }\n')
        extra = {}
        if "--fake" in sys.argv:  # test/fakecuda as libcuda.so: no GPU needed
            lib = os.path.join(d, "libcuda.so")
            subprocess.run(
                [
                    "cc",
                    "-shared",
                    "-fPIC",
                    "-O1",
                    "-o",
                    lib,
                    os.path.join(HERE, "..", "test", "fakecuda", "fakecuda.c"),
                ],
                check=True,
            )
            extra = {"LD_LIBRARY_PATH": d + os.pathsep + os.environ.get("LD_LIBRARY_PATH", ""), "PYDEV_BENCH_FAKE": "1"}
        if "--ptx-kernel" in sys.argv:
            extra["PYDEV_KERNEL_LTOIR"] = "0"
        modes = {"host": ("plain", "linked"), "cuda": ("ptx", "cubin"), "cuda-launch": ("plain-cuda", "linked-cuda")}[
            what
        ]
        src = {"host": c, "cuda": cu, "cuda-launch": dev_cu}[what]
        results = {m: ([], []) for m in modes}
        for _ in range(repeat):
            for m in modes:
                cache = tempfile.mkdtemp(dir=d)
                results[m][0].append(run(child, [src, m], cache, extra))
                results[m][1].append(run(child, [src, m], cache, extra))
        for m in modes:
            cold, warm = results[m]
            print(
                f"{what} {m}: cold {statistics.median(cold):.0f} ms, from the disk cache {statistics.median(warm):.0f} ms (median of {repeat})"
            )


if __name__ == "__main__":
    main()
