"""pydev.numba's kernel language, second part (issue 31): NumPy array
reductions and `literal_unroll`, `cuda.Reduce`, cmath's inverse and
hyperbolic functions with C99's special values, cache-hinted loads and
stores, CUDA vector types, and the array methods `reshape`, `view`, `copy`,
`.real`/`.imag`. Host target, fixed-seed inputs, NaN-poisoned outputs,
compared with NumPy / Python's cmath."""

import cmath
import itertools
import math

import numpy as np
import pytest

import pydev
from pydev.numba import cuda, float32, float64, literal_unroll

SEED = 20261128


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


# --- NumPy reductions in device code ---------------------------------------------------------

REDUCTIONS = [
    "sum",
    "prod",
    "mean",
    "var",
    "std",
    "min",
    "max",
    "all",
    "any",
    "count_nonzero",
    "nansum",
    "nanprod",
    "nanmean",
    "nanvar",
    "nanstd",
    "nanmin",
    "nanmax",
]


def _reduction_kernel(fn):
    @cuda.jit
    def k(out, a, b, c):
        out[0] = fn(a)
        out[1] = fn(b)
        out[2] = fn(c)

    return k


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_match_numpy(name, rng):
    fn = getattr(np, name)
    k = _reduction_kernel(fn)
    x = rng.uniform(-2, 2, (6, 5))
    x[2, 3] = np.nan  # NaN-aware and NaN-propagating reductions differ here
    xi = rng.integers(-4, 5, (4, 7)).astype(np.int32)
    xb = rng.random(9) < 0.7
    for arrs in [(x, x[::2, 1:], x[:, 2]), (xi, xi[:, ::-2], xi[1]), (xb, xb[::2], xb[1:])]:
        if name in ("var", "std", "mean", "nanvar", "nanstd", "nanmean") and arrs[0].dtype == bool:
            continue
        out = np.full(3, np.nan)
        k[1, 1](out, *arrs)
        want = np.array([fn(a) for a in arrs], dtype=np.float64)
        np.testing.assert_allclose(out, want, rtol=1e-13, atol=0, equal_nan=True, err_msg=f"np.{name}")


def test_reduction_result_types(rng):
    @cuda.jit
    def k(f32out, i64out, u64out, f64out, x32, xi, xu):
        f32out[0] = np.sum(x32)  # float32 stays float32
        f32out[1] = x32.max()
        i64out[0] = np.sum(xi)  # int32 sums are int64
        u64out[0] = np.prod(xu)  # unsigned are uint64
        f64out[0] = np.mean(xi)  # float64 for integers
        i64out[1] = np.count_nonzero(xi)

    x32 = rng.standard_normal(50).astype(np.float32)
    xi = rng.integers(-(2**30), 2**30, 40).astype(np.int32)
    xu = rng.integers(1, 4, 20).astype(np.uint32)
    f32out, i64out, u64out, f64out = (
        np.full(2, np.nan, np.float32),
        np.full(2, -1),
        np.zeros(1, np.uint64),
        np.full(1, np.nan),
    )
    k[1, 1](f32out, i64out, u64out, f64out, x32, xi, xu)
    # sequential float32 sums (Numba's) against NumPy's pairwise one: a few ulps
    np.testing.assert_allclose(f32out[0], np.sum(x32), rtol=1e-5)
    assert f32out[1] == x32.max()
    assert i64out[0] == xi.astype(np.int64).sum()  # would overflow int32
    assert u64out[0] == np.prod(xu.astype(np.uint64))
    assert f64out[0] == pytest.approx(xi.mean(), rel=1e-15)
    assert i64out[1] == np.count_nonzero(xi)


def test_reduction_methods(rng):
    @cuda.jit
    def k(out, a):
        out[0] = a.sum()
        out[1] = a.prod()
        out[2] = a.mean()
        out[3] = a.var()
        out[4] = a.std()
        out[5] = a.min()
        out[6] = a.max()
        out[7] = a.all()
        out[8] = a.any()

    a = rng.uniform(0.5, 1.5, (3, 4, 2))
    out = np.full(9, np.nan)
    k[1, 1](out, a)
    want = [a.sum(), a.prod(), a.mean(), a.var(), a.std(), a.min(), a.max(), a.all(), a.any()]
    np.testing.assert_allclose(out, want, rtol=1e-13)


