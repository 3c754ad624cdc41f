#!/usr/bin/env python3
"""Instructions per cuda launch of the foreign-array kinds of
bench/launch_kinds.py, counted by callgrind on the fake driver
(test/fakecuda): deterministic where wall time on a shared machine is not.
One process launches a one-thread kernel 2048 times per kind after warm-up;
`os.getppid()` between the kinds makes callgrind dump each kind's count
(`--dump-before=getppid`).

    python3 bench/launch_kinds_instructions.py PKG_DIR [PKG_DIR ...]

PKG_DIR: a release wheel installed with `pip install --no-deps --target`.
Kinds: a float32 DeviceArray (the reference), the tests' `CAIOnly` around
one (CUDA Array Interface) and around an array of structs, the C producer's
array type (`CArray`, as CuPy's and PyTorch's) and its native `__dlpack__`
on a Python class (bench/exchange_producer.c), and the tests' `DLPackOnly`
(Python `__dlpack__`). Needs gcc, valgrind and Python.h. A benchmark, not a
test.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LAUNCHES = 2048
KINDS = ["float32 DeviceArray", "CAI only", "CAI only, structs", "C array type", "C __dlpack__", "DLPackOnly"]


def child():
    import numpy as np

    sys.path[:0] = [HERE, os.path.join(ROOT, "python", "tests")]
    import cuda.device as device
    import pydev
    from launch import CArray, CDlpack, c_exchange_producer
    from launch_kinds import Particle, take_array, take_struct_array  # the same kernels as the timed bench
    from producers import CAIOnly, DLPackOnly

    assert c_exchange_producer(0) is None

    rng = np.random.default_rng(35)
    s = pydev.default_stream()
    out = pydev.to_device(np.zeros(1, np.float32))

    def f32():
        return pydev.to_device(rng.random(8, dtype=np.float32))

    kinds = [
        (take_array, f32()),
        (take_array, CAIOnly(f32())),
        (take_struct_array, CAIOnly(pydev.to_device(np.zeros(8, Particle.dtype)))),
        (take_array, CArray(f32())),
        (take_array, CDlpack(f32())),
        (take_array, DLPackOnly(f32())),
    ]
    launch = device.launch
    for k, a in kinds:
        for _ in range(300):
            launch(k, out, a, grid=1, block=1, stream=s)
    for k, a in kinds:
        os.getppid()  # callgrind dumps here
        for _ in range(LAUNCHES):
            launch(k, out, a, grid=1, block=1, stream=s)
    os.getppid()


def count(pkg, lib):
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, PYTHONPATH=pkg, LD_LIBRARY_PATH=lib, FAKECUDA_DISCARD="1", PYDEV_TARGET="cuda")
        env.setdefault("PYDEV_CACHE_DIR", os.path.join(out, "cache"))
        r = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--dump-before=getppid",
                f"--callgrind-out-file={out}/cg.out",
                sys.executable,
                os.path.abspath(__file__),
                "--child",
            ],
            env=env,
            capture_output=True,
            text=True,
        )
        if r.returncode:
            sys.exit(f"{pkg}: {r.stderr[-2000:]}")
        dumps = sorted(glob.glob(f"{out}/cg.out.*"), key=lambda f: int(f.rsplit(".", 1)[1]))
        totals = [int(re.search(r"^(?:summary|totals): (\d+)", open(f).read(), re.M).group(1)) for f in dumps]
    return [t / LAUNCHES for t in totals[1 : 1 + len(KINDS)]]


def main():
    if sys.argv[1:] == ["--child"]:
        return child()
    pkgs = sys.argv[1:]
    if not pkgs or not shutil.which("valgrind") or not shutil.which("gcc"):
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as lib:
        src = os.path.join(ROOT, "test", "fakecuda", "fakecuda.c")
        subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", os.path.join(lib, "libcuda.so"), src], check=True)
        counts = {pkg: count(pkg, lib) for pkg in pkgs}
    print("| kind | " + " | ".join(pkgs) + " |")
    print("|---" * (len(pkgs) + 1) + "|")
    for k, name in enumerate(KINDS):
        cells = [f"{c[k]:.0f} ({c[k] / c[0]:.2f}x)" for c in counts.values()]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
