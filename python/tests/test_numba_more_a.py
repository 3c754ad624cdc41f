"""numba-cuda's host helpers and launch details on pydev.numba (issue 31):
`cuda.kernels.transpose.transpose` (a tiled shared-memory kernel written in
pydev.numba), `forall`'s check of its task count, and a configured launch's
`pre_launch_callbacks`, a compiled overload's `_type_annotation.typemap`,
and Numba's error for an invalid dtype string.

Host target, seeded random inputs, poisoned outputs."""

import numpy as np
import pytest

from pydev.numba import cuda
from pydev.numba.cuda.kernels.transpose import transpose
from test_fake_driver import fake_driver  # noqa: F401 - the fixture (builds test/fakecuda)

SEED = 20261128


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


@pytest.mark.parametrize("shape", [(3, 5), (32, 32), (33, 70), (100, 31)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128])
def test_transpose_into_given_array(rng, shape, dtype):
    a = (rng.standard_normal(shape) * 100).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    out = np.full(shape[::-1], 7777, dtype=dtype)
    d_out = cuda.to_device(out)
    assert transpose(cuda.to_device(a), d_out) is d_out
    np.testing.assert_array_equal(d_out.copy_to_host(), a.T)


def test_transpose_allocates_and_takes_host_arrays(rng):
    a = rng.integers(-1000, 1000, size=(45, 17)).astype(np.int32)
    b = transpose(a)
    assert b.shape == (17, 45) and b.dtype == np.int32
    np.testing.assert_array_equal(b.copy_to_host(), a.T)


def test_transpose_bool_and_records(rng):
    a = rng.integers(0, 2, size=(19, 23)).astype(np.bool_)
    np.testing.assert_array_equal(transpose(cuda.to_device(a)).copy_to_host(), a.T)
    rec = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
    r = np.zeros((6, 9), dtype=rec)
    r["i"] = rng.integers(-50, 50, size=(6, 9))
    r["j"] = rng.standard_normal((6, 9, 3, 2))
    np.testing.assert_array_equal(transpose(cuda.to_device(r)).copy_to_host(), r.T)


def test_transpose_rejects_wrong_shapes():
    with pytest.raises(ValueError, match="2-D"):
        transpose(np.zeros(4))
    with pytest.raises(ValueError, match="output shape"):
        transpose(np.zeros((2, 3)), cuda.device_array((2, 3)))


def test_forall_refuses_negative_work():
    @cuda.jit
    def k(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] = i

    with pytest.raises(ValueError, match="negative task count"):
        k.forall(-1)


def test_pre_launch_callbacks(rng):
    import pickle

    @cuda.jit
    def add(x, v):
        i = cuda.grid(1)
        if i < x.size:
            x[i] += v

    seen = []
    x = rng.integers(-100, 100, size=40).astype(np.int64)
    d = cuda.to_device(x)
    cfg = add[2, 32]
    cfg.pre_launch_callbacks.append(lambda kernel, config: seen.append((d.copy_to_host().copy(), config)))
    cfg(d, 3)
    cfg(d, 4)
    # Each launch calls it first, with the configuration; the data is not yet written.
    assert [s[1] for s in seen] == [cfg, cfg]
    np.testing.assert_array_equal(seen[0][0], x)
    np.testing.assert_array_equal(seen[1][0], x + 3)
    np.testing.assert_array_equal(d.copy_to_host(), x + 7)
    with pytest.raises(pickle.PicklingError, match="pre-launch callbacks"):
        pickle.dumps(cfg)
    # A new configuration (even of the same shape) has none of them, and pickles.
    other = add[2, 32]
    assert other is not cfg and other.pre_launch_callbacks == []
    other(d, 1)
    assert len(seen) == 2
    np.testing.assert_array_equal(d.copy_to_host(), x + 8)
    again = pickle.loads(pickle.dumps(other))
    again(d, 1)
    np.testing.assert_array_equal(d.copy_to_host(), x + 9)


