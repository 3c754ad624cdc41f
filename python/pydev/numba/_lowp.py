"""bfloat16 and the float8 formats in device code: conversions with CUDA's
semantics (cuda_bf16.hpp, cuda_fp8.hpp, as numba-cuda binds them).

The rounding of a float to float8e4m3 or float8e5m2 to nearest even is
the dialect's (`pydev.cast`: `pydev-lower-float8`), and so are the
conversions of these types and bfloat16 to float32 (exact); what CUDA adds
is written here with integer and float ops: saturation (`__NV_SATFINITE`)
and CUDA's NaN and overflow bits for float8, bfloat16's rounding (to
nearest even on the bits, see `to_bf16`; directed: `_rz`, `_rd`, `_ru`),
integers rounded to bfloat16 exactly, the
saturating float-to-integer conversions (NaN gives 0, or
0x8000000000000000 for 64 bits), and e8m0 (a power of two: bits e are
2**(e - 127), 0xFF NaN), which the dialect lacks, from its bits.

Rounding modes are "rn" (to nearest even), "rz", "rd", "ru" (and "ra",
away from zero, for integers to bfloat16)."""

from .. import ir
from . import types as T
from ._typing import TypedValue

# --- bits ----------------------------------------------------------------------------------


def bits(c, v, width):
    """The bits of a float value as an unsigned integer of `width` bits."""
    return c.f.cast(c.f.emit("arith.bitcast", [v], [ir.Type(f"i{width}")]), ir.Type(f"ui{width}"))


def from_bits(c, u, ty, width):
    """The float of type `ty` whose bits are the unsigned integer `u`."""
    return c.f.emit("arith.bitcast", [c.f.cast(u, ir.Type(f"i{width}"))], [ty])


def _isnan(c, v):
    return c.f.ops.cmp(v, v, predicate="ne")


def _sel(c, cond, a, b):
    return c.f.select(cond, a, b)


# --- to float32 (exact for every one of these formats) --------------------------------------


def e8m0_to_bf16_bits(c, e):
    """__internal_e8m0_to_bf16: the bfloat16 bits (ui16) of e8m0 bits (ui8)."""
    e16 = c.f.cast(e, ir.ui16)
    return _sel(c, e16 == 0xFF, 0x7FFF, _sel(c, e16 == 0, 0x0040, e16 << 7))


def to_f32(c, t, v):
    """A bfloat16 / float8 value as float32 (exact)."""
    if t is T.fp8_e8m0:
        b = c.f.cast(e8m0_to_bf16_bits(c, v), ir.ui32) << 16
        return from_bits(c, b, ir.f32, 32)
    return c.f.cast(v, ir.f32)


# --- float to float8 (cuda_fp8.hpp's __nv_cvt_float_to_fp8 / __nv_cvt_double_to_fp8) -----

E4M3, E5M2 = 0, 1  # fp8_interpretation_t
NOSAT, SATFINITE = 0, 1  # saturation_t
# cudaRoundMode (CUDA runtime): the ones e8m0 conversions take.
ROUND_NEAREST, ROUND_ZERO, ROUND_POS_INF, ROUND_MIN_INF = 0, 1, 2, 3

# {interpretation: (type, largest finite, its bits, overflow threshold, overflow bits without saturation)}
_FP8 = {
    E4M3: (T.fp8_e4m3, 448.0, 0x7E, 464.0, 0x7F),  # maxnorm + ulp/2 rounds to even (448); above: NaN
    E5M2: (T.fp8_e5m2, 57344.0, 0x7B, 61440.0, 0x7C),  # maxnorm + ulp/2 rounds up: infinity
}


def f64_to_f32_odd(c, x):
    """__internal_double_to_float_with_sticky: x rounded towards zero to
    float32 with the last bit set when inexact (round to odd), so that a
    second rounding to a narrower format is the correct one."""
    f = c.f.cast(x, ir.f32)
    d = c.f.cast(f, ir.f64)
    u = bits(c, f, 32)
    zero = c.f.constant(0.0, ir.f64)
    away = ((x > zero) & (d > x)) | ((x < zero) & (d < x))
    u = _sel(c, away, u - 1, u)
    inexact = (d != x) & ~_isnan(c, x)
    u = _sel(c, inexact, u | 1, u)
    return from_bits(c, u, ir.f32, 32)


