#!/usr/bin/env python3
"""Compile test/gpu/kernels.py with pydevc and run the kernels on a GPU
against NumPy.

    python3 test/gpu/run.py --compile DIR   # here: pydevc -> DIR/<kernel>.ptx
    python3 test/gpu/run.py --run DIR       # on a machine with a GPU (no Rust needed)
    python3 test/gpu/run.py --host DIR      # here: pydevc --target host, run on the host
                                            # target through pydev._pydev (the wheel)

`--run` loads the PTX through the CUDA driver with ctypes (cuModuleLoadDataEx,
with the JIT log on failure), launches each kernel with its array arguments
passed as the pydev ABI descriptor {T* data; u64 shape[n]; u64 strides[n]}
(strides in elements), and compares with NumPy on fresh random inputs (fixed
seed) and poisoned outputs. Without a CUDA driver it prints why and exits 0.
"""

import argparse
import ctypes
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# kernel -> pydevc signature
SIGNATURES = {
    "vector_add": "float32[::1], readonly float32[::1], readonly float32[::1]",
    "saxpy": "float32, float32[::1], float32[::1], float32[::1]",
    "histogram": "uint32[::1], readonly int32[::1]",
    "warp_sum": "float32[::1], readonly float32[::1]",
    "block_votes": "int32[::1], int32[::1], readonly float32[::1]",
    "python_ints": "int32[:, ::1], readonly int32[::1], readonly int32[::1]",
    "block_sum": "float32[::1], readonly float32[::1]",
    "transpose": "float32[:, ::1], readonly float32[:, ::1]",
    "local_scan": "float32[::1], readonly float32[::1]",
    "push": "Particle[::1], float32",
    "stencil": "float32[:, ::1], readonly float32[:, ::1]",
    "float_extrema": "float32[::1], readonly float32[::1]",
    "handoff": "int32[::1], int32[::1]",
    "views": "float32[:, ::1], readonly float32[::1], readonly float32[:, ::1]",
    "array_args": "float32[::1], readonly float32[::1], int32",
    "complex_math": "float32[:, ::1], readonly complex64[::1], readonly complex64[::1], readonly float32[::1]",
    "shuffle_aggregates": "float32[:, ::1], readonly float32[::1]",
    "row_sums": "float32[::1], readonly float32[:, ::1]",
    "float8_round_trip": "float32[:, ::1], readonly float32[::1]",
    "nbody": "float32[:, ::1], readonly float32[:, ::1]",
    "matmul": "float32[:, ::1], readonly float32[:, ::1], readonly float32[:, ::1]",
    "mandelbrot": "int32[:, ::1], float32, float32, float32, int32",
    "softmax": "float32[:, ::1], readonly float32[:, ::1]",
}


def compile_all(out_dir, pydevc, arch, assemble):
    os.makedirs(out_dir, exist_ok=True)
    ptxas = None
    if assemble:
        ptxas = subprocess.run(
            [os.path.join(ROOT, "scripts", "find-ptxas.sh"), arch], check=True, capture_output=True, text=True
        ).stdout.strip()
        if not ptxas:
            raise SystemExit(f"no ptxas for {arch}: run `make setup`")
    for name, sig in SIGNATURES.items():
        out = os.path.join(out_dir, f"{name}.ptx")
        subprocess.run(
            [
                pydevc,
                os.path.join(HERE, "kernels.py"),
                "--kernel",
                name,
                "--signature",
                sig,
                "--target",
                arch,
                "-o",
                out,
            ],
            check=True,
        )
        if ptxas:
            subprocess.run([ptxas, f"-arch={arch}", out, "-o", out + ".cubin"], check=True)
        print(f"compiled {name} -> {out}" + (f" (ptxas -arch={arch} ok)" if ptxas else ""))


