"""Exceptions raised in pydev.numba device code reach the host as in
Numba-CUDA: with `debug=True` the launch raises the first exception a thread
raised (a builtin or user class, with its constant arguments; the Python
error model's ZeroDivisionError and IndexError), its message prefixed with
"[In function 'f', file F, line N, ]tid=[z, y, x] ctaid=[z, y, x]"; the
raising thread returns and the others run to the end. Without `debug=True`
nothing is reported (the raising thread still returns). Host target,
fixed-seed inputs, poisoned outputs."""

import os
import re

import numpy as np
import pytest

import pydev
from pydev.numba import cuda

SEED = 20261128
POISON = -7777.0


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


class MyError(Exception):
    pass


def _line(fn, text):
    """The file line of `text` in function `fn`'s source."""
    import inspect

    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, ln in enumerate(lines) if text in ln)


def _prefix(fn_name, line, tid, ctaid):
    return f"In function '{fn_name}', file {os.path.abspath(__file__)}, line {line}, tid={tid} ctaid={ctaid}"


def _inputs(n):
    rng = np.random.default_rng(SEED)
    return rng.standard_normal(n), np.full(n, POISON)


def test_builtin_exception_with_a_message_names_the_first_raising_thread():
    def kernel(x, out, limit):
        i = cuda.grid(1)
        if i >= x.size:
            return
        if x[i] > limit:
            raise ValueError("too large", 7)
        out[i] = 2.0 * x[i]

    x, out = _inputs(96)
    limit = np.sort(x)[-3]  # three threads raise
    raising = set(np.flatnonzero(x > limit).tolist())
    k = cuda.jit(debug=True, opt=False)(kernel)
    with pytest.raises(ValueError) as e:
        k[3, 32](x, out, limit)
    msg, extra = e.value.args
    assert extra == 7
    m = re.fullmatch(
        r"In function 'kernel', file (.+), line (\d+), tid=\[0, 0, (\d+)\] ctaid=\[0, 0, (\d+)\]: too large", msg
    )
    assert m, msg
    assert m.group(1) == os.path.abspath(__file__)
    assert int(m.group(2)) == _line(kernel, 'raise ValueError("too large", 7)')
    assert int(m.group(4)) * 32 + int(m.group(3)) in raising  # a thread that did raise
    # The raising threads returned before writing; the others ran to the end.
    expect = np.where(x > limit, POISON, 2.0 * x)
    np.testing.assert_array_equal(out, expect)


def test_user_exception_class_with_and_without_arguments():
    def kernel(flag, out):
        if flag[0] == 1:
            raise MyError
        elif flag[0] == 2:
            raise MyError("foo")
        out[0] = 1.0

    k = cuda.jit("void(int32[::1], float64[::1])", debug=True, opt=False)(kernel)
    out = np.full(1, POISON)
    k[1, 1](np.array([0], np.int32), out)  # no raise
    assert out[0] == 1.0
    out[0] = POISON
    with pytest.raises(MyError) as e:
        k[1, 1](np.array([1], np.int32), out)
    assert str(e.value) == _prefix("kernel", _line(kernel, "raise MyError\n"), [0, 0, 0], [0, 0, 0])
    with pytest.raises(MyError) as e:
        k[1, 1](np.array([2], np.int32), out)
    assert str(e.value) == _prefix("kernel", _line(kernel, 'raise MyError("foo")'), [0, 0, 0], [0, 0, 0]) + ": foo"
    assert out[0] == POISON


