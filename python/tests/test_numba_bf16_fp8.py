"""bfloat16 and float8 in pydev.numba (`cuda.bf16`, `cuda.fp8`, issue 31):
arithmetic, intrinsics, conversions with every rounding and saturation
mode, bit casts, arrays. Host target, fixed-seed random inputs (special
values added), poisoned outputs, compared bit for bit with references
written here in NumPy / Python from CUDA's definitions (cuda_bf16.hpp,
cuda_fp8.hpp), and with ml_dtypes where it is installed."""

import math
from fractions import Fraction

import numpy as np
import pytest

import pydev
from pydev.numba import cuda, float32, float64, int16, int32, int64, types, uint8, uint16, uint64
from pydev.numba.cuda import bf16, fp8

import toolchain

SEED = 20261128
POISON16 = 0xDEAD


@pytest.fixture(autouse=True)
def _host(monkeypatch, native):
    monkeypatch.setenv("PYDEV_TARGET", "host")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


# --- references ---------------------------------------------------------------------------


def bf16_rn(x32):
    """bfloat16 bits of float32 values, to nearest even (NaN: quiet, sign kept)."""
    u = np.asarray(x32, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x32, np.float32))
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), r)


def bf16_directed(x32, mode):
    """CUDA's __float2bfloat16_rz/_rd/_ru."""
    u = np.asarray(x32, np.float32).view(np.uint32)
    t = (u >> 16).astype(np.uint32)
    inexact = (u & 0xFFFF) != 0
    finite = (u & 0x7FFFFFFF) < 0x7F800000
    neg = (u >> 31) != 0
    if mode == "ru":
        t = np.where(~neg & finite & inexact, t + 1, t)
    elif mode == "rd":
        t = np.where(neg & finite & inexact, t + 1, t)
    return np.where((u & 0x7FFFFFFF) > 0x7F800000, 0x7FFF, t).astype(np.uint16)


