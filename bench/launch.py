#!/usr/bin/env python3
"""Launch overhead: time per `device.launch` of an empty kernel with three
array arguments and one scalar, after warm-up, on the host target and (with
a GPU) on cuda, beside Numba-CUDA and CuPy launching the same empty kernel
when they are installed; and the time to the first launch in a fresh process
whose kernel is in the disk cache.

    python3 bench/launch.py [--launches 20000] [--no-fresh] [--fake-driver]

--fake-driver runs the cuda rows against test/fakecuda's libcuda.so (built
here with gcc), whose cuLaunchKernel only counts: pydev's own cost of a
cuda launch without a GPU, the driver's excluded.

A benchmark, not a test: it prints a table for docs/performance.md. Times
are medians of 5 runs of --launches launches, in microseconds per launch.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import cuda.device as device
import pydev

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "tests"))
from producers import CAILive, DLPackOnly  # noqa: E402 - the tests' single-protocol producers


@device.kernel
def empty(a, b, c, s):
    pass


def per_launch_us(fn, launches):
    for _ in range(200):
        fn()
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(launches):
            fn()
        runs.append((time.perf_counter() - t) / launches * 1e6)
    return statistics.median(runs)


def host_rows(launches):
    os.environ["PYDEV_TARGET"] = "host"
    a, b, c = (np.zeros(1024, np.float32) for _ in range(3))
    s = pydev.default_stream()
    total = per_launch_us(lambda: device.launch(empty, a, b, c, 1.5, grid=1, block=1, stream=s), launches)
    # The kernel's launch with its arguments already packed (the host
    # runtime running the block): the rest is dispatch.
    from pydev import _launch

    signature, packed, _ = _launch.pack_args(empty, (a, b, c, 1.5), "host")
    prog = empty.program(signature, "host", "host")
    native = per_launch_us(lambda: prog.launch((1, 1, 1), (1, 1, 1), 0, packed), launches)
    return [
        ("pydev host, NumPy arrays: device.launch", total),
        ("pydev host: the kernel's launch with packed arguments (runtime, one block)", native),
        ("pydev host: dispatch beyond it (type key, packing, checks)", total - native),
    ]


class CoreStream:
    """A cuda.core Stream as launch sees one: the __cuda_stream__ protocol."""

    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


class CExchange:
    """Another library's device array exported in C through DLPack's
    exchange API, as PyTorch's (bench/exchange_producer.c): 1-D float32."""

    def __init__(self, arr):
        self.arr, self.ptr, self.size = arr, arr._ptr, arr.size

    def __dlpack__(self, **kw):
        return self.arr.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()


class CDlpack:
    """Another library's device array with a native `__dlpack__` and no
    exchange API, as CuPy's (bench/exchange_producer.c; set by
    c_exchange_producer): 1-D float32."""

    def __init__(self, arr):
        self.arr, self.ptr, self.size = arr, arr._ptr, arr.size

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()


def c_exchange_producer(stream):
    """Builds bench/exchange_producer.c, publishes its table on CExchange
    with `stream` as its current stream and its `__dlpack__` on CDlpack;
    the reason when it cannot."""
    import ctypes
    import shutil
    import sysconfig

    include = sysconfig.get_paths()["include"]
    if not shutil.which("gcc") or not os.path.exists(os.path.join(include, "Python.h")):
        return "needs gcc and Python.h"
    out = os.path.join(tempfile.mkdtemp(), "producer.so")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "exchange_producer.c")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-I", include, "-o", out, src], check=True)
    lib = ctypes.CDLL(out)
    lib.producer_api.restype = ctypes.c_void_p
    lib.producer_set_stream(ctypes.c_void_p(stream))
    new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
        ("PyCapsule_New", ctypes.pythonapi)
    )
    CExchange._lib = lib
    CExchange._name = ctypes.create_string_buffer(b"dlpack_exchange_api")
    CExchange.__dlpack_c_exchange_api__ = new(lib.producer_api(), ctypes.addressof(CExchange._name), None)
    method = ctypes.PyDLL(out).producer_dlpack_method
    method.restype = ctypes.py_object
    CDlpack.__dlpack__ = method()
    make = ctypes.PyDLL(out).producer_array
    make.restype = ctypes.py_object
    make.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int, ctypes.c_int, ctypes.c_int]
    CArray._make = make
    return None


