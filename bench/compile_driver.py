"""Compile time through the driver: `pydev._pydev.compile` of the typical
kernels of test/gpu/kernels.py, Python source to PTX (sm_90) and to the
host's LLVM dialect, median of --repeat calls (each creates its own MLIR
context), in milliseconds. Two rows per kernel: found by name at the file's
top level (as pydevc does) and found by identity with its program
description (as launches and pydev.compile do since issue 14), so the cost
of the description shows. Run with the release wheel installed:

    python3 bench/compile_driver.py [--repeat 7]
"""

import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "gpu"))

import kernels  # noqa: E402
import run  # noqa: E402

from pydev import _native, _toolchain  # noqa: E402

TYPICAL = [
    "vector_add",
    "saxpy",
    "histogram",
    "warp_sum",
    "block_sum",
    "transpose",
    "stencil",
    "push",
    "python_ints",
    "complex_math",
]


def median_ms(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    native = _native.get()
    lib = _toolchain.libdevice()
    print(
        "| kernel | to PTX (by name) | to PTX (by identity) | to host LLVM (by name) | to host LLVM (by identity) | description (Python) |"
    )
    print("|---|---|---|---|---|---|")
    for name in TYPICAL:
        k = getattr(kernels, name)
        sig = run.SIGNATURES[name]
        path, source = k._source()
        consts = k._consts()
        # A build from before issue 14 has no program descriptions: by name only.
        program = k._program()[0] if hasattr(k, "_program") else None
        row = []
        for target, stage in (("sm_90", "ptx"), ("host", "llvm")):
            for by_identity in (False, True):
                if by_identity and program is None:
                    row.append(None)
                    continue
                extra = {"program": program} if by_identity else {}
                row.append(
                    median_ms(
                        lambda: native.compile(path, source, name, sig, consts, target, stage, libdevice=lib, **extra),
                        args.repeat,
                    )
                )
        describe = (
            median_ms(lambda: [k._program() for _ in range(100)], args.repeat) * 10 if program else None
        )  # µs per call
        cells = ["n/a" if ms is None else f"{ms:.1f} ms" for ms in row] + [
            "n/a" if describe is None else f"{describe:.1f} µs"
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