_CASES = (
    np.float64([1.0, -0.0, np.inf, np.nan]),
    np.float64([[1.0, 1.5], [2.5, -3.0]]),
    np.int64([3, 0, -2]),
    np.array(0),
    np.float64([]),
)


def test_literal_unroll_over_constant_arrays():
    @cuda.jit
    def k(out):
        i = 0
        for a in literal_unroll(_CASES):
            out[i, 0] = np.sum(a)
            out[i, 1] = np.count_nonzero(a)
            out[i, 2] = a.size
            i += 1

    out = np.full((len(_CASES), 3), -7.0)
    k[1, 1](out)
    want = [[np.sum(a), np.count_nonzero(a), a.size] for a in _CASES]
    np.testing.assert_array_equal(out, want)
    assert literal_unroll(_CASES) is _CASES  # the host's: the tuple itself


def test_reduction_errors():
    @cuda.jit
    def k(out, a):
        out[0] = np.sum(a, 0)

    with pytest.raises(pydev.CompileError, match="np.sum"):
        k[1, 1](np.zeros(1), np.zeros((2, 2)))

    @cuda.jit
    def k2(out, x):
        out[0] = np.mean(x)

    with pytest.raises(pydev.CompileError, match=r"np.mean\(\) of \(float64\) is not supported"):
        k2[1, 1](np.zeros(1), 1.5)


def test_unrolled_loop_target_unbound_after_a_type_change():
    @cuda.jit
    def k(out):
        for v in (1, 2):
            out[0] += v
        for v in (1.5, 2.5):
            out[1] += v
        out[2] = v

    with pytest.raises(pydev.CompileError, match="before it is assigned"):
        k[1, 1](np.zeros(3))


# --- cuda.Reduce -----------------------------------------------------------------------------

_sum_reduce = cuda.Reduce(lambda a, b: a + b)


