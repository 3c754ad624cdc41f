"""cmath in device code with C99 Annex G's special values, as Python's cmath
gives them: `acos asin atan acosh asinh atanh cosh sinh` and `exp sin cos
sqrt rect` (whose MLIR `complex` dialect lowering loses signed zeros and
infinities). Written in Numba syntax and compiled by this frontend
(_jitlib): the algorithms are CPython's (cmathmodule.c) as Numba-CUDA's
cmathimpl.py writes them (BSD-2-Clause, Copyright (c) 2025 NVIDIA CORPORATION
& AFFILIATES). A real argument is taken as a complex128; the result has the
argument's complex type."""

import cmath
import math

from . import _jitlib
from . import types as T
from ._builtins import _nargs, register
from ._typing import arith_type

NAN = float("nan")
INF = float("inf")
FLT_MAX = 3.40282346638528859812e38
FLT_MIN = 1.17549435082228750797e-38
LN_4 = math.log(4)
THRES = FLT_MAX / 4
THRES_LARGE = math.sqrt(FLT_MAX / 4)
THRES_SMALL = math.sqrt(FLT_MIN)
PI_12 = math.pi / 2
SQRT_THRES_64 = 1.7976931348623157e308 / (1.0 + 1.4142135623730951)
SQRT_THRES_32 = FLT_MAX / (1.0 + 1.4142135623730951)


def _exp(z):
    x = z.real
    y = z.imag
    if math.isfinite(x):
        if math.isfinite(y):
            r = math.exp(x)
            return complex(r * math.cos(y), r * math.sin(y))
        return complex(NAN, NAN)
    if math.isnan(x):
        if y:
            return complex(x, x)
        return complex(x, y)
    if x > 0.0:
        if math.isfinite(y):
            real = math.cos(y)
            imag = math.sin(y)
            # no NaN from inf * 0: exp(inf + 0j) is inf + 0j
            if real != 0:
                real *= x
            if imag != 0:
                imag *= x
            return complex(real, imag)
        return complex(x, NAN)
    if math.isfinite(y):
        r = math.exp(x)
        return complex(r * math.cos(y), r * math.sin(y))
    return complex(0.0, 0.0)


def _make_sqrt(thres):
    """cmath.sqrt with the overflow threshold of a float type."""

    def _sqrt(z):
        # NumPy's npy_csqrt: Algorithm 312, CACM vol 10, Oct 1967
        a = z.real
        b = z.imag
        if a == 0.0 and b == 0.0:
            return complex(abs(b), b)
        if math.isinf(b):
            return complex(abs(b), b)
        if math.isnan(a):
            return complex(a, a)
        if math.isinf(a):
            if a < 0.0:
                return complex(abs(b - b), math.copysign(a, b))
            return complex(a, math.copysign(b - b, b))
        scale = abs(a) >= thres or abs(b) >= thres
        if scale:
            a *= 0.25
            b *= 0.25
        if a >= 0:
            t = math.sqrt((a + math.hypot(a, b)) * 0.5)
            real = t
            imag = b / (2 * t)
        else:
            t = math.sqrt((-a + math.hypot(a, b)) * 0.5)
            real = abs(b) / (2 * t)
            imag = math.copysign(t, b)
        if scale:
            return complex(real * 2, imag)
        return complex(real, imag)

    return _sqrt


def _cosh(z):
    x = z.real
    y = z.imag
    if math.isinf(x):
        real = abs(x)
        imag = y
        if not (math.isnan(y) or y == 0.0):
            real = math.copysign(x, math.cos(y))
            imag = math.copysign(x, math.sin(y))
        if x < 0.0:
            imag = -imag
        return complex(real, imag)
    return complex(math.cos(y) * math.cosh(x), math.sin(y) * math.sinh(x))


def _sinh(z):
    x = z.real
    y = z.imag
    if math.isinf(x):
        if math.isnan(y):
            return complex(x, y)
        real = math.cos(y)
        imag = math.sin(y)
        if real != 0.0:
            real *= x
        if imag != 0.0:
            imag *= abs(x)
        return complex(real, imag)
    return complex(math.cos(y) * math.sinh(x), math.sin(y) * math.cosh(x))


def _cos(z):
    # cos(z) = cosh(z j)
    return cmath.cosh(complex(-z.imag, z.real))


def _sin(z):
    # sin(z) = -j sinh(z j)
    r = cmath.sinh(complex(-z.imag, z.real))
    return complex(r.imag, -r.real)


def _acos(z):
    if abs(z.real) > THRES or abs(z.imag) > THRES:
        # no overflow for large arguments (infinities included)
        real = math.atan2(abs(z.imag), z.real)
        imag = math.copysign(math.log(math.hypot(z.real * 0.5, z.imag * 0.5)) + LN_4, -z.imag)
        return complex(real, imag)
    s1 = cmath.sqrt(complex(1.0 - z.real, -z.imag))
    s2 = cmath.sqrt(complex(1.0 + z.real, z.imag))
    real = 2.0 * math.atan2(s1.real, s2.real)
    imag = math.asinh(s2.real * s1.imag - s2.imag * s1.real)
    return complex(real, imag)


