"""Records in pydev.numba (issue 31): fields by name (`r["x"]`, as `r.x`)
and sub-array fields assigned whole, from an array or from another record's
sub-array of the same shape, as Numba copies them. Host target, fixed-seed
inputs, poisoned outputs, against NumPy."""

import numpy as np
import pytest

import pydev
from pydev.numba import cuda

SEED = 20261128
SRC = np.dtype([("user", np.float64), ("array", np.int16, (3, 2))], align=True)
DST = np.dtype([("tag", np.int32), ("array1", np.int16, (3, 2)), ("flat", np.float32, (4,))], align=True)


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@cuda.jit
def copy(src, rows, dst):
    i = cuda.grid(1)
    if i < dst.size:
        r = dst[i]
        r["tag"] = i * 3 + int(src[i]["user"])
        r["array1"] = src[i]["array"]  # a sub-array from another record's
        dst[i].flat = rows[i]  # a sub-array from a row of a 2-d array
        r["flat"][3] += 0.5


def test_sub_arrays_assigned_whole_and_fields_by_name():
    rng = np.random.default_rng(SEED)
    n = 40
    src = np.zeros(n, SRC)
    src["user"] = rng.integers(-50, 50, n)
    src["array"] = rng.integers(-1000, 1000, (n, 3, 2))
    rows = rng.standard_normal((n, 4)).astype(np.float32)
    dst = np.zeros(n, DST)
    dst["tag"], dst["array1"], dst["flat"] = -7, -7, np.nan
    copy[1, 64](src, rows, dst)
    np.testing.assert_array_equal(dst["tag"], np.arange(n) * 3 + src["user"].astype(np.int32))
    np.testing.assert_array_equal(dst["array1"], src["array"])
    want = rows.copy()
    want[:, 3] += 0.5
    np.testing.assert_array_equal(dst["flat"], want)


def test_a_sub_array_of_another_shape_or_rank_is_an_error():
    @cuda.jit
    def bad(src, dst):
        dst[0].flat = src[0]["array"]

    with pytest.raises(
        pydev.CompileError,
        match="sub-array field 'flat'.*whole from an array or a sub-array of 1 dimensions, got nestedarray",
    ):
        bad[1, 1](np.zeros(1, SRC), np.zeros(1, DST))
