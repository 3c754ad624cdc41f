"""numba-cuda's `cuda.compile_ptx(f, sig, device=True)`: a device function
alone as PTX, with Numba's ABI (`int f(T *ret, args...)`, the default) or
the C ABI (`abi="c"`), assembled by ptxas; and constant memory
(`cuda.const.array_like`): `.const` data read with `ld.const` on cuda, a
read-only global on the host."""

import os
import re

import numpy as np
import pytest
import toolchain
from pydev.numba import cuda
from pydev.numba.cuda import types as T

TARGET = os.environ.get("PYDEV_NUMBA_TEST_TARGET", "host")
_RNG = np.random.default_rng(20261128)
# Frozen into the kernels at compile time, as numba-cuda's constant arrays.
CONST_F64 = _RNG.standard_normal(37)
CONST_I32_F = np.asfortranarray(_RNG.integers(-(2**31), 2**31 - 1, size=(6, 7), dtype=np.int32))
CONST_C64 = (_RNG.standard_normal((3, 4, 5)) + 1j * _RNG.standard_normal((3, 4, 5))).astype(np.complex64)
CONST_REC = np.zeros(
    9, dtype=np.dtype([("a", np.uint8), ("y", np.uint32), ("x", np.float64), ("z", np.int16)], align=True)
)
for _f, _t in [("a", np.uint8), ("y", np.uint32), ("z", np.int16)]:
    CONST_REC[_f] = _RNG.integers(np.iinfo(_t).min, np.iinfo(_t).max, size=9, dtype=_t)
CONST_REC["x"] = _RNG.standard_normal(9)
BIG = _RNG.standard_normal(3000).astype(np.float32)  # past what is folded into the code