def cvt_to_fp8(c, x, double, saturate, interp):
    """The bits (ui8) of float32 / float64 `x` as float8: to nearest even;
    overflow (infinities included) is the largest finite number with
    SATFINITE, NaN (e4m3) or infinity (e5m2) without; NaN is 0x7F (a
    float32's, made positive as CUDA does), a float64's keeps its sign (and
    its top mantissa bits for e5m2)."""
    t, maxnorm, max_bits, threshold, over_bits = _FP8[interp]
    if double:
        xb = bits(c, x, 64)
        sign = c.f.cast(xb >> 63, ir.ui8) << 7
        nan_bits = (
            c.f.constant(0x7F, ir.ui8) | sign if interp == E4M3 else (c.f.cast((xb >> 50) & 3, ir.ui8) | 0x7C) | sign
        )
        x64 = x
        narrow = f64_to_f32_odd(c, x)
    else:
        xb = bits(c, x, 32)
        sign = c.f.cast(xb >> 31, ir.ui8) << 7
        nan_bits = c.f.constant(0x7F, ir.ui8)
        x64 = c.f.cast(x, ir.f64)
        narrow = x
    absx = c.f.ops.abs(x64)
    over = absx > c.f.constant(threshold, ir.f64) if interp == E4M3 else absx >= c.f.constant(threshold, ir.f64)
    # in range: the dialect's rounding; the clamp keeps the operand finite
    lim = c.f.constant(maxnorm, ir.f32)
    clamped = _sel(c, narrow > lim, lim, _sel(c, narrow < -lim, -lim, narrow))
    rounded = bits(c, c.f.cast(clamped, t.ir), 8)
    out = _sel(c, over, c.f.constant(max_bits if saturate == SATFINITE else over_bits, ir.ui8) | sign, rounded)
    return _sel(c, _isnan(c, x), nan_bits, out)


# --- float to e8m0 (cuda_fp8.hpp's __nv_cvt_*_to_e8m0) ---------------------------------------


def bf16_bits_to_e8m0(c, raw, saturate, rounding):
    """__nv_cvt_bfloat16raw_to_e8m0: the e8m0 bits (ui8) of bfloat16 bits
    (ui16): the exponent, rounded up when the mantissa is not zero with
    cudaRoundPosInf; SATFINITE turns an overflow (not NaN) into 0xFE."""
    res = (raw >> 7) & 0xFF
    mag = raw & 0x7FFF
    if rounding == ROUND_POS_INF:
        up = ((raw & 0x7F) != 0) & (mag > 0x0040) & (mag < 0x7F80)
        res = _sel(c, up, res + 1, res)
    if saturate == SATFINITE:
        res = _sel(c, (mag <= 0x7F80) & (res == 0xFF), res - 1, res)
    return c.f.cast(res, ir.ui8)


def _f32_to_bf16_bits_directed(c, x, mode):
    """CUDA's __float2bfloat16_rz/_rd/_ru (its software path): the bfloat16
    bits (ui16) of float32 x rounded towards zero, -inf or +inf; NaN 0x7FFF."""
    u = bits(c, x, 32)
    trunc = u >> 16
    inexact = (u & 0xFFFF) != 0
    finite = (u & 0x7FFFFFFF) < 0x7F800000
    negative = (u >> 31) != 0
    if mode == "ru":
        r = _sel(c, ~negative & finite & inexact, trunc + 1, trunc)
    elif mode == "rd":
        r = _sel(c, negative & finite & inexact, trunc + 1, trunc)
    else:
        r = trunc
    r = _sel(c, (u & 0x7FFFFFFF) > 0x7F800000, c.f.constant(0x7FFF, ir.ui32), r)
    return c.f.cast(r, ir.ui16)