def test_type_annotation_typemap(rng):
    from pydev.numba import float32, int32, void

    @cuda.jit(void(float32[::1], int32[::1]))
    def k(x, y):
        s = cuda.shared.array(16, dtype="float32")
        loc = cuda.local.array((2, 3), dtype=np.int32)
        i = cuda.threadIdx.x
        s[i] = x[i] * 2
        loc[0, 0] = y[i]
        cuda.syncthreads()
        x[i] = s[15 - i]
        y[i] = loc[0, 0] + 1

    tm = next(iter(k.overloads.values()))._type_annotation.typemap
    assert tm["s"].dtype == float32 and tm["s"].ndim == 1
    assert tm["loc"].dtype == int32 and tm["loc"].ndim == 2
    assert tm["i"] in (cuda.types.int32, cuda.types.int64, cuda.types.uint32, cuda.types.uint64)
    assert "cuda" not in tm  # a module: compile-time, no Numba type
    x = rng.standard_normal(16).astype(np.float32)
    y = rng.integers(-100, 100, size=16).astype(np.int32)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    k[1, 16](dx, dy)
    np.testing.assert_array_equal(dx.copy_to_host(), (x * 2)[::-1])
    np.testing.assert_array_equal(dy.copy_to_host(), y + 1)


def test_invalid_string_dtype_in_numbas_words():
    from pydev.numba import int32, void
    from pydev.numba.core.errors import TypingError

    with pytest.raises(TypingError, match="Invalid NumPy dtype specified: 'int33'"):

        @cuda.jit(void(int32[::1]))
        def k(x):
            loc = cuda.local.array(10, dtype="int33")
            loc[0] = x[0]
            x[0] = loc[0]


def test_device_array_view_dtype(rng):
    a = rng.integers(-(2**31), 2**31, size=(3, 4), dtype=np.int64).astype(np.int32)
    d = cuda.to_device(a)
    np.testing.assert_array_equal(d.view(np.int64).copy_to_host(), a.view(np.int64))
    np.testing.assert_array_equal(d.view(np.uint8).copy_to_host(), a.view(np.uint8))
    # A view shares the memory: writes through it show in the base.
    v = d.view(np.uint32)
    v[1, 2] = np.uint32(0xFFFFFFFF)
    assert d.copy_to_host()[1, 2] == -1
    t = np.arange("2005-02", "2006-02", dtype="datetime64[D]")
    np.testing.assert_array_equal(cuda.to_device(t).view(np.int64).copy_to_host(), t.view(np.int64))
    with pytest.raises(ValueError):
        d[:, ::2].view(np.int64)  # another size needs a contiguous last axis


def test_device_array_view_dtype_on_cuda_under_the_fake_driver(fake_driver, tmp_path):
    from test_numba import _under_fake_driver

    code = """
import numpy as np, fakecuda, pydev
from pydev.numba import cuda
assert pydev.active_target() == "cuda"
a = np.random.default_rng(5).integers(-1000, 1000, size=(4, 6)).astype(np.int32)
d = cuda.to_device(a)
v = d.view(np.int64)
assert v.shape == (4, 3) and v.strides == (24, 8)
np.testing.assert_array_equal(v.copy_to_host(), a.view(np.int64))
np.testing.assert_array_equal(d[1:3].view(np.int16).copy_to_host(), a[1:3].view(np.int16))
print("fake ok")
"""
    assert "fake ok" in _under_fake_driver(fake_driver, tmp_path, code)


