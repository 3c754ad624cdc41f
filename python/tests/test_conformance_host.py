"""Conformance on the host target: the rows of test/conformance/MATRIX.md
whose `host target` cell had no run test, each run against NumPy/Python
results. Kernels are in conformance_kernels.py; fresh random inputs from
fixed seeds, outputs poisoned (NaN or a sentinel) before each launch.

Constructs that the compiler rejects or gets wrong are strict xfails whose
reason is the error or the wrong value."""

import importlib.util
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("pydev._pydev")

import cuda.device as device  # noqa: E402
import pydev  # noqa: E402
import toolchain  # noqa: E402

import conformance_kernels as K  # noqa: E402
import kernels  # noqa: E402

try:  # bfloat16 and float8 on the host (optional, as in pydev)
    import ml_dtypes
except ImportError:  # pragma: no cover - depends on the environment
    ml_dtypes = None

needs_ml_dtypes = pytest.mark.skipif(ml_dtypes is None, reason="bfloat16 and float8 on the host need ml_dtypes")


# The same tests on a GPU, by hand on a machine with one:
#   PYDEV_CONFORMANCE_TARGET=cuda python3 -m pytest python/tests/test_conformance_host.py
# launch() then copies NumPy arguments to the device and the results back.
TARGET = os.environ.get("PYDEV_CONFORMANCE_TARGET", "host")
if TARGET not in ("host", "cuda"):
    raise ValueError(f"PYDEV_CONFORMANCE_TARGET must be host or cuda, got {TARGET!r}")
if TARGET == "cuda" and not pydev._native.cuda_status()[0]:
    pytest.skip(f"PYDEV_CONFORMANCE_TARGET=cuda, but no GPU: {pydev._native.cuda_status()[1]}", allow_module_level=True)

# Tests of what only the host target does: host-memory producers, direct
# launches of host arrays, the host's run-time error reports.
host_only = pytest.mark.skipif(TARGET != "host", reason="checks what only the host target does")


@pytest.fixture(autouse=True)
def target(monkeypatch):
    monkeypatch.setenv("PYDEV_TARGET", TARGET)


def rng(seed):
    return np.random.default_rng(seed)