@pytest.fixture(autouse=True)
def _target(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", TARGET)


def to_int32(x):
    return np.int32(x)


def less(x, y):
    return x < y


def to_float16(x):
    return np.float16(x)


def axpy(a, x, y):
    return a * x + y


def nothing(x):
    pass


def _assembles(ptx, tmp_path):
    r = toolchain.assemble(ptx, tmp_path)
    if r is None:
        pytest.skip("no ptxas (pip install nvidia-cuda-nvcc)")
    assert r.returncode == 0, r.stderr + ptx


def _head(ptx, name):
    """(return declaration, parameter declarations) of the visible function `name`."""
    m = re.search(r"\.visible \.func\s*(?:\(([^)]*)\))?\s*" + re.escape(name) + r"\(([^)]*)\)", ptx)
    assert m, ptx
    return m.group(1), [p.strip() for p in m.group(2).split(",") if p.strip()]


@pytest.mark.parametrize(
    "fn,sig,rtype",
    [
        (to_int32, (T.float16,), T.int32),
        (less, (T.int8, T.float64), T.boolean),
        (to_float16, (T.uint64,), T.float16),
        (axpy, (T.float32, T.float32, T.float32), T.float32),
        (nothing, (T.int16,), T.none),
    ],
    ids=["f16-to-i32", "bool", "u64-to-f16", "axpy", "void"],
)
def test_numba_abi_device_function_assembles(fn, sig, rtype, tmp_path):
    ptx, ret = cuda.compile_ptx(fn, sig, device=True)
    assert ret == rtype
    retdecl, params = _head(ptx, fn.__name__)
    # int f(T *ret, args...): a status, a pointer, then the arguments
    assert retdecl.strip() == ".param .b32 func_retval0"
    assert params[0] == f".param .b64 {fn.__name__}_param_0" and len(params) == len(sig) + 1
    assert ptx.count(".visible .func") == 1  # the C-ABI function it calls is not visible
    assert re.search(r"st\.param\.b32 \[func_retval0\], %r0;", ptx) and "mov.b32 %r0, 0;" in ptx
    if rtype != T.none:
        width = 8 if rtype == T.boolean else rtype.bitwidth
        assert f"st.b{width} [%rd0]" in ptx
    _assembles(ptx, tmp_path)


def test_c_abi_device_function(tmp_path):
    ptx, ret = cuda.compile_ptx(axpy, (T.float64, T.float64, T.float64), device=True, abi="c")
    assert ret == T.float64
    retdecl, params = _head(ptx, "axpy")
    assert retdecl.strip() == ".param .b64 func_retval0" and len(params) == 3
    assert re.search(r"fma\.rn\.f64", ptx)
    _assembles(ptx, tmp_path)
    ptx, _ = cuda.compile_ptx(
        axpy, (T.float32, T.float32, T.float32), device=True, abi="c", abi_info={"abi_name": "my_axpy"}
    )
    _head(ptx, "my_axpy")
    assert not re.search(r"\baxpy\(", ptx.replace("my_axpy", ""))
    _assembles(ptx, tmp_path)


def test_conversions_as_python_does():
    """float16 to an integer truncates toward zero (Python's int()), an
    integer to float16 rounds to nearest."""
    ptx, _ = cuda.compile_ptx(to_int32, (T.float16,), device=True)
    assert "cvt.rzi.s32.f16" in ptx
    ptx, _ = cuda.compile_ptx(to_float16, (T.int32,), device=True)
    assert "cvt.rn.f16.s32" in ptx


def test_what_cannot_be_compiled_alone_is_named():
    with pytest.raises(NotImplementedError, match="device function 'axpy': parameter type array"):
        cuda.compile_ptx(axpy, (T.float32[::1], T.float32, T.float32), device=True)
    with pytest.raises(NotImplementedError, match="it returns float32, the signature says float64"):
        cuda.compile_ptx(axpy, T.float64(T.float32, T.float32, T.float32), device=True)
    with pytest.raises(NotImplementedError, match="abi='fortran'"):
        cuda.compile_ptx(axpy, (T.float32, T.float32, T.float32), device=True, abi="fortran")


# --- constant memory ---------------------------------------------------------------------


@cuda.jit
def read_consts(out1, out2, out3, big_out):
    i = cuda.grid(1)
    c1 = cuda.const.array_like(CONST_F64)
    c2 = cuda.const.array_like(CONST_I32_F)
    c3 = cuda.const.array_like(CONST_C64)
    if i < c1.size:
        out1[i] = c1[i] * 2.0
    if i < c2.shape[0]:
        for j in range(c2.shape[1]):
            out2[i, j] = c2[i, j]
    if i < c3.shape[0]:
        for j in range(c3.shape[1]):
            for k in range(c3.shape[2]):
                out3[i, j, k] = c3[i, j, k]
    for k in range(i, BIG.size, 64):
        big_out[k] = BIG[k]


@cuda.jit
def read_records(a, y, x, z, n):
    r = cuda.const.array_like(CONST_REC)
    i = cuda.grid(1)
    if i < r.size:
        a[i] = r[i]["a"]
        y[i] = r[i]["y"]
        x[i] = r[i]["x"]
        z[i] = r[i]["z"]
    if i == 0:
        n[0] = len(r)


def test_const_arrays_read_their_data():
    out1 = np.full(CONST_F64.shape, np.nan)
    out2 = np.full(CONST_I32_F.shape, -1, np.int32)
    out3 = np.full(CONST_C64.shape, np.nan, np.complex64)
    big = np.full(BIG.shape, np.nan, np.float32)
    read_consts[1, 64](out1, out2, out3, big)
    np.testing.assert_array_equal(out1, CONST_F64 * 2.0)
    np.testing.assert_array_equal(out2, CONST_I32_F)
    np.testing.assert_array_equal(out3, CONST_C64)
    np.testing.assert_array_equal(big, BIG)


def test_const_records_read_their_fields():
    # poisoned: the largest integer, NaN
    outs = [
        np.full(9, np.iinfo(t).max if t != np.float64 else np.nan, t)
        for t in (np.uint8, np.uint32, np.float64, np.int16)
    ]
    outs.append(np.full(1, -1, np.int64))
    read_records[1, 16](*outs)
    for o, f in zip(outs, "ayxz"):
        np.testing.assert_array_equal(o, CONST_REC[f])
    assert outs[4][0] == 9


def test_const_arrays_are_ld_const_in_ptx(tmp_path):
    ptx = read_consts.inspect_asm((T.float64[::1], T.int32[:, ::1], T.complex64[:, :, ::1], T.float32[::1]))
    assert re.search(r"\.const \.align \d+ \.b8 __pydev_const_\d+\[296\]", ptx), ptx  # 37 float64
    assert re.search(r"ld\.const(\.nc)?\.[bf]64", ptx)
    assert re.search(r"ld\.const\.[bf]32", ptx)  # the int32 array
    assert re.search(r"ld\.const\.v2\.[bf]32", ptx)  # a complex64: its data are 8-byte aligned
    _assembles(ptx, tmp_path)
    ptx = read_records.inspect_asm((T.uint8[::1], T.uint32[::1], T.float64[::1], T.int16[::1], T.int64[::1]))
    assert re.search(r"ld\.const\.[bu]8", ptx) and re.search(r"ld\.const\.[bu]16", ptx)
    _assembles(ptx, tmp_path)
