"""Functions defined inside device code in pydev.numba (issue 31): a nested
`def` (or a lambda) is a device function closed over the compile-time values
it captures, called where it is defined or passed to device functions and
@overload implementations, with keyword arguments, defaults and *args.
Host target, fixed-seed inputs, poisoned outputs, against Python."""

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
