"""Looking inside and debugging: the stages of pydev.compile (Python to
pydev IR to LLVM to PTX), compile errors located at the Python source, and
bounds checks (PYDEV_BOUNDSCHECK=1) that turn an off-by-one into a
LaunchError naming the index, the extent, the line and the thread; and
fmad=False, which makes float results NumPy's bit for bit.

Run: python3 examples/compile_and_debug.py
"""

import os
import sys

import numpy as np

import cuda.device as device
import pydev


@device.kernel
def saxpy(out, a, x, y):
    i = device.tid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@device.kernel(fmad=False)
def saxpy_as_numpy(out, a, x, y):
    """saxpy without multiply-add contraction: each * and + rounds, as NumPy's."""
    i = device.tid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@device.kernel
def shift_left(out, x):
    i = device.tid(1)
    if i < out.size:
        out[i] = x[i + 1]  # off by one: the last thread reads x[x.size]


def bad_kernel(out):
    out[0] = undefined_name  # noqa: F821 (the mistake this example shows)


def report(name, good):
    print(f"{'ok' if good else 'MISMATCH'}: {name}")
    return good


def main():
    ok = True
    sig = "float32[::1], float32, float32[::1], float32[::1]"  # pydevc's signature syntax
    pydev_ir = pydev.compile(saxpy, sig, target="host", stage="pydev")
    ok &= report(f"stage 'pydev' ({len(pydev_ir.splitlines())} lines of pydev IR)", "pydev.kernel" in pydev_ir)
    llvm_ir = pydev.compile(saxpy, sig, target="host", stage="llvm-ir")
    ok &= report(f"stage 'llvm-ir' for the host ({len(llvm_ir.splitlines())} lines)", "define" in llvm_ir)
    ptx = pydev.compile(saxpy, sig, target="sm_80", stage="ptx")  # no GPU needed to compile
    ok &= report(
        f"stage 'ptx' for sm_80 ({len(ptx.splitlines())} lines)", ".target sm_80" in ptx and ".entry saxpy" in ptx
    )

    try:
        pydev.compile(device.kernel(bad_kernel), "float32[:]", target="host", stage="pydev")
        ok &= report("a compile error was raised", False)
    except pydev.CompileError as e:
        first = str(e).splitlines()[0]
        print("   ", first)
        ok &= report("CompileError names file:line:col of the Python source", f"{os.path.basename(__file__)}:" in first)

    rng = np.random.default_rng(0)
    x = rng.random(100, dtype=np.float32)
    out = np.full_like(x, np.nan)  # on the host target NumPy arrays are device arrays
    stream = pydev.default_stream()
    if pydev.active_target() == "host":
        os.environ["PYDEV_BOUNDSCHECK"] = "1"  # a checked build is another cache entry
        try:
            device.launch(shift_left, out, x, grid=1, block=128, stream=stream)
            stream.synchronize()
            ok &= report("the out-of-bounds read was caught", False)
        except pydev.LaunchError as e:
            print("   ", str(e).splitlines()[0][:200])
            ok &= report("PYDEV_BOUNDSCHECK=1: LaunchError names the index and extent", "out of bounds" in str(e))
        finally:
            del os.environ["PYDEV_BOUNDSCHECK"]
    else:
        print("skipped the bounds-check demo: it reads host memory (run with PYDEV_TARGET=host)")

    a = rng.random(1000, dtype=np.float32)
    b = rng.random(1000, dtype=np.float32)
    res = pydev.to_device(np.full_like(a, np.nan))
    device.launch(saxpy, res, np.float32(3.0), pydev.to_device(a), pydev.to_device(b), grid=4, block=256, stream=stream)
    stream.synchronize()
    ok &= report("saxpy runs after all that", np.allclose(res.copy_to_host(), 3 * a + b, rtol=1e-6))
    exact = pydev.to_device(np.full_like(a, np.nan))
    device.launch(
        saxpy_as_numpy, exact, np.float32(3.0), pydev.to_device(a), pydev.to_device(b), grid=4, block=256, stream=stream
    )
    stream.synchronize()
    ok &= report(
        "fmad=False: bit for bit NumPy's a * x + y", np.array_equal(exact.copy_to_host(), np.float32(3) * a + b)
    )
    print("compile_and_debug", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