def bf16_value(bits):
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def f64_to_f32_odd(x):
    """float64 to float32 towards zero with a sticky last bit (round to odd)."""
    x = np.asarray(x, np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        f = x.astype(np.float32)
    d = f.astype(np.float64)
    u = f.view(np.uint32).copy()
    away = ((x > 0) & (d > x)) | ((x < 0) & (d < x))
    u = np.where(away, u - 1, u)
    u = np.where((d != x) & ~np.isnan(x), u | 1, u)
    return u.astype(np.uint32).view(np.float32)


def round_int(v, mode, sig=8):
    """Integer v rounded to `sig` significant bits (exact, Python ints)."""
    m, neg = abs(int(v)), v < 0
    shift = max(0, m.bit_length() - sig)
    kept, dropped = m >> shift, m & ((1 << shift) - 1)
    half = 1 << (shift - 1) if shift else 0
    up = {
        "rn": shift > 0 and (dropped > half or dropped == half and kept & 1),
        "rz": False,
        "ru": dropped != 0 and not neg,
        "rd": dropped != 0 and neg,
    }[mode]
    r = (kept + bool(up)) << shift
    return -r if neg else r


def sat_int(x, t, mode):
    """CUDA's float-to-integer conversion: rounded, saturated, NaN 0 (64-bit: 0x800...)."""
    info = np.iinfo(t)
    out = []
    with np.errstate(invalid="ignore"):  # signalling NaNs among random bits
        x = np.asarray(x, np.float64)
    for v in x:
        if math.isnan(v):
            out.append(info.min if info.bits == 64 and info.min < 0 else (2**63 if info.bits == 64 else 0))
            continue
        r = {"rn": np.rint, "rz": np.trunc, "rd": np.floor, "ru": np.ceil}[mode](v)
        out.append(int(min(max(r, info.min), info.max)) if math.isfinite(r) else (info.max if r > 0 else info.min))
    return np.array(out, dtype=np.uint64 if info.bits == 64 and info.min == 0 else np.int64).astype(t)


# {interp: (mantissa bits, bias, maxnorm bits, overflow threshold as a Fraction, inf/NaN on overflow)}
_FP8 = {
    "e4m3": (3, 7, 0x7E, Fraction(464), 0x7F),
    "e5m2": (2, 15, 0x7B, Fraction(61440), 0x7C),
}


def fp8_ref(x, sat, interp, from_double):
    """CUDA's __nv_cvt_double_to_fp8 (and the float version, which makes NaN
    positive) as exact rational arithmetic: the bits."""
    mb, bias, maxbits, thr, over = _FP8[interp]
    out = []
    for v in np.asarray(x, np.float64 if from_double else np.float32):
        v = float(v)
        neg = math.copysign(1.0, v) < 0
        sign = 0x80 if neg else 0
        if math.isnan(v):
            if not from_double:
                out.append(0x7F)
            elif interp == "e4m3":
                out.append(0x7F | sign)
            else:
                top = (np.float64(v).view(np.uint64) >> np.uint64(50)) & np.uint64(3)
                out.append(0x7C | int(top) | sign)
            continue
        a = Fraction(abs(v)) if math.isfinite(v) else None
        if a is None or (a > thr if interp == "e4m3" else a >= thr):
            out.append((maxbits if sat else over) | sign)
            continue
        # round |v| to the grid of the format (subnormals: exponent 1 - bias)
        e = max(math.floor(math.log2(a)) if a else 1 - bias, 1 - bias)
        while Fraction(2) ** e > a and e > 1 - bias:
            e -= 1
        while Fraction(2) ** (e + 1) <= a:
            e += 1
        q = a / Fraction(2) ** (e - mb)  # in units of the last place
        n = math.floor(q)
        rem = q - n
        if rem > Fraction(1, 2) or rem == Fraction(1, 2) and n % 2:
            n += 1
        val = Fraction(n) * Fraction(2) ** (e - mb)
        # encode
        if val == 0:
            out.append(sign)
            continue
        ex = math.floor(math.log2(val))
        if Fraction(2) ** ex > val:
            ex -= 1
        if ex < 1 - bias:  # subnormal
            m = int(val / Fraction(2) ** (1 - bias - mb))
            out.append(sign | m)
        else:
            m = int(val / Fraction(2) ** (ex - mb)) - (1 << mb)
            out.append(sign | ((ex + bias) << mb) | m)
    return np.array(out, np.uint8)


def fp8_decode(b, interp):
    """The float32 value of float8 bits."""
    mb, bias = _FP8[interp][:2]
    out = []
    for v in np.asarray(b, np.uint8):
        v = int(v)
        s = -1.0 if v & 0x80 else 1.0
        e, m = (v & 0x7F) >> mb, v & ((1 << mb) - 1)
        if interp == "e4m3" and (v & 0x7F) == 0x7F or interp == "e5m2" and e == 31 and m:
            out.append(math.nan)
        elif interp == "e5m2" and e == 31:
            out.append(s * math.inf)
        elif e == 0:
            out.append(s * m * 2.0 ** (1 - bias - mb))
        else:
            out.append(s * (1 + m / (1 << mb)) * 2.0 ** (e - bias))
    return np.array(out, np.float32)


def e8m0_from_bf16_ref(raw, sat, posinf):
    """__nv_cvt_bfloat16raw_to_e8m0 (its software path)."""
    out = []
    for x in np.asarray(raw, np.uint16):
        x = int(x)
        r = (x >> 7) & 0xFF
        if posinf and (x & 0x7F) and (x & 0x7FFF) > 0x40 and (x & 0x7FFF) < 0x7F80:
            r += 1
        if sat and (x & 0x7FFF) <= 0x7F80 and r == 0xFF:
            r -= 1
        out.append(r & 0xFF)
    return np.array(out, np.uint8)


def e8m0_to_f32(e):
    e = np.asarray(e, np.uint8).astype(np.uint32)
    raw = np.where(e == 0xFF, 0x7FFF, np.where(e == 0, 0x40, e << 7)).astype(np.uint16)
    return bf16_value(raw)


def floats32(rng, n, scale=8.0, tiny=False):
    """Random float32 values of every magnitude and sign, with specials (and
    with `tiny`, values that are subnormal in bfloat16 and float32)."""
    x = (rng.standard_normal(n) * scale * np.exp2(rng.integers(-20, 20, n))).astype(np.float32)
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.5, 3.0e38]
    if tiny:
        x[-64:] = (rng.standard_normal(64) * np.exp2(rng.integers(-149, -120, 64))).astype(np.float32)
    return x


def signed_max(a, b):
    """max with +0.0 above -0.0 (CUDA's __hmax)."""
    a_pos = ~np.signbit(a)
    return np.where(a > b, a, np.where((a == b) & a_pos, a, b))


def signed_min(a, b):
    return np.where(a < b, a, np.where((a == b) & np.signbit(a), a, b))


# --- bfloat16 arithmetic, comparisons, intrinsics ---------------------------------------------