# DLPack's (code, bits) of the element types CArray exports.
_DL_TYPES = {
    "float16": (2, 16),
    "float32": (2, 32),
    "float64": (2, 64),
    "int32": (0, 32),
    "int64": (0, 64),
    "complex64": (5, 64),
    "complex128": (5, 128),
    "bfloat16": (4, 16),
    "float8_e4m3fn": (10, 8),
}


class CArray:
    """Another library's 1-D device array of a C type, as CuPy's ndarray and
    PyTorch's Tensor are: pointer, length and element type in C fields, a
    `__dlpack__` of the type and no exchange API (bench/exchange_producer.c;
    made once c_exchange_producer has built it). `CArray(device_array)`."""

    _make = None

    def __new__(cls, arr):
        code, bits = _DL_TYPES[arr.dtype.name]
        return cls._make(arr, arr._ptr, arr.size, code, bits, 1)


def cuda_rows(launches, fake):
    rows = []
    os.environ["PYDEV_TARGET"] = "cuda"
    s = pydev.create_stream()
    tag = "pydev cuda (fake driver)" if fake else "pydev cuda"
    arrays = [pydev.to_device(np.zeros(1024, np.float32)) for _ in range(3)]
    total = per_launch_us(lambda: device.launch(empty, *arrays, 1.5, grid=1, block=1, stream=s), launches)
    s.synchronize()
    rows.append((f"{tag}, pydev.DeviceArray: device.launch", total))
    from pydev import _launch

    signature, packed, _ = _launch.pack_args(empty, (*arrays, 1.5), "cuda", s.handle)
    prog = empty.program(signature, "cuda", _launch.cuda_arch())
    native = per_launch_us(lambda: prog.launch((1, 1, 1), (1, 1, 1), 0, s.handle, packed), launches)
    rows.append((f"{tag}: the launch with packed arguments (cuLaunchKernel)", native))
    rows.append((f"{tag}: dispatch beyond it (type key, packing, stream checks)", total - native))
    core = CoreStream(s.handle)
    rows.append(
        (
            f"{tag}, pydev.DeviceArray on a __cuda_stream__ object (as a cuda.core Stream): device.launch",
            per_launch_us(lambda: device.launch(empty, *arrays, 1.5, grid=1, block=1, stream=core), launches),
        )
    )
    for name, wrap in (("CUDA Array Interface", CAILive), ("DLPack", DLPackOnly)):
        foreign = [wrap(a) for a in arrays]
        rows.append(
            (
                f"{tag}, arrays through the {name} only: device.launch",
                per_launch_us(lambda: device.launch(empty, *foreign, 1.5, grid=1, block=1, stream=s), launches // 10),
            )
        )
        s.synchronize()
    # The producers' share of the CAI and DLPack rows: pydev.DeviceArray's
    # own __cuda_array_interface__ and __dlpack__ are Python (with ctypes);
    # CuPy's and PyTorch's are native.
    cai = per_launch_us(lambda: [a.__cuda_array_interface__ for a in arrays], launches // 10)
    rows.append((f"{tag}: of which the producer's 3 __cuda_array_interface__ dicts (pydev.DeviceArray's, Python)", cai))
    handle = s.handle or 1
    export = per_launch_us(lambda: [a.__dlpack__(stream=handle, max_version=(1, 0)) for a in arrays], launches // 10)
    rows.append((f"{tag}: of which the producer's 3 __dlpack__ exports (pydev.DeviceArray's, Python)", export))
    why = c_exchange_producer(s.handle)
    if why:
        rows.append((f"{tag}, DLPack C exchange API", why))
    else:
        foreign = [CExchange(a) for a in arrays]
        rows.append(
            (
                f"{tag}, arrays through DLPack's C exchange API (a C producer, as PyTorch's): device.launch",
                per_launch_us(lambda: device.launch(empty, *foreign, 1.5, grid=1, block=1, stream=s), launches),
            )
        )
        s.synchronize()
        foreign = [CDlpack(a) for a in arrays]
        rows.append(
            (
                f"{tag}, arrays through a native __dlpack__ (the C producer, as CuPy's): device.launch",
                per_launch_us(lambda: device.launch(empty, *foreign, 1.5, grid=1, block=1, stream=s), launches),
            )
        )
        s.synchronize()
        rows.append(
            (
                f"{tag}: of which its 3 __dlpack__ exports",
                per_launch_us(lambda: [a.__dlpack__(stream=handle, max_version=(1, 0)) for a in foreign], launches),
            )
        )
    if fake:
        return rows
    try:
        import cupy

        ca = [cupy.zeros(1024, cupy.float32) for _ in range(3)]
        rows.append(
            (
                "pydev cuda, CuPy arrays: device.launch",
                per_launch_us(lambda: device.launch(empty, *ca, 1.5, grid=1, block=1, stream=s), launches),
            )
        )
        raw = cupy.RawKernel(r'extern "C" __global__ void empty(float* a, float* b, float* c, float s) {}', "empty")
        f = np.float32(1.5)
        rows.append(
            ("CuPy RawKernel, CuPy arrays", per_launch_us(lambda: raw((1,), (1,), (ca[0], ca[1], ca[2], f)), launches))
        )
        # Like for like: both launch on CuPy's current stream, so CuPy's
        # __dlpack__(stream=...) has no other stream to order before it.
        cs = cupy.cuda.Stream(non_blocking=True)
        with cs:
            on = CoreStream(cs.ptr)
            rows.append(
                (
                    "pydev cuda, CuPy arrays, on CuPy's current stream: device.launch",
                    per_launch_us(lambda: device.launch(empty, *ca, 1.5, grid=1, block=1, stream=on), launches),
                )
            )
            rows.append(
                (
                    "CuPy RawKernel, CuPy arrays, on that stream",
                    per_launch_us(lambda: raw((1,), (1,), (ca[0], ca[1], ca[2], f)), launches),
                )
            )
            rows.append(
                (
                    "pydev cuda, DeviceArrays, on that stream: device.launch",
                    per_launch_us(lambda: device.launch(empty, *arrays, 1.5, grid=1, block=1, stream=on), launches),
                )
            )
            rows.append(
                (
                    "of which CuPy's 3 __dlpack__(stream=its current stream)",
                    per_launch_us(lambda: [a.__dlpack__(stream=cs.ptr) for a in ca], launches // 10),
                )
            )
            cs.synchronize()
        rows.append(
            (
                "of which CuPy's 3 __dlpack__(stream=another stream)",
                per_launch_us(lambda: [a.__dlpack__(stream=s.handle) for a in ca], launches // 10),
            )
        )
        rows.append(
            (
                "of which CuPy's 3 __cuda_array_interface__ dicts",
                per_launch_us(lambda: [a.__cuda_array_interface__ for a in ca], launches // 10),
            )
        )
        s.synchronize()
    except ImportError:
        rows.append(("CuPy", "not installed"))
    try:
        import torch

        ta = [torch.zeros(1024, device="cuda") for _ in range(3)]
        ts = torch.cuda.current_stream()
        on = CoreStream(ts.cuda_stream)
        rows.append(
            (
                "pydev cuda, PyTorch tensors, on PyTorch's current stream: device.launch",
                per_launch_us(lambda: device.launch(empty, *ta, 1.5, grid=1, block=1, stream=on), launches),
            )
        )
        rows.append(
            (
                "pydev cuda, PyTorch tensors, on a pydev.Stream: device.launch",
                per_launch_us(lambda: device.launch(empty, *ta, 1.5, grid=1, block=1, stream=s), launches),
            )
        )
        torch.cuda.synchronize()
        s.synchronize()
    except ImportError:
        rows.append(("PyTorch", "not installed"))
    try:
        np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda 0.30 with NumPy 2.5
        from numba import cuda as ncuda

        @ncuda.jit
        def nempty(a, b, c, s):
            pass

        na = [ncuda.to_device(np.zeros(1024, np.float32)) for _ in range(3)]
        rows.append(
            ("Numba-CUDA, device arrays", per_launch_us(lambda: nempty[1, 1](na[0], na[1], na[2], 1.5), launches))
        )
    except ImportError:
        rows.append(("Numba-CUDA", "not installed"))
    s.synchronize()
    return rows


FRESH = r"""
import os, sys, time
import numpy as np
sys.path.insert(0, {bench!r})
import cuda.device as device, pydev
import launch as bench
a, b, c = (np.zeros(1024, np.float32) for _ in range(3))
s = pydev.default_stream()
t = time.perf_counter()
device.launch(bench.empty, a, b, c, 1.5, grid=1, block=1, stream=s)
print((time.perf_counter() - t) * 1e3, pydev.stats()["compiles"], pydev.stats()["disk_hits"])
"""


def fresh_process_ms():
    """ms from the first device.launch call to its return, in a new process
    whose kernel the disk cache holds (the second of two runs)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYDEV_CACHE_DIR=cache, PYDEV_TARGET="host")
        code = FRESH.format(bench=os.path.dirname(os.path.abspath(__file__)))
        out = []
        for _ in range(2):
            r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            ms, compiles, hits = r.stdout.split()
            out.append((float(ms), int(compiles), int(hits)))
    (cold, c0, _), (warm, c1, h1) = out
    assert c0 == 1 and c1 == 0 and h1 == 1, out
    return cold, warm


def fake_driver_rows(launches):
    """The cuda rows in a child process that loads test/fakecuda."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as lib:
        subprocess.run(
            [
                "gcc",
                "-shared",
                "-fPIC",
                "-O2",
                "-o",
                os.path.join(lib, "libcuda.so"),
                os.path.join(root, "test", "fakecuda", "fakecuda.c"),
            ],
            check=True,
        )
        env = dict(os.environ, LD_LIBRARY_PATH=lib, FAKECUDA_DISCARD="1")
        env.pop("PYDEV_TARGET", None)
        code = f"import sys; sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r}); import launch; print(repr(launch.cuda_rows({launches}, True)))"
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    import ast

    return ast.literal_eval(r.stdout.strip().splitlines()[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--launches", type=int, default=20000)
    p.add_argument("--no-fresh", action="store_true")
    p.add_argument(
        "--fake-driver", action="store_true", help="also time the cuda path against test/fakecuda (no GPU needed)"
    )
    args = p.parse_args()
    rows = host_rows(args.launches)
    if args.fake_driver:
        rows += fake_driver_rows(args.launches)
    if pydev._native.cuda_status()[0]:
        rows += cuda_rows(args.launches, False)
    else:
        rows.append(("cuda target", "no CUDA driver or device here"))
    if not args.no_fresh:
        cold, warm = fresh_process_ms()
        rows.append(("first launch in a fresh process, disk-cache miss (ms)", cold))
        rows.append(("first launch in a fresh process, disk-cache hit (ms)", warm))
    print("| launch | time |")
    print("|---|---|")
    for name, v in rows:
        unit = "" if isinstance(v, str) else (" ms" if "(ms)" in name else " µs")
        print(f"| {name.replace(' (ms)', '')} | {v if isinstance(v, str) else f'{v:.2f}'}{unit} |")


if __name__ == "__main__":
    main()
