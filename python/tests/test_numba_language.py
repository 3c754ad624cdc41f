"""pydev.numba's kernel language (issue 31): shapes from constants, zip,
enumerate, iteration over arrays, loop else, starred unpacking, and the
builtins, math and operator functions Numba-CUDA supports. Host target,
fixed-seed inputs, NaN-poisoned outputs, compared with NumPy / Python."""

import cmath
import math
import operator

import numpy as np
import pytest

import pydev
from pydev.numba import cuda, float32, float64, int32, int64

SEED = 20261128
W = 4  # a global constant shape


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


# --- (1) shapes from local, global and closure constants -------------------------------------


def _shapes_kernel():
    H = 3  # a closure constant

    @cuda.jit
    def k(a, out):
        TPB = 32
        sh = cuda.shared.array(TPB, float64)
        loc = cuda.local.array((W, H), int32)
        shp = (2, H)
        l2 = cuda.local.array(shp, float64)
        i = cuda.threadIdx.x
        sh[i] = a[i] * 2.0
        cuda.syncthreads()
        for j in range(W):
            for q in range(H):
                loc[j, q] = j * H + q
        l2[1, H - 1] = a[i]
        s = 0.0
        for j in range(TPB):
            tmp = cuda.local.array(TPB, float64)  # a constant shape inside a loop
            tmp[j] = sh[j]
            s += tmp[j]
        out[i] = s + loc[W - 1, H - 1] + l2[1, H - 1]

    return k


def test_shapes_from_local_global_and_closure_constants(rng):
    a = rng.standard_normal(32)
    out = np.full(32, np.nan)
    _shapes_kernel()[1, 32](a, out)
    np.testing.assert_allclose(out, 2.0 * a.sum() + (W * 3 - 1) + a, rtol=1e-12)


def test_shape_from_a_reassigned_local_is_an_error():
    @cuda.jit
    def k(out):
        n = 4
        n = n + 1
        x = cuda.local.array(n, float64)
        x[0] = 1.0
        out[0] = x[0]

    with pytest.raises(pydev.CompileError, match="shape of cuda.local.array"):
        k[1, 1](np.zeros(1))


# --- (2) zip, enumerate, for v in array, loop else -------------------------------------------


@cuda.jit
def _loops(a, b, m, out):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    s = 0.0
    for v in a:
        s += v
    t = 0.0
    for x, y in zip(a, b):
        t += x * y
    e = 0.0
    for j, v in enumerate(b, 1):
        e += j * v
    r = 0.0
    for row in m:
        for q in row:
            r += q * i
    z = 0.0
    for j, (x, y) in enumerate(zip(a, range(2, 100, 3))):
        z += j * x + y
    found = -1
    for j in range(a.shape[0]):
        if a[j] > b[i]:
            found = j
            break
    else:
        found = 99
    w = 0
    while w < i:
        w += 1
    else:
        w += 10
    out[i, 0] = s
    out[i, 1] = t
    out[i, 2] = e
    out[i, 3] = r
    out[i, 4] = z
    out[i, 5] = found
    out[i, 6] = w


def test_zip_enumerate_array_iteration_and_loop_else(rng):
    a = rng.standard_normal(5)
    b = rng.standard_normal(7)
    m = rng.standard_normal((2, 3))
    n = 7
    out = np.full((n, 7), np.nan)
    _loops[1, 8](a, b, m, out)
    for i in range(n):
        found = next((j for j in range(len(a)) if a[j] > b[i]), 99)
        want = [
            a.sum(),
            (a * b[:5]).sum(),
            sum(j * v for j, v in enumerate(b, 1)),
            (m * i).sum(),
            sum(j * x + y for j, (x, y) in enumerate(zip(a, range(2, 100, 3)))),
            found,
            i + 10,
        ]
        np.testing.assert_allclose(out[i], want, rtol=1e-12)


def test_iterating_over_a_number_is_an_error():
    @cuda.jit
    def k(out):
        for v in out[0]:
            out[0] = v

    with pytest.raises(pydev.CompileError, match="loops iterate over"):
        k[1, 1](np.zeros(1))


# --- (3) starred unpacking ----------------------------------------------------------------


@cuda.jit(device=True)
def _add3(x, y, z):
    return x + 2 * y + 3 * z


