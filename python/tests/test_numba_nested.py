"""Functions defined inside device code in pydev.numba (issue 31): a nested
`def` (or a lambda) is a device function closed over the compile-time values
it captures, called where it is defined or passed to device functions and
@overload implementations, with keyword arguments, defaults and *args.
Also recursion and enum members as compile-time constants. Host target,
fixed-seed inputs, poisoned outputs, against Python."""

import enum

import numpy as np
import pytest

import pydev
from pydev.numba import cuda
from pydev.numba.extending import overload, register_jitable

SEED = 20261128
OFFSET = 123  # a global the nested functions read


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@register_jitable
def apply_all(func, *args):  # plain Python on the host, a device function in kernels
    return func(*args)


def twice(f, x):
    return f(f(x))


@overload(twice)
def _ol_twice(f, x):
    return lambda f, x: f(f(x))


def _make(k):
    def body(x):
        scale = 3  # captured constants: a local, a global, the factory's tuple

        def affine(v, shift=OFFSET, neg=False):
            r = scale * v + shift + k[1]
            return -r if neg else r

        def outer(v):
            def inner(w):
                return w - 1

            return inner(v) * 2

        def add(*vs):
            s = 0
            for v in vs:
                s += v
            return s

        mul10 = lambda v: v * 10  # noqa: E731 - a lambda in device code is a function too
        return (
            affine(x)
            + affine(x, 1)
            + affine(x, shift=2, neg=True)
            + apply_all(affine, x)
            + apply_all(outer, x)
            + add(x, 1, 2)
            + apply_all(add, x, x)
            + twice(mul10, x)
            + twice(outer, x)
        )

    return body


def test_nested_functions_compute_as_python():
    body = _make((5, 7))
    dev = cuda.jit(device=True)(body)

    @cuda.jit
    def kern(xs, out):
        i = cuda.grid(1)
        if i < xs.size:
            out[i] = dev(xs[i])

    xs = np.random.default_rng(SEED).integers(-1000, 1000, size=300, dtype=np.int64)
    out = cuda.to_device(np.full(xs.size, -(2**62), dtype=np.int64))
    kern[3, 128](cuda.to_device(xs), out)
    want = np.array([body(int(x)) for x in xs], dtype=np.int64)
    np.testing.assert_array_equal(out.copy_to_host(), want)


def test_capturing_a_runtime_value_is_an_error():
    @cuda.jit
    def kern(xs, out):
        y = xs[0]

        def f(v):
            return v + y

        out[0] = f(1)

    with pytest.raises(pydev.CompileError, match="cannot capture the non-constant value of 'y'"):
        kern[1, 1](cuda.to_device(np.ones(1)), cuda.device_array(1))


def test_nested_def_errors_name_the_function():
    @cuda.jit
    def kern(out):
        def f(v, w):
            return v + w

        out[0] = f(1, 2, z=2)

    with pytest.raises(pydev.CompileError, match="unexpected keyword arguments \\['z'\\]"):
        kern[1, 1](cuda.device_array(1, np.int64))


@cuda.jit("i8(i8)", device=True)
def _fib_sig(n):
    if n < 2:
        return n
    return _fib_sig(n - 1) + _fib_sig(n - 2)


@cuda.jit(device=True)
def _collatz_steps(n, steps):  # return type from the first return, as Numba infers it
    if n == 1:
        return steps
    if n % 2 == 0:
        return _collatz_steps(n // 2, steps + 1)
    return _collatz_steps(3 * n + 1, steps + 1)


def test_recursive_device_functions():
    @cuda.jit
    def kern(xs, fib, steps):
        i = cuda.grid(1)
        if i < xs.size:
            fib[i] = _fib_sig(xs[i] % 20)
            steps[i] = _collatz_steps(xs[i], 0)

    def collatz(n):
        s = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            s += 1
        return s

    def fib(n):
        a, b = 0, 1
        for _ in range(n):
            a, b = b, a + b
        return a

    xs = np.random.default_rng(SEED).integers(1, 5000, size=100, dtype=np.int64)
    f = cuda.to_device(np.full(xs.size, -1, dtype=np.int64))
    s = cuda.to_device(np.full(xs.size, -1, dtype=np.int64))
    kern[1, 128](cuda.to_device(xs), f, s)
    np.testing.assert_array_equal(f.copy_to_host(), [fib(int(x) % 20) for x in xs])
    np.testing.assert_array_equal(s.copy_to_host(), [collatz(int(x)) for x in xs])


def test_runaway_recursion_is_an_error():
    @cuda.jit(device=True)
    def forever(x):
        return forever(x)

    @cuda.jit
    def kern(out):
        out[0] = forever(1)

    with pytest.raises(pydev.CompileError, match="cannot type infer runaway recursion"):
        kern[1, 1](cuda.device_array(1, np.int64))


class _Color(enum.Enum):
    red = 1
    green = 2


class _Code(enum.IntEnum):
    ok = 200
    missing = 404


def test_enum_members_are_compile_time_constants():
    @cuda.jit
    def kern(xs, out):
        i = cuda.grid(1)
        if i < xs.size:
            same = _Color.red == _Color["red"] and _Color.red != _Color.green
            out[i] = xs[i] + _Code["missing"] if same and xs[i] > _Code.ok else xs[i] - _Code.ok

    xs = np.random.default_rng(SEED).integers(0, 400, size=64, dtype=np.int64)
    out = cuda.to_device(np.full(xs.size, -1, dtype=np.int64))
    kern[1, 64](cuda.to_device(xs), out)
    np.testing.assert_array_equal(out.copy_to_host(), np.where(xs > 200, xs + 404, xs - 200))
