#!/usr/bin/env python3
"""Launch cost by argument kind (issue 35 item 1): the time per
`device.launch` of a one-thread kernel taking one argument of each kind
(beside a float32 output array), after warm-up, and whether pydev.stats()
counted the launches as fast-path launches (python/src/dispatch.rs).

    PYDEV_TARGET=host python3 bench/launch_kinds.py [--launches 300] [--runs 40]

Host target by default; on cuda (PYDEV_TARGET=cuda: a GPU, or
test/fakecuda's libcuda.so on LD_LIBRARY_PATH for pydev's own cost) NumPy
arrays are copied to DeviceArrays, and CUDA Array Interface rows are added. A benchmark, not a test: it prints a table
for docs/performance.md (minimum and median over runs, µs per launch, and
the ratio of the median to the float32 array's, minima and medians). Many short runs: on a loaded
machine their minima and medians vary less than those of a few long ones.
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

os.environ.setdefault("PYDEV_TARGET", "host")
import cuda.device as device  # noqa: E402
import pydev  # noqa: E402
from pydev._native import get as _native  # noqa: E402

STREAM_GENERATION = _native().STREAM_GENERATION  # launches whose arguments a stream keeps at once


@device.struct
class Particle:
    pos: device.float32x3
    mass: float
    tag: device.int32


@device.kernel
def take_array(out, a):
    out[0] = a[0]


@device.kernel
def take_complex_array(out, a):
    out[0] = a[0].real


@device.kernel
def take_struct_array(out, a):
    out[0] = a[0].mass


@device.kernel
def take_scalar(out, x):
    out[0] = x


@device.kernel
def take_complex(out, x):
    out[0] = x.real


@device.kernel
def take_vector(out, v):
    out[0] = v.x + v.z


@device.kernel
def take_struct(out, p):
    out[0] = p.mass + p.pos.y


@device.kernel
def take_bool(out, b):
    if b:
        out[0] = 1.0


def fast_launches():
    return pydev.stats().get("fast_launches", 0)


def per_launch_us(f, args, launches, stream):
    launch = device.launch
    # What the launches before kept alive (pydev.Stream keeps arguments
    # until a fence passes them) is let go here, not in this row's time:
    # a DLPack row's capsules are then released in its own launches.
    stream.synchronize()
    t = time.perf_counter()
    for _ in range(launches):
        launch(f, *args, grid=1, block=1, stream=stream)
    return (time.perf_counter() - t) / launches * 1e6


def program(kernel, signature, target):
    """A pydev.Program of `kernel` compiled for `signature` (its parameter
    types are then the IR's: f64, si64 ...)."""
    name = kernel.__name__
    where = "host" if target == "host" else "sm_90"  # the pydev stage is the same for every sm
    return pydev.Program(pydev.compile(kernel, signature, target=where, stage="pydev"), kernel=name)


def cases(target):
    """(name, launchable, argument) of each kind."""
    rng = np.random.default_rng(35)
    ml = None
    try:
        import ml_dtypes as ml
    except ImportError:
        pass
    on = (lambda a: a) if target == "host" else pydev.to_device
    parts = np.zeros(8, Particle.dtype)
    parts["mass"] = rng.random(8)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "tests"))
    from producers import CAIOnly, DLPackOnly  # the tests' single-protocol producers

    rows = [
        ("float32 array (NumPy)", take_array, on(rng.random(8, dtype=np.float32))),
        ("float32 array (DLPack only)", take_array, DLPackOnly(on(rng.random(8, dtype=np.float32)))),
        ("float64 array (NumPy)", take_array, on(rng.random(8))),
        ("float16 array (NumPy)", take_array, on(rng.random(8).astype(np.float16))),
        ("complex64 array (NumPy)", take_complex_array, on(rng.random(8).astype(np.complex64))),
        ("struct array (NumPy structured)", take_struct_array, on(parts)),
        ("float32 array (DeviceArray)", take_array, pydev.to_device(rng.random(8, dtype=np.float32))),
        ("struct array (DeviceArray)", take_struct_array, pydev.to_device(parts)),
        ("Python float -> float32", take_scalar, 1.5),
        ("Python int -> int32", take_scalar, 7),
        ("Python bool", take_bool, True),
        ("Python complex -> complex64", take_complex, 1.5 + 2j),
        ("NumPy float64 scalar", take_scalar, np.float64(2.5)),
        ("float32x3 value", take_vector, device.float32x3(1, 2, 3)),
        ("struct value (float32x3, float, int32)", take_struct, Particle(device.float32x3(1, 2, 3), 2.0, 4)),
    ]
    if target != "host":
        rows[2:2] = [
            ("float32 array (CUDA Array Interface only)", take_array, CAIOnly(on(rng.random(8, dtype=np.float32)))),
            ("struct array (CUDA Array Interface only)", take_struct_array, CAIOnly(on(parts))),
        ]
        # A producer whose `__dlpack__` is C (bench/exchange_producer.c, as
        # CuPy's is Cython): the DLPack row less the Python producer's cost.
        # CArray: a C array type's `__dlpack__`, as CuPy's ndarray and
        # PyTorch's Tensor have, reading C fields (CDlpack's reads Python
        # attributes of a Python class at each export).
        from launch import CArray, CDlpack, c_exchange_producer

        if c_exchange_producer(pydev.default_stream().handle) is None:
            c_dlpack = CDlpack(on(rng.random(8, dtype=np.float32)))
            rows[2:2] = [
                ("float32 array (DLPack only, C `__dlpack__` on a Python class)", take_array, c_dlpack),
                ("float32 array (DLPack only, C array type)", take_array, CArray(on(rng.random(8, dtype=np.float32)))),
                ("float16 array (DLPack only, C array type)", take_array, CArray(on(rng.random(8).astype(np.float16)))),
                (
                    "complex64 array (DLPack only, C array type)",
                    take_complex_array,
                    CArray(on((rng.random(8) + 1j * rng.random(8)).astype(np.complex64))),
                ),
            ]
            if ml is not None:
                rows.insert(
                    4,
                    (
                        "bfloat16 array (DLPack only, C array type)",
                        take_array,
                        CArray(on(rng.random(8).astype(ml.bfloat16))),
                    ),
                )
    if ml is not None:
        rows[4:4] = [
            ("bfloat16 array (NumPy)", take_array, on(rng.random(8).astype(ml.bfloat16))),
            ("float8_e4m3fn array (NumPy)", take_array, on(rng.random(8).astype(ml.float8_e4m3fn))),
        ]
    f64 = program(take_scalar, "float64[::1], float64", target)
    i64 = program(take_scalar, "int64[::1], int64", target)
    f32 = program(take_scalar, "float32[::1], float32", target)
    rows += [
        ("Program: Python float -> f64", f64, 2.5),
        ("Program: Python int -> f64", f64, 3),
        ("Program: Python int -> si64", i64, 1 << 40),
        ("Program: Python float -> f32", f32, 2.5),
    ]
    if target != "host":  # "NumPy" arrays are copied to the device
        rows = [(name.replace("(NumPy", "(DeviceArray of NumPy"), f, arg) for name, f, arg in rows]
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=300)
    ap.add_argument("--runs", type=int, default=40)
    a = ap.parse_args()
    target = pydev.active_target()
    stream = pydev.default_stream()
    rows = cases(target)
    outs = {}
    fast = {}
    for name, f, arg in rows:
        # The output's dtype follows the kernel's: f64 and si64 Programs write those.
        dt = {"f64": np.float64, "si64": np.int64}.get(getattr(f, "params", [None])[0] and f.params[1].text, np.float32)
        out = outs[name] = pydev.to_device(np.zeros(1, dt)) if target != "host" else np.zeros(1, dt)
        device.launch(f, out, arg, grid=1, block=1, stream=stream)  # compile, register
        before = fast_launches()
        device.launch(f, out, arg, grid=1, block=1, stream=stream)
        fast[name] = fast_launches() - before == 1
    times = {name: [] for name, _, _ in rows}
    for _ in range(a.runs):
        for name, f, arg in rows:
            times[name].append(per_launch_us(f, (outs[name], arg), a.launches, stream))
    base = statistics.median(times[rows[0][0]])
    base_min = min(times[rows[0][0]])
    print(f"{target} target, `{' '.join(sys.argv)}` ({a.launches} launches x {a.runs} runs)\n")
    print("| argument kind | fast path | min | median | / float32 array (min, median) |")
    print("|---|---|---|---|---|")
    for name, _, _ in rows:
        t = times[name]
        med = statistics.median(t)
        ratio = f"{min(t) / base_min:.2f}x, {med / base:.2f}x"
        print(f"| {name} | {'yes' if fast[name] else 'no'} | {min(t):.2f} µs | {med:.2f} µs | {ratio} |")
    # A DLPack launch calls the producer's `__dlpack__` (and later lets its
    # capsule go): the producer's cost, not pydev's. Timed alone, the same
    # way, and taken off.
    exports = [(name, arg) for name, f, arg in rows if "DLPack only" in name]
    if exports:
        handle = stream.handle if target != "host" else None
        handle = 1 if handle == 0 else handle
        print(
            "\n| DLPack row | launch (min) | the producer's export alone (min) | launch less export / float32 array (min) |"
        )
        print("|---|---|---|---|")
        for name, arg in exports:
            export = [per_export_us(arg, handle, a.launches) for _ in range(a.runs)]
            own = min(times[name]) - min(export)
            print(f"| {name} | {min(times[name]):.2f} µs | {min(export):.2f} µs | {own / base_min:.2f}x |")


def per_export_us(arg, handle, launches):
    """The time of `arg.__dlpack__(...)` as the fast path calls it, its
    capsules let go by the stream's generation as a launch's are."""
    version = (1, 0)
    kept = []
    t = time.perf_counter()
    for _ in range(launches):
        # Looked up at each export, as a launch must: a Python class's
        # method is bound anew each time.
        kept.append(arg.__dlpack__(stream=handle, max_version=version))
        if len(kept) > STREAM_GENERATION:
            kept = []
    kept = []
    return (time.perf_counter() - t) / launches * 1e6


if __name__ == "__main__":
    main()