@cuda.jit
def _starred(a, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    t = (a[i], 2.0)
    u = (*t, a[i] * 3)
    v = (1.0, *t, *u)
    out[i, 0] = _add3(*u)
    out[i, 1] = _add3(*t, 4.0)
    out[i, 2] = len(v) + v[4] + v[5]
    out[i, 3] = max(*u)


def test_starred_tuples_and_call_arguments(rng):
    a = rng.standard_normal(17)
    out = np.full((17, 4), np.nan)
    _starred[1, 32](a, out)
    want = np.stack([a + 4.0 + 9 * a, a + 4.0 + 12.0, 6 + 2.0 + 3 * a, np.maximum(np.maximum(a, 2.0), 3 * a)], 1)
    np.testing.assert_allclose(out, want, rtol=1e-12)


def test_starred_assignment_is_an_error():
    @cuda.jit
    def k(out):
        a, *b = (1.0, 2.0, 3.0)
        out[0] = a + len(b)

    with pytest.raises(pydev.CompileError, match=r"starred assignment \(a, \*b = t\)"):
        k[1, 1](np.zeros(1))


# --- (4) round(x, ndigits), math, operator, int.bit_count ---------------------------------


@cuda.jit
def _mathk(x, n, out, iout):
    i = cuda.grid(1)
    if i >= x.shape[0]:
        return
    v = x[i]
    out[i, 0] = round(v, n[i])
    m, e = math.frexp(v)
    out[i, 1] = m
    iout[i, 0] = e
    out[i, 2] = math.ldexp(v, n[i] * 400)
    out[i, 3] = math.remainder(v, 0.75)
    out[i, 4] = math.gamma(v)
    out[i, 5] = math.lgamma(v)
    out[i, 6] = math.exp2(v)
    out[i, 7] = operator.add(v, 1) + operator.sub(v, 2) * operator.mul(v, 3)
    out[i, 8] = operator.truediv(v, 3) + operator.floordiv(v, 0.5)
    iout[i, 1] = (n[i] * 12345).bit_count()
    iout[i, 2] = operator.floordiv(n[i], 2) + operator.mul(n[i], 10)


def _py_math(v, d):
    def safe(f, *a, overflow=math.nan):
        try:
            return f(*a)
        except OverflowError:
            return overflow  # Numba (C) gives inf where Python raises
        except ValueError:
            return math.nan

    return [
        round(v, d) if math.isfinite(v) else v,
        math.frexp(v)[0],
        safe(math.ldexp, v, d * 400, overflow=math.copysign(math.inf, v)) if math.isfinite(v) else v,
        safe(math.remainder, v, 0.75),
        safe(math.gamma, v, overflow=math.inf),
        safe(math.lgamma, v),
        safe(math.pow, 2.0, v, overflow=math.inf),
        (v + 1) + (v - 2) * (v * 3),
        v / 3 + v // 0.5,
    ]


def test_round_ndigits_math_and_operator_functions(rng):
    x = np.concatenate(
        [
            rng.standard_normal(60) * 10,
            rng.uniform(0.5, 170, 20),
            -rng.uniform(0, 30, 10) - 0.25,
            [0.0, -0.0, 1.0, 2.0, -3.0, 5e-324, 2.5, 0.375, 1.125, 1e300, -1e-310],
        ]
    )
    n = rng.integers(-3, 4, x.size)
    n[-11:] = [1, 1, 0, 2, -1, 3, 0, 1, 2, -2, 1]
    out = np.full((x.size, 9), np.nan)
    iout = np.full((x.size, 3), -99, np.int64)
    _mathk[1, 128](x, n, out, iout)
    want = np.array([_py_math(float(v), int(d)) for v, d in zip(x, n)])
    for col in (0, 1, 2, 3, 6):  # exact (correctly rounded in Python too)
        np.testing.assert_array_equal(out[:, col], want[:, col], err_msg=f"column {col}")
    np.testing.assert_allclose(out[:, 7:], want[:, 7:], rtol=1e-14)  # a * b + c may contract to an fma
    # gamma and lgamma: a Lanczos approximation; poles give inf / nan where Python raises
    fin = np.isfinite(want[:, 4])
    np.testing.assert_allclose(out[fin, 4], want[fin, 4], rtol=1e-12)
    fin = np.isfinite(want[:, 5])
    np.testing.assert_allclose(out[fin, 5], want[fin, 5], rtol=1e-12, atol=1e-13)
    assert np.isinf(out[x.size - 11 + 4, 5]) and np.isnan(out[x.size - 11 + 4, 4])  # -3.0: a pole
    assert out[x.size - 11, 4] == math.inf and out[x.size - 10, 4] == -math.inf  # gamma(+-0)
    np.testing.assert_array_equal(iout[:, 0], [math.frexp(v)[1] for v in x])
    np.testing.assert_array_equal(iout[:, 1], [int(d * 12345).bit_count() for d in n])
    np.testing.assert_array_equal(iout[:, 2], n // 2 + n * 10)


def test_math_types_follow_numba():
    from pydev.numba import types as T

    @cuda.jit
    def k(x, out, iout):
        m, e = math.frexp(x[0])
        out[0] = m
        iout[0] = e
        out[1] = math.ldexp(x[0], 3)
        out[2] = round(x[0], 1)
        out[3] = math.gamma(x[0])

    x = np.array([0.3], np.float32)
    out = np.full(4, np.nan, np.float32)
    iout = np.zeros(1, np.int32)
    k[1, 1](x, out, iout)
    m, e = math.frexp(float(x[0]))
    assert (out[0], iout[0]) == (np.float32(m), e)
    assert out[1] == np.float32(x[0]) * 8 and out[2] == np.float32(0.3)
    np.testing.assert_allclose(out[3], math.gamma(float(x[0])), rtol=1e-6)
    assert T.float32 == float32  # float32 in, float32 out (as Numba's signatures)


def test_round_ndigits_of_a_complex_is_an_error():
    @cuda.jit
    def k(out):
        out[0] = round(1j, 2).real

    with pytest.raises(pydev.CompileError, match="round"):
        k[1, 1](np.zeros(1))


# --- (5) print of bools, cuda.nanosleep ----------------------------------------------------


def test_print_of_bools(tmp_path):
    import os
    import subprocess
    import sys

    script = tmp_path / "p.py"
    script.write_text(
        "import numpy as np\nfrom pydev.numba import cuda\n\n"
        "@cuda.jit\ndef k(a):\n    i = cuda.threadIdx.x\n"
        "    print('flag', a[i] > 0, i, (a[i] < 0, True), i == 1)\n\n"
        "k[1, 3](np.array([0.5, -1.0, 2.0]))\ncuda.synchronize()\n"
    )
    env = dict(os.environ, PYDEV_TARGET="host")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.splitlines()) == [
        "flag False 1 (True, True) True",
        "flag True 0 (False, True) False",
        "flag True 2 (False, True) False",
    ]


def test_nanosleep(rng):
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.shape[0]:
            cuda.nanosleep(100)
            cuda.nanosleep(i)
            out[i] = a[i] + 1.0

    a = rng.standard_normal(10)
    out = np.full(10, np.nan)
    k[1, 16](a, out)
    np.testing.assert_array_equal(out, a + 1.0)

    @cuda.jit
    def bad(out):
        cuda.nanosleep(1.5)

    with pytest.raises(pydev.CompileError, match="cuda.nanosleep"):
        bad[1, 1](out)


@cuda.jit(device=True)
def _first_above(a, t):
    for j, v in enumerate(a):
        if v > t:
            break
    else:
        j = -1
    return j


@cuda.jit
def _nested_loops(a, m, out):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    out[i, 0] = _first_above(a, a[i])
    for r, row in enumerate(m):
        for j, (x, y) in enumerate(zip(row, a)):
            if i == 0:
                row[j] = x + r * y
    cnt = 0
    for x in a:
        for y in a:
            if y > x:
                continue
            cnt += 1
    out[i, 1] = cnt


def test_loops_in_device_functions_rows_written_and_continue(rng):
    a = rng.integers(0, 6, 9).astype(np.float32)
    m = rng.standard_normal((3, 4)).astype(np.float32)
    m0 = m.copy()
    out = np.full((9, 2), np.nan)
    _nested_loops[1, 16](a, m, out)
    first = [next((j for j, v in enumerate(a) if v > t), -1) for t in a]
    np.testing.assert_array_equal(out[:, 0], first)
    np.testing.assert_array_equal(out[:, 1], sum(1 for x in a for y in a if y <= x))
    np.testing.assert_allclose(m, m0 + np.arange(3)[:, None] * a[None, :4], rtol=1e-6)


def test_zip_of_a_number_is_an_error():
    @cuda.jit
    def k(a):
        for x in zip(a, 3):
            a[0] = x[0]

    with pytest.raises(pydev.CompileError, match=r"zip\(\) and enumerate\(\) in pydev.numba take arrays"):
        k[1, 1](np.zeros(2))


# --- PTX for sm_90 of the kernels above, assembled by ptxas ------------------------------------


@cuda.jit
def _print_sleep(a):
    i = cuda.threadIdx.x
    cuda.nanosleep(100)
    print("x", a[i] > 0, i == 1)


def _ptx_cases():
    from pydev.numba import float32 as f32, int64 as i64

    return [
        (_mathk, (float64[::1], i64[::1], float64[:, ::1], i64[:, ::1])),
        (_loops, (float64[::1], float64[::1], float64[:, ::1], float64[:, ::1])),
        (_starred, (float64[::1], float64[:, ::1])),
        (_nested_loops, (f32[::1], f32[:, ::1], float64[:, ::1])),
        (_print_sleep, (float64[::1],)),
    ]


@pytest.mark.parametrize("case", range(5))
def test_ptx_sm90_assembles(case, tmp_path):

    import toolchain

    kernel, types = _ptx_cases()[case]
    ptx = kernel.inspect_asm(types)
    assert ".target sm_90" in ptx and ".entry" in ptx
    r = toolchain.assemble(ptx, tmp_path)
    if r is None:
        pytest.skip("no ptxas (pip install nvidia-cuda-nvcc)")
    assert r.returncode == 0, r.stderr


# --- loops over tuples: break / continue / else -------------------------------------------


@cuda.jit
def _tuple_loops(a, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    s = 0.0
    for j in range(3):
        for x in (1.0, a[i], 3.0, 4.0):
            if x == 3.0:
                break
            if x < 0:
                continue
            s += x
        else:
            s += 100.0
    t = 0.0
    for x in (1, 2.5, a[i]):  # items of different types: unrolled, the else always runs
        t += x
    else:
        t += 1000.0
    out[i, 0] = s
    out[i, 1] = t


def test_tuple_loops_with_break_continue_and_else(rng):
    a = np.concatenate([rng.standard_normal(6), [3.0, -3.0]])
    out = np.full((a.size, 2), np.nan)
    _tuple_loops[1, 8](a, out)
    for i, v in enumerate(a):
        s = 0.0
        for _ in range(3):
            for x in (1.0, v, 3.0, 4.0):
                if x == 3.0:
                    break
                if x < 0:
                    continue
                s += x
            else:
                s += 100.0
        assert out[i, 0] == s
        assert out[i, 1] == 1 + 2.5 + v + 1000.0


def test_break_in_an_unrolled_heterogeneous_tuple_loop_is_an_error():
    @cuda.jit
    def k(out):
        for x in (1, 2.5):
            if x > 2:
                break
            out[0] = x

    with pytest.raises(pydev.CompileError, match="'break' in a loop over a Tuple"):
        k[1, 1](np.zeros(1))


# --- first-class constants passed to device functions ------------------------------------------


@cuda.jit(device=True)
def _apply_atomic(op, ary, idx, val):
    return op(ary, idx, val)


@cuda.jit(device=True)
def _convert(ty, x):
    return ty(x)


@cuda.jit(device=True)
def _call(fn, x):
    return fn(x)


@cuda.jit
def _first_class(a, b, out, x):
    i = cuda.grid(1)
    if i < out.shape[0]:
        old = _apply_atomic(cuda.atomic.add, a, 0, 1)
        _apply_atomic(cuda.atomic.max, b, 0, i)
        out[i, 0] = _convert(int32, x[i])
        out[i, 1] = _convert(float32, x[i])
        out[i, 2] = _call(math.sqrt, abs(x[i]))
        out[i, 3] = old


def test_types_and_functions_passed_to_device_functions(rng):
    # Numba's first-class Numba types and functions (cuda.atomic.*, math.*)
    # as device-function arguments: compiled once per constant.
    n = 48
    x = rng.standard_normal(n) * 10
    a, b = np.zeros(1, np.int64), np.full(1, -1, np.int64)
    out = np.full((n, 4), np.nan)
    _first_class[2, 32](a, b, out, x)
    assert a[0] == n and b[0] == n - 1
    np.testing.assert_array_equal(out[:, 0], np.trunc(x).astype(np.int32))
    np.testing.assert_array_equal(out[:, 1], x.astype(np.float32).astype(np.float64))
    np.testing.assert_array_equal(out[:, 2], np.sqrt(np.abs(x)))
    assert sorted(out[:, 3]) == list(range(n))  # each thread saw a distinct old value


def test_a_constant_argument_to_a_device_function_with_a_signature_is_an_error():
    @cuda.jit("float64(float64)", device=True)
    def f(x):
        return x

    @cuda.jit
    def k(out):
        out[0] = _call(f, 1.0) + f(int32)

    with pytest.raises(pydev.CompileError, match="cannot be passed to a device function with a signature"):
        k[1, 1](np.zeros(1))


@cuda.jit(device=True)
def _block_histogram(values, out, nbins, shape2, dtype, op, start):
    # nbins and shape2 are literals at the call: constants here, as shapes.
    sm = cuda.shared.array(nbins, dtype)
    grid2 = cuda.local.array(shape2, dtype)
    tid = cuda.threadIdx.x
    if tid < nbins:
        sm[tid] = start
    grid2[0, 0] = 1
    cuda.syncthreads()
    op(sm, values[tid] % nbins, grid2[0, 0])
    cuda.syncthreads()
    if tid < nbins:
        out[tid] = sm[tid]


@cuda.jit
def _literal_args(values, out):
    _block_histogram(values, out, 16, (2, 3), int64, cuda.atomic.add, 0)


def test_literal_arguments_are_constants_in_device_functions(rng):
    # Numba types literal arguments as literals: a device function can use
    # them as shapes (numba-cuda's own atomics tests do).
    values = rng.integers(0, 1000, 64)
    out = np.full(16, -1, np.int64)
    _literal_args[1, 64](values, out)
    np.testing.assert_array_equal(out, np.bincount(values % 16, minlength=16))

    @cuda.jit(device=True)
    def reassigned(n):
        n = n + 1
        return cuda.local.array(n, float64)[0]

    @cuda.jit
    def k(out):
        out[0] = reassigned(4)

    with pytest.raises(pydev.CompileError, match="must be a constant integer"):
        k[1, 1](np.zeros(1))


def test_a_jit_function_without_signatures_is_callable_from_device_code(rng):
    # Numba-CUDA: a @cuda.jit function called from device code is compiled
    # as a device function (it may return a value then).
    @cuda.jit
    def twice_plus(x, k):
        return 2 * x + k

    @cuda.jit
    def k(out, xs):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = twice_plus(xs[i], i)

    xs = rng.standard_normal(40)
    out = np.full(40, np.nan)
    k[2, 32](out, xs)
    np.testing.assert_array_equal(out, 2 * xs + np.arange(40))

    @cuda.jit("void(float64[:])")
    def with_sig(a):
        a[0] = 1.0

    @cuda.jit
    def calls_a_kernel(a):
        with_sig(a)

    with pytest.raises(pydev.CompileError, match="compiled for its signatures"):
        calls_a_kernel[1, 1](np.zeros(1))


def test_complex_types_name_their_float_parts():
    from pydev.numba import types

    assert types.complex64.underlying_float is types.float32
    assert types.complex128.underlying_float is types.float64
    with pytest.raises(AttributeError, match="not a complex type"):
        types.float32.underlying_float


# --- cmath classification, polar/rect, log10, log(x, base); fp16 functions --------------------


@cuda.jit
def _cmath_more(z, w, flags, reals, out):
    i = cuda.grid(1)
    if i < z.size:
        flags[i, 0] = cmath.isnan(z[i])
        flags[i, 1] = cmath.isinf(z[i])
        flags[i, 2] = cmath.isfinite(z[i])
        r, phi = cmath.polar(z[i])
        reals[i, 0] = r
        reals[i, 1] = phi
        out[i, 0] = cmath.rect(r, phi)
        out[i, 1] = cmath.log10(z[i])
        out[i, 2] = cmath.log(z[i], w[i])


def test_cmath_classification_polar_rect_and_logs(rng):
    n = 40
    z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    z[:6] = [complex(np.nan, 1), complex(1, np.nan), complex(np.inf, 0), complex(0, -np.inf), 0j, 3 + 4j]
    w = rng.uniform(1.5, 5, n) + 1j * rng.standard_normal(n)
    flags = np.zeros((n, 3), np.bool_)
    reals, out = np.full((n, 2), np.nan), np.full((n, 3), np.nan + 0j)
    _cmath_more[2, 32](z, w, flags, reals, out)
    for i in range(n):
        assert list(flags[i]) == [cmath.isnan(z[i]), cmath.isinf(z[i]), cmath.isfinite(z[i])], z[i]
        if not cmath.isfinite(z[i]) or z[i] == 0:
            continue
        np.testing.assert_allclose(reals[i], cmath.polar(z[i]), rtol=1e-14)
        np.testing.assert_allclose(out[i, 0], cmath.rect(*cmath.polar(z[i])), rtol=1e-14)
        np.testing.assert_allclose(out[i, 1], cmath.log10(z[i]), rtol=1e-14)
        np.testing.assert_allclose(out[i, 2], cmath.log(z[i], w[i]), rtol=1e-13)


@cuda.jit
def _fp16_more(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = cuda.fp16.hexp2(v)
        out[i, 1] = cuda.fp16.hexp10(v)
        out[i, 2] = cuda.fp16.hlog2(v)
        out[i, 3] = cuda.fp16.hlog10(v)
        out[i, 4] = cuda.fp16.hrsqrt(v)
        out[i, 5] = cuda.fp16.hrcp(v)
        out[i, 6] = cuda.fp16.hrint(v)


def test_fp16_exp2_exp10_log2_log10_rsqrt_rcp_rint(rng):
    x = rng.uniform(0.1, 4.0, 64).astype(np.float16)
    x[:3] = [0.5, 1.5, 2.5]  # rint: halves to even
    out = np.full((64, 7), np.nan, np.float16)
    _fp16_more[2, 32](x, out)
    xf = x.astype(np.float64)
    want = np.stack([np.exp2(xf), 10**xf, np.log2(xf), np.log10(xf), 1 / np.sqrt(xf), 1 / xf, np.rint(xf)], 1)
    # float16's precision: within 2 units of its last place of the exact values
    np.testing.assert_allclose(out.astype(np.float64), want, rtol=2 * 2.0**-10, atol=2 * 2.0**-24)
    assert list(out[:3, 6]) == [0.0, 2.0, 2.0]


def test_slices_with_a_constant_step_are_strided_views(rng):
    # a[::2] of a C-contiguous array is a strided view (it failed to compile:
    # the view kept the C layout), in global and dynamic shared memory.
    @cuda.jit
    def k(a, out):
        dyn = cuda.shared.array(0, dtype=float64)
        for i in range(8):
            dyn[i] = a[i]
        evens = dyn[::2]
        odds = a[1::2]
        for i in range(4):
            evens[i] = evens[i] * 10.0
            out[i] = odds[i]
        for i in range(8):
            out[4 + i] = dyn[i]

    a = rng.standard_normal(8)
    out = np.full(12, np.nan)
    k[1, 1, 0, 64](a, out)
    want = a.copy()
    want[::2] *= 10.0
    np.testing.assert_array_equal(out[:4], a[1::2])
    np.testing.assert_array_equal(out[4:], want)


def test_a_variable_read_on_a_path_that_never_assigned_it_reads_zero():
    # It was an internal AttributeError of the compiler, then an error; Numba
    # sets an undefined variable to zero (its lowering of `undef`), and so
    # does pydev.numba for numbers (an array variable stays an error:
    # test_numba_ptx_misc.py).
    @cuda.jit
    def k(out, flag):
        if flag:
            v = 1
            out[0] = v
        else:
            w = v
            out[0] = w

    out = np.full(1, -1, np.int64)
    k[1, 1](out, 1)
    assert out[0] == 1
    k[1, 1](out, 0)
    assert out[0] == 0


def test_signatures_are_chosen_by_numbas_conversion_rules():
    # The signature the arguments convert to best (exact, then promoting,
    # then safe, then unsafe conversions), not the first that takes them:
    # (1.5, 2.5) went to the int64 signature (a wrong 3).
    @cuda.jit(["int64(int64, int64)", "float64(float64, float64)"], device=True)
    def add(x, y):
        return x + y

    @cuda.jit
    def k(r, x, y):
        r[0] = add(x, y)

    r = np.zeros(1)
    k[1, 1](r, 1.5, 2.5)
    assert r[0] == 4.0
    ri = np.zeros(1, np.int64)
    k[1, 1](ri, 1, 2)
    assert ri[0] == 3

    @cuda.jit(["void(float64[::1], float32, float32)", "void(float64[::1], float64, float64)"])
    def kk(r, x, y):
        r[0] = x + y

    kk[1, 1](r, np.float32(1), np.float32(2**-25))
    assert r[0] == 1.0  # float32 arithmetic
    kk[1, 1](r, 1, 2**-25)
    assert r[0] == 1.0000000298023224  # int64 and float64 go to float64 safely, to float32 unsafely
    with pytest.raises(TypeError, match="No matching definition"):
        kk[1, 1](np.zeros(1), 1j, 1j)

    @cuda.jit(["void(float64[::1], int32)", "void(float64[::1], uint32)"])
    def amb(r, x):
        r[0] = x

    with pytest.raises(TypeError, match="Ambiguous overloading"):
        amb[1, 1](r, 5)

    # A device function takes the first of equally good signatures (Numba's issue 8307).
    @cuda.jit(["float32(float32, float64)", "float64(float64, float32)", "int64(int64, int64)"], device=True)
    def add2(x, y):
        return x + y

    @cuda.jit
    def k2(r, x, y):
        r[0] = add2(x, y)

    k2[1, 1](r, 1.5, 2.5)
    assert r[0] == 4.0


_CGLOBAL = (np.random.default_rng(SEED).standard_normal((3, 4, 5)) * (1 + 2j)).astype(np.complex64)


def test_complex_global_arrays_are_constants(rng):
    @cuda.jit
    def k(out):
        i, j, q = cuda.threadIdx.x, cuda.threadIdx.y, cuda.threadIdx.z
        out[i, j, q] = _CGLOBAL[i, j, q] * 2

    out = np.full((3, 4, 5), np.nan, np.complex64)
    k[1, (3, 4, 5)](out)
    np.testing.assert_array_equal(out, _CGLOBAL * np.complex64(2))


@cuda.jit
def _modf_nextafter(x, y, out, out32, y32):
    i = cuda.grid(1)
    if i < x.size:
        f, w = math.modf(x[i])
        out[i, 0] = f
        out[i, 1] = w
        out[i, 2] = math.nextafter(x[i], y[i])
        out32[i] = math.nextafter(float32(x[i]), y32[i])


def test_math_modf_and_nextafter(rng):
    x = rng.standard_normal(40) * 100
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 2.5, -2.5, 5e-324]
    y = rng.standard_normal(40) * 100
    y[:8] = [1.0, -1.0, 0.0, 0.0, 1.0, 2.5, 0.0, 0.0]
    y32 = y.astype(np.float32)
    out = np.full((40, 3), -7.0)
    out32 = np.full(40, -7.0, np.float32)
    _modf_nextafter[2, 32](x, y, out, out32, y32)
    for i in range(40):
        f, w = math.modf(x[i])
        got = out[i]
        for g, want in ((got[0], f), (got[1], w), (got[2], math.nextafter(x[i], y[i]))):
            assert (math.isnan(g) and math.isnan(want)) or (
                g == want and math.copysign(1, g) == math.copysign(1, want)
            ), (
                i,
                x[i],
                g,
                want,
            )
        want32 = np.nextafter(np.float32(x[i]), y32[i])
        assert (np.isnan(out32[i]) and np.isnan(want32)) or out32[i] == want32, (i, out32[i], want32)


@cuda.jit
def _hypots(x, y, out, x32, y32, out32):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.hypot(x[i], y[i])
        out32[i] = math.hypot(x32[i], y32[i])


def test_hypot_rounds_float32_correctly_and_is_inf_with_a_nan(rng):
    x, y = rng.standard_normal(64) * 10, rng.standard_normal(64) * 10
    x[:4], y[:4] = [np.inf, np.nan, -np.inf, 3.0], [np.nan, -np.inf, 2.0, 4.0]
    x32, y32 = x.astype(np.float32), y.astype(np.float32)
    out, out32 = np.full(64, -1.0), np.full(64, -1.0, np.float32)
    _hypots[2, 32](x, y, out, x32, y32, out32)
    np.testing.assert_allclose(out, np.hypot(x, y), rtol=4e-16)
    np.testing.assert_array_equal(out32, np.hypot(x32, y32))  # correctly rounded
    assert list(out[:4]) == [np.inf, np.inf, np.inf, 5.0]


# --- records: sub-array and complex fields, records as arguments -------------------------------

_REC = np.dtype(
    [("a", np.float64), ("b", np.int32), ("c", np.complex64), ("d", np.uint8, 5), ("j", np.float32, (3, 2))],
    align=True,
)


@cuda.jit
def _record_fields(recs, out):
    i = cuda.grid(1)
    if i < recs.size:
        r = recs[i]
        s = 0.0
        for q in range(5):
            s += r.d[q]  # a dynamic index into a sub-array field
        out[i, 0] = s
        out[i, 1] = r.j[2, 1] + r.j[i % 3, 0]
        out[i, 2] = r.c.imag
        recs[i].d[i % 5] = 99
        r.j[1, 1] = r.a  # r = recs[i]; r.x = v writes the array, as in Numba
        recs[i].j[-1, -1] = -1.0
        r.c = r.c * 2j


def test_records_with_sub_array_and_complex_fields(rng):
    recs = np.zeros(6, _REC)
    recs["a"], recs["b"] = rng.standard_normal(6), rng.integers(-9, 9, 6)
    recs["c"] = (rng.standard_normal(6) + 1j * rng.standard_normal(6)).astype(np.complex64)
    recs["d"], recs["j"] = rng.integers(0, 50, (6, 5)), rng.standard_normal((6, 3, 2))
    orig = recs.copy()
    out = np.full((6, 3), np.nan)
    _record_fields[1, 6](recs, out)
    np.testing.assert_array_equal(out[:, 0], orig["d"].sum(axis=1))
    j2 = np.array([orig["j"][i, i % 3, 0] for i in range(6)], np.float32)
    np.testing.assert_array_equal(out[:, 1], (orig["j"][:, 2, 1] + j2).astype(np.float64))  # float32 arithmetic
    np.testing.assert_array_equal(out[:, 2], orig["c"].imag.astype(np.float64))
    want = orig.copy()
    for i in range(6):
        want["d"][i, i % 5] = 99
        want["j"][i, 1, 1] = want["a"][i]
        want["j"][i, 2, 1] = -1
    want["c"] = orig["c"] * np.complex64(2j)
    for name in _REC.names:
        np.testing.assert_array_equal(recs[name], want[name], err_msg=name)


def test_a_record_argument_is_passed_by_reference(rng):
    # As Numba: a kernel's writes to a record argument reach the caller's record.
    @cuda.jit
    def k(r, out, v):
        out[0] = r.a + r.b + r.j[0, 1] + r.c.real
        r.a = v
        r.d[2] = 7
        r.c = 1 + 2j

    arr = np.zeros(2, _REC)
    arr["a"][1], arr["b"][1], arr["j"][1, 0, 1], arr["c"][1] = 1.5, 2, 4.0, 0.25
    out = np.full(1, np.nan)
    k[1, 1](arr[1], out, 7.0)
    assert out[0] == 7.75
    assert arr["a"][1] == 7.0 and arr["d"][1, 2] == 7 and arr["c"][1] == 1 + 2j
    assert arr["a"][0] == 0.0 and not arr["d"][0].any()

    @cuda.jit
    def whole(r):
        r.d = 1

    with pytest.raises(pydev.CompileError, match="assigned element by element"):
        whole[1, 1](arr[0])
