"""Launch overhead of pydev.numba: `k[grid, block](args)` against a direct
`device.launch(program, args, ...)` of the same pydev.Program (the
kernel's compiled specialisation), per launch, warm, in microseconds.

    python3 bench/numba_launch.py            # the active target (PYDEV_TARGET=host for the host)
    python3 bench/numba_launch.py --fake     # the cuda target under test/fakecuda (FAKECUDA_DISCARD=1)

Kernels: an empty kernel with three device arrays (the issue's measure),
the same with NumPy arrays on the host target, and a kernel with two
arrays and two Python scalars (a float and an int; the direct launch gets
NumPy scalars of the parameters' dtypes). Each figure is the min and the
median over 15 alternating rounds of the mean of N launches, in the
process's CPU time (`time.process_time`: the machine is shared, and CPU
time leaves out the time spent waiting for a core); the last
column is the pydev.numba launch's overhead over the direct one, without
and with an explicit stream (`k[grid, block]` asks pydev for the default
stream on each launch, as Numba does)."""

import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _reexec_under_fake_driver():
    out = tempfile.mkdtemp(prefix="fakecuda-")
    subprocess.run(
        [
            "gcc",
            "-shared",
            "-fPIC",
            "-O1",
            "-o",
            os.path.join(out, "libcuda.so"),
            os.path.join(ROOT, "test", "fakecuda", "fakecuda.c"),
        ],
        check=True,
    )
    env = dict(
        os.environ,
        LD_LIBRARY_PATH=os.pathsep.join([out, os.environ.get("LD_LIBRARY_PATH", "")]),
        FAKECUDA_DISCARD="1",
        PYDEV_TARGET="cuda",
    )
    args = [a for a in sys.argv[1:] if a != "--fake"]
    sys.exit(subprocess.run([sys.executable, os.path.abspath(__file__), "--under-fake", *args], env=env).returncode)


if "--fake" in sys.argv:
    _reexec_under_fake_driver()

import numpy as np  # noqa: E402

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402
from pydev.numba import cuda  # noqa: E402


@cuda.jit
def empty3(a, b, c):
    pass


@cuda.jit
def axpy(out, x, alpha, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = alpha * x[i]


def per_launch(fns, n, rounds=15):
    """{name: (min, median)} microseconds per launch of each function, the
    functions timed in alternating rounds (so load on the machine falls on
    all of them alike)."""
    for f in fns.values():
        f()
    times = {k: [] for k in fns}
    for r in range(rounds):
        order = list(fns.items()) if r % 2 else list(fns.items())[::-1]
        for name, f in order:
            t = time.process_time()
            for _ in range(n):
                f()
            times[name].append((time.process_time() - t) / n * 1e6)
    return {k: (min(v), statistics.median(v)) for k, v in times.items()}


def main():
    n = 20000
    for a in sys.argv[1:]:
        if a.isdigit():
            n = int(a)
    target = pydev.active_target()
    s = pydev.default_stream()
    rows = []
    a, b, c = (cuda.to_device(np.ones(64, np.float32)) for _ in range(3))
    empty3[1, 32](a, b, c)
    prog = next(iter(empty3.overloads.values()))
    rows.append(
        (
            "empty, 3 device arrays",
            per_launch(
                {
                    "direct": lambda: device.launch(prog, a, b, c, grid=1, block=32, stream=s),
                    "numba": lambda: empty3[1, 32](a, b, c),
                    "numba_stream": lambda: empty3[1, 32, s](a, b, c),
                },
                n,
            ),
        )
    )
    if target == "host":
        ha, hb, hc = (np.ones(64, np.float32) for _ in range(3))
        empty3[1, 32](ha, hb, hc)
        prog2 = empty3.overloads[tuple(cuda_types(x) for x in (ha, hb, hc))]
        rows.append(
            (
                "empty, 3 NumPy arrays",
                per_launch(
                    {
                        "direct": lambda: device.launch(prog2, ha, hb, hc, grid=1, block=32, stream=s),
                        "numba": lambda: empty3[1, 32](ha, hb, hc),
                        "numba_stream": lambda: empty3[1, 32, s](ha, hb, hc),
                    },
                    n,
                ),
            )
        )
    out, x = cuda.to_device(np.zeros(64, np.float32)), cuda.to_device(np.ones(64, np.float32))
    axpy[1, 32](out, x, 2.5, 64)
    prog3 = next(iter(axpy.overloads.values()))
    alpha, m = np.float64(2.5), np.int64(64)  # the parameters' dtypes (Numba types Python floats and ints as 64-bit)
    rows.append(
        (
            "2 device arrays, float, int",
            per_launch(
                {
                    "direct": lambda: device.launch(prog3, out, x, alpha, m, grid=1, block=32, stream=s),
                    "numba": lambda: axpy[1, 32](out, x, 2.5, 64),
                    "numba_stream": lambda: axpy[1, 32, s](out, x, 2.5, 64),
                },
                n,
            ),
        )
    )
    cuda.synchronize()
    where = "fake CUDA driver (FAKECUDA_DISCARD=1)" if "--under-fake" in sys.argv else target
    print(
        f"pydev.numba launch overhead, {where}: {n} launches a round, 15 alternating rounds; microseconds per launch, min / median"
    )
    print(
        "| kernel | device.launch(program, ..., stream=s) | k[grid, block](...) | k[grid, block, s](...) | overhead (min) |"
    )
    print("|---|---|---|---|---|")
    for name, t in rows:
        d, k, ks = t["direct"], t["numba"], t["numba_stream"]
        print(
            f"| {name} | {d[0]:.1f} / {d[1]:.1f} | {k[0]:.1f} / {k[1]:.1f} | {ks[0]:.1f} / {ks[1]:.1f} | {k[0] - d[0]:+.1f} / {ks[0] - d[0]:+.1f} |"
        )


def cuda_types(x):
    from pydev.numba import types

    return types.typeof(x)


if __name__ == "__main__":
    main()