@cuda.jit
def _bf16_arith(out, cmp, x, y):
    i = cuda.grid(1)
    if i < x.size:
        a = bf16.bfloat16(x[i])
        b = bf16.bfloat16(y[i])
        out[i, 0] = bf16.bfloat16_as_uint16(a + b)
        out[i, 1] = bf16.bfloat16_as_uint16(a - b)
        out[i, 2] = bf16.bfloat16_as_uint16(a * b)
        out[i, 3] = bf16.bfloat16_as_uint16(a / b)
        out[i, 4] = bf16.bfloat16_as_uint16(-a)
        out[i, 5] = bf16.bfloat16_as_uint16(bf16.hadd(a, b))
        out[i, 6] = bf16.bfloat16_as_uint16(bf16.hmul_rn(a, b))
        out[i, 7] = bf16.bfloat16_as_uint16(bf16.hdiv(a, b))
        out[i, 8] = bf16.bfloat16_as_uint16(bf16.habs(a))
        out[i, 9] = bf16.bfloat16_as_uint16(bf16.hadd_sat(a, b))
        out[i, 10] = bf16.bfloat16_as_uint16(bf16.hfma(a, b, a))
        out[i, 11] = bf16.bfloat16_as_uint16(bf16.hfma_relu(a, b, b))
        out[i, 12] = bf16.bfloat16_as_uint16(bf16.hmax(a, b))
        out[i, 13] = bf16.bfloat16_as_uint16(bf16.hmin_nan(a, b))
        s = a
        s += b
        out[i, 14] = bf16.bfloat16_as_uint16(s)
        cmp[i, 0] = a < b
        cmp[i, 1] = a == b
        cmp[i, 2] = bf16.hne(a, b)
        cmp[i, 3] = bf16.hneu(a, b)
        cmp[i, 4] = bf16.hgeu(a, b)
        cmp[i, 5] = bf16.hisnan(a)
        cmp[i, 6] = bf16.hisinf(a)


def test_bf16_arithmetic_and_intrinsics(rng):
    n = 512
    x = floats32(rng, n)
    y = floats32(rng, n, 2.0)
    y[8:16] = x[8:16]  # equal operands
    y[16] = np.nan
    x[17:20], y[17:20] = [0.0, -0.0, -0.0], [-0.0, 0.0, -0.0]  # hmax/hmin order +0.0 above -0.0
    out = np.full((n, 15), POISON16, np.uint16)
    cmp = np.full((n, 7), 7, np.int32)
    _bf16_arith[4, 128](out, cmp, x, y)
    a, b = bf16_value(bf16_rn(x)), bf16_value(bf16_rn(y))
    with np.errstate(all="ignore"):
        fma = f64_to_f32_odd(a.astype(np.float64) * b + a)
        relu = f64_to_f32_odd(a.astype(np.float64) * b + b)
        ab = bf16_value(bf16_rn(a + b))
        want = {
            0: bf16_rn(a + b),
            1: bf16_rn(a - b),
            2: bf16_rn(a * b),
            3: bf16_rn(a / b),
            4: bf16_rn(-a),
            5: bf16_rn(a + b),
            6: bf16_rn(a * b),
            7: bf16_rn(a / b),
            8: bf16_rn(np.abs(a)),
            9: bf16_rn(np.where(ab > 1, 1, np.where(ab >= 0, ab, 0)).astype(np.float32)),
            10: bf16_rn(fma),
            11: np.where(bf16_value(bf16_rn(relu)) < 0, 0, bf16_rn(relu)).astype(np.uint16),
            12: np.where(
                np.isnan(a) & np.isnan(b),
                0x7FFF,
                bf16_rn(np.where(np.isnan(a), b, np.where(np.isnan(b), a, signed_max(a, b)))),
            ).astype(np.uint16),
            13: np.where(np.isnan(a) | np.isnan(b), 0x7FFF, bf16_rn(signed_min(a, b))).astype(np.uint16),
            14: bf16_rn(a + b),
        }
    for k in (12, 13):  # CUDA's canonical NaN
        np.testing.assert_array_equal(out[:, k], want[k])
    for k, w in want.items():
        got = out[:, k]
        nan_w = np.isnan(bf16_value(w))
        assert np.array_equal(np.isnan(bf16_value(got)), nan_w), k
        np.testing.assert_array_equal(got[~nan_w], w[~nan_w], err_msg=f"column {k}")
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(cmp[:, 0], a < b)
        np.testing.assert_array_equal(cmp[:, 1], a == b)
        np.testing.assert_array_equal(cmp[:, 2], (a < b) | (a > b))
        np.testing.assert_array_equal(cmp[:, 3], a != b)
        np.testing.assert_array_equal(cmp[:, 4], ~(a < b))
    np.testing.assert_array_equal(cmp[:, 5], np.isnan(a))
    np.testing.assert_array_equal(cmp[:, 6], np.where(a == np.inf, 1, np.where(a == -np.inf, -1, 0)))


def bf16_exact(q):
    """The bfloat16 bits of the exact rational q, to nearest even (normal range)."""
    if q == 0:
        return 0
    sign, a = (0x8000 if q < 0 else 0), abs(q)
    e = math.floor(math.log2(a))
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    m = a / Fraction(2) ** (e - 7)
    n = math.floor(m)
    if m - n > Fraction(1, 2) or m - n == Fraction(1, 2) and n % 2:
        n += 1
    if n == 256:
        n, e = 128, e + 1
    return sign | ((e + 127) << 7) | (n - 128)