def test_datetime_arithmetic_in_kernels(rng):
    @cuda.jit
    def k(start, end, step, delta, later, hours, scaled, halved):
        i = cuda.grid(1)
        if i < start.size:
            delta[i] = end[i] - start[i]
            later[i] = start[i] + step
            hours[i] = (end[i] - start[i]) + cuda.threadIdx.x * step2h(step)
            scaled[i] = 3 * (end[i] - start[i]) - step
            halved[i] = -(end[i] - start[i]) // 2

    @cuda.jit(device=True)
    def step2h(step):
        return step

    n = 200
    start = np.datetime64("2005-02-01") + rng.integers(-5000, 5000, n).astype("timedelta64[D]")
    end = start + rng.integers(0, 10000, n).astype("timedelta64[D]")
    start[7] = np.datetime64("NaT")
    step = np.timedelta64(5, "h")
    outs = [
        np.full(n, np.timedelta64(-1, "D")),
        np.full(n, np.datetime64(1, "h")),
        np.full(n, np.timedelta64(-1, "h")),
        np.full(n, np.timedelta64(-1, "h")),
        np.full(n, np.timedelta64(-1, "D")),
    ]
    k[2, 128](start, end, step, *outs)
    tid = (np.arange(n) % 128).astype(np.int64)
    np.testing.assert_array_equal(outs[0], end - start)
    np.testing.assert_array_equal(outs[1], start + step)
    np.testing.assert_array_equal(outs[2], (end - start) + tid * step)
    np.testing.assert_array_equal(outs[3], 3 * (end - start) - step)
    np.testing.assert_array_equal(outs[4], -(end - start) // 2)
    assert np.isnat(outs[0][7]) and np.isnat(outs[1][7]) and np.isnat(outs[4][7])


def test_datetime_comparisons_and_scalars(rng):
    @cuda.jit
    def k(dates, target, delta, eq, lt, ne, shifted):
        for i in range(cuda.grid(1), dates.size, cuda.gridsize(1)):
            eq[i] = dates[i] == target
            lt[i] = dates[i] < target
            ne[i] = dates[i] != target
            shifted[i] = dates[i] - delta

    dates = np.datetime64("2010-01-01") + rng.integers(0, 40, 300).astype("timedelta64[D]")
    dates[3] = np.datetime64("NaT")
    target = dates[5]
    delta = np.timedelta64(36, "h")
    eq, lt, ne = (np.ones(300, np.bool_) for _ in range(3))
    eq[:] = lt[:] = ne[:] = [True, False] * 150
    shifted = np.full(300, np.datetime64(-1, "h"))
    d_dates = cuda.to_device(dates)
    k[2, 64](d_dates, target, delta, eq, lt, ne, shifted)
    np.testing.assert_array_equal(eq, dates == target)
    np.testing.assert_array_equal(lt, dates < target)
    np.testing.assert_array_equal(ne, dates != target)
    np.testing.assert_array_equal(shifted, dates - delta)
    assert not eq[3] and not lt[3] and ne[3]


def test_datetime_types_and_errors():
    from pydev.numba import types
    from pydev.numba.core.errors import TypingError

    assert types.from_dtype(np.dtype("M8[D]")) == types.NPDatetime("D")
    assert str(types.from_dtype(np.dtype("m8[ns]"))) == "timedelta64[ns]"
    assert types.typeof(np.datetime64("2001-01-01")) == types.NPDatetime("D")

    @cuda.jit
    def bad(a, b, out):
        out[0] = a[0] + b[0]  # datetime + datetime: no meaning, as in NumPy

    d = np.zeros(1, "M8[D]")
    with pytest.raises(TypingError, match="unsupported operand"):
        bad[1, 1](d, d, np.zeros(1, "m8[D]"))

    @cuda.jit
    def months_and_days(a, b, out):
        out[0] = a[0] - b[0]

    with pytest.raises(TypingError, match="units do not convert"):
        months_and_days[1, 1](np.zeros(1, "M8[M]"), d, np.zeros(1, "m8[D]"))


def test_datetime_ufuncs_and_inferred_result_types(rng):
    from pydev.numba import types

    dt = types.from_dtype(np.dtype("datetime64[D]"))
    td = types.from_dtype(np.dtype("timedelta64[D]"))

    @cuda.vectorize([(dt, dt)])
    def timediff(start, end):
        return end - start

    @cuda.vectorize([(types.int32, types.float32)])  # the result type is the function's: float64
    def mixed(a, b):
        return a * b

    @cuda.guvectorize([(dt, dt, td[:])], "(),()->()")
    def gtimediff(start, end, out):
        out[0] = end - start

    a = np.datetime64("2005-02-01") + rng.integers(0, 400, 300).astype("timedelta64[D]")
    b = a + rng.integers(-10000, 10000, 300).astype("timedelta64[D]")
    got = timediff(a, b)
    assert got.dtype == np.dtype("timedelta64[D]")
    np.testing.assert_array_equal(got, b - a)
    np.testing.assert_array_equal(gtimediff(a, b), b - a)
    x = rng.integers(-100, 100, 50).astype(np.int32)
    y = rng.standard_normal(50).astype(np.float32)
    r = mixed(x, y)
    assert r.dtype == np.float64
    np.testing.assert_allclose(r, x * y.astype(np.float64))


def test_shared_array_shape_refuses_a_list():
    from pydev.numba import float32
    from pydev.numba.core.errors import TypingError

    with pytest.raises(TypingError, match="not a list"):

        @cuda.jit((float32[:, :],))
        def k(a):
            sa = cuda.shared.array(shape=[4, 4], dtype=float32)
            i, j = cuda.grid(2)
            a[i, j] = sa[i, j]
