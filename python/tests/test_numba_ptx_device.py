"""numba-cuda's `cuda.compile_ptx(f, sig, device=True)`: a device function
alone as PTX, with Numba's ABI (`int f(T *ret, args...)`, the default) or
the C ABI (`abi="c"`), assembled by ptxas."""

import re

import numpy as np
import pytest
import toolchain
from pydev.numba import cuda
from pydev.numba.cuda import types as T


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