@cuda.jit
def _fma_kernel(out, x, y, z):
    i = cuda.grid(1)
    if i < x.size:
        a, b, d = bf16.uint16_as_bfloat16(x[i]), bf16.uint16_as_bfloat16(y[i]), bf16.uint16_as_bfloat16(z[i])
        out[i] = bf16.bfloat16_as_uint16(bf16.hfma(a, b, d))


def test_bf16_fma_rounds_once(rng):
    # a * b exactly halfway between two bfloat16 numbers, plus a tiny or
    # cancelling addend: one rounding of the exact sum decides, as CUDA's
    n = 256
    a = bf16_rn(rng.uniform(1, 2, n).astype(np.float32))
    b = bf16_rn(np.float32(1.5) * np.ones(n, np.float32))
    a[: n // 2] = bf16_rn(np.float32(1 + 2.0**-7))  # a * 1.5 = 1.5 + 2**-7 + 2**-8: a tie
    tiny = np.exp2(-rng.integers(60, 120, n)).astype(np.float32) * rng.choice([-1, 1], n).astype(np.float32)
    d = bf16_rn(tiny)
    d[n // 2 :] = bf16_rn(-(bf16_value(a[n // 2 :]) * np.float32(1.5)))  # exact cancellation and near it
    d[:4] = 0
    out = np.full(n, POISON16, np.uint16)
    _fma_kernel[2, 128](out, a, b, d)
    want = [
        bf16_exact(Fraction(float(p)) * Fraction(float(q)) + Fraction(float(r)))
        for p, q, r in zip(bf16_value(a), bf16_value(b), bf16_value(d))
    ]
    np.testing.assert_array_equal(out, np.array(want, np.uint16))


# --- bfloat16 math -------------------------------------------------------------------------------

_MATH = {
    "htrunc": np.trunc,
    "hceil": np.ceil,
    "hfloor": np.floor,
    "hrint": np.rint,
    "hsqrt": np.sqrt,
    "hrcp": lambda v: np.float32(1) / v,
    "hsin": np.sin,
    "hcos": np.cos,
    "hexp": np.exp,
    "hexp2": np.exp2,
    "hexp10": lambda v: np.power(np.float64(10), v.astype(np.float64)).astype(np.float32),
    "hlog": np.log,
    "hlog2": np.log2,
    "hlog10": np.log10,
    "hrsqrt": lambda v: (1 / np.sqrt(v.astype(np.float64))).astype(np.float32),
    "htanh": np.tanh,
}
_EXACT = {"htrunc", "hceil", "hfloor", "hrint", "hsqrt", "hrcp"}


def _make_math_kernel(fn):
    @cuda.jit
    def k(out, x):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = bf16.bfloat16_as_uint16(fn(bf16.bfloat16(x[i])))

    return k


@pytest.mark.parametrize("name", sorted(_MATH))
def test_bf16_math(name, rng):
    n = 256
    x = (rng.uniform(0.05, 6, n) * rng.choice([-1, 1], n)).astype(np.float32)
    if name in ("hsqrt", "hlog", "hlog2", "hlog10", "hrsqrt"):
        x = np.abs(x)
    if name in ("hexp", "hexp2", "hexp10"):
        x = x / 2
    out = np.full(n, POISON16, np.uint16)
    _make_math_kernel(getattr(bf16, name))[2, 128](out, x)
    a = bf16_value(bf16_rn(x))
    with np.errstate(all="ignore"):
        want = bf16_rn(_MATH[name](a).astype(np.float32))
    if name in _EXACT:
        np.testing.assert_array_equal(out, want)
    else:  # float32's function may differ from NumPy's by an ulp of float32: at most 1 of bfloat16
        assert np.abs(out.astype(np.int32) - want.astype(np.int32)).max() <= 1


@cuda.jit
def _math_module(out, x):
    i = cuda.grid(1)
    if i < x.size:
        a = bf16.bfloat16(x[i])
        out[i, 0] = bf16.bfloat16_as_uint16(math.floor(a))  # bfloat16, as numba-cuda's overload
        out[i, 1] = bf16.bfloat16_as_uint16(math.sqrt(a))
        out[i, 2] = isinstance(a, bf16.bfloat16)
        out[i, 3] = isinstance(float32(a), bf16.bfloat16)


def test_bf16_math_module_and_isinstance(rng):
    x = rng.uniform(0.1, 100, 64).astype(np.float32)
    out = np.full((64, 4), POISON16, np.uint16)
    _math_module[1, 64](out, x)
    a = bf16_value(bf16_rn(x))
    np.testing.assert_array_equal(out[:, 0], bf16_rn(np.floor(a)))
    np.testing.assert_array_equal(out[:, 1], bf16_rn(np.sqrt(a)))
    assert (out[:, 2] == 1).all() and (out[:, 3] == 0).all()


# --- bfloat16 conversions ----------------------------------------------------------------------


@cuda.jit
def _from_floats(out, x, xd):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = bf16.bfloat16_as_uint16(bf16.float32_to_bfloat16_rn(x[i]))
        out[i, 1] = bf16.bfloat16_as_uint16(bf16.float32_to_bfloat16_rz(x[i]))
        out[i, 2] = bf16.bfloat16_as_uint16(bf16.float32_to_bfloat16_rd(x[i]))
        out[i, 3] = bf16.bfloat16_as_uint16(bf16.float32_to_bfloat16_ru(x[i]))
        out[i, 4] = bf16.bfloat16_as_uint16(bf16.float64_to_bfloat16(xd[i]))
        out[i, 5] = bf16.bfloat16_as_uint16(bf16.bfloat16(xd[i]))


def test_bf16_from_floats(rng):
    n = 512
    x = floats32(rng, n, tiny=True)
    # float64 values near bfloat16 ties: a float32 first would round them twice
    xd = x.astype(np.float64) * (1 + rng.choice([-1, 1], n) * 2.0 ** rng.integers(-40, -20, n))
    xd[:8] = x[:8]
    out = np.full((n, 6), POISON16, np.uint16)
    _from_floats[4, 128](out, x, xd)
    want = [bf16_rn(x), bf16_directed(x, "rz"), bf16_directed(x, "rd"), bf16_directed(x, "ru")]
    want += [bf16_rn(f64_to_f32_odd(xd))] * 2
    for k, w in enumerate(want):
        nan = np.isnan(bf16_value(w))
        assert np.array_equal(np.isnan(bf16_value(out[:, k])), nan), k
        np.testing.assert_array_equal(out[~nan, k], w[~nan], err_msg=f"column {k}")
    try:
        import ml_dtypes
    except ImportError:
        return
    ok = ~np.isnan(x)
    np.testing.assert_array_equal(out[ok, 0], x[ok].astype(ml_dtypes.bfloat16).view(np.uint16))


def _int_kernel(t):
    name = str(t)
    fns = [getattr(bf16, f"{name}_to_bfloat16_{m}") for m in ("rn", "rz", "rd", "ru")]
    f_rn, f_rz, f_rd, f_ru = fns

    @cuda.jit
    def k(out, v):
        i = cuda.grid(1)
        if i < v.size:
            out[i, 0] = bf16.bfloat16_as_uint16(f_rn(v[i]))
            out[i, 1] = bf16.bfloat16_as_uint16(f_rz(v[i]))
            out[i, 2] = bf16.bfloat16_as_uint16(f_rd(v[i]))
            out[i, 3] = bf16.bfloat16_as_uint16(f_ru(v[i]))
            out[i, 4] = bf16.bfloat16_as_uint16(bf16.bfloat16(v[i]))

    return k


@pytest.mark.parametrize("t", [int16, uint16, int32, types.uint32, int64, uint64], ids=str)
def test_bf16_from_integers(t, rng):
    info = np.iinfo(t.dtype)
    n = 384
    bits_ = rng.integers(1, info.bits + (0 if info.min < 0 else 1), n)
    v = [int(rng.integers(0, 2 ** int(b - 1))) + 2 ** int(b - 1) for b in bits_]
    v = np.array([x if info.min == 0 or s > 0 else -x for x, s in zip(v, rng.choice([-1, 1], n))], dtype=object)
    v = np.array([min(max(int(x), info.min), info.max) for x in v], t.dtype)
    v[:3] = [0, info.max, info.min]
    out = np.full((n, 5), POISON16, np.uint16)
    _int_kernel(t)[3, 128](out, v)
    for k, m in enumerate(("rn", "rz", "rd", "ru", "rn")):
        want = bf16_rn(np.array([round_int(int(x), m) for x in v], np.float64).astype(np.float32))
        np.testing.assert_array_equal(out[:, k], want, err_msg=f"{t} {m}")


def _to_int_kernel(t):
    name = str(t)
    fns = [getattr(bf16, f"bfloat16_to_{name}_{m}") for m in ("rn", "rz", "rd", "ru")]
    f_rn, f_rz, f_rd, f_ru = fns

    @cuda.jit
    def k(out, x):
        i = cuda.grid(1)
        if i < x.size:
            a = bf16.uint16_as_bfloat16(x[i])
            out[i, 0] = f_rn(a)
            out[i, 1] = f_rz(a)
            out[i, 2] = f_rd(a)
            out[i, 3] = f_ru(a)
            out[i, 4] = t(a)  # the type's conversion: towards zero

    return k


@pytest.mark.parametrize("t", [int16, uint16, int32, types.uint32, int64, uint64], ids=str)
def test_bf16_to_integers(t, rng):
    n = 512
    raw = rng.integers(0, 2**16, n, dtype=np.uint16)
    raw[:6] = [0x7FC0, 0xFFC0, 0x7F80, 0xFF80, 0x3FC0, 0xBFC0]  # NaNs, infinities, 1.5, -1.5
    out = np.zeros((n, 5), t.dtype)
    out[:] = np.array(7, t.dtype)
    _to_int_kernel(t)[4, 128](out, raw)
    x = bf16_value(raw)
    for k, m in enumerate(("rn", "rz", "rd", "ru", "rz")):
        np.testing.assert_array_equal(out[:, k], sat_int(x, t.dtype, m), err_msg=f"{t} {m}")


@cuda.jit
def _char_conversions(out, x):
    i = cuda.grid(1)
    if i < x.size:
        a = bf16.uint16_as_bfloat16(x[i])
        out[i, 0] = bf16.bfloat16_to_int8_rz(a)
        out[i, 1] = bf16.bfloat16_to_uint8_rz(a)
        out[i, 2] = bf16.bfloat16_as_int16(a)


def test_bf16_bit_casts_and_char_conversions(rng):
    raw = rng.integers(0, 2**16, 256, dtype=np.uint16)
    out = np.full((256, 3), -7, np.int64)
    _char_conversions[2, 128](out, raw)
    x = bf16_value(raw)
    np.testing.assert_array_equal(out[:, 0], sat_int(x, np.int8, "rz"))
    np.testing.assert_array_equal(out[:, 1], sat_int(x, np.uint8, "rz"))
    np.testing.assert_array_equal(out[:, 2], raw.view(np.int16))


# --- bfloat16 arrays -------------------------------------------------------------------------------


@cuda.jit
def _bf16_arrays(out, a, b):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * b[i] + a[i]


def test_bf16_arrays(rng):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = rng.standard_normal(300).astype(np.float32).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal(300).astype(np.float32).astype(ml_dtypes.bfloat16)
    out = np.full(300, np.nan, np.float32).astype(ml_dtypes.bfloat16)
    _bf16_arrays[3, 128](out, a, b)
    ab = bf16_value(bf16_rn(a.astype(np.float32) * b.astype(np.float32)))
    np.testing.assert_array_equal(out.view(np.uint16), bf16_rn(ab + a.astype(np.float32)))
    assert types.typeof(a) == types.bfloat16[::1]


# --- float8 -----------------------------------------------------------------------------------------


@cuda.jit
def _cvt_fp8(out, x, xd):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = fp8.cvt_float_to_fp8(x[i], fp8.saturation_t.NOSAT, fp8.fp8_interpretation_t.E4M3)
        out[i, 1] = fp8.cvt_float_to_fp8(x[i], fp8.saturation_t.SATFINITE, fp8.fp8_interpretation_t.E4M3)
        out[i, 2] = fp8.cvt_float_to_fp8(x[i], fp8.saturation_t.NOSAT, fp8.fp8_interpretation_t.E5M2)
        out[i, 3] = fp8.cvt_float_to_fp8(x[i], fp8.saturation_t.SATFINITE, fp8.fp8_interpretation_t.E5M2)
        out[i, 4] = fp8.cvt_double_to_fp8(xd[i], fp8.saturation_t.NOSAT, fp8.fp8_interpretation_t.E4M3)
        out[i, 5] = fp8.cvt_double_to_fp8(xd[i], fp8.saturation_t.SATFINITE, fp8.fp8_interpretation_t.E5M2)


def test_fp8_cvt_intrinsics(rng):
    n = 512
    x = (rng.standard_normal(n) * np.exp2(rng.integers(-22, 20, n))).astype(np.float32)
    x[:10] = [0.0, -0.0, np.inf, -np.inf, np.nan, 448.0, 464.0, 465.0, 57344.0, 61440.0]
    # float64 values just off float8 ties: a float32 first would round them twice
    xd = x.astype(np.float64) * (1 + rng.choice([-1, 1], n) * 2.0 ** rng.integers(-45, -25, n))
    xd[:10] = x[:10]
    xd[10] = -np.nan
    out = np.full((n, 6), 0xA5, np.uint8)
    _cvt_fp8[4, 128](out, x, xd)
    want = [
        fp8_ref(x, False, "e4m3", False),
        fp8_ref(x, True, "e4m3", False),
        fp8_ref(x, False, "e5m2", False),
        fp8_ref(x, True, "e5m2", False),
        fp8_ref(xd, False, "e4m3", True),
        fp8_ref(xd, True, "e5m2", True),
    ]
    for k, w in enumerate(want):
        np.testing.assert_array_equal(out[:, k], w, err_msg=f"column {k}")
    try:
        import ml_dtypes
    except ImportError:
        return
    ok = np.isfinite(x) & (np.abs(x) < 448)
    np.testing.assert_array_equal(out[ok, 0], x[ok].astype(ml_dtypes.float8_e4m3fn).view(np.uint8))


@cuda.jit
def _fp8_types(out_f, out_i, x, xi):
    i = cuda.grid(1)
    if i < x.size:
        a = fp8.fp8_e4m3(x[i])
        b = fp8.fp8_e5m2(float64(x[i]))
        e = fp8.fp8_e8m0(x[i])
        out_f[i, 0] = float32(a)
        out_f[i, 1] = float32(b)
        out_f[i, 2] = float32(e)
        out_f[i, 3] = float32(bf16.bfloat16(a))
        out_f[i, 4] = float32(fp8.fp8_e4m3(xi[i]))
        out_i[i, 0] = int32(a)
        out_i[i, 1] = uint8(b)
        out_i[i, 2] = int64(e)


def test_fp8_types(rng):
    n = 384
    x = (rng.standard_normal(n) * np.exp2(rng.integers(-12, 18, n))).astype(np.float32)
    x[:6] = [0.0, np.inf, -np.inf, np.nan, 1e20, -3.0]
    out_f = np.full((n, 5), -7.0, np.float32)
    out_i = np.full((n, 3), -7, np.int64)
    xi = rng.integers(-(2**31), 2**31, n, dtype=np.int32) >> rng.integers(0, 31, n, dtype=np.int32)
    _fp8_types[3, 128](out_f, out_i, x, xi)
    a = fp8_decode(fp8_ref(x, True, "e4m3", False), "e4m3")
    b = fp8_decode(fp8_ref(x, True, "e5m2", True), "e5m2")
    raw = bf16_directed(np.abs(x), "ru")
    e = e8m0_to_f32(e8m0_from_bf16_ref(raw, True, True))
    ai = fp8_decode(fp8_ref(xi.astype(np.float32), True, "e4m3", False), "e4m3")  # CUDA: through float
    want_f = np.stack([a, b, e, a, ai], axis=1)
    np.testing.assert_array_equal(np.isnan(out_f), np.isnan(want_f))
    ok = ~np.isnan(want_f)
    np.testing.assert_array_equal(out_f[ok], want_f[ok])
    np.testing.assert_array_equal(out_i[:, 0], sat_int(a, np.int32, "rz"))
    np.testing.assert_array_equal(out_i[:, 1], sat_int(b, np.uint8, "rz"))
    np.testing.assert_array_equal(out_i[:, 2], sat_int(e, np.int64, "rz"))


@cuda.jit
def _e8m0(out, x, xd, raw):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = fp8.cvt_float_to_e8m0(x[i], fp8.saturation_t.NOSAT, fp8.cudaRoundMode.cudaRoundZero)
        out[i, 1] = fp8.cvt_float_to_e8m0(x[i], fp8.saturation_t.SATFINITE, fp8.cudaRoundMode.cudaRoundPosInf)
        out[i, 2] = fp8.cvt_double_to_e8m0(xd[i], fp8.saturation_t.NOSAT, fp8.cudaRoundMode.cudaRoundPosInf)
        r = fp8.cvt_e8m0_to_bf16raw(raw[i])
        out[i, 3] = r.x >> 8
        out[i, 4] = r.x & 0xFF
        out[i, 5] = fp8.cvt_bfloat16raw_to_e8m0(r, fp8.saturation_t.SATFINITE, fp8.cudaRoundMode.cudaRoundZero)
        out[i, 6] = fp8.cvt_bfloat16raw_to_fp8(r, fp8.saturation_t.SATFINITE, fp8.fp8_interpretation_t.E4M3)


def test_e8m0_cvt_intrinsics(rng):
    n = 384
    x = (rng.standard_normal(n) * np.exp2(rng.integers(-130, 128, n))).astype(np.float32)
    x[:6] = [0.0, np.inf, np.nan, np.float32(2.0**127), np.nextafter(np.float32(2.0**127), np.float32(np.inf)), -8.0]
    xd = x.astype(np.float64) * (1 + 2.0 ** rng.integers(-50, -30, n))
    raw = rng.integers(0, 256, n, dtype=np.uint8)
    raw[:3] = [0, 255, 127]
    out = np.full((n, 7), 0xA5, np.uint8)
    _e8m0[3, 128](out, x, xd, raw)
    np.testing.assert_array_equal(out[:, 0], e8m0_from_bf16_ref(bf16_directed(x, "rz"), False, False))
    np.testing.assert_array_equal(out[:, 1], e8m0_from_bf16_ref(bf16_directed(np.abs(x), "ru"), True, True))
    np.testing.assert_array_equal(
        out[:, 2], e8m0_from_bf16_ref(bf16_directed(np.abs(f64_to_f32_odd(xd)), "ru"), False, True)
    )
    r = e8m0_to_f32(raw).view(np.uint32) >> 16
    np.testing.assert_array_equal(out[:, 3].astype(np.uint32) << 8 | out[:, 4], r)
    np.testing.assert_array_equal(out[:, 5], e8m0_from_bf16_ref(r.astype(np.uint16), True, False))
    np.testing.assert_array_equal(out[:, 6], fp8_ref(bf16_value(r.astype(np.uint16)), True, "e4m3", False))


def _e8m0_int_kernel(t):
    @cuda.jit
    def k(out, v):
        i = cuda.grid(1)
        if i < v.size:
            out[i, 0] = fp8.cvt_e8m0_to_bf16raw(uint8(0)).x  # 2**-127: bits 0x0040
            e = fp8.fp8_e8m0(v[i])
            out[i, 1] = uint16(float32(e) > 0)
            out[i, 2] = bf16.bfloat16_as_uint16(bf16.bfloat16(e))

    return k


@pytest.mark.parametrize("t", [int16, uint16, int32, types.uint32, int64, uint64], ids=str)
def test_e8m0_from_integers(t, rng):
    # CUDA: the smallest power of two not below |v| (2**-127 for 0)
    info = np.iinfo(t.dtype)
    n = 256
    v = rng.integers(info.min, info.max, n, dtype=t.dtype, endpoint=True) >> rng.integers(
        0, info.bits - 1, n, dtype=t.dtype
    )
    v[:4] = [0, 1, info.max, info.min]
    v[4:12] = np.array([2, 3, 4, 5, 1023, 1024, 1025, 96], t.dtype)
    out = np.full((n, 3), POISON16, np.uint16)
    _e8m0_int_kernel(t)[2, 128](out, v)
    assert (out[:, 0] == 0x40).all() and (out[:, 1] == 1).all()
    want = [0x0040 if x == 0 else (127 + (abs(int(x)) - 1).bit_length()) << 7 for x in v]
    np.testing.assert_array_equal(out[:, 2], np.array(want, np.uint16))


def test_fp8_arrays(rng):
    ml_dtypes = pytest.importorskip("ml_dtypes")

    @cuda.jit
    def k(out, a):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = fp8.fp8_e4m3(float32(a[i]) * 2.0)

    a = rng.uniform(-100, 100, 200).astype(np.float32).astype(ml_dtypes.float8_e4m3fn)
    out = np.full(200, 0x7F, np.uint8).view(ml_dtypes.float8_e4m3fn)
    k[2, 128](out, a)
    np.testing.assert_array_equal(out.view(np.uint8), fp8_ref(a.astype(np.float32) * 2, True, "e4m3", False))


# --- errors, host calls, PTX ------------------------------------------------------------------------


def test_fp8_has_no_arithmetic():
    @cuda.jit
    def k(out):
        out[0] = float32(fp8.fp8_e4m3(1.0) + fp8.fp8_e4m3(2.0))

    with pytest.raises(pydev.CompileError, match="fp8_e4m3 has no arithmetic"):
        k[1, 1](np.zeros(1, np.float32))

    @cuda.jit
    def m(out):
        out[0] = float32(math.sin(fp8.fp8_e5m2(1.0)))

    with pytest.raises(pydev.CompileError, match="fp8_e5m2 has no math functions"):
        m[1, 1](np.zeros(1, np.float32))


def test_device_only_and_support_queries():
    with pytest.raises(pydev.DeviceOnlyError):
        bf16.hadd(1.0, 2.0)
    assert cuda.is_bfloat16_supported() and cuda.is_fp8_supported()
    assert cuda.bf16.bfloat16 is types.bfloat16 is cuda.bfloat16
    assert fp8.fp8_e4m3.__name__ == "fp8_e4m3"


def test_ptx_sm90_assembles(tmp_path):
    ptx = _e8m0.inspect_asm((uint8[:, ::1], float32[::1], float64[::1], uint8[::1]))
    ptx2 = _bf16_arith.inspect_asm((uint16[:, ::1], int32[:, ::1], float32[::1], float32[::1]))
    for text in (ptx, ptx2):
        r = toolchain.assemble(text, tmp_path)
        if r is None:
            pytest.skip("no ptxas (pip install nvidia-cuda-nvcc)")
        assert r.returncode == 0, r.stderr
