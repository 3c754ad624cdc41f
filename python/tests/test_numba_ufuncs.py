"""NumPy's ufuncs in pydev.numba device code (issue 31): on numbers, and on
arrays with their output given (broadcast as NumPy does, cast to the
output's dtype). Host target, fixed-seed inputs, NaN-poisoned outputs,
compared with NumPy."""

import numpy as np
import pytest

import pydev
from pydev.numba import cuda

SEED = 20261128


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def test_array_ufuncs_with_their_output(rng):
    @cuda.jit
    def k(a, b, row, s, o1, o2, o3, o4):
        np.add(a, b, o1)  # same shapes
        np.multiply(a, row, out=o2)  # a row broadcast over the rows
        r = np.arctan2(s, a, o3)  # a number broadcast; the value is the output array
        r[0, 0] = -1.0
        np.floor(b, o4)  # cast to the int32 output

    a, b = rng.random((5, 6)) - 0.5, 10 * rng.random((5, 6))
    row = rng.random((1, 6))
    o1, o2, o3 = (np.full((5, 6), np.nan) for _ in range(3))
    o4 = np.full((5, 6), -99, dtype=np.int32)
    k[1, 1](a, b, row, 0.5, o1, o2, o3, o4)
    np.testing.assert_allclose(o1, a + b)
    np.testing.assert_allclose(o2, a * row)
    want = np.arctan2(0.5, a)
    want[0, 0] = -1.0
    np.testing.assert_allclose(o3, want)
    np.testing.assert_array_equal(o4, np.floor(b).astype(np.int32))


def test_fortran_order_and_fewer_axes(rng):
    @cuda.jit
    def k(a, v, out):
        np.subtract(a, v, out)

    a = np.asfortranarray(rng.random((4, 3)))
    v = rng.random(3)
    out = np.asfortranarray(np.full((4, 3), np.nan))
    k[1, 1](a, v, out)
    np.testing.assert_allclose(out, a - v)


def test_comparisons_as_numpy(rng):
    @cuda.jit
    def k(x, y, out):
        out[0] = np.greater(x, y)
        out[1] = np.less_equal(x, y)
        out[2] = np.equal(x, y)
        out[3] = np.not_equal(x, y)

    pairs = [
        (np.int64(-1), np.uint64(0)),  # exact, not through float64
        (np.uint64(2**64 - 1), np.int64(-1)),
        (np.int64(2**62 + 1), np.uint64(2**62)),
        (np.uint64(2**63), np.int64(-1)),
        (np.uint32(4_000_000_000), np.int32(-5)),
        (np.complex128(1 + 2j), np.complex128(1 + 1j)),  # lexicographic
        (np.complex128(0.5 - 1j), np.complex128(1 - 3j)),
        (np.float32(0.25), np.int16(3)),
    ]
    for x, y in pairs:
        out = np.full(4, 7, dtype=np.int8)
        k[1, 1](x, y, out)
        want = [np.greater(x, y), np.less_equal(x, y), np.equal(x, y), np.not_equal(x, y)]
        assert out.tolist() == [int(w) for w in want], (x, y)


def test_logical_extrema_and_bitwise(rng):
    @cuda.jit
    def k(x, y, i, j, out, bits):
        np.logical_and(x, y, out[0])
        np.logical_xor(x, y, out[1])
        np.maximum(x, y, out[2])
        np.minimum(x, y, out[3])
        np.fmax(x, y, out[4])
        np.fmin(x, y, out[5])
        np.logical_not(x, out[6])
        np.invert(i, bits[0])
        np.bitwise_xor(i, j, bits[1])
        np.left_shift(i, 1, bits[2])

    x = rng.random(8) - 0.5
    y = rng.random(8) - 0.5
    x[[1, 5]] = 0.0
    x[2], y[3], x[4], y[4] = np.nan, np.nan, np.nan, np.nan
    i = rng.integers(0, 256, 8).astype(np.uint8)
    j = rng.integers(0, 256, 8).astype(np.uint8)
    out = np.full((7, 8), -7.0)
    bits = np.zeros((3, 8), dtype=np.uint8)
    k[1, 1](x, y, i, j, out, bits)
    with np.errstate(invalid="ignore"):
        want = [
            np.logical_and(x, y),
            np.logical_xor(x, y),
            np.maximum(x, y),
            np.minimum(x, y),
            np.fmax(x, y),
            np.fmin(x, y),
            np.logical_not(x),
        ]
    for got, w in zip(out, want):
        np.testing.assert_array_equal(got, w.astype(np.float64))
    np.testing.assert_array_equal(bits, [np.invert(i), np.bitwise_xor(i, j), np.left_shift(i, 1)])


def test_complex_ufuncs_take_cmath(rng):
    @cuda.jit
    def k(z, out):
        np.sin(z, out[0])
        np.log2(z, out[1])
        np.sqrt(z, out[2])

    z = (rng.random(6) - 0.5) + 1j * (rng.random(6) - 0.5)
    out = np.full((3, 6), np.nan + 0j)
    k[1, 1](z, out)
    np.testing.assert_allclose(out, [np.sin(z), np.log2(z), np.sqrt(z)], rtol=1e-12)


def test_errors_name_the_ufunc():
    @cuda.jit
    def no_out(a):
        a[0] = np.sin(a)[0]

    with pytest.raises(pydev.CompileError, match=r"np.sin\(\) of an array takes its output array"):
        no_out[1, 1](np.zeros(3))

    @cuda.jit
    def too_many(a, b):
        np.sin(a, b, b)

    with pytest.raises(pydev.CompileError, match=r"np.sin\(\) takes 1 input"):
        too_many[1, 1](np.zeros(3), np.zeros(3))

    @cuda.jit
    def wider(a, b):
        np.cos(a, b)

    with pytest.raises(pydev.CompileError, match="a 2-d input cannot broadcast to the 1-d output"):
        wider[1, 1](np.zeros((2, 3)), np.zeros(3))