def cvt_to_e8m0(c, x, double, saturate, rounding):
    """__nv_cvt_float_to_e8m0 / __nv_cvt_double_to_e8m0 (rounding
    cudaRoundZero or cudaRoundPosInf), as bits (ui8)."""
    if double:
        x = f64_to_f32_odd(c, x)
    if rounding == ROUND_ZERO:
        raw = _f32_to_bf16_bits_directed(c, x, "rz")
    else:
        raw = _f32_to_bf16_bits_directed(c, c.f.ops.abs(x), "ru")
    return bf16_bits_to_e8m0(c, raw, saturate, rounding)


# --- bfloat16 from floats and integers ---------------------------------------------------------


def to_bf16(c, x):
    """float32 or float64 x as bfloat16, to nearest even (CUDA's
    __float2bfloat16_rn and __double2bfloat16: a float64 through float32
    rounded to odd, so it rounds once; NaN is 0x7FFF). On the bits, not
    with `pydev.cast`: on a host CPU with AVX512-BF16 the JIT's float32 to
    bfloat16 truncation (vcvtneps2bf16) flushes subnormal results to zero."""
    if x.type.text == "f64":
        x = f64_to_f32_odd(c, x)
    u = bits(c, x, 32)
    r = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    r = _sel(c, _isnan(c, x), c.f.constant(0x7FFF, ir.ui32), r)
    return from_bits(c, c.f.cast(r, ir.ui16), ir.bf16, 16)


def f32_to_bf16(c, x, mode):
    """float32 x as bfloat16, rounded by `mode`."""
    if mode == "rn":
        return to_bf16(c, x)
    return from_bits(c, _f32_to_bf16_bits_directed(c, x, mode), ir.bf16, 16)


def int_to_bf16(c, v, t, mode):
    """Integer v of type t as bfloat16, rounded exactly by `mode` (in the
    integers: the top 8 significant bits of |v| are kept and rounded by the
    bits dropped, then scaled by a power of two)."""
    if t.signed:
        wide = c.f.cast(v, ir.si64)
        negative = wide < 0
        mag = c.f.cast(_sel(c, negative, -wide, wide), ir.ui64)  # -(-2**63) wraps to 2**63 as ui64
    else:
        negative = c.f.constant(False, ir.i1)
        mag = c.f.cast(v, ir.ui64)
    lz = c.f.cast(c.f.emit("math.ctlz", [c.f.cast(mag, ir.i64)], [ir.i64]), ir.ui64)
    width = 64 - lz  # significant bits (0 for 0)
    shift = _sel(c, width > 8, width - 8, c.f.constant(0, ir.ui64))
    kept = mag >> shift
    one = c.f.constant(1, ir.ui64)
    dropped = mag & ((one << shift) - 1)
    if mode == "rn":
        half = _sel(c, shift > 0, one << (shift - 1), c.f.constant(0, ir.ui64))
        up = (shift > 0) & ((dropped > half) | ((dropped == half) & ((kept & 1) == 1)))
    elif mode == "rz":
        up = c.f.constant(False, ir.i1)
    elif mode == "ru":
        up = (dropped != 0) & ~negative
    elif mode == "rd":
        up = (dropped != 0) & negative
    else:  # "ra": away from zero (e8m0's constructors)
        up = dropped != 0
    kept = _sel(c, up, kept + 1, kept)
    # kept <= 256 and shift <= 56: kept * 2**shift is exact in float32
    scale = from_bits(c, c.f.cast(shift + 127, ir.ui32) << 23, ir.f32, 32)
    mag_f = c.f.cast(kept, ir.f32) * scale
    signed_f = _sel(c, negative, -mag_f, mag_f)
    return to_bf16(c, signed_f)  # exact


# --- floats to integers ------------------------------------------------------------------------

_ROUND_OPS = {"rn": "math.roundeven", "rz": "math.trunc", "rd": "math.floor", "ru": "math.ceil"}