def launch(kernel, *args, grid=1, block=1, shared=0, stream=None):
    s = stream if stream is not None else pydev.default_stream()
    if TARGET == "cuda":
        on_device = [pydev.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
        device.launch(kernel, *on_device, grid=grid, block=block, stream=s, shared=shared)
        s.synchronize()
        for a, d in zip(args, on_device):
            if isinstance(a, np.ndarray) and a.flags.writeable:
                a[...] = d.copy_to_host()
        return
    device.launch(kernel, *args, grid=grid, block=block, stream=s, shared=shared)
    s.synchronize()


ML_FLOATS = (
    [] if ml_dtypes is None else [np.dtype(getattr(ml_dtypes, t)) for t in ("bfloat16", "float8_e4m3fn", "float8_e5m2")]
)


def poisoned(shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "fc" or dtype in ML_FLOATS:
        return np.full(shape, np.nan, dtype)
    if dtype.kind == "u":
        return np.full(shape, np.iinfo(dtype).max - 3, dtype)
    return np.full(shape, np.iinfo(dtype).min + 3, dtype)


def host_llvm_ir(kernel, args):
    return pydev.compile(kernel, args, target="host", stage="llvm-ir")


# --- Fixed-Format Numbers -----------------------------------------------------------


def check_int_arith(dtype, a, b):
    n = a.size
    out = poisoned((n, 9), dtype)
    launch(K.int_arith, out, a, b, grid=(n + 63) // 64, block=64)
    t = np.dtype(dtype).type
    want = np.stack(
        [a + b, a - b, b * b, a // b, a % b, np.maximum(a, b), np.minimum(a, b), (a < b).astype(dtype), a + t(1)],
        axis=1,
    ).astype(dtype)
    np.testing.assert_array_equal(out, want)


def test_int8_numbers():
    r = rng(101)
    a = r.integers(-60, 61, 300).astype(np.int8)
    b = r.integers(1, 12, 300).astype(np.int8) * r.choice(np.array([-1, 1], np.int8), 300)
    check_int_arith(np.int8, a, b)


def test_uint8_numbers():
    r = rng(102)
    b = r.integers(1, 16, 300).astype(np.uint8)
    a = (b + r.integers(0, 240 - 15, 300)).astype(np.uint8)
    check_int_arith(np.uint8, a, b)


def test_uint16_numbers():
    r = rng(103)
    b = r.integers(1, 256, 300).astype(np.uint16)
    a = (b + r.integers(0, 65000 - 255, 300)).astype(np.uint16)
    check_int_arith(np.uint16, a, b)


def test_uint64_numbers():
    # Values above 2**63: unsigned comparison, division and remainder.
    r = rng(104)
    b = r.integers(1, 1 << 20, 300, dtype=np.uint64)
    a = r.integers(1 << 63, (1 << 64) - (1 << 21), 300, dtype=np.uint64)
    a[:10] = b[:10] - np.uint64(1)  # a few a < b
    check_int_arith(np.uint64, a, b)


def check_float_arith(dtype, a, b):
    n = a.size
    out = poisoned((n, 7), dtype)
    launch(K.float_arith, out, a, b, grid=(n + 63) // 64, block=64)
    t = np.dtype(dtype).type
    want = np.stack([a + b, a - b, a * b, a / b, -a, np.maximum(a, b), a * t(0.5)], axis=1)
    np.testing.assert_array_equal(out.astype(np.float32), want.astype(np.float32))


def test_float16_numbers():
    r = rng(105)
    a = r.uniform(-4, 4, 300).astype(np.float16)
    b = (r.uniform(0.25, 4, 300) * r.choice([-1, 1], 300)).astype(np.float16)
    check_float_arith(np.float16, a, b)


@needs_ml_dtypes
def test_bfloat16_numbers():
    r = rng(106)
    bf = ml_dtypes.bfloat16
    a = r.uniform(-4, 4, 300).astype(np.float32).astype(bf)
    b = (r.uniform(0.25, 4, 300) * r.choice([-1, 1], 300)).astype(np.float32).astype(bf)
    check_float_arith(bf, a, b)


def test_complex128_numbers():
    r = rng(107)
    n = 200
    z = r.standard_normal(n) + 1j * r.standard_normal(n)
    w = r.standard_normal(n) + 1j * r.standard_normal(n)
    out = poisoned((n, 5), np.complex128)
    mag = poisoned((n, 2), np.float64)
    launch(K.complex128_arith, out, mag, z, w, grid=4, block=64)
    np.testing.assert_array_equal(out[:, :2], np.stack([z + w, z - w], axis=1))
    np.testing.assert_allclose(out[:, 2], z * w, rtol=1e-15)
    np.testing.assert_allclose(out[:, 3], z / w, rtol=1e-14)
    np.testing.assert_array_equal(out[:, 4], w.imag.astype(np.complex128))
    np.testing.assert_allclose(mag[:, 0], np.abs(z), rtol=1e-15)
    np.testing.assert_allclose(mag[:, 1], (z * w).imag, rtol=1e-14, atol=1e-15)


def check_float8(kernel, f8, seed):
    r = rng(seed)
    n = 256
    x = r.uniform(-8, 8, n).astype(np.float32)
    y = r.uniform(-8, 8, n).astype(np.float32)
    out = poisoned((n, 5), np.float32)
    launch(kernel, out, x, y, grid=4, block=64)
    a, b = x.astype(f8), y.astype(f8)
    want = np.stack(
        [
            a.astype(np.float32),
            (a + b).astype(np.float32),
            (a - b).astype(np.float32),
            (a * b).astype(np.float32),
            (a < b).astype(np.float32),
        ],
        axis=1,
    )
    np.testing.assert_array_equal(out, want)


@needs_ml_dtypes
def test_float8e4m3_numbers():
    check_float8(K.float8e4m3_arith, ml_dtypes.float8_e4m3fn, 108)


@needs_ml_dtypes
def test_float8e5m2_numbers():
    check_float8(K.float8e5m2_arith, ml_dtypes.float8_e5m2, 109)


@needs_ml_dtypes
@pytest.mark.parametrize("name", ["float8_e4m3fn", "float8_e5m2"])
def test_float8_arrays(name):
    f8 = getattr(ml_dtypes, name)
    r = rng(110)
    a = r.uniform(-8, 8, 100).astype(np.float32).astype(f8)
    b = r.uniform(-8, 8, 100).astype(np.float32).astype(f8)
    out = poisoned((100, 2), f8)
    launch(K.float8_arrays, out, a, b, grid=2, block=64)
    np.testing.assert_array_equal(out.astype(np.float32), np.stack([a + b, a * b], axis=1).astype(np.float32))


# --- Vectors ------------------------------------------------------------------------


def test_vectors_are_immutable():
    r = rng(111)
    v0 = r.uniform(-10, 10, 4).astype(np.float32)
    k = np.float32(r.uniform(1, 2))
    v = device.float32x4(*v0)
    out = poisoned(13, np.float32)
    launch(K.vector_rebind, out, v, k, 2)
    want = [*v0, v0[0], k, v0[2], k * np.float32(2), k, k * np.float32(3), v0[3], 3, 9]
    np.testing.assert_array_equal(out, np.array(want, np.float32))
    # The host-side argument is untouched: it went by value.
    np.testing.assert_array_equal(np.array(list(v), np.float32), v0)


VECTOR_SEEDS = {
    "int8": 120,
    "int16": 121,
    "int32": 122,
    "int64": 123,
    "uint8": 124,
    "uint16": 125,
    "uint32": 126,
    "uint64": 127,
    "float16": 128,
    "float64": 129,
}


def vector_values(name, n):
    r = rng(VECTOR_SEEDS[name])
    dt = np.dtype(name)
    if dt.kind == "f":
        return r.uniform(-100, 100, n).astype(dt)
    info = np.iinfo(dt)
    return r.integers(info.min, info.max, n, dtype=dt, endpoint=True)


def check_vectors_in_device_code(name):
    a = vector_values(name, 4)
    out = poisoned(10, a.dtype)
    launch(getattr(K, f"build_{name}"), out, a)
    np.testing.assert_array_equal(out, a[[0, 0, 1, 0, 1, 2, 0, 1, 2, 3]])


def check_vector_arguments(name, repeat=32):
    # Vector arguments of every size, passed by value with their CUDA C++
    # layout; each launched repeatedly (argument buffers land at varying
    # alignments).
    dt = np.dtype(name)
    for n in range(1, 5):
        cls = getattr(device, f"{name}x{n}")
        vals = vector_values(name, n)
        want = np.array([*vals, vals[0], n], dtype=dt)
        for _ in range(repeat):
            out = poisoned(n + 2, dt)
            launch(K.vector_lanes, out, cls(*vals))
            np.testing.assert_array_equal(out, want, err_msg=f"{name}x{n}")


WIDE_VECTOR_ARGS = (
    "LaunchError: kernel 'vector_lanes' failed on the host: an invalid memory access at address 0x0 "
    "(about half the launches of a {t}x3 or {t}x4 argument: 24/32-byte vectors of 8-byte lanes "
    "read from an argument buffer that is not 32-byte aligned)"
)


def test_int8xN_vectors():
    check_vectors_in_device_code("int8")


def test_int8xN_vector_arguments():
    check_vector_arguments("int8")


def test_int16xN_vectors():
    check_vectors_in_device_code("int16")


def test_int16xN_vector_arguments():
    check_vector_arguments("int16")


def test_int32xN_vectors():
    check_vectors_in_device_code("int32")


def test_int32xN_vector_arguments():
    check_vector_arguments("int32")


def test_int64xN_vectors():
    check_vectors_in_device_code("int64")


def test_int64xN_vector_arguments():
    check_vector_arguments("int64")


def test_uint8xN_vectors():
    check_vectors_in_device_code("uint8")


def test_uint8xN_vector_arguments():
    check_vector_arguments("uint8")


def test_uint16xN_vectors():
    check_vectors_in_device_code("uint16")


def test_uint16xN_vector_arguments():
    check_vector_arguments("uint16")


def test_uint32xN_vectors():
    check_vectors_in_device_code("uint32")


def test_uint32xN_vector_arguments():
    check_vector_arguments("uint32")


def test_uint64xN_vectors():
    check_vectors_in_device_code("uint64")


def test_uint64xN_vector_arguments():
    check_vector_arguments("uint64")


def test_float16xN_vectors():
    check_vectors_in_device_code("float16")


def test_float16xN_vector_arguments():
    check_vector_arguments("float16")


def test_float64xN_vectors():
    check_vectors_in_device_code("float64")


def test_float64xN_vector_arguments():
    check_vector_arguments("float64")


def check_device_only_vectors(kernel, lane_dtype, seed):
    a = rng(seed).uniform(-6, 6, 4).astype(np.float32)
    out = poisoned(10, np.float32)
    launch(kernel, out, a)
    lanes = a.astype(lane_dtype).astype(np.float32)
    np.testing.assert_array_equal(out, lanes[[0, 0, 1, 0, 1, 2, 0, 1, 2, 3]])


@needs_ml_dtypes
def test_bfloat16xN_vectors():
    check_device_only_vectors(K.build_bfloat16, ml_dtypes.bfloat16, 130)


@needs_ml_dtypes
def test_float8e4m3xN_vectors():
    check_device_only_vectors(K.build_float8e4m3, ml_dtypes.float8_e4m3fn, 131)


@needs_ml_dtypes
def test_float8e5m2xN_vectors():
    check_device_only_vectors(K.build_float8e5m2, ml_dtypes.float8_e5m2, 132)


@needs_ml_dtypes
def test_float8_vectors_in_shared_arrays():
    x = rng(158).uniform(-6, 6, 128).astype(np.float32)
    out = poisoned((32, 3), np.float32)
    launch(K.float8_vectors, out, x, block=32)
    e4 = x.astype(ml_dtypes.float8_e4m3fn).astype(np.float32).reshape(32, 4)
    e5 = x.astype(ml_dtypes.float8_e5m2).astype(np.float32).reshape(32, 4)
    i = np.arange(32)
    v = e4[31 - i].copy()
    np.testing.assert_array_equal(out[:, 0], v[i, i % 4])
    v[i, i % 4] = (x[4 * i] * np.float32(2)).astype(ml_dtypes.float8_e4m3fn).astype(np.float32)
    acc = np.zeros(32, np.float32)
    for k in range(4):
        acc = acc + v[:, k]
    np.testing.assert_array_equal(out[:, 1], acc)
    np.testing.assert_array_equal(out[:, 2], e5[31 - i, 1])


# --- Numeric Promotion: bit operations --------------------------------------------


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64])
def test_bit_operations_and_shifts(dtype):
    r = rng(140)
    info = np.iinfo(dtype)
    bits = info.bits
    n = 256
    a = r.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    b = r.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    s = r.integers(0, bits - 4, n).astype(dtype)  # (a & 15) << s stays in the format
    out = poisoned((n, 7), dtype)
    launch(K.bit_ops, out, a, b, s, grid=4, block=64)
    t = np.dtype(dtype).type
    x = ((a & b) | t(1)) ^ t(2)
    want = np.stack([a & b, a | b, a ^ b, ~a, (a & t(15)) << s, a >> s, x >> t(1)], axis=1)
    np.testing.assert_array_equal(out, want)


# --- Tuples -------------------------------------------------------------------------


def test_tuple_interop_layout():
    # Launch packs a tuple as a C struct (natural alignment, nested tuples
    # as nested structs); the kernel must read the same members.
    t = (np.int8(-3), np.int32(7), np.int16(300), np.float32(2.5), (np.int8(5), np.int64(2**40 + 1)))
    out = poisoned(7, np.float64)
    launch(K.tuple_arg, out, t)
    np.testing.assert_array_equal(out, [-3, 7, 300, 2.5, 5, 2**40 + 1, 5])
    t = (np.int8(-3), np.int64(-(2**50)), np.int8(1), 2.5, (np.int8(5), np.int16(-9)))
    out = poisoned(7, np.float64)
    launch(K.tuple_arg, out, t)
    np.testing.assert_array_equal(out, [-3, -(2**50), 1, 2.5, 5, -9, 5])


def test_tuple_nested_alignment():
    t = (np.int8(-3), np.int64(7), np.int8(1), np.float32(2.5), (np.int8(5), np.int64(2**40 + 1)))
    out = poisoned(7, np.float64)
    launch(K.tuple_arg, out, t)
    np.testing.assert_array_equal(out, [-3, 7, 1, 2.5, 5, 2**40 + 1, 5])


def test_tuple_float64_member():
    t = (np.int8(-3), np.float64(0.1), np.int16(300), np.float32(2.5), (np.int8(5), np.int64(2**40 + 1)))
    out = poisoned(7, np.float64)
    launch(K.tuple_arg, out, t)
    np.testing.assert_array_equal(out, [-3, 0.1, 300, 2.5, 5, 2**40 + 1, 5])


def test_tuple_to_interop_function():
    x = rng(141).uniform(-1, 1, 64).astype(np.float32)
    out = poisoned(64, np.float64)
    launch(K.tuple_interop, out, x, block=64)
    np.testing.assert_allclose(out, np.arange(64) + x.astype(np.float64) + 3, rtol=1e-6)


# --- User-Defined Types -------------------------------------------------------------


def test_struct_methods():
    r = rng(150)
    n = 100
    xs, ys = r.uniform(-2, 2, n).astype(np.float32), r.uniform(-2, 2, n).astype(np.float32)
    out = poisoned((n, 4), np.float32)
    launch(K.struct_methods, out, xs, ys, 3, grid=2, block=64)
    wx, wy = xs * np.float32(3), ys * np.float32(3)
    want = np.stack([xs * wx + ys * wy, wx * wx + wy * wy, wx * xs + wy * ys, wx], axis=1)
    np.testing.assert_allclose(out, want, rtol=1e-6)
    # Methods are heterogeneous: the same on the host.
    v = K.Vec2(1.0, 2.0)
    assert v.scaled(2).norm2() == 20.0


ATOMIC_FIELDS_SOURCE = """
import cuda.device as device


@device.struct
class TicketMutex:
    line: device.Atomic(int, align=16)
    current: device.Atomic(int, align=16)

    @device.func
    def lock(self):
        my = self.line.add(1)
        while True:
            now = self.current.load()
            if now == my:
                break
            self.current.wait(now)

    @device.func
    def unlock(self):
        self.current.add(1)
        self.current.notify_all()


@device.kernel
def ticket_counter(mutexes, out):
    m = mutexes[0]
    m.lock()
    out[0] += 1
    m.unlock()
"""


def test_atomic_struct_fields(tmp_path):
    # In its own file: the unsupported struct makes every kernel of a file fail.
    path = tmp_path / "conformance_atomic_fields.py"
    path.write_text(ATOMIC_FIELDS_SOURCE)
    spec = importlib.util.spec_from_file_location("conformance_atomic_fields", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    try:
        spec.loader.exec_module(mod)
        assert mod.TicketMutex.dtype.itemsize == 32
        mutexes = np.zeros(1, mod.TicketMutex.dtype)
        out = np.zeros(1, np.int32)
        launch(mod.ticket_counter, mutexes, out, grid=2, block=32)
        assert out[0] == 64
        # Every thread took a ticket and released the lock once.
        assert mutexes["line"][0] == 64 and mutexes["current"][0] == 64
    finally:
        sys.modules.pop(spec.name, None)


def test_struct_align():
    # NumPy dtypes cannot carry alignment 16 for two floats: the itemsize shows it.
    assert K.Complex.dtype.itemsize == 16
    r = rng(151)
    n = 100
    cs = np.zeros(n, K.Complex.dtype)
    cs["real"], cs["imag"] = r.uniform(-1, 1, n), r.uniform(-1, 1, n)
    cs0 = cs.copy()
    out = poisoned(n, np.float32)
    launch(K.aligned_structs, out, cs, K.Complex(0.5, -1.5), grid=2, block=64)
    np.testing.assert_array_equal(out, cs0["real"] + cs0["imag"] * np.float32(2) + np.float32(0.5))
    np.testing.assert_array_equal(cs["real"], cs0["imag"])
    np.testing.assert_array_equal(cs["imag"], np.full(n, -1.5, np.float32))


def test_struct_align_nested():
    assert K.Holder.dtype.fields["c"][1] == 16 and K.Holder.dtype.itemsize == 32
    r = rng(153)
    n = 100
    hs = np.zeros(n, K.Holder.dtype)
    hs["tag"] = r.integers(-100, 100, n)
    hs["c"]["real"], hs["c"]["imag"] = r.uniform(-1, 1, n), r.uniform(-1, 1, n)
    hs0 = hs.copy()
    out = poisoned(n, np.float32)
    launch(K.aligned_nested, out, hs, K.Complex(0.5, -1.5), grid=2, block=64)
    np.testing.assert_array_equal(out, hs0["tag"] + hs0["c"]["imag"])
    np.testing.assert_array_equal(hs["tag"], hs0["tag"])
    np.testing.assert_array_equal(hs["c"]["real"], hs0["c"]["real"] + np.float32(0.5))
    np.testing.assert_array_equal(hs["c"]["imag"], np.full(n, -1.5, np.float32))


def test_align_types():
    dt = K.Padded.dtype
    assert [dt.fields[f][1] for f in ("a", "b", "c")] == [0, 16, 32] and dt.itemsize == 64
    r = rng(152)
    n = 50
    ps = np.zeros(n, dt)
    ps["a"] = r.integers(-100, 100, n)
    ps["b"] = r.uniform(-1, 1, n)
    ps["c"]["real"], ps["c"]["imag"] = r.uniform(-1, 1, n), r.uniform(-1, 1, n)
    ps0 = ps.copy()
    x = np.float32(0.25)
    out = poisoned((n, 2), np.float32)
    launch(K.aligned_types, out, ps, x, block=64)
    a = ps0["a"].astype(np.float32)
    want0 = a + ps0["b"] + ps0["c"]["real"] * np.float32(2) + ps0["c"]["imag"] * np.float32(4)
    np.testing.assert_allclose(out[:, 0], want0, rtol=1e-6)
    np.testing.assert_array_equal(out[:, 1], x * np.float32(3) + a)
    np.testing.assert_array_equal(ps["a"], ps0["a"])
    np.testing.assert_array_equal(ps["b"], ps0["b"] + x)
    np.testing.assert_array_equal(ps["c"]["real"], ps0["c"]["imag"])
    np.testing.assert_array_equal(ps["c"]["imag"], ps0["c"]["real"])


def test_align_shared_array():
    x = rng(154).random(64, dtype=np.float32)
    out = poisoned(64, np.float32)
    launch(K.aligned_shared, out, x, block=64)
    np.testing.assert_array_equal(out, (x * np.float32(2))[::-1])


def test_align_field_takes_plain_struct():
    ps = np.zeros(8, K.Padded.dtype)
    ps["c"]["real"], ps["c"]["imag"] = np.arange(8), -np.arange(8)
    launch(K.aligned_field_from_plain, ps, block=8)
    np.testing.assert_array_equal(ps["c"]["real"], -np.arange(8, dtype=np.float32))
    np.testing.assert_array_equal(ps["c"]["imag"], np.arange(8, dtype=np.float32))


def test_align_field_to_plain_struct():
    r = rng(159)
    ps = np.zeros(40, K.Padded.dtype)
    ps["a"] = r.integers(-100, 100, 40)
    ps["c"]["real"], ps["c"]["imag"] = r.uniform(-1, 1, 40), r.uniform(-1, 1, 40)
    cs = np.zeros(40, K.Complex.dtype)
    cs["real"], cs["imag"] = np.nan, np.nan
    launch(K.aligned_field_to_plain, cs, ps, block=64)
    np.testing.assert_array_equal(cs["real"], ps["c"]["real"])
    np.testing.assert_array_equal(cs["imag"], ps["c"]["imag"])


def test_align_structs_by_value():
    # Over-aligned structs as kernel parameters, with the CUDA C++ layout.
    assert (K.Holder.dtype.itemsize, K.Padded.dtype.itemsize, K.Quad.dtype.itemsize) == (32, 64, 16)
    r = rng(157)
    # Quarters: every sum and product below is exact in float32 (FMA or not).
    v = (r.integers(-64, 64, 10) / 4).astype(np.float32)
    t = np.int8(r.integers(-100, 100))
    c = K.Complex(v[0], v[1])
    h = K.Holder(np.int8(r.integers(-100, 100)), K.Complex(v[2], v[3]))
    p = K.Padded(np.int8(r.integers(-100, 100)), v[4], K.Complex(v[5], v[6]))
    q = K.Quad(v[7], v[8], v[9], v[0] * np.float32(3))
    x = np.float32(r.integers(-64, 64) / 4)
    n = 40
    out = poisoned((n, 5), np.float32)
    launch(K.aligned_by_value, out, t, c, h, p, q, x, block=64)
    k = np.arange(n, dtype=np.float32)
    f = np.float32
    want = np.stack(
        [
            v[0] * k + v[1],
            f(h.tag) + v[2] * k + v[3],
            f(p.a) + v[4] * k + v[5] - v[6],
            v[7] + v[8] * k + v[9] - v[0] * f(3),
            x * k + f(t),
        ],
        axis=1,
    )
    np.testing.assert_array_equal(out, want)


def test_numbers_are_zero_dimensional_arrays():
    x = rng(156).uniform(-100, 100, 50).astype(np.float32)
    out = poisoned((50, 3), np.float64)
    launch(K.number_attributes, out, x, block=64)
    x64 = x.astype(np.float64)
    np.testing.assert_array_equal(out, np.stack([np.ones(50), x64 * 0.5, (x64 * 2.0).astype(np.float32)], axis=1))


def test_numbers_view_index_reshape_as_zero_dimensional_arrays():
    x = rng(157).uniform(-100, 100, 50).astype(np.float32)
    bits = poisoned((50, 2), np.int32)
    out = poisoned(50, np.float32)
    launch(K.number_views, bits, out, x, block=64)
    np.testing.assert_array_equal(bits[:, 0], x.view(np.int32))
    np.testing.assert_array_equal(bits[:, 1], x.astype(np.float16).view(np.uint16).astype(np.int32))
    np.testing.assert_array_equal(out, x * np.float32(2.0) + x)


# --- Arrays ---------------------------------------------------------------------------


class DeviceView:
    """A view made on the device, not copied: NumPy view `v` of `base` as
    the CUDA Array Interface of the same elements of `d`, the device copy of
    `base` (which has `base`'s layout)."""

    def __init__(self, d, base, v):
        assert d.strides == base.strides, (d.strides, base.strides)
        cai = d.__cuda_array_interface__
        self.d = d  # keeps the memory alive
        self.cai = {
            "shape": v.shape,
            "typestr": v.dtype.str,
            "data": (cai["data"][0] + v.ctypes.data - base.ctypes.data, False),
            "strides": v.strides,
            "version": 3,
            "stream": cai["stream"],
        }

    @property
    def __cuda_array_interface__(self):
        return self.cai


def views_on_target(base, views):
    """`views` of `base` as kernels get them: the NumPy views themselves on
    host; on cuda the same views of the device copy of `base`."""
    if TARGET != "cuda":
        return list(views)
    d = pydev.to_device(base)
    return [DeviceView(d, base, v) for v in views]


def test_array_strides_in_bytes():
    base = rng(160).random((6, 9))
    views = (base, base.T, base[1:, ::2], base[::-1, 2:])
    for a, arg in zip(views, views_on_target(base, views)):
        out = poisoned(7, np.int64)
        launch(K.strides2, out, arg)
        want = [*a.strides, *a[::2, ::3].strides, *a[:, 1].strides, *a[::-1].strides]
        np.testing.assert_array_equal(out, want, err_msg=f"strides {a.strides}")
    c = rng(165).integers(-1000, 1000, (3, 4, 5), dtype=np.int16)
    views = (c, c.transpose(2, 0, 1), c[::-1, 1:, ::2])
    for a, arg in zip(views, views_on_target(c, views)):
        out = poisoned(3, np.int64)
        launch(K.strides3, out, arg)
        np.testing.assert_array_equal(out, a.strides, err_msg=f"strides {a.strides}")


def test_to_device_keeps_the_layout():
    # pydev.to_device keeps C and Fortran order and copies a strided view
    # compactly in the order of its strides (NumPy's order='K'), as CuPy
    # and Numba do; kernels read the elements through those strides.
    m = rng(163).random((7, 5), dtype=np.float32)
    for a in (m, np.asfortranarray(m), m.T, m[1:, ::2], m.T[::-1], m[::2].T):
        compact = np.array(a, order="K")
        d = pydev.to_device(a)
        assert d.shape == a.shape and d.strides == compact.strides, (a.strides, d.strides, compact.strides)
        back = d.copy_to_host()
        assert back.strides == d.strides, (back.strides, d.strides)
        np.testing.assert_array_equal(back, a)
        out = poisoned((a.shape[1], a.shape[0]), np.float32)
        launch(kernels.transpose2d, out, d, block=(8, 8))
        np.testing.assert_array_equal(out, a.T, err_msg=f"strides {a.strides}")
        out = poisoned(7, np.int64)
        launch(K.strides2, out, d)
        want = [*compact.strides, *compact[::2, ::3].strides, *compact[:, 1].strides, *compact[::-1].strides]
        np.testing.assert_array_equal(out, want, err_msg=f"strides {a.strides}")
    c = rng(166).integers(-1000, 1000, (3, 4, 5), dtype=np.int16).transpose(2, 0, 1)
    d = pydev.to_device(c)
    assert d.strides == c.strides
    np.testing.assert_array_equal(d.copy_to_host(), c)
    out = poisoned(3, np.int64)
    launch(K.strides3, out, d)
    np.testing.assert_array_equal(out, c.strides)


class DLPackOnly:
    """An array that only exports DLPack (a view of a NumPy array)."""

    def __init__(self, a):
        self.a = a
        self.dlpack_calls = 0

    def __dlpack__(self, stream=None, max_version=None, **kwargs):
        self.dlpack_calls += 1
        if max_version is None:
            return self.a.__dlpack__(stream=stream)
        return self.a.__dlpack__(stream=stream, max_version=max_version)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


class DLPackAndCAI(DLPackOnly):
    """Both protocols; the CUDA Array Interface one is a trap that must not be
    read (its pointer is bogus and it says the data is on a GPU)."""

    cai_reads = 0

    @property
    def __cuda_array_interface__(self):
        type(self).cai_reads += 1
        return {
            "shape": self.a.shape,
            "typestr": self.a.dtype.str,
            "data": (0xDEAD0000, False),
            "strides": None,
            "version": 3,
            "stream": None,
        }


@host_only
def test_dlpack_arrays():
    r = rng(161)
    a, b = r.random(300, dtype=np.float32), r.random(300, dtype=np.float32)
    # pydev.DeviceArray: the launch consumes its __dlpack__.
    da, db = pydev.to_device(a), pydev.to_device(b)
    dout = pydev.device_array(300, np.float32)
    launch(K.vector_add, dout, da, db, grid=5, block=64)
    np.testing.assert_array_equal(dout.copy_to_host(), a + b)
    # Any object with __dlpack__ / __dlpack_device__.
    out = poisoned(300, np.float32)
    wrapped = [DLPackOnly(x) for x in (out, a, b)]
    launch(K.vector_add, *wrapped, grid=5, block=64)
    np.testing.assert_array_equal(out, a + b)
    assert all(w.dlpack_calls >= 1 for w in wrapped)


@host_only
def test_dlpack_wins_over_cai():
    r = rng(162)
    a, b = r.random(100, dtype=np.float64), r.random(100, dtype=np.float64)
    out = poisoned(100, np.float64)
    DLPackAndCAI.cai_reads = 0
    args = [DLPackAndCAI(x) for x in (out, a, b)]
    launch(K.vector_add, *args, grid=2, block=64)
    np.testing.assert_array_equal(out, a + b)
    assert DLPackAndCAI.cai_reads == 0 and all(w.dlpack_calls >= 1 for w in args)


# --- Target Specialization --------------------------------------------------------------


@host_only
def test_target_conditions_on_host():
    x = np.float32(1.25)
    out = poisoned(17, np.float32)
    launch(K.targets, out, x)
    T, F = 1.0, np.nan
    # is_host, is_device, is_exactly|is_exactly, ~provides, ~provides|is_exactly,
    # provides&~is_exactly, provides, any_target, no_target, named/combined,
    # is_host&is_device, is_host|is_device, ~is_device, not target(is_host),
    # is_exactly(sm90), provides(sm50), and target() in a @func.
    want = [T, F, F, T, T, F, F, T, F, T, F, T, T, F, F, F, 2.5]
    np.testing.assert_array_equal(out, np.array(want, np.float32))
    # Host Python evaluates the same descriptions to the same answers.
    d = device
    descs = [
        d.is_host,
        d.is_device,
        d.is_exactly(d.sm90) | d.is_exactly(d.sm80),
        ~d.provides(d.sm80),
        ~d.provides(d.sm80) | d.is_exactly(d.sm80),
        d.provides(d.sm80) & ~d.is_exactly(d.sm80),
        d.provides(d.sm80),
        d.any_target,
        d.no_target,
        (d.is_exactly(d.sm70) | d.is_exactly(d.sm75)) | (d.is_host & ~d.no_target),
        d.is_host & d.is_device,
        d.is_host | d.is_device,
        ~d.is_device,
    ]
    assert [d.target(t) for t in descs] == [w == 1.0 for w in want[:13]]
    assert K.pick(1.25) == 2.5


def test_host_only_code_in_an_is_host_branch():
    # A GPU compile lowers only the branch its target takes (spec: Target
    # Specialization), so host-only Python in an is_host branch compiles...
    x = np.zeros(4, np.float32)
    for arch in ("sm_70", "sm_90"):
        ptx = pydev.compile(K.host_only_branch, [x, x], target=arch, stage="ptx")
        assert ".visible .entry host_only_branch(" in ptx
    # ...and host Python runs that branch.
    assert K.doubled(1.25) == 2.5
    # On the host target the is_host branch is live and must compile: an error.
    # (NumPy's dtypes are device code, its functions are not.)
    with pytest.raises(pydev.CompileError, match="numpy.multiply is not supported in device code"):
        pydev.compile(K.host_only_branch, [x, x], target="host", stage="llvm")


@host_only
def test_target_false_branch_not_run():
    out = poisoned(4, np.int32)
    launch(K.target_false_branch, out)
    np.testing.assert_array_equal(out, [3] + [np.iinfo(np.int32).min + 3] * 3)


# --- Interoperable functions and kernels -------------------------------------------------


def test_interop_function_called_from_kernel():
    r = rng(170)
    x, y = r.uniform(-5, 5, 200).astype(np.float32), r.uniform(-5, 5, 200).astype(np.float32)
    out = poisoned(200, np.float32)
    launch(K.interop_calls, out, x, y, grid=4, block=64)
    np.testing.assert_array_equal(out, np.abs(x - y))
    assert K.diff(1.0, 3.5) == 2.5  # heterogeneous
    # The plain, unmangled symbol of the Python name.
    ir = host_llvm_ir(K.interop_calls, [out, x, y])
    assert "define float @diff(float " in ir and "call float @diff(float " in ir, ir


def test_interop_function_c_signature():
    x = np.zeros(4, np.float32)
    ir = host_llvm_ir(K.interop_calls, [x, x, x])
    defs = [line for line in ir.splitlines() if line.startswith("define") and "@diff(" in line]
    assert len(defs) == 1 and re.fullmatch(r"define float @diff\(float %0, float %1\)( #\d+)? \{", defs[0]), defs


@device.struct(align=16)
class complex:  # the spec's example (User-Defined Types): shadows the builtin
    real: float
    imag: float


@device.kernel
def spec_complex(cs, out, c):
    i = device.tid(1)
    if i < cs.shape[0]:
        out[i] = cs[i].real * c.imag + cs[i].imag
    if i == 0:
        d = complex(1.5, 2.5)
        out[cs.shape[0]] = d.real + d.imag


def test_struct_named_like_a_builtin_shadows_it():
    # A struct named `complex` was read as complex64 in the launch signature:
    # an array of them gave wrong values, one by value a size error.
    assert complex.dtype.itemsize == 16  # NumPy keeps align=16 as the itemsize only
    r = rng(83)
    cs = np.zeros(5, complex.dtype)
    cs["real"], cs["imag"] = r.uniform(-2, 2, 5), r.uniform(-2, 2, 5)
    out = poisoned(6, np.float32)
    launch(spec_complex, cs, out, complex(0.5, 3.0), block=8)
    np.testing.assert_allclose(out[:5], cs["real"] * np.float32(3.0) + cs["imag"], rtol=1e-6)
    assert out[5] == 4.0


@device.kernel
def narrow(out, x):
    i = device.tid(1)
    if i < x.size:
        out[i] = x[i]


@pytest.mark.parametrize("dst", ["float16", "bfloat16"])
def test_float64_to_half_formats_round_once(dst):
    # LLVM calls __truncdfhf2/__truncdfbf2 for these; the host runtime
    # provides them (the JIT could not find them before).
    if dst == "bfloat16" and ml_dtypes is None:
        pytest.skip("ml_dtypes is not installed")
    dt = np.dtype(np.float16) if dst == "float16" else np.dtype(ml_dtypes.bfloat16)
    r = rng(97)
    finfo = np.finfo(np.float16) if dst == "float16" else ml_dtypes.finfo(ml_dtypes.bfloat16)
    tiny, big = float(finfo.smallest_subnormal), float(finfo.max)
    x = np.concatenate(
        [
            r.standard_normal(300) * np.exp2(r.integers(-30, 30, 300)),
            r.uniform(-big, big, 50),
            [
                0.0,
                -0.0,
                np.inf,
                -np.inf,
                big,
                -big,
                big * 1.01,
                tiny,
                tiny / 2,
                tiny * 0.51,
                tiny / 3,
                1e-300,
                5e-324,
                1 + 2.0**-11,
                1 + 3 * 2.0**-11,
                1 + 2.0**-8,
                1 + 3 * 2.0**-8,
                65520.0,
                3.3895e38,
            ],
        ]
    ).astype(np.float64)
    out = poisoned(x.size, dt)
    launch(narrow, out, x, block=x.size)
    with np.errstate(over="ignore"):  # big * 1.01 overflows to inf, as it should
        expected = x.astype(dt)  # to nearest even (ml_dtypes via float32: the near ties below are apart)
    np.testing.assert_array_equal(out.view(np.uint16), expected.view(np.uint16))
    # Just above a tie in the target but a tie in float32: rounding through
    # float32 would go down (ml_dtypes does); once from float64 goes up.
    near = np.array([1 + 2.0**-8 + 2.0**-40, 1 + 2.0**-11 + 2.0**-40])
    out = poisoned(2, dt)
    launch(narrow, out, near, block=2)
    assert list(out.view(np.uint16)) == ([0x3C04, 0x3C01] if dst == "float16" else [0x3F81, 0x3F80]), out.view(
        np.uint16
    )
    nan = np.array([np.nan, -np.nan])
    out = poisoned(2, dt)
    launch(narrow, out, nan, block=2)
    assert np.isnan(out.astype(np.float32)).all()


@device.kernel
def complex_from_parts(out, x):
    i = device.tid(1)
    if i < x.size:
        z = complex(x[i], 2.5)
        w = device.complex128(x[i], -x[i])
        out[i, 0] = z.real * z.imag
        out[i, 1] = w.imag


def test_complex_from_real_and_imaginary_parts():
    x = rng(61).uniform(-3, 3, 40).astype(np.float32)
    out = poisoned((40, 2), np.float64)
    launch(complex_from_parts, out, x, block=64)
    np.testing.assert_allclose(out[:, 0], x.astype(np.float64) * 2.5, rtol=1e-6)
    np.testing.assert_array_equal(out[:, 1], -x.astype(np.float64))
    # The same on the host, as Python's complex(re, im).
    assert device.complex128(3.0, 4.0) == 3 + 4j and device.complex64(1, 2).dtype == np.complex64
    with pytest.raises(TypeError, match=r"float32\(\) takes one value"):
        device.float32(1.0, 2.0)


def test_cbrt_of_exact_cubes_is_exact_on_the_host():
    cubes = np.arange(1, 200, dtype=np.float32) ** 3
    assert [float(device.cbrt(c)) for c in cubes] == list(range(1, 200))
    assert device.cbrt(27.0) == 3.0 and device.cbrt(np.float16(8)).dtype == np.float16


def test_interop_kernel():
    r = rng(171)
    x, y = r.uniform(-5, 5, 100).astype(np.float32), r.uniform(-5, 5, 100).astype(np.float32)
    out = poisoned(100, np.float32)
    launch(K.interop_kernel, out, x, y, grid=2, block=64)
    np.testing.assert_array_equal(out, np.abs(x - y) + np.float32(1))
    assert K.interop_kernel.interop
    ir = host_llvm_ir(K.interop_kernel, [out, x, y])
    assert "@interop_kernel(" in ir


def test_device_function_compiled_alone_is_defined_in_ptx(tmp_path):
    # An interop function compiled by itself is what CUDA C++ links against:
    # its PTX defines it under the Python name (it used to come out empty).
    ptx = pydev.compile(K.diff, "float32, float32", target="sm_90", stage="ptx")
    assert re.search(r"\.visible \.func\s+\(\.param \.b32 func_retval0\) diff\(", ptx), ptx
    assert ".entry" not in ptx
    # A plain @func keeps its specialized symbol.
    plain = pydev.compile(K.pick, "float32", target="sm_90", stage="ptx")
    assert re.search(r"\.visible \.func\s+\(\.param \.b32 func_retval0\) pick_\w+\(", plain), plain
    ptxas = toolchain.ptxas("sm_90")
    if ptxas:
        (tmp_path / "diff.ptx").write_text(ptx)
        r = subprocess.run(
            [ptxas, "-arch=sm_90", "-c", str(tmp_path / "diff.ptx"), "-o", str(tmp_path / "diff.o")],
            capture_output=True,
            text=True,
        )
        assert r.returncode == 0, r.stderr


def test_libdevice_is_found_without_the_environment(monkeypatch):
    # CUDA math (abs of a float is __nv_fabsf) links libdevice; like
    # Numba-CUDA, the package finds the nvidia-nvvm wheel's by itself.
    from pydev import _toolchain

    if not _toolchain._found_libdevice():
        pytest.skip("no nvidia-nvvm wheel or CUDA toolkit with libdevice.10.bc here")
    monkeypatch.delenv("PYDEV_LIBDEVICE", raising=False)
    ptx = pydev.compile(K.diff, "float32, float32", target="sm_90", stage="ptx")
    assert "abs.f32" in ptx and "__nv_" not in ptx, ptx


def test_libdevice_search_order(monkeypatch, tmp_path):
    from pydev import _toolchain

    toolkit = tmp_path / "cuda"
    (toolkit / "nvvm" / "libdevice").mkdir(parents=True)
    (toolkit / "nvvm" / "libdevice" / "libdevice.10.bc").write_bytes(b"BC")
    monkeypatch.setitem(sys.modules, "nvidia", None)  # no nvidia wheels
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.setenv("CUDA_HOME", str(toolkit))
    monkeypatch.delenv("PYDEV_LIBDEVICE", raising=False)
    _toolchain._found_libdevice.cache_clear()
    try:
        assert _toolchain.libdevice() == str(toolkit / "nvvm" / "libdevice" / "libdevice.10.bc")
        monkeypatch.setenv("PYDEV_LIBDEVICE", "/explicit/libdevice.10.bc")
        assert _toolchain.libdevice() == "/explicit/libdevice.10.bc"
    finally:
        _toolchain._found_libdevice.cache_clear()


def test_missing_libdevice_is_a_compile_error(monkeypatch):
    from pydev import _toolchain

    # Hide every place libdevice can be found, so this holds on any machine:
    # the package's search (PYDEV_LIBDEVICE, the nvidia wheels, $CUDA_HOME,
    # $CUDA_PATH, /usr/local/cuda) and MLIR's own (its NVVM serializer
    # links <toolkit>/nvvm/libdevice/libdevice.10.bc from $CUDA_ROOT,
    # $CUDA_HOME or $CUDA_PATH).
    for var in ("PYDEV_LIBDEVICE", "CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setitem(sys.modules, "nvidia", None)  # no nvidia wheels
    monkeypatch.setattr(_toolchain, "_found_libdevice", lambda: "")  # nor /usr/local/cuda
    assert _toolchain.libdevice() == ""
    with pytest.raises(pydev.CompileError, match="needs libdevice: set PYDEV_LIBDEVICE"):
        pydev.compile(K.diff, "float32, float32", target="sm_90", stage="ptx")


@host_only
def test_launch_grid_block_stream_shared():
    s = pydev.create_stream()
    out = poisoned((20, 7), np.int32)
    result = device.launch(K.launch_shape, out, 3, grid=(3, 2), block=(8, 4), stream=s, shared=32 * 4)
    s.synchronize()
    assert result is None
    i, j = np.meshgrid(np.arange(20), np.arange(7), indexing="ij")
    np.testing.assert_array_equal(out, (i * 1000 + j) * 3 + 32)
    # Any object with __cuda_stream__ is a stream too; anything else is a TypeError.

    class Foreign:
        def __cuda_stream__(self):
            return (0, 0)

    out2 = poisoned((20, 7), np.int32)
    device.launch(K.launch_shape, out2, 3, grid=(3, 2), block=(8, 4), stream=Foreign(), shared=32 * 4)
    s.synchronize()
    np.testing.assert_array_equal(out2, out)
    with pytest.raises(TypeError, match="stream"):
        device.launch(K.launch_shape, out, 3, grid=1, block=1, stream=None)


# --- None -------------------------------------------------------------------------------


def test_none_in_device_code():
    out = poisoned(5, np.int32)
    launch(K.nones, out)
    np.testing.assert_array_equal(out, [5, 1, 1, 1, 1])
    assert K.nothing() is None  # heterogeneous: the same on the host


def test_none_identity():
    out = poisoned(2, np.int32)
    launch(K.none_identity, out)
    np.testing.assert_array_equal(out, [1, 1])


def test_none_passed_to_func():
    x = rng(173).uniform(-1, 1, 64).astype(np.float32)
    out = poisoned(64, np.float32)
    launch(K.none_to_func, out, x, block=64)
    np.testing.assert_array_equal(out, x + np.float32(1))


def test_none_equality_and_hint():
    x = rng(174).uniform(-1, 1, 64).astype(np.float32)
    out = poisoned((64, 4), np.float32)
    launch(K.none_equality, out, x, block=64)
    np.testing.assert_array_equal(out[:, 0], x)
    np.testing.assert_array_equal(out[:, 1:], np.tile(np.float32([1, 1, 0]), (64, 1)))
    assert K.negate_unless_none(None, 2.0) == 2.0  # heterogeneous: the same on the host


def test_none_launch_argument():
    out = poisoned(1, np.int32)
    launch(K.none_argument, out, None)
    assert out[0] == 1
    x = int(rng(171).integers(1, 1000))
    launch(K.none_argument_interop, out, None, x)
    assert out[0] == x
    # None takes no kernel parameter.
    ir = pydev.compile(K.none_argument, [out, None], target="host", stage="pydev")
    assert "@none_argument(%arg0: !pydev.array<si32, 1, c>) attributes" in ir, ir


def test_none_interop_is_a_null_pointer():
    x = rng(172).uniform(-1, 1, 64).astype(np.float32)
    out = poisoned(64, np.float32)
    launch(K.none_interop, out, x, block=64)
    np.testing.assert_array_equal(out, x + np.float32(1))
    ir = host_llvm_ir(K.none_interop, [out, x])
    assert "@with_pointer(ptr" in ir and "@with_pointer(ptr null" in ir, ir


# --- Atomics ------------------------------------------------------------------------------


def test_memory_order_consume():
    src = rng(180).integers(-1000, 1000, 128, dtype=np.int32)
    out = poisoned((128, 4), np.int32)
    flags = np.zeros(1, np.int32)
    s0 = src.copy()
    launch(K.consume_orders, out, src, flags, grid=2, block=64)
    np.testing.assert_array_equal(out, np.stack([s0, s0, s0, s0 + 1], axis=1))
    np.testing.assert_array_equal(src, s0 + 1)
    assert flags[0] == 128


def test_thread_scopes_block_and_thread():
    out = poisoned((192, 4), np.int32)
    counts = np.zeros(3, np.int32)
    launch(K.block_scope, out, counts, grid=3, block=64)
    i = np.arange(192)
    np.testing.assert_array_equal(out, np.stack([np.full(192, 64), i + 1, np.full(192, 7), 2 * i], axis=1))
    np.testing.assert_array_equal(counts, [128, 128, 128])


def test_atomic_load():
    src = rng(181).integers(-1000, 1000, 64, dtype=np.int64)
    out = poisoned((64, 5), np.int64)
    total = np.zeros(1, np.int64)
    launch(K.atomic_load, out, src, total, block=64)
    np.testing.assert_array_equal(out[:, :4], np.repeat(src[:, None], 4, axis=1))
    np.testing.assert_array_equal(out[:, 4], np.full(64, src.sum()))


def test_atomic_16_byte_load_store():
    r = rng(182)
    z = r.standard_normal(32) + 1j * r.standard_normal(32)
    out = poisoned(32, np.complex128)
    launch(K.wide_load_store, z, out, block=32)
    np.testing.assert_array_equal(out, 2 * z)


def test_exch_int8():
    r = rng(183)
    a = r.integers(-128, 128, 64).astype(np.int8)
    b = r.integers(-128, 128, 64).astype(np.int8)
    old = poisoned(64, np.int8)
    a0 = a.copy()
    launch(K.small_exch, a, b, old, block=64)
    np.testing.assert_array_equal(old, a0)
    np.testing.assert_array_equal(a, b)


def test_cas_float16():
    r = rng(187)
    h = r.uniform(-4, 4, 64).astype(np.float16)
    expected = np.where(np.arange(64) % 2 == 0, h, h + np.float16(1)).astype(np.float16)
    new = r.uniform(-4, 4, 64).astype(np.float16)
    old = poisoned(64, np.float16)
    h0 = h.copy()
    launch(K.small_cas, h, expected, new, old, block=64)
    np.testing.assert_array_equal(old, h0)
    np.testing.assert_array_equal(h, np.where(np.arange(64) % 2 == 0, new, h0))


def test_cas_loop_int8():
    counter = np.zeros(1, np.int8)
    launch(K.cas_loop, counter, grid=2, block=50)
    assert counter[0] == 100


def test_cas_loop_int32():
    counter = np.zeros(1, np.int32)
    launch(K.cas_loop, counter, grid=4, block=64)
    assert counter[0] == 256


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
def test_atomic_sub_and_or_xor(dtype):
    r = rng(184)
    n = 128
    info = np.iinfo(dtype)
    a = r.integers(info.min // 2, info.max // 2, (n, 4), dtype=dtype, endpoint=True)
    x = r.integers(0, 1 << 20, n).astype(dtype)
    a[:, 0] = a[:, 0] // 2 + np.full(n, 1 << 21, dtype)  # sub stays in range
    a0 = a.copy()
    olds = poisoned((n, 4), dtype)
    start = np.array([n << 21, -1 if info.min < 0 else info.max, 0, 0], dtype)
    shared = start.copy()
    launch(K.rmw_ops, a, x, olds, shared, grid=2, block=64)
    np.testing.assert_array_equal(olds, a0)
    np.testing.assert_array_equal(a, np.stack([a0[:, 0] - x, a0[:, 1] & x, a0[:, 2] | x, a0[:, 3] ^ x], axis=1))
    want = [
        start[0] - x.sum(dtype=dtype),
        np.bitwise_and.reduce(np.concatenate([start[1:2], x])),
        np.bitwise_or.reduce(x),
        np.bitwise_xor.reduce(x),
    ]
    np.testing.assert_array_equal(shared, np.array(want, dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_atomic_sub_float(dtype):
    r = rng(185)
    a = r.uniform(-10, 10, 128).astype(dtype)
    x = (r.integers(0, 64, 128) / 4).astype(dtype)  # sums are exact in any order
    a0 = a.copy()
    olds = poisoned(128, dtype)
    total = np.array([1000.0], dtype)
    launch(K.float_sub, a, x, olds, total, grid=2, block=64)
    np.testing.assert_array_equal(olds, a0)
    np.testing.assert_array_equal(a, a0 - x)
    assert total[0] == dtype(1000.0) - x.sum()


def test_exch_cas_wait_notify_all():
    flag = np.zeros(1, np.int32)
    out = poisoned(5, np.int32)
    vals = np.array([rng(186).integers(1, 1000)], np.int32)
    launch(K.exch_cas_wait, flag, out, vals, grid=2, block=32)
    np.testing.assert_array_equal(out, [vals[0], 0, 1, vals[0] + 1, 2])
    assert flag[0] == 2


def test_atomic_notify_one():
    flag = np.zeros(1, np.int32)
    out = poisoned(2, np.int32)
    launch(K.notify_one_handoff, flag, out, grid=2, block=32)
    np.testing.assert_array_equal(out, [42, 43])


def test_threadfence():
    data = poisoned(2, np.int32)
    flag = np.zeros(1, np.int32)
    out = poisoned(1, np.int32)
    launch(K.fence_message, data, flag, out, grid=2, block=32)
    assert out[0] == 33 and flag[0] == 1


def test_atomic_objects():
    out = poisoned(4, np.int32)
    launch(K.atomic_objects, out)
    np.testing.assert_array_equal(out, [5, 5, 12, 7])


# --- Thread Warp Synchronization -------------------------------------------------------


def test_warpmask_bits():
    bits = rng(190).integers(-(2**31), 2**31, 4, dtype=np.int64).astype(np.int32)
    out = poisoned((128, 5), np.int32)
    launch(K.mask_bits, out, bits, block=128)
    lane = np.arange(128) % 32
    m = bits[np.arange(128) // 32].astype(np.int64) & 0xFFFFFFFF
    cleared = m & ~(1 << lane)
    with_ends = cleared | 1 | (1 << 31)
    as_i32 = lambda v: v.astype(np.uint32).view(np.int32)  # noqa: E731
    np.testing.assert_array_equal(out[:, 0], (m >> lane) & 1)
    np.testing.assert_array_equal(out[:, 1], as_i32(cleared))
    np.testing.assert_array_equal(out[:, 2], as_i32(with_ends))
    np.testing.assert_array_equal(out[:, 3:], np.ones((128, 2), np.int32))


def test_eq_sync():
    r = rng(191)
    x = r.uniform(0.5, 1, 128).astype(np.float32)
    x[32:64] *= -1  # warp 1: all negative
    x[64:96] *= r.choice([-1, 1], 32)  # warp 2: mixed
    x[64] = 1.0
    x[65] = -1.0
    x[112:128] *= -1  # warp 3: lanes 0-15 positive, 16-31 negative
    out = poisoned((128, 2), np.int32)
    launch(K.eq_votes, out, x, block=128)
    p = (x > 0).reshape(4, 32)
    whole = np.repeat(p.all(1) | ~p.any(1), 32).astype(np.int32)
    low = np.repeat(p[:, :16].all(1) | ~p[:, :16].any(1), 32).astype(np.int32)
    low[(np.arange(128) % 32) >= 16] = -1
    np.testing.assert_array_equal(out[:, 0], whole)
    np.testing.assert_array_equal(out[:, 1], low)


# --- Numeric Intrinsics -----------------------------------------------------------------


def bit_reference(v, bits):
    u = int(v) % (1 << bits)
    return int(f"{u:0{bits}b}"[::-1], 2), bits - u.bit_length(), (u & -u).bit_length(), bin(u).count("1")


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64])
def test_brev_clz_ffs(dtype):
    info = np.iinfo(dtype)
    a = rng(200).integers(info.min, info.max, 128, dtype=dtype, endpoint=True)
    a[:4] = [0, 1, info.max, info.min]
    rev = poisoned(128, dtype)
    counts = poisoned((128, 3), np.int32)
    launch(K.bit_intrinsics, rev, counts, a, grid=2, block=64)
    ref = [bit_reference(v, info.bits) for v in a]
    want_rev = np.array([r[0] for r in ref], np.uint64).astype(dtype)
    np.testing.assert_array_equal(rev, want_rev)
    np.testing.assert_array_equal(counts, np.array([r[1:] for r in ref], np.int32))


def round_to_float32(exact):
    """The float32 nearest to the Fraction `exact` (ties to even)."""
    c = np.float32(float(exact))
    cands = [np.nextafter(c, np.float32(-np.inf)), c, np.nextafter(c, np.float32(np.inf))]
    return min(cands, key=lambda v: (abs(Fraction(float(v)) - exact), int(np.array(v).view(np.uint32)) & 1))


def round_to_float16(exact):
    """The float16 nearest to the Fraction `exact` (ties to even)."""
    c = np.float16(float(exact))
    cands = [np.nextafter(c, np.float16(-np.inf)), c, np.nextafter(c, np.float16(np.inf))]
    return min(cands, key=lambda v: (abs(Fraction(float(v)) - exact), int(np.array(v).view(np.uint16)) & 1))


def test_fma_float16_rounded_once():
    # fma on float16 is rounded once (CUDA's __hfma), not as a float32 fma
    # rounded again to float16.
    r = rng(202)
    n = 128
    a = r.uniform(-8, 8, n).astype(np.float16)
    b = r.uniform(-8, 8, n).astype(np.float16)
    c = r.uniform(-8, 8, n).astype(np.float16)
    # A float32 fma would round this to a float16 tie, then to even (1.0).
    a[0], b[0], c[0] = 1.5, 0.6669921875, 2.0**-24
    out = poisoned((n, 3), np.float16)
    launch(K.float_intrinsics, out, a, b, c, grid=2, block=64)
    assert out[0, 1] == np.float16(1.0009765625)
    want = [round_to_float16(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))) for x, y, z in zip(a, b, c)]
    np.testing.assert_array_equal(out[:, 1], np.array(want, np.float16))


def exact_fma(a, b, c, dtype):
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    return round_to_float32(exact) if dtype == np.float32 else np.float64(float(exact))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cbrt_fma(dtype):
    r = rng(201)
    n = 128
    a = r.uniform(-100, 100, n).astype(dtype)
    b = r.uniform(-100, 100, n).astype(dtype)
    c = r.uniform(-100, 100, n).astype(dtype)
    a[:3] = [27, -8, 0]
    out = poisoned((n, 3), dtype)
    launch(K.float_intrinsics, out, a, b, c, grid=2, block=64)
    # CUDA's cbrt/cbrtf are within 1 ulp (so is NumPy's).
    np.testing.assert_array_max_ulp(out[:, 0], np.cbrt(a), maxulp=2)
    np.testing.assert_array_max_ulp(out[:3, 0], np.array([3, -2, 0], dtype), maxulp=1)
    np.testing.assert_array_equal(out[:, 1], np.array([exact_fma(x, y, z, dtype) for x, y, z in zip(a, b, c)], dtype))
    # Rounded once: fma(a, b, -(a*b)) is the rounding error of a*b, not 0.
    np.testing.assert_array_equal(out[:, 2], np.array([exact_fma(x, y, -(x * y), dtype) for x, y in zip(a, b)], dtype))
    assert np.count_nonzero(out[:, 2]) > n // 2


# --- Constants, dtypes, contiguity, Dim3 and WarpMask in device code -------------------


def test_folded_float_literals_are_float32():
    # A Python float is a float32 in device code, also where the compiler
    # folds it: x = 0.1; x * 3 is float32(0.1) * 3 in float32, the value the
    # run-time product x * k[i] has for k[i] == 3. A lone literal stored into
    # a float64 array keeps its value; integers fold exactly.
    k = rng(1401).integers(-50, 50, 16).astype(np.int32)
    k[k == 0] = 7
    k[0] = 3
    out = poisoned((16, 6), np.float64)
    launch(K.folded_floats, out, k, block=16)
    f = np.float32
    assert out[0, 0] == 0.30000001192092896
    np.testing.assert_array_equal(out[:, 0], np.float64(f(0.1) * f(3)))
    np.testing.assert_array_equal(out[:, 1], (f(0.1) * k.astype(f)).astype(np.float64))
    assert out[0, 1] == out[0, 0]
    np.testing.assert_array_equal(out[:, 2], np.float64(f(0.1) + f(0.2)))
    np.testing.assert_array_equal(out[:, 3], np.float64(f(1) / f(3)))
    np.testing.assert_array_equal(out[:, 4], 0.1)
    np.testing.assert_array_equal(out[:, 5], float(2**40 + 1))


def test_warpmask_mixes_with_int_as_int32():
    p = rng(1402).integers(0, 2, 64).astype(np.int32)
    p[:2] = (0, 1)  # warp 0: a mixed vote
    p[32:] = 1  # warp 1: all lanes vote, the mask is -1
    out = poisoned((64, 6), np.int32)
    launch(K.mask_as_int32, out, p, block=64)
    masks = []
    for w in range(2):
        bits = sum(int(v) << j for j, v in enumerate(p[32 * w : 32 * (w + 1)]))
        masks += [np.uint32(bits).view(np.int32)] * 32
    m = np.array(masks, np.int32)
    assert m[32] == -1 and m[0] != -1
    np.testing.assert_array_equal(out[:, 0], np.where(p != 0, m, 0))
    np.testing.assert_array_equal(out[:, 1], m + p)
    np.testing.assert_array_equal(out[:, 2], (m == -1).astype(np.int32))
    np.testing.assert_array_equal(out[:, 3], np.maximum(m, p))
    np.testing.assert_array_equal(out[:, 4], m & 0xFF)
    np.testing.assert_array_equal(out[:, 5], np.where(p == 0, -7, m))


def test_dtype_comparisons_are_constants():
    r = rng(1403)
    a8 = r.integers(-100, 100, 9).astype(np.int8)
    a16 = r.integers(-1000, 1000, 9).astype(np.int16)
    f32 = r.uniform(-4, 4, 9).astype(np.float32)
    f64 = r.uniform(-4, 4, 9)
    for a, want in (
        (a8, a8.astype(np.float64) + 1),
        (a16, a16.astype(np.float64) + 1),
        (f32, (f32 * np.float32(0.5)).astype(np.float64)),
        (f64, np.full(9, -1.0)),
    ):
        out = poisoned(9, np.float64)
        launch(K.dtype_branch, out, a, block=9)
        np.testing.assert_array_equal(out, want, err_msg=str(a.dtype))
    out = poisoned(8, np.int32)
    launch(K.dtype_checks, out, a8, f32)
    np.testing.assert_array_equal(out, [1, 0, 1, 1, 1, 0, 1, 5])
    out = poisoned(8, np.int32)
    launch(K.dtype_checks, out, a16, f64)
    np.testing.assert_array_equal(out, [0, 1, 0, 0, 0, 0, 0, 10])
    # In IR the comparisons are constants: no branch on them remains.
    ir = pydev.compile(K.dtype_checks, [out, a8, f32], target="host", stage="pydev")
    assert "pydev.cmp" not in ir, ir


def test_const_expr_parameters_are_constant_expressions():
    # A ConstExpr parameter is a shape of local_array/shared_array, a
    # target(...) description, a range bound and a dtype.
    x = rng(1404).uniform(-8, 8, 6)
    out = poisoned(3, np.float64)
    launch(K.const_expr_params, out, x)

    def want(n):
        s = 0.0
        for j in range(n):
            s += x[j] + x[j] * 2
        return s

    np.testing.assert_array_equal(out, [want(4), want(3), -1.0])


def test_numpy_dtypes_in_device_code():
    x = rng(1405).integers(-1000, 1000, 12).astype(np.int32)
    x[0] = 300  # wraps in int8
    out = poisoned((12, 4), np.float64)
    launch(K.numpy_dtypes, out, x, grid=12)
    np.testing.assert_array_equal(out[:, 0], x.astype(np.int8))
    np.testing.assert_array_equal(out[:, 1], x.astype(np.int64) * 3)
    np.testing.assert_array_equal(out[:, 2], x.astype(np.float32) / np.float32(3))
    np.testing.assert_array_equal(out[:, 3], x.astype(np.float32).view(np.int32))


def test_views_of_contiguous_slices():
    # dyn[0:k].view(float32) on the dynamic shared array, views of unit-step
    # slices of shared and local arrays (all C-contiguous).
    x = rng(1406).uniform(-100, 100, 8).astype(np.float32)
    n = 8
    out = poisoned(n + 5, np.float64)
    launch(K.contiguous_views, out, x, np.int32(n), shared=4 * n)
    np.testing.assert_array_equal(out[: n - 1], x[1:])
    assert np.isnan(out[n - 1])  # not written
    assert out[n] == x.view(np.int32)[0]
    assert out[n + 1] == 8
    assert out[n + 2] == x[2:6].view(np.uint16)[1]
    assert out[n + 3] == 4
    assert out[n + 4] == x.view(np.uint16)[4]


def test_dim3_is_a_uint32x3():
    bx, by, bz = (int(v) for v in rng(1407).integers(1, 5, 3))
    out = poisoned((bx * by * bz, 5), np.int32)
    launch(K.dim3_values, out, block=(bx, by, bz))
    z, y, xs = np.meshgrid(np.arange(bz), np.arange(by), np.arange(bx), indexing="ij")
    xs, y, z = xs.ravel(), y.ravel(), z.ravel()
    np.testing.assert_array_equal(out[:, 0], bx + by + bz)
    np.testing.assert_array_equal(out[:, 1], 3)
    np.testing.assert_array_equal(out[:, 2], xs + 10 * y + 100 * z)
    np.testing.assert_array_equal(out[:, 3], bz * 1000 + z)
    np.testing.assert_array_equal(out[:, 4], 3)


# --- Conformance: run-time errors --------------------------------------------------------


@host_only
def test_runtime_errors_are_diagnosed(monkeypatch):
    # Violated run-time requirements are errors naming the kernel (and, with
    # PYDEV_BOUNDSCHECK=1, the file and line of an out-of-bounds index).
    monkeypatch.setenv("PYDEV_BOUNDSCHECK", "1")
    a = rng(210).random(64, dtype=np.float32)
    with pytest.raises(pydev.LaunchError, match=r"out_of_bounds[\s\S]*conformance_kernels.py"):
        launch(K.out_of_bounds, np.zeros(64, np.float32), a, 1, block=64)
    a = np.full(64, 7, np.int32)
    b = np.ones(64, np.int32)
    b[17] = 0
    with pytest.raises(pydev.LaunchError, match="int_divide.*division by zero"):
        launch(K.int_divide, np.zeros(64, np.int32), a, b, block=64)