@pytest.mark.parametrize("n", [1, 31, 128, 129, 1000, 8192 + 77, 70000])
def test_reduce_sum(n, rng):
    a = rng.integers(-1000, 1000, n).astype(np.float64)  # exact in any order
    assert _sum_reduce(a) == a.sum()
    d = cuda.to_device(a)
    assert _sum_reduce(d) == a.sum()
    assert _sum_reduce(a, size=n // 2 + 1) == a[: n // 2 + 1].sum()


def test_reduce_max_prod_init_res(rng):
    def bigger(a, b):
        return max(a, b)

    a = rng.standard_normal(3000).astype(np.float32)
    assert cuda.Reduce(bigger)(a, init=-100) == a.max()
    p = rng.uniform(0.9, 1.1, 300)
    np.testing.assert_allclose(cuda.reduce(lambda x, y: x * y)(p, init=1), p.prod(), rtol=1e-12)
    ints = rng.integers(0, 100, 555).astype(np.int32)
    assert _sum_reduce(ints, init=7) == ints.sum() + 7
    res = cuda.to_device(np.full(3, np.nan))
    assert _sum_reduce(a.astype(np.float64), res=res) is None
    got = res.copy_to_host()
    assert got[0] == pytest.approx(a.astype(np.float64).sum(), rel=1e-12) and np.isnan(got[1:]).all()
    assert _sum_reduce(np.zeros(0)) == 0.0
    assert _sum_reduce(np.zeros(0), init=5) == 5.0
    with pytest.raises(TypeError, match="1D"):
        _sum_reduce(np.zeros((2, 2)))


# --- cmath -----------------------------------------------------------------------------------

_CMATH = ["acos", "asin", "atan", "acosh", "asinh", "atanh", "sinh", "cosh", "cos", "sin", "exp", "sqrt"]
_REALS = [-0.0, 0.0, 1.0, -1.0, 1.5, -3.5, -math.pi, math.pi, -math.inf, math.inf, 1e300]


def _same(got, want, rel):
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        if math.isnan(w) or math.isnan(g):
            if math.isnan(w) != math.isnan(g):
                return False
            continue
        if math.isinf(w) or w == 0:
            if g != w or math.copysign(1, g) != math.copysign(1, w):
                return False
        elif not math.isclose(g, w, rel_tol=rel):
            return False
    return True


@pytest.mark.parametrize("name", _CMATH)
def test_cmath_special_values_and_random(name, rng):
    fn = getattr(cmath, name)

    @cuda.jit
    def k(out, z):
        i = cuda.grid(1)
        if i < z.size:
            out[i] = fn(z[i])

    special = [complex(x, y) for x, y in itertools.product(_REALS, _REALS)]
    rand = list(rng.uniform(-3, 3, 64) + 1j * rng.uniform(-3, 3, 64))
    z = np.array(special + rand)
    out = np.full(z.size, complex(np.nan, np.nan))
    k[(z.size + 127) // 128, 128](out, z)
    for i, (v, g) in enumerate(zip(z, out)):
        try:
            w = fn(v)
        except (ValueError, OverflowError):  # Python's domain errors: C99 gives a value
            continue
        assert _same(g, w, 1e-13 if i < len(special) else 1e-9), f"cmath.{name}({v!r}) = {g!r}, Python {w!r}"


def test_cmath_complex64_and_real_arguments(rng):
    @cuda.jit
    def k(out32, out64, z, x):
        i = cuda.grid(1)
        if i < z.size:
            out32[i] = cmath.acosh(z[i])
            out64[i] = cmath.asin(x[i])  # a real argument: complex128

    z = (rng.uniform(-2, 2, 20) + 1j * rng.uniform(-2, 2, 20)).astype(np.complex64)
    x = rng.uniform(-3, 3, 20)
    out32, out64 = np.full(20, np.nan, np.complex64), np.full(20, np.nan, np.complex128)
    k[1, 32](out32, out64, z, x)
    np.testing.assert_allclose(out32, [cmath.acosh(complex(v)) for v in z], rtol=1e-6)
    np.testing.assert_allclose(out64, [cmath.asin(v) for v in x], rtol=1e-12)


def test_cmath_rect_special_values():
    @cuda.jit
    def k(out, r, phi):
        i = cuda.grid(1)
        if i < r.size:
            out[i] = cmath.rect(r[i], phi[i])

    pairs = [(r, p) for r in _REALS for p in _REALS if not (math.isinf(p) and r != 0) or math.isinf(r)]
    r, phi = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    out = np.full(r.size, complex(np.nan, np.nan))
    k[(r.size + 127) // 128, 128](out, r, phi)
    for a, b, g in zip(r, phi, out):
        try:
            w = cmath.rect(a, b)
        except (ValueError, OverflowError):
            continue
        assert _same(g, w, 1e-13), f"cmath.rect({a}, {b}) = {g!r}, Python {w!r}"


# --- cache-hinted loads and stores -----------------------------------------------------------

_LOADS = [cuda.ldca, cuda.ldcg, cuda.ldcs, cuda.ldlu, cuda.ldcv]
_STORES = [cuda.stcg, cuda.stcs, cuda.stwb, cuda.stwt]


@pytest.mark.parametrize("ld,st", list(zip(_LOADS, _STORES + [cuda.stwt])))
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.float32, np.float64])
def test_cache_hints_load_store(ld, st, dtype, rng):
    @cuda.jit
    def k(r, x, r2, x2):
        i = cuda.grid(1)
        if i < x.size:
            st(r, i, ld(x, i) + ld(x, -1))
        if i < x2.shape[0]:
            for j in range(x2.shape[1]):
                st(r2, (i, j), ld(x2, (i, j)))

    x = rng.integers(0, 50, 40).astype(dtype)
    x2 = rng.integers(0, 50, (5, 3)).astype(dtype)
    r, r2 = np.full_like(x, 99), np.full_like(x2, 99)
    k[1, 64](r, x, r2, x2)
    np.testing.assert_array_equal(r, (x + x[-1]).astype(dtype))
    np.testing.assert_array_equal(r2, x2)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float16", "int32", "float32", "uint64", "float64"])
def test_cache_hints_ptx_sm90(dtype, tmp_path):
    """numba-cuda's inline PTX on cuda, for every operator; ptxas assembles it."""
    import toolchain

    for ld, st in zip(_LOADS, _STORES + [cuda.stwt]):

        @cuda.jit
        def k(r, x, s):
            i = cuda.grid(1)
            sh = cuda.shared.array(4, s.dtype)
            sh[0] = x[0]
            s[0] = ld(sh, 0)  # shared memory: a plain load
            st(r, (i, 1), ld(x, i))

        t = getattr(cuda.types, dtype)
        ptx = k.inspect_asm((t[:, ::1], t[::1], t[::1]))
        bits = t.bitwidth
        op_ld, op_st = ld.__name__[2:], st.__name__[2:]
        assert f"ld.global.{op_ld}.b{bits}" in ptx and f"st.global.{op_st}.b{bits}" in ptx
        assert ptx.count(f"ld.global.{op_ld}.") == 1  # not on the shared array
        r = toolchain.assemble(ptx, tmp_path)
        if r is None:
            pytest.skip("no ptxas (pip install nvidia-cuda-nvcc)")
        assert r.returncode == 0, r.stderr


def test_cache_hints_errors():
    def bad(x, y, z):
        cuda.ldcs(x, 1.0)

    def too_many(x, y, z):
        cuda.ldcs(x, (1, 2))

    def scalar_2d(x, y, z):
        cuda.ldcg(y, 1)

    def cplx(x, y, z):
        cuda.stwb(z, 0, 1.0)

    sig = "void(float32[::1], float32[:, ::1], complex64[::1])"
    for fn, msg in [
        (bad, "float64 is not a valid index"),
        (too_many, "Expected 1 indices, got 2"),
        (scalar_2d, "Expected 2 indices, got a scalar"),
        (cplx, "stwb requires array of integer or float type"),
    ]:
        with pytest.raises(pydev.CompileError, match=msg):
            cuda.compile_ptx(fn, sig)
    with pytest.raises(pydev.DeviceOnlyError):
        cuda.ldca(np.zeros(2), 0)


# --- vector types ----------------------------------------------------------------------------


def test_vector_types_construction_and_lanes(rng):
    @cuda.jit
    def k(out, xs):
        one = float32(xs[0])
        v2 = cuda.float32x2(one, xs[1])
        v4 = cuda.float4(v2, xs[2], cuda.float32x1(xs[3]))  # float4 is float32x4
        v3 = cuda.float32x3(v4.w, v2)
        s = cuda.short2(7, -3)
        out[0] = v4.x
        out[1] = v4.y
        out[2] = v4.z
        out[3] = v4.w
        out[4] = v3.x
        out[5] = v3.y
        out[6] = v3.z
        out[7] = s.x + s.y

    xs = rng.standard_normal(4).astype(np.float32)
    out = np.full(8, np.nan, np.float32)
    k[1, 1](out, xs)
    np.testing.assert_array_equal(out, [xs[0], xs[1], xs[2], xs[3], xs[3], xs[0], xs[1], 4])
    assert cuda.float4 is cuda.float32x4


def test_vector_types_through_device_functions(rng):
    @cuda.jit(device=True)
    def swap(v):
        return cuda.int32x2(v.y, v.x)

    @cuda.jit
    def k(out, a):
        i = cuda.grid(1)
        if i < a.shape[0]:
            w = swap(cuda.int32x2(a[i, 0], a[i, 1]))
            out[i, 0] = w.x
            out[i, 1] = w.y

    a = rng.integers(-100, 100, (10, 2)).astype(np.int32)
    out = np.full_like(a, -999)
    k[1, 16](out, a)
    np.testing.assert_array_equal(out, a[:, ::-1])


def test_vector_type_errors():
    @cuda.jit
    def k(out):
        v = cuda.float32x3(1.0, 2.0)
        out[0] = v.x

    with pytest.raises(pydev.CompileError, match="needs 3 lanes"):
        k[1, 1](np.zeros(1))

    @cuda.jit
    def k2(out):
        v = cuda.float32x2(1.0, 2.0)
        out[0] = v.z

    with pytest.raises(pydev.CompileError, match="has no attribute 'z'"):
        k2[1, 1](np.zeros(1))


# --- array methods ---------------------------------------------------------------------------


def test_reshape_view_and_parts(rng):
    @cuda.jit
    def k(out, a, shape, b, lo):
        y = a.reshape(shape)
        for i in range(y.shape[0]):
            for j in range(y.shape[1]):
                out[i, j] = y[i, j]
        w = b[lo : lo + 8].view(np.int32)
        out[0, 0] = w[0]
        out[0, 1] = w[1]

    a = rng.integers(0, 1000, (2, 3, 4)).astype(np.int32)
    b = rng.integers(0, 256, 64).astype(np.uint8)
    for shape in [(4, 6), (-1, 3), (8, -1)]:
        want = a.reshape(shape).copy()
        want[0, :2] = b[12:20].view(np.int32)
        out = np.full(want.shape, -1, np.int32)
        k[1, 1](out, a, shape, b, 12)
        np.testing.assert_array_equal(out, want)


def test_real_imag_views_read_write_atomic(rng):
    @cuda.jit
    def k(re, im, z):
        i = cuda.grid(1)
        if i < z.shape[0]:
            for j in range(z.shape[1]):
                re[i, j] = z.real[i, j]
                im[i, j] = z.imag[i, j]
            zi = z.imag
            zi[i, 0] = 5.0
            cuda.atomic.add(z.real, (i, 1), 1.0)

    z = rng.standard_normal((6, 3)) + 1j * rng.standard_normal((6, 3))
    z0 = z.copy()
    re, im = np.full(z.shape, np.nan), np.full(z.shape, np.nan)
    k[1, 8](re, im, z)
    np.testing.assert_array_equal(re, z0.real)
    np.testing.assert_array_equal(im, z0.imag)
    want = z0.copy()
    want.imag[:, 0] = 5.0
    want.real[:, 1] += 1.0
    np.testing.assert_array_equal(z, want)


_CONST = np.array([[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]])[:, ::-1]


def test_copy_of_constant_array():
    @cuda.jit
    def k(out):
        q = _CONST.copy()
        q[0, 0] += 10.0
        for i in range(q.shape[0]):
            for j in range(q.shape[1]):
                out[i, j] = q[i, j]

    out = np.full(_CONST.shape, np.nan)
    k[1, 1](out)
    want = _CONST.copy()
    want[0, 0] += 10.0
    np.testing.assert_array_equal(out, want)


def test_array_method_errors():
    @cuda.jit
    def k(a):
        b = a.copy()
        a[0] = b[0]

    with pytest.raises(pydev.CompileError, match="NRT"):
        k[1, 1](np.zeros(3))

    @cuda.jit
    def k2(a):
        b = a[::2].reshape(2)
        b[0] = 1.0

    with pytest.raises(pydev.CompileError, match="C-contiguous"):
        k2[1, 1](np.zeros(4))


# --- PTX for sm_90, assembled by ptxas -------------------------------------------------------


@cuda.jit
def _ptx_kernel(out, a, z, v):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = np.sum(a[i]) + a[i].max() + cmath.acos(z[i]).real + cuda.ldcg(v, i)
        w = cuda.float64x2(out[i], 1.0)
        cuda.stcs(v, i, w.x + w.y)
        out[i] += z.imag[i] + a.reshape(a.size)[i]


def test_ptx_sm90_assembles(tmp_path):
    import toolchain

    ptx = _ptx_kernel.inspect_asm((float64[::1], float64[:, ::1], cuda.types.complex128[::1], float64[::1]))
    assert ".target sm_90" in ptx and ".entry" in ptx
    r = toolchain.assemble(ptx, tmp_path)
    if r is None:
        pytest.skip("no ptxas (pip install nvidia-cuda-nvcc)")
    assert r.returncode == 0, r.stderr