class Driver:
    def __init__(self):
        self.cu = ctypes.CDLL("libcuda.so.1")
        self.check(self.cu.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.check(self.cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.ctx = ctypes.c_void_p()
        self.check(self.cu.cuDevicePrimaryCtxRetain(ctypes.byref(self.ctx), dev), "cuDevicePrimaryCtxRetain")
        self.check(self.cu.cuCtxSetCurrent(self.ctx), "cuCtxSetCurrent")
        name = ctypes.create_string_buffer(128)
        self.cu.cuDeviceGetName(name, 128, dev)
        self.name = name.value.decode()

    def check(self, status, what):
        if status != 0:
            msg = ctypes.c_char_p()
            self.cu.cuGetErrorString(status, ctypes.byref(msg))
            raise RuntimeError(f"{what} failed: {status} {msg.value.decode() if msg.value else ''}")

    def load(self, ptx):
        module = ctypes.c_void_p()
        log = ctypes.create_string_buffer(8192)
        opts = (ctypes.c_int * 2)(5, 6)  # CU_JIT_ERROR_LOG_BUFFER, ..._SIZE_BYTES
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(8192))
        status = self.cu.cuModuleLoadDataEx(ctypes.byref(module), ctypes.c_char_p(ptx.encode() + b"\0"), 2, opts, vals)
        if status != 0:
            raise RuntimeError(f"cuModuleLoadDataEx failed ({status}): {log.value.decode()}")
        return module

    def function(self, module, name):
        fn = ctypes.c_void_p()
        self.check(self.cu.cuModuleGetFunction(ctypes.byref(fn), module, name.encode()), f"cuModuleGetFunction({name})")
        return fn

    def to_device(self, array):
        ptr = ctypes.c_uint64()
        self.check(self.cu.cuMemAlloc_v2(ctypes.byref(ptr), max(array.nbytes, 1)), "cuMemAlloc")
        self.check(self.cu.cuMemcpyHtoD_v2(ptr, array.ctypes.data_as(ctypes.c_void_p), array.nbytes), "cuMemcpyHtoD")
        return ptr.value

    def to_host(self, ptr, like):
        out = np.empty_like(like)
        self.check(
            self.cu.cuMemcpyDtoH_v2(out.ctypes.data_as(ctypes.c_void_p), ctypes.c_uint64(ptr), out.nbytes),
            "cuMemcpyDtoH",
        )
        return out

    def launch(self, fn, grid, block, params):
        grid = grid if isinstance(grid, tuple) else (grid, 1, 1)
        block = block if isinstance(block, tuple) else (block, 1, 1)
        argv = (ctypes.c_void_p * len(params))(*[ctypes.cast(ctypes.pointer(p), ctypes.c_void_p) for p in params])
        self.check(self.cu.cuLaunchKernel(fn, *grid, *block, 0, None, argv, None), "cuLaunchKernel")
        self.check(self.cu.cuCtxSynchronize(), "cuCtxSynchronize")


class HostDriver:
    """The same interface as `Driver`, over the host target: kernels are
    the `llvm` stage of the host pipeline, JIT-compiled by pydev._pydev;
    "device" arrays are NumPy copies (as cuMemcpy would make)."""

    name = "host target"

    def __init__(self):
        from pydev import _pydev  # the wheel's native module

        self.native = _pydev
        self.arrays = {}

    def load(self, text):
        return text

    def function(self, module, name):
        return self.native.HostProgram(module, name)

    def to_device(self, array):
        copy = np.array(array, copy=True)
        self.arrays[copy.ctypes.data] = copy
        return copy.ctypes.data

    def to_host(self, ptr, like):
        return self.arrays[ptr].copy()

    def launch(self, fn, grid, block, params):
        grid = grid if isinstance(grid, tuple) else (grid, 1, 1)
        block = block if isinstance(block, tuple) else (block, 1, 1)
        fn.launch(grid, block, 0, [bytes(p) for p in params])


def compile_host(out_dir, pydevc):
    os.makedirs(out_dir, exist_ok=True)
    for name, sig in SIGNATURES.items():
        out = os.path.join(out_dir, f"{name}.llvm")
        subprocess.run(
            [
                pydevc,
                os.path.join(HERE, "kernels.py"),
                "--kernel",
                name,
                "--signature",
                sig,
                "--target",
                "host",
                "--emit",
                "llvm",
                "-o",
                out,
            ],
            check=True,
        )


def descriptor(ptr, array):
    n = array.ndim

    class Desc(ctypes.Structure):
        _fields_ = [("data", ctypes.c_uint64), ("shape", ctypes.c_uint64 * n), ("strides", ctypes.c_uint64 * n)]

    return Desc(
        ptr, (ctypes.c_uint64 * n)(*array.shape), (ctypes.c_uint64 * n)(*[s // array.itemsize for s in array.strides])
    )


def run_all(ptx_dir, host=False):
    if host:
        drv, suffix = HostDriver(), "llvm"
    else:
        suffix = "ptx"
        try:
            drv = Driver()
        except OSError as e:
            print(f"skipped: no CUDA driver ({e})")
            return 0
    rng = np.random.default_rng(1234)
    results = []

    def case(name, grid, block, arrays, scalars, check):
        ptx = open(os.path.join(ptx_dir, f"{name}.{suffix}")).read()
        fn = drv.function(drv.load(ptx), name)
        ptrs = {k: drv.to_device(v) for k, v in arrays.items()}
        params = []
        for kind, key in scalars:
            params.append(kind(key) if kind is not None else descriptor(ptrs[key], arrays[key]))
        drv.launch(fn, grid, block, params)
        outs = {k: drv.to_host(ptrs[k], v) for k, v in arrays.items()}
        ok, detail = check(outs)
        results.append((name, ok, detail))
        print(f"{'PASS' if ok else 'FAIL'}: {name} {detail}")

    n = 1 << 16
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    poison = np.full(n, np.nan, dtype=np.float32)
    case(
        "saxpy",
        64,
        256,
        {"x": x, "y": y, "out": poison.copy()},
        [(ctypes.c_float, 2.5), (None, "x"), (None, "y"), (None, "out")],
        lambda o: (
            np.allclose(o["out"], 2.5 * x + y, rtol=1e-6),
            "max err %.3g" % np.nanmax(np.abs(o["out"] - (2.5 * x + y))),
        ),
    )

    added = np.full(n - 3, np.nan, dtype=np.float32)
    case(
        "vector_add",
        (n + 255) // 256,
        256,
        {"out": added, "a": x[:-3], "b": y[:-3]},
        [(None, "out"), (None, "a"), (None, "b")],
        lambda o: (np.array_equal(o["out"], x[:-3] + y[:-3]), ""),
    )

    data = rng.integers(0, 1 << 20, n, dtype=np.int32)
    bins = np.zeros(97, dtype=np.uint32)
    case(
        "histogram",
        n // 256,
        256,
        {"bins": bins, "data": data},
        [(None, "bins"), (None, "data")],
        lambda o: (np.array_equal(o["bins"], np.bincount(data % 97, minlength=97).astype(np.uint32)), ""),
    )

    out = np.zeros(1, dtype=np.float32)
    case(
        "warp_sum",
        n // 256,
        256,
        {"out": out, "x": x},
        [(None, "out"), (None, "x")],
        lambda o: (
            abs(o["out"][0] - x.sum(dtype=np.float64)) < 1e-3 * n,
            "got %.2f want %.2f" % (o["out"][0], x.sum()),
        ),
    )

    s = rng.standard_normal(4096).astype(np.float32)
    counts = np.full(4096 // 256, -7, dtype=np.int32)
    ballots = np.full(4096 // 32, -7, dtype=np.int32)
    case(
        "block_votes",
        4096 // 256,
        256,
        {"counts": counts, "ballots": ballots, "x": s},
        [(None, "counts"), (None, "ballots"), (None, "x")],
        lambda o: (
            np.array_equal(o["counts"], (s > 0).reshape(-1, 256).sum(1))
            and np.array_equal(o["ballots"], (s > 0).reshape(-1, 32).sum(1)),
            "",
        ),
    )

    a = rng.integers(-1000, 1000, 4096, dtype=np.int32)
    b = rng.integers(1, 50, 4096, dtype=np.int32) * rng.choice([-1, 1], 4096).astype(np.int32)
    res = np.full((4096, 5), -12345, dtype=np.int32)
    want = np.stack([a // b, a % b, np.maximum(a, b), np.abs(a), (b % 7) ** 3], axis=1)
    case(
        "python_ints",
        16,
        256,
        {"out": res, "a": a, "b": b},
        [(None, "out"), (None, "a"), (None, "b")],
        lambda o: (np.array_equal(o["out"], want), ""),
    )

    sums = np.full(n // 256, np.nan, dtype=np.float32)
    case(
        "block_sum",
        n // 256,
        256,
        {"out": sums, "x": x},
        [(None, "out"), (None, "x")],
        lambda o: (np.allclose(o["out"], x.reshape(-1, 256).sum(1), rtol=1e-4), ""),
    )

    m = rng.random((300, 200), dtype=np.float32)
    mt = np.full((200, 300), np.nan, dtype=np.float32)
    case(
        "transpose",
        (7, 10, 1),
        (32, 32, 1),
        {"out": mt, "inp": m},
        [(None, "out"), (None, "inp")],
        lambda o: (np.array_equal(o["out"], m.T), ""),
    )

    z = rng.random(1024 * 4, dtype=np.float32)
    scans = np.full(1024 * 4, np.nan, dtype=np.float32)
    case(
        "local_scan",
        4,
        256,
        {"out": scans, "x": z},
        [(None, "out"), (None, "x")],
        lambda o: (np.allclose(o["out"], np.cumsum(z.reshape(-1, 4), axis=1).ravel(), rtol=1e-6), ""),
    )

    # An array of structs holding a float32x4: the CUDA C++ layout as a NumPy dtype.
    particle = np.dtype(
        {"names": ["pos", "mass"], "formats": [("<f4", (4,)), "<f4"], "offsets": [0, 16], "itemsize": 32}
    )
    ps = np.zeros(1000, dtype=particle)
    ps["pos"] = rng.random((1000, 4), dtype=np.float32)
    ps["mass"] = rng.random(1000, dtype=np.float32)
    want_ps = ps.copy()
    want_ps["pos"][:, 0] += np.float32(0.5)
    want_ps["pos"][:, 3] *= ps["mass"]
    case(
        "push",
        4,
        256,
        {"ps": ps},
        [(None, "ps"), (ctypes.c_float, 0.5)],
        lambda o: (np.allclose(o["ps"]["pos"], want_ps["pos"]) and np.array_equal(o["ps"]["mass"], ps["mass"]), ""),
    )

    u = rng.random((130, 70), dtype=np.float32)
    lap = np.full_like(u, np.nan)
    want_lap = lap.copy()
    want_lap[1:-1, 1:-1] = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    case(
        "stencil",
        (9, 5, 1),
        (16, 16, 1),
        {"out": lap, "u": u},
        [(None, "out"), (None, "u")],
        lambda o: (np.allclose(o["out"], want_lap, equal_nan=True, rtol=1e-5), ""),
    )

    w = rng.standard_normal(5000).astype(np.float32)
    w[rng.choice(5000, 50, replace=False)] = np.nan
    ext = np.array([-np.inf, np.inf, -np.inf, np.inf], dtype=np.float32)
    want_ext = np.array([np.nanmax(w), np.nanmin(w), np.nanmax(w), np.nanmin(w)], dtype=np.float32)
    case(
        "float_extrema",
        20,
        256,
        {"out": ext, "x": w},
        [(None, "out"), (None, "x")],
        lambda o: (np.array_equal(o["out"], want_ext), "got %s want %s" % (o["out"], want_ext)),
    )

    case(
        "handoff",
        2,
        32,
        {"flag": np.zeros(1, dtype=np.int32), "out": np.full(2, -1, dtype=np.int32)},
        [(None, "flag"), (None, "out")],
        lambda o: (list(o["out"]) == [42, 43] and o["flag"][0] == 1, str(o["out"])),
    )

    va = rng.random(101, dtype=np.float32)
    vm = rng.random((12, 9), dtype=np.float32)
    vo = np.full((128, 5), np.nan, dtype=np.float32)
    want_v = vo.copy()
    for col, src in enumerate([va[::-1], va[1:-1:2], vm[2], vm[:, 1], vm.reshape(vm.size)]):
        want_v[: src.size, col] = src
    case(
        "views",
        1,
        128,
        {"out": vo, "a": va, "m": vm},
        [(None, "out"), (None, "a"), (None, "m")],
        lambda o: (np.array_equal(o["out"], want_v, equal_nan=True), ""),
    )

    zc = (rng.standard_normal(3000) + 1j * rng.standard_normal(3000)).astype(np.complex64)
    wc = (rng.standard_normal(3000) + 1j * rng.standard_normal(3000)).astype(np.complex64)
    xr = rng.random(3000, dtype=np.float32) * 4
    cm = np.full((3000, 3), np.nan, dtype=np.float32)
    want_cm = np.stack([np.abs(zc * wc + 1j), (zc / wc).imag, np.sin(xr) + np.exp(xr) * np.sqrt(xr)], axis=1).astype(
        np.float32
    )
    case(
        "complex_math",
        12,
        256,
        {"out": cm, "z": zc, "w": wc, "x": xr},
        [(None, "out"), (None, "z"), (None, "w"), (None, "x")],
        lambda o: (
            np.allclose(o["out"], want_cm, rtol=2e-5, atol=1e-5),
            "max err %.3g" % np.max(np.abs(o["out"] - want_cm)),
        ),
    )

    sx = rng.random(128, dtype=np.float32)
    sh = np.full((128, 8), np.nan, dtype=np.float32)
    lane = np.arange(128) % 32
    base = np.arange(128) - lane
    xor1 = base + (lane ^ 1)
    down = np.where(lane < 31, np.arange(128) + 1, np.arange(128))
    up = np.where(lane >= 1, np.arange(128) - 1, np.arange(128))
    want_sh = np.stack([sx[xor1], 2 * sx[xor1], down, sx[down], base, sx[base] + 1, sx[up], -sx[up]], axis=1).astype(
        np.float32
    )
    case(
        "shuffle_aggregates",
        2,
        64,
        {"out": sh, "x": sx},
        [(None, "out"), (None, "x")],
        lambda o: (np.array_equal(o["out"], want_sh), ""),
    )

    rm = rng.random((300, 7), dtype=np.float32)
    rs = np.full(300, np.nan, dtype=np.float32)
    case(
        "row_sums",
        3,
        128,
        {"out": rs, "m": rm},
        [(None, "out"), (None, "m")],
        lambda o: (np.allclose(o["out"], rm.sum(1), rtol=1e-6), ""),
    )

    aa = rng.random(500, dtype=np.float32)
    ao = np.full(500, np.nan, dtype=np.float32)
    case(
        "array_args",
        4,
        128,
        {"out": ao, "a": aa},
        [(None, "out"), (None, "a"), (ctypes.c_int32, 3)],
        lambda o: (np.array_equal(o["out"], aa + 1), ""),
    )

    import ml_dtypes  # the reference float8 conversions (make setup installs it)

    f8x = np.concatenate(
        [rng.standard_normal(500).astype(np.float32) * 10, np.float32([0, -0.0, 448, 460, 1e-3, 2.0**-9, 57344])]
    )
    f8o = np.full((f8x.size, 3), np.nan, dtype=np.float32)
    e4 = f8x.astype(ml_dtypes.float8_e4m3fn)
    want_f8 = np.stack(
        [
            e4.astype(np.float32),
            f8x.astype(ml_dtypes.float8_e5m2).astype(np.float32),
            (e4.astype(np.float32) * 2).astype(ml_dtypes.float8_e4m3fn).astype(np.float32),
        ],
        axis=1,
    )
    case(
        "float8_round_trip",
        3,
        256,
        {"out": f8o, "x": f8x},
        [(None, "out"), (None, "x")],
        lambda o: (
            np.array_equal(o["out"], want_f8, equal_nan=True),
            "mismatches: %d" % (~((o["out"] == want_f8) | (np.isnan(o["out"]) & np.isnan(want_f8)))).sum(),
        ),
    )

    # The compute-bound kernels of bench/gpu.py, at small sizes.
    pos = rng.uniform(-1, 1, (300, 4)).astype(np.float32)
    pos[:, 3] = rng.uniform(0.5, 1.0, 300)
    d = pos[None, :, :3].astype(np.float64) - pos[:, None, :3]
    inv = 1.0 / np.sqrt((d * d).sum(-1) + 0.01)
    want_acc = (d * (pos[None, :, 3] * inv**3)[..., None]).sum(1)
    case(
        "nbody",
        2,
        256,
        {"acc": np.full((300, 3), np.nan, dtype=np.float32), "pos": pos},
        [(None, "acc"), (None, "pos")],
        lambda o: (np.allclose(o["acc"], want_acc, rtol=1e-4, atol=1e-3), ""),
    )

    ma = rng.standard_normal((70, 45)).astype(np.float32)
    mb = rng.standard_normal((45, 50)).astype(np.float32)
    case(
        "matmul",
        (4, 5, 1),
        (16, 16, 1),
        {"c": np.full((70, 50), np.nan, dtype=np.float32), "a": ma, "b": mb},
        [(None, "c"), (None, "a"), (None, "b")],
        lambda o: (np.allclose(o["c"], ma.astype(np.float64) @ mb, rtol=1e-4, atol=1e-4), ""),
    )

    h, w, step = 48, 64, np.float32(2.5 / 64)
    cx = np.broadcast_to(np.float32(-2.0) + np.arange(w, dtype=np.float32) * step, (h, w))
    cy = np.broadcast_to(np.float32(-0.9375) + np.arange(h, dtype=np.float32)[:, None] * step, (h, w))
    zx, zy = np.zeros_like(cx), np.zeros_like(cx)
    escape, alive = np.zeros((h, w), dtype=np.int32), np.ones((h, w), dtype=bool)
    for _ in range(200):
        zx2, zy2 = zx * zx, zy * zy
        alive &= ~(zx2 + zy2 > np.float32(4.0))
        zy, zx = np.where(alive, np.float32(2.0) * zx * zy + cy, zy), np.where(alive, zx2 - zy2 + cx, zx)
        escape += alive
    case(
        "mandelbrot",
        (4, 3, 1),
        (16, 16, 1),
        {"out": np.full((h, w), -1, dtype=np.int32)},
        [
            (None, "out"),
            (ctypes.c_float, -2.0),
            (ctypes.c_float, -0.9375),
            (ctypes.c_float, step),
            (ctypes.c_int32, 200),
        ],
        # fused multiply-adds move the escape of a few pixels on the edge of the set
        lambda o: ((o["out"] != escape).mean() < 0.01, "%d of %d pixels differ" % ((o["out"] != escape).sum(), h * w)),
    )

    sm = (4 * rng.standard_normal((5, 509))).astype(np.float32)
    e = np.exp(sm.astype(np.float64) - sm.max(1, keepdims=True))
    case(
        "softmax",
        5,
        256,
        {"out": np.full_like(sm, np.nan), "x": sm},
        [(None, "out"), (None, "x")],
        lambda o: (np.allclose(o["out"], e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-9), ""),
    )

    failed = [r for r in results if not r[1]]
    print(f"{drv.name}: {len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--compile", metavar="DIR")
    p.add_argument("--run", metavar="DIR")
    p.add_argument("--host", metavar="DIR", help="compile for the host target into DIR and run there")
    p.add_argument("--pydevc", default=os.path.join(ROOT, "target", "debug", "pydevc"))
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--assemble", action="store_true", help="also assemble each PTX with ptxas for --arch")
    args = p.parse_args()
    if args.compile:
        compile_all(args.compile, args.pydevc, args.arch, args.assemble)
    if args.run:
        return run_all(args.run)
    if args.host:
        compile_host(args.host, args.pydevc)
        return run_all(args.host, host=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
