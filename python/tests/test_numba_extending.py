"""pydev.numba.extending (docs/numba.md, "Extending"): `register_jitable`
and `overload` as Numba's, on the host target; fixed-seed inputs, outputs
poisoned with NaN, checked against the same Python functions run by NumPy
on the host."""

import numpy as np
import pytest

import pydev
from pydev.numba import cuda, types
from pydev.numba.extending import intrinsic, overload, register_jitable

SEED = 20261128


def _rng():
    return np.random.default_rng(SEED)


# --- register_jitable -----------------------------------------------------------------------


@register_jitable
def poly(x, a, b):
    return a * x * x + b * x + 1.0


@register_jitable
def poly_sum(x, y):
    return poly(x, 2.0, -1.0) + poly(y, 0.5, 3.0)  # a jitable calling a jitable


@register_jitable(fastmath=False)
def half_or_zero(x):
    if x > 0:
        return x / 2
    return 0.0


@cuda.jit
def k_jitable(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = poly_sum(x[i], y[i]) + half_or_zero(x[i])


def test_register_jitable_on_the_host_is_the_python_function():
    assert poly(2.0, 1.0, 1.0) == 7.0
    assert poly_sum(1.0, 2.0) == poly(1.0, 2.0, -1.0) + poly(2.0, 0.5, 3.0)
    assert half_or_zero(-3.0) == 0.0 and half_or_zero(3.0) == 1.5
    assert poly.__name__ == "poly"  # returned unchanged, as Numba's


def test_register_jitable_called_from_a_kernel():
    rng = _rng()
    n = 257
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    out = np.full(n, np.nan)
    k_jitable[3, 128](x, y, out)
    want = np.array([poly_sum(a, b) + half_or_zero(a) for a, b in zip(x, y)])
    np.testing.assert_allclose(out, want, rtol=1e-12)


@register_jitable
def scaled(v, k=3):
    return v * k


@cuda.jit
def k_jitable_types(xi, xf, oi, of):
    i = cuda.grid(1)
    if i < xi.size:
        oi[i] = scaled(xi[i])  # int64: the default k keeps it an integer
        of[i] = scaled(xf[i], 0.5)


def test_register_jitable_compiles_per_argument_types():
    rng = _rng()
    n = 100
    xi = rng.integers(-1000, 1000, n).astype(np.int64)
    xf = rng.standard_normal(n).astype(np.float32)
    oi = np.full(n, -777, np.int64)
    of = np.full(n, np.nan, np.float32)
    k_jitable_types[1, 128](xi, xf, oi, of)
    np.testing.assert_array_equal(oi, xi * 3)
    np.testing.assert_allclose(of, xf * np.float32(0.5), rtol=1e-6)


# --- overload -------------------------------------------------------------------------------


def clamp(x, lo, hi):
    """A library's Python function."""
    return min(max(x, lo), hi)


@overload(clamp)
def ol_clamp(x, lo, hi):
    if all(isinstance(t, (types.Integer, types.Float)) for t in (x, lo, hi)):

        def impl(x, lo, hi):
            if x < lo:
                return lo
            if x > hi:
                return hi
            return x

        return impl
    return None


def kind(x):
    """A function an overload implements differently per type."""
    return 2 * x if isinstance(x, (int, np.integer)) else -x


_CHOSEN = []


@overload(kind)
def ol_kind_int(x):
    _CHOSEN.append(("int", x))
    if isinstance(x, types.Integer):
        return lambda_free_int_impl
    return None


def lambda_free_int_impl(x):
    return 2 * x


@overload(kind)
def ol_kind_float(x):
    _CHOSEN.append(("float", x))
    if isinstance(x, types.Float):

        def impl(x):
            return -x

        return impl
    return None


@cuda.jit
def k_clamp(x, lo, hi, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = clamp(x[i], lo, hi)


@cuda.jit
def k_kind(xi, xf, oi, of):
    i = cuda.grid(1)
    if i < xi.size:
        oi[i] = kind(xi[i])
        of[i] = kind(xf[i])


def test_overload_of_a_library_function():
    rng = _rng()
    n = 300
    x = rng.standard_normal(n) * 3
    out = np.full(n, np.nan)
    k_clamp[3, 128](x, -1.0, 1.5, out)
    np.testing.assert_array_equal(out, np.clip(x, -1.0, 1.5))
    assert clamp(5, 0, 3) == 3  # the host calls the Python function

    xi = rng.integers(-50, 50, n).astype(np.int32)
    oi = np.full(n, -999, np.int32)
    k_clamp[3, 128](xi, -10, 20, oi)
    np.testing.assert_array_equal(oi, np.clip(xi, -10, 20))


def test_overload_selects_by_type():
    rng = _rng()
    n = 64
    xi = rng.integers(-1000, 1000, n).astype(np.int32)
    xf = rng.standard_normal(n).astype(np.float32)
    oi = np.full(n, -1, np.int64)
    of = np.full(n, np.nan, np.float32)
    _CHOSEN.clear()
    k_kind[1, 64](xi, xf, oi, of)
    np.testing.assert_array_equal(oi, 2 * xi.astype(np.int64))
    np.testing.assert_array_equal(of, -xf)
    # the factories saw pydev.numba types; in order of registration, each once per types
    assert ("int", types.int32) in _CHOSEN and ("float", types.float32) in _CHOSEN
    assert ("float", types.int32) not in _CHOSEN  # the int overload took int32 first
    assert _CHOSEN.count(("int", types.float32)) == 1
    assert kind(3) == 6 and kind(1.5) == -1.5  # host


def by_target():
    raise NotImplementedError("device code only")


@overload(by_target, target="generic")
def _ol_by_target_generic(x):
    def impl(x):
        x[0] *= 23

    return impl


@overload(by_target, target="cuda")
def _ol_by_target_cuda(x):
    def impl(x):
        x[0] *= 29

    return impl


def test_overloads_for_the_cuda_target_come_before_generic_ones():
    # As Numba: a target="cuda" overload wins over a target="generic" one
    # registered before it.
    @cuda.jit
    def k(x):
        by_target(x)

    x = np.ones(1, np.int64)
    k[1, 1](x)
    assert x[0] == 29


def test_overload_keyword_arguments():
    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = clamp(x[i], hi=0.5, lo=-0.5)

    x = _rng().standard_normal(40)
    out = np.full(40, np.nan)
    k[1, 64](x, out)
    np.testing.assert_array_equal(out, np.clip(x, -0.5, 0.5))


def test_overload_of_a_builtin_falls_back_when_declined():
    import math

    @overload(math.hypot)
    def ol_hypot(a, b):
        if isinstance(a, types.Integer) and isinstance(b, types.Integer):

            def impl(a, b):
                return a * a + b * b  # an overload that wins for integers

            return impl
        return None

    @cuda.jit
    def k(xi, xf, oi, of):
        i = cuda.grid(1)
        if i < xi.size:
            oi[i] = math.hypot(xi[i], xi[i])
            of[i] = math.hypot(xf[i], 1.0)  # declined: pydev.numba's math.hypot

    rng = _rng()
    xi = rng.integers(-9, 9, 16).astype(np.int64)
    xf = rng.standard_normal(16)
    oi = np.full(16, -1, np.int64)
    of = np.full(16, np.nan)
    k[1, 16](xi, xf, oi, of)
    np.testing.assert_array_equal(oi, 2 * xi * xi)
    np.testing.assert_allclose(of, np.hypot(xf, 1.0), rtol=1e-14)


def test_overload_impl_closure_and_device_dispatcher():
    def scale(x):
        return x

    @cuda.jit(device=True)
    def twice(x):
        return x + x

    @overload(scale)
    def ol_scale(x):
        if isinstance(x, types.Integer):
            return twice  # a cuda.jit(device=True) function
        factor = 0.25 if isinstance(x, types.Float) else None
        if factor is None:
            return None

        def impl(x):
            return x * factor  # a closure of the factory

        return impl

    @cuda.jit
    def k(xi, xf, oi, of):
        i = cuda.grid(1)
        if i < xi.size:
            oi[i] = scale(xi[i])
            of[i] = scale(xf[i])

    rng = _rng()
    xi = rng.integers(-100, 100, 32).astype(np.int64)
    xf = rng.standard_normal(32)
    oi = np.full(32, -1, np.int64)
    of = np.full(32, np.nan)
    k[1, 32](xi, xf, oi, of)
    np.testing.assert_array_equal(oi, 2 * xi)
    np.testing.assert_array_equal(of, xf * 0.25)


# --- errors ---------------------------------------------------------------------------------


def test_every_overload_declines_is_a_typing_error():
    @cuda.jit
    def k(x, out):
        out[0] = clamp(x[0], 1j, 2.0)

    with pytest.raises(pydev.CompileError) as e:
        k[1, 1](np.zeros(2), np.zeros(2))
    msg = str(e.value)
    assert "no implementation of 'clamp' for argument types (float64, complex128, float64)" in msg, msg
    assert "ol_clamp" in msg and "declined" in msg
    assert "clamp(x[0], 1j, 2.0)" in msg  # at the call, with its source line


def test_overload_errors():
    def f(x):
        return x

    @overload(f)
    def ol_f_raises(x):
        raise ValueError("bad type")

    @cuda.jit
    def k(out):
        out[0] = f(1.0)

    with pytest.raises(pydev.CompileError, match=r"ol_f_raises' of '\S*f' raised ValueError: bad type"):
        k[1, 1](np.zeros(1))

    def g(x):
        return x

    @overload(g)
    def ol_g(x):
        return 42

    @cuda.jit
    def k2(out):
        out[0] = g(1.0)

    with pytest.raises(pydev.CompileError, match="an implementation is a Python function"):
        k2[1, 1](np.zeros(1))

    @cuda.jit
    def k3(out):
        out[0] = poly(1.0, 2.0, 3.0, 4.0)

    with pytest.raises(pydev.CompileError, match="takes 3 arguments, got 4"):
        k3[1, 1](np.zeros(1))

    @cuda.jit
    def k4(out):
        out[0] = clamp(1.0, lo=0.0, bogus=1.0)

    with pytest.raises(pydev.CompileError, match="cannot pass 'bogus' by keyword"):
        k4[1, 1](np.zeros(1))

    with pytest.raises(TypeError, match="pydev.numba implements device code only"):
        overload(f, target="cpu")

    with pytest.raises(TypeError, match="register_jitable takes a function"):
        register_jitable(42)


@intrinsic
def muladd(typingctx, a, b, c):
    """a * b + c in the arguments' common float type, built with pydev.ir."""
    if not all(isinstance(t, (types.Integer, types.Float)) for t in (a, b, c)):
        return None
    ft = types.float32 if all(t == types.float32 for t in (a, b, c)) else types.float64
    sig = ft(ft, ft, ft)

    def codegen(context, builder, signature, args):
        assert context is None and signature is sig
        x, y, z = args
        return builder.ops.add(builder.ops.mul(x, y), z)

    return sig, codegen


def test_intrinsic_on_pydev_ir():
    @cuda.jit
    def k(x, y, out, out32):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = muladd(x[i], y[i], 3)  # 3 (int64) converted to float64 by the signature
            out32[i] = muladd(np.float32(x[i]), np.float32(y[i]), np.float32(0.5))

    rng = _rng()
    n = 50
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    out = np.full(n, np.nan)
    out32 = np.full(n, np.nan, np.float32)
    k[1, 64](x, y, out, out32)
    np.testing.assert_allclose(out, x * y + 3.0, rtol=1e-15)  # fmad may contract it
    np.testing.assert_allclose(out32, x.astype(np.float32) * y.astype(np.float32) + np.float32(0.5), rtol=1e-6)
    with pytest.raises(pydev.DeviceOnlyError, match="intrinsic 'muladd' can only be called in device code"):
        muladd(1.0, 2.0, 3.0)
    assert "a * b + c" in muladd.__doc__


def test_intrinsic_errors():
    @cuda.jit
    def declined(out):
        out[0] = muladd(1j, 2.0, 3.0)

    with pytest.raises(
        pydev.CompileError, match=r"intrinsic 'muladd' has no implementation for argument types \(complex128"
    ):
        declined[1, 1](np.zeros(1))

    @intrinsic
    def bad_sig(typingctx, x):
        return 42

    @cuda.jit
    def k1(out):
        out[0] = bad_sig(1.0)

    with pytest.raises(pydev.CompileError, match=r"an intrinsic returns \(signature, codegen\)"):
        k1[1, 1](np.zeros(1))

    @intrinsic
    def wrong_type(typingctx, x):
        def codegen(context, builder, sig, args):
            return builder.constant(1, pydev.ir.si32)

        return types.float64(x), codegen

    @cuda.jit
    def k2(out):
        out[0] = wrong_type(1.0)

    with pytest.raises(pydev.CompileError, match="wants pydev.ir values of types"):
        k2[1, 1](np.zeros(1))


def test_numba_style_import():
    import pydev.numba as numba

    assert numba.extending.overload is overload and numba.extending.register_jitable is register_jitable
    assert isinstance(types.int8, types.Integer) and isinstance(types.uint64, types.Integer)
    assert not isinstance(types.boolean, types.Integer) and not isinstance(types.float32, types.Integer)
    assert isinstance(types.float16, types.Float) and isinstance(types.complex64, types.Complex)