def test_raised_in_a_device_function_called_from_a_kernel():
    @cuda.jit(device=True)
    def check(v):
        if v < 0:
            raise MyError("negative", 3)
        return v * 3

    def kernel(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = check(x[i])

    rng = np.random.default_rng(SEED)
    x = rng.integers(0, 100, 64).astype(np.int64)
    x[[5, 41]] = -4  # the threads of block (1, 0, 0) and (0, 0, 0) raise
    out = np.full(64, -1, np.int64)
    with pytest.raises(MyError) as e:
        cuda.jit(debug=True, opt=False)(kernel)[(2, 1), (32, 1)](x, out)
    msg = e.value.args[0]
    assert e.value.args[1:] == (3,)
    line = _line(check, 'raise MyError("negative", 3)')
    assert msg in (
        _prefix("check", line, [0, 0, 5], [0, 0, 0]) + ": negative",
        _prefix("check", line, [0, 0, 9], [0, 0, 1]) + ": negative",
    )
    # The raising threads returned from the kernel too (nothing written);
    # the others ran to the end.
    np.testing.assert_array_equal(out, np.where(x >= 0, 3 * x, -1))


def test_no_exception_without_debug():
    def kernel(x, out):
        i = cuda.grid(1)
        if i < x.size:
            if x[i] > 0.5:
                raise ValueError("ignored")
            out[i] = x[i] + 1.0

    x, out = _inputs(50)
    cuda.jit(kernel)[2, 32](x, out)  # Numba-CUDA ignores raise without debug=True
    np.testing.assert_array_equal(out, np.where(x > 0.5, POISON, x + 1.0))

    # Raised in a device function: its caller returns too (nothing written).
    @cuda.jit(device=True)
    def plus_one(v):
        if v > 0.5:
            raise ValueError("ignored")
        return v + 1.0

    @cuda.jit
    def calls(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = plus_one(x[i])

    out[:] = POISON
    calls[2, 32](x, out)
    np.testing.assert_array_equal(out, np.where(x > 0.5, POISON, x + 1.0))


def test_zero_division_in_debug():
    @cuda.jit(debug=True, opt=False)
    def f(r, x, y):
        r[0] = y[0] / x[0]
        r[1] = y[0]

    r, x, y = np.zeros(2), np.zeros(1), np.ones(1)
    with pytest.raises(ZeroDivisionError) as e:
        f[1, 1](r, x, y)
    assert str(e.value) == "tid=[0, 0, 0] ctaid=[0, 0, 0]: division by zero"
    assert r[0] == 0 and r[1] == 0  # the thread stopped at the division

    @cuda.jit(debug=True, opt=False)
    def g(out, a, b):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = a[i] // b[i]

    rng = np.random.default_rng(SEED)
    a = rng.integers(-100, 100, 40).astype(np.int32)
    b = rng.integers(1, 9, 40).astype(np.int32)
    b[17] = 0
    out = np.full(40, -99, np.int32)
    with pytest.raises(ZeroDivisionError) as e:
        g[2, 32](out, a, b)
    assert str(e.value) == "tid=[0, 0, 17] ctaid=[0, 0, 0]: integer division by zero"
    ok = b != 0
    np.testing.assert_array_equal(out[ok], a[ok] // b[ok])
    assert out[17] == -99

    # A float modulo names its line too, as Numba-CUDA's does.
    def h(out, a, b):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = a[i] % b[i]

    a = rng.uniform(1.0, 9.0, 8)
    b = rng.uniform(0.5, 2.0, 8)
    b[6] = 0.0
    fout = np.full(8, POISON)
    with pytest.raises(ZeroDivisionError) as e:
        cuda.jit(debug=True, opt=False)(h)[1, 8](fout, a, b)
    assert str(e.value) == _prefix("h", _line(h, "out[i] = a[i] % b[i]"), [0, 0, 6], [0, 0, 0]) + ": modulo by zero"
    np.testing.assert_array_equal(fout, np.where(b == 0, POISON, a % np.where(b == 0, 1, b)))

    # Without debug: NumPy's error model, no exception (x // 0 == 0, y / 0 == inf).
    f2 = cuda.jit(f.py_func)
    r = np.zeros(2)
    f2[1, 1](r, x, y)
    assert np.isinf(r[0]) and r[1] == 1.0


def test_index_error_of_a_tuple_index_out_of_range():
    def foo(ary, out):
        x = cuda.threadIdx.x
        out[x] = ary.shape[-x]

    out = np.full(3, -1, np.int64)
    with pytest.raises(IndexError) as e:
        cuda.jit(debug=True, opt=False)(foo)[1, 3](np.array([0, 1]), out)
    assert str(e.value) == "tid=[0, 0, 2] ctaid=[0, 0, 0]: tuple index out of range"
    np.testing.assert_array_equal(out, [2, 2, -1])
    out[:] = -1
    cuda.jit(foo)[1, 3](np.array([0, 1]), out)  # no exception; the thread returns
    np.testing.assert_array_equal(out, [2, 2, -1])


def test_other_failures_stay_launch_errors():
    # pydev's own checks (PYDEV_BOUNDSCHECK) are not Numba-CUDA's: LaunchError.
    @cuda.jit(debug=True, boundscheck=True)
    def k(a):
        a[cuda.threadIdx.x + 5] = 1.0

    with pytest.raises(pydev.LaunchError):
        k[1, 1](np.zeros(3))


def test_assert_is_checked_with_debug_and_opt_false_only():
    def kernel(x, out, limit):
        i = cuda.grid(1)
        if i < x.size:
            assert x[i] <= limit, "above the limit"
            out[i] = 2.0 * x[i]

    def bare(x, out, limit):
        i = cuda.grid(1)
        if i < x.size:
            assert x[i] <= limit
            out[i] = 2.0 * x[i]

    x, out = _inputs(64)
    limit = np.sort(x)[-2]  # one thread fails its assert
    failing = int(np.argmax(x))
    with pytest.raises(AssertionError) as e:
        cuda.jit(debug=True, opt=False)(kernel)[2, 32](x, out, limit)
    tid, ctaid = [0, 0, failing % 32], [0, 0, failing // 32]
    assert str(e.value) == _prefix("kernel", _line(kernel, "assert x[i]"), tid, ctaid) + ": above the limit"
    np.testing.assert_array_equal(out, np.where(x > limit, POISON, 2.0 * x))  # the failing thread returned
    with pytest.raises(AssertionError) as e:
        cuda.jit(debug=True, opt=False)(bare)[2, 32](x, np.full(64, POISON), limit)
    assert str(e.value) == _prefix("bare", _line(bare, "assert x[i]"), tid, ctaid)
    # Without debug=True and opt=False the assert is not evaluated, as Python under -O.
    for options in ({}, {"debug": True}, {"opt": False}):
        out = np.full(64, POISON)
        cuda.jit(**options)(kernel)[2, 32](x, out, limit)
        np.testing.assert_array_equal(out, 2.0 * x)
