#!/usr/bin/env python3
"""Code quality of the cuda pipeline: registers, spills and stack frame per
kernel from `ptxas -arch=sm_90 -v`, for pydev's PTX of the eight typical
and four compute-bound kernels (test/gpu/kernels.py) beside Numba-CUDA's
`compile_ptx` of the same kernels written for Numba, when numba-cuda (with
nvidia-cuda-nvrtc) is installed.

    python3 bench/registers.py [--pydevc target/release/pydevc] [--arch sm_90] [--strided]

A benchmark, not a test: it prints a table for docs/performance.md.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "gpu"))
from run import SIGNATURES  # noqa: E402

KERNELS = [
    "vector_add",
    "saxpy",
    "block_sum",
    "warp_sum",
    "histogram",
    "transpose",
    "stencil",
    "push",
    "nbody",
    "matmul",
    "mandelbrot",
    "softmax",
]


def ptxas_info(ptxas, arch, ptx_text):
    """{registers, spill stores, spill loads, stack frame} of the one entry."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.ptx")
        with open(path, "w") as f:
            f.write(ptx_text)
        r = subprocess.run(
            [ptxas, f"-arch={arch}", "-v", path, "-o", os.path.join(d, "k.cubin")],
            capture_output=True,
            text=True,
            check=True,
        )
    text = r.stderr + r.stdout
    num = lambda pat: int(m.group(1)) if (m := re.search(pat, text)) else 0  # noqa: E731
    return {
        "registers": num(r"Used (\d+) registers"),
        "spill_stores": num(r"(\d+) bytes spill stores"),
        "spill_loads": num(r"(\d+) bytes spill loads"),
        "stack": num(r"(\d+) bytes stack frame"),
    }


def strided(signature):
    """The signature with every array parameter strided: `[::1]` -> `[:]`."""
    return signature.replace("::1]", ":]")


def pydev_ptx(pydevc, arch, name, strides=False):
    sig = strided(SIGNATURES[name]) if strides else SIGNATURES[name]
    r = subprocess.run(
        [
            pydevc,
            os.path.join(ROOT, "test", "gpu", "kernels.py"),
            "--kernel",
            name,
            "--signature",
            sig,
            "--target",
            arch,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return r.stdout


def numba_kernels(strides=False):
    """The typical kernels in Numba-CUDA (bench/numba_kernels.py), with their signatures."""
    from numba import cuda, float32, from_dtype, int32, uint32

    from numba_kernels import (
        block_sum,
        histogram,
        mandelbrot,
        matmul,
        nbody,
        saxpy,
        softmax,
        stencil,
        transpose,
        vector_add,
        warp_sum,
    )

    # Numba has no float32x4 struct fields: a record with a 4-float sub-array.
    particle = from_dtype(np.dtype([("pos", np.float32, 4), ("mass", np.float32)], align=True))

    def push(ps, dt):
        i = cuda.grid(1)
        if i < ps.shape[0]:
            ps[i].pos[0] += dt
            ps[i].pos[3] *= ps[i].mass

    f1, f2 = (float32[:], float32[:, :]) if strides else (float32[::1], float32[:, ::1])
    u1, i1 = (uint32[:], int32[:]) if strides else (uint32[::1], int32[::1])
    return {
        "vector_add": (vector_add, (f1, f1, f1)),
        "saxpy": (saxpy, (float32, f1, f1, f1)),
        "histogram": (histogram, (u1, i1)),
        "warp_sum": (warp_sum, (f1, f1)),
        "block_sum": (block_sum, (f1, f1)),
        "transpose": (transpose, (f2, f2)),
        "stencil": (stencil, (f2, f2)),
        "push": (push, (particle[:] if strides else particle[::1], float32)),
        "nbody": (nbody, (f2, f2)),
        "matmul": (matmul, (f2, f2, f2)),
        "mandelbrot": (mandelbrot, (int32[:, :] if strides else int32[:, ::1], float32, float32, float32, int32)),
        "softmax": (softmax, (f2, f2)),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pydevc", default=os.path.join(ROOT, "target", "release", "pydevc"))
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--ptxas", help="the ptxas to use (default: scripts/find-ptxas.sh)")
    p.add_argument("--strided", action="store_true", help="every array parameter strided ([:] / [:, :]) on both sides")
    args = p.parse_args()
    if not os.path.exists(args.pydevc):
        args.pydevc = os.path.join(ROOT, "target", "debug", "pydevc")
    ptxas = (
        args.ptxas
        or subprocess.run(
            [os.path.join(ROOT, "scripts", "find-ptxas.sh"), args.arch], capture_output=True, text=True
        ).stdout.strip()
    )
    if not ptxas:
        sys.exit("no ptxas: run make setup")
    try:
        from numba import cuda

        numba = numba_kernels(args.strided)
        cc = tuple(int(c) for c in args.arch[3:5]) if len(args.arch) >= 5 else (9, 0)
    except ImportError as e:
        numba, why = None, str(e)
    print(
        "| kernel | pydev registers | pydev spills (st/ld bytes) | pydev stack | Numba-CUDA registers | Numba spills | Numba stack |"
    )
    print("|---|---|---|---|---|---|---|")
    for name in KERNELS:
        mine = ptxas_info(ptxas, args.arch, pydev_ptx(args.pydevc, args.arch, name, args.strided))
        if numba is not None:
            fn, sig = numba[name]
            ptx, _ = cuda.compile_ptx(fn, sig, cc=cc)
            theirs = ptxas_info(ptxas, args.arch, ptx)
            t = f"{theirs['registers']} | {theirs['spill_stores']}/{theirs['spill_loads']} | {theirs['stack']}"
        else:
            t = f"- | - | - (numba-cuda: {why})"
        print(
            f"| {name} | {mine['registers']} | {mine['spill_stores']}/{mine['spill_loads']} | {mine['stack']} | {t} |"
        )


if __name__ == "__main__":
    main()