def float_to_int(c, x, t, mode):
    """Float x (float32 or float64) rounded by `mode` to integer type t,
    saturating as CUDA's conversions do: NaN is 0 (0x8000000000000000 for
    64-bit types), out-of-range values the type's bounds."""
    x = c.f.cast(x, ir.f64) if x.type.text != "f64" else x
    r = c.f.emit(_ROUND_OPS[mode], [x], [ir.f64])
    bits_ = t.bits
    lo = -(2 ** (bits_ - 1)) if t.signed else 0
    hi = 2 ** (bits_ - 1) if t.signed else 2**bits_  # exclusive; exact in float64
    lo_v = c.f.constant(lo, t.ir)
    hi_v = c.f.constant(hi - 1, t.ir)
    inside = _sel(c, r >= c.f.constant(float(hi), ir.f64), hi_v, c.f.cast(r, t.ir))
    inside = _sel(c, r <= c.f.constant(float(lo), ir.f64), lo_v, inside)
    nan_v = c.f.constant((-(2**63) if t.signed else 2**63) if bits_ == 64 else 0, t.ir)
    return _sel(c, _isnan(c, x), nan_v, inside)


# --- the conversions of the type names (bfloat16(x), fp8_e4m3(x), float32(bf), int16(bf)) -----


def _from_float(c, x, double, t):
    """Float x (float32, or float64 when `double`) as type t, as CUDA's
    constructors do: bfloat16 to nearest even; float8 with SATFINITE; e8m0
    with SATFINITE rounding up."""
    if t is T.bfloat16:
        return to_bf16(c, x)
    if t is T.fp8_e8m0:
        return cvt_to_e8m0(c, x, double, SATFINITE, ROUND_POS_INF)
    interp = E4M3 if t is T.fp8_e4m3 else E5M2
    return from_bits(c, cvt_to_fp8(c, x, double, SATFINITE, interp), t.ir, 8)


def cast(c, tv, t, node):
    """tv (a number) converted to type t, one of them bfloat16 or a float8 format."""
    src = tv.t
    if src.kind == "c" or t.kind == "c":
        raise c.err(node, f"cannot convert {src} to {t}")
    v = c.val(tv, node)
    if src is T.fp8_e8m0 and t is T.bfloat16:  # CUDA: the bits of cvt_e8m0_to_bf16raw
        return TypedValue(from_bits(c, e8m0_to_bf16_bits(c, v), ir.bf16, 16), t)
    if isinstance(src, T.LowFloat):
        f = to_f32(c, src, v)
        if isinstance(t, T.Boolean):
            return TypedValue(c.f.ops.cmp(f, c.f.constant(0.0, ir.f32), predicate="ne"), t)
        if t.is_int:
            return TypedValue(float_to_int(c, f, t, "rz"), t)
        if isinstance(t, T.LowFloat):
            return TypedValue(_from_float(c, f, False, t), t)
        return TypedValue(f if t is T.float32 else c.f.cast(f, t.ir), t)
    if isinstance(src, T.Boolean):
        return cast(c, TypedValue(c.f.cast(v, ir.ui8), T.uint8), t, node)
    if src.is_int:
        if t is T.bfloat16:
            return TypedValue(int_to_bf16(c, v, src, "rn"), t)
        if t is T.fp8_e8m0 and src.bits == 64:
            # CUDA: the magnitude rounded up to bfloat16, then its exponent rounded up
            raw = bits(c, int_to_bf16(c, v, src, "ra"), 16)
            return TypedValue(bf16_bits_to_e8m0(c, raw & 0x7FFF, SATFINITE, ROUND_POS_INF), t)
        # CUDA: through float (16 bits and float8) or double (32-bit, e8m0)
        double = t is T.fp8_e8m0 and src.bits == 32
        return TypedValue(_from_float(c, c.f.cast(v, ir.f64 if double else ir.f32), double, t), t)
    # float16, float32, float64
    if src.bits == 16:
        v = c.f.cast(v, ir.f32)
    return TypedValue(_from_float(c, v, src.bits == 64, t), t)