def _acosh(z):
    if abs(z.real) > THRES or abs(z.imag) > THRES:
        real = math.log(math.hypot(z.real * 0.5, z.imag * 0.5)) + LN_4
        imag = math.atan2(z.imag, z.real)
        return complex(real, imag)
    s1 = cmath.sqrt(complex(z.real - 1.0, z.imag))
    s2 = cmath.sqrt(complex(z.real + 1.0, z.imag))
    real = math.asinh(s1.real * s2.real + s1.imag * s2.imag)
    imag = 2.0 * math.atan2(s1.imag, s2.real)
    return complex(real, imag)


def _asinh(z):
    if abs(z.real) > THRES or abs(z.imag) > THRES:
        real = math.copysign(math.log(math.hypot(z.real * 0.5, z.imag * 0.5)) + LN_4, z.real)
        imag = math.atan2(z.imag, abs(z.real))
        return complex(real, imag)
    s1 = cmath.sqrt(complex(1.0 + z.imag, -z.real))
    s2 = cmath.sqrt(complex(1.0 - z.imag, z.real))
    real = math.asinh(s1.real * s2.imag - s2.real * s1.imag)
    imag = math.atan2(z.imag, s1.real * s2.real - s1.imag * s2.imag)
    return complex(real, imag)


def _asin(z):
    # asin(z) = -j asinh(z j)
    r = cmath.asinh(complex(-z.imag, z.real))
    return complex(r.imag, -r.real)


def _atan(z):
    # atan(z) = -j atanh(z j)
    r = cmath.atanh(complex(-z.imag, z.real))
    if math.isinf(z.real) and math.isnan(z.imag):
        return complex(r.imag, r.real)
    return complex(r.imag, -r.real)


def _atanh(z):
    x = z.real
    y = z.imag
    # atanh(z) = -atanh(-z): reduce to x >= 0
    negate = x < 0.0
    if negate:
        x = -x
        y = -y
    ay = abs(y)
    if math.isnan(x) or x > THRES_LARGE or ay > THRES_LARGE:
        if math.isinf(y):
            real = math.copysign(0.0, x)
        elif math.isinf(x):
            real = 0.0
        else:
            h = math.hypot(x * 0.5, y * 0.5)
            real = x / 4.0 / h / h
        imag = -math.copysign(PI_12, -y)
    elif x == 1.0 and ay < THRES_SMALL:
        # C99: atanh(1 +/- 0j) is inf +/- 0j
        if ay == 0.0:
            real = INF
            imag = y
        else:
            real = -math.log(math.sqrt(ay) / math.sqrt(math.hypot(ay, 2.0)))
            imag = math.copysign(math.atan2(2.0, -ay) / 2, y)
    else:
        sqay = ay * ay
        zr1 = 1 - x
        real = math.log1p(4.0 * x / (zr1 * zr1 + sqay)) * 0.25
        imag = -math.atan2(-2.0 * y, zr1 * (1 + x) - sqay) * 0.5
    if math.isnan(y):
        imag = NAN
    if negate:
        return complex(-real, -imag)
    return complex(real, imag)


def _rect(r, phi):
    if not math.isfinite(phi):
        if not r:
            # rect(0, inf or nan) is 0
            return complex(abs(r), 0.0)
        if math.isinf(r):
            return complex(r, phi)
    real = math.cos(phi)
    imag = math.sin(phi)
    # keep a zero part zero (with the xor of the signs) where r is infinite
    if real == 0.0 and math.isinf(r):
        real /= r
    else:
        real *= r
    if imag == 0.0 and math.isinf(r):
        imag /= r
    else:
        imag *= r
    return complex(real, imag)


def _unary(fn, py, impls=None):
    """cmath.<fn> of one number: `impls` maps the complex type to its Python implementation."""
    name = f"cmath.{py.__name__}"
    entry = _jitlib.Impl(py, lambda t: (impls or {}).get(t, fn), name)

    def call(c, args, kwargs, node):
        _nargs(c, args, kwargs, node, 1, name=name)
        a = c.num_arg(args[0], node)
        ct = a.t if a.t.kind == "c" else (arith_type(a.t, T.complex64) if a.t.is_float else T.complex128)
        r = entry(c, [c.cast(a, ct, node)], {}, node)
        return c.cast(r, ct, node)

    register(py)(call)


for _fn, _py in (
    (_exp, cmath.exp),
    (_cos, cmath.cos),
    (_sin, cmath.sin),
    (_cosh, cmath.cosh),
    (_sinh, cmath.sinh),
    (_acos, cmath.acos),
    (_asin, cmath.asin),
    (_atan, cmath.atan),
    (_acosh, cmath.acosh),
    (_asinh, cmath.asinh),
    (_atanh, cmath.atanh),
):
    _unary(_fn, _py)
_unary(None, cmath.sqrt, {T.complex64: _make_sqrt(SQRT_THRES_32), T.complex128: _make_sqrt(SQRT_THRES_64)})


def _rect_call(c, args, kwargs, node):
    _nargs(c, args, kwargs, node, 2, name="cmath.rect")
    r, phi = (c.cast(c.num_arg(x, node), T.float64, node) for x in args)
    return c.cast(_rect_entry(c, [r, phi], {}, node), T.complex128, node)


_rect_entry = _jitlib.Impl(cmath.rect, lambda r, phi: _rect, "cmath.rect")
register(cmath.rect)(_rect_call)
