"""`cuda.bf16` (numba-cuda's `numba.cuda.bf16`): the bfloat16 type and
CUDA's bfloat16 intrinsics (cuda_bf16.h) in device code.

`bfloat16(x)` (also `nv_bfloat16`, numba-cuda's low-level name) converts a
number, to nearest even; `+ - * /`, comparisons, `math.sqrt/sin/...` of
bfloat16 values are bfloat16 (types.LowFloat); these functions are the
intrinsics. Arithmetic is correctly rounded (the dialect computes in
float32 and rounds once); the math functions are float32's, rounded once
to bfloat16 (`_lowp.to_bf16`), as cuda_bf16.hpp computes them. Conversions with their CUDA
semantics: pydev.numba._lowp."""

from ... import ir
from .. import _lowp
from .. import types as _t
from .._typing import TypedValue
from . import _DeviceOnly

bfloat16 = nv_bfloat16 = _t.bfloat16


def _fn(name, nargs, body, arg_type=_t.bfloat16):
    """A device function of this module: its arguments converted to
    `arg_type` (C++'s implicit conversions), their ir.Values to `body`."""

    def impl(c, args, kwargs, node):
        from .. import _builtins as _b

        _b._nargs(c, args, kwargs, node, nargs, name=f"cuda.bf16.{name}")
        vals = [c.val(c.cast(c.num_arg(a, node), arg_type, node), node) for a in args]
        return body(c, *vals)

    return _DeviceOnly(f"bf16.{name}", impl)


def _bf(v):
    return TypedValue(v, _t.bfloat16)


def _f32(c, v):
    return c.f.cast(v, ir.f32)


def _isnan(c, v):
    return c.f.ops.cmp(v, v, predicate="ne")


def _const(c, x):
    return c.f.constant(x, ir.bf16)


def _sat(c, r):
    """Clamped to [0, 1]; NaN gives 0 (CUDA's _sat)."""
    one, zero = _const(c, 1.0), _const(c, 0.0)
    return c.f.select(r > one, one, c.f.select(r >= zero, r, zero))


def _fma(c, a, b, d):
    """a * b + d rounded once. The product is exact in float64; the sum is
    rounded to odd in float64 (its error, exact by TwoSum, sets the last
    bit), then to float32, then to nearest even in bfloat16: round to odd
    keeps every later rounding correct."""
    p, q = c.f.cast(a, ir.f64) * c.f.cast(b, ir.f64), c.f.cast(d, ir.f64)
    s = p + q
    bb = s - p
    err = (p - (s - bb)) + (q - bb)
    zero = c.f.constant(0.0, ir.f64)
    inexact = (err < zero) | (err > zero)  # ordered: false for the NaN of an infinite sum
    sb = _lowp.bits(c, s, 64)
    toward = c.f.select((s > zero) == (err > zero), sb + 1, sb - 1)
    odd = _lowp.from_bits(c, c.f.select(inexact & ((sb & 1) == 0), toward, sb), ir.f64, 64)
    return _lowp.to_bf16(c, odd)


def _canonical_nan(c):
    return _lowp.from_bits(c, c.f.constant(0x7FFF, ir.ui16), ir.bf16, 16)


def _maxmin(op, nan):
    """__hmax/__hmin (a NaN operand gives the other, two give the canonical
    NaN; +0.0 > -0.0) and the _nan variants (a NaN operand gives the canonical NaN)."""

    def body(c, a, b):
        a_neg = (_lowp.bits(c, a, 16) >> 15) != 0
        tie = (a == b) & (~a_neg if op == "max" else a_neg)
        pick = c.f.select((a > b if op == "max" else a < b) | tie, a, b)
        either = _isnan(c, a) | _isnan(c, b)
        if nan:
            return _bf(c.f.select(either, _canonical_nan(c), pick))
        both = _isnan(c, a) & _isnan(c, b)
        return _bf(c.f.select(both, _canonical_nan(c), c.f.select(_isnan(c, a), b, c.f.select(_isnan(c, b), a, pick))))

    return body


def _unordered(pred):
    """__hequ, __hneu, ...: true when either operand is NaN."""
    inverse = {"ge": "lt", "gt": "le", "le": "gt", "lt": "ge"}

    def body(c, a, b):
        if pred == "ne":
            return TypedValue(c.f.ops.cmp(a, b, predicate="ne"), _t.boolean)
        if pred == "eq":
            r = c.f.ops.cmp(a, b, predicate="eq") | _isnan(c, a) | _isnan(c, b)
        else:
            r = c.f.ops.not_(c.f.ops.cmp(a, b, predicate=inverse[pred]), result=ir.i1)
        return TypedValue(r, _t.boolean)

    return body


def _ordered(pred):
    """__heq, __hne, ...: false when either operand is NaN (__hne too)."""

    def body(c, a, b):
        if pred == "ne":
            r = c.f.ops.cmp(a, b, predicate="lt") | c.f.ops.cmp(a, b, predicate="gt")
        else:
            r = c.f.ops.cmp(a, b, predicate=pred)
        return TypedValue(r, _t.boolean)

    return body


def _math(op):
    """A math function: float32's, rounded once to bfloat16."""

    def body(c, a):
        x = _f32(c, a)
        if op == "rsqrt":
            r = c.f.emit("math.rsqrt", [x], [ir.f32])
        elif op == "rcp":
            r = c.f.constant(1.0, ir.f32) / x
        elif op == "exp10":  # 10**x as exp2(x log2 10) in float64, exact enough for one rounding to bfloat16
            r = c.f.emit("math.exp2", [c.f.cast(x, ir.f64) * c.f.constant(3.321928094887362, ir.f64)], [ir.f64])
        else:
            r = c.f.emit(f"math.{op}", [x], [ir.f32])
        return _bf(_lowp.to_bf16(c, r))

    return body


def _hisinf(c, a):
    """-1 for -inf, 1 for +inf, else 0 (int32)."""
    inf = _const(c, float("inf"))
    one, zero = c.f.constant(1, ir.si32), c.f.constant(0, ir.si32)
    return TypedValue(c.f.select(a == inf, one, c.f.select(a == -inf, -one, zero)), _t.int32)


habs = _fn("habs", 1, lambda c, a: _bf(c.f.ops.abs(a)))
hneg = _fn("hneg", 1, lambda c, a: _bf(c.f.ops.neg(a)))
hadd = hadd_rn = _fn("hadd", 2, lambda c, a, b: _bf(a + b))
hsub = hsub_rn = _fn("hsub", 2, lambda c, a, b: _bf(a - b))
hmul = hmul_rn = _fn("hmul", 2, lambda c, a, b: _bf(a * b))
hdiv = _fn("hdiv", 2, lambda c, a, b: _bf(c.f.ops.truediv(a, b, result=ir.bf16)))
hadd_sat = _fn("hadd_sat", 2, lambda c, a, b: _bf(_sat(c, a + b)))
hsub_sat = _fn("hsub_sat", 2, lambda c, a, b: _bf(_sat(c, a - b)))
hmul_sat = _fn("hmul_sat", 2, lambda c, a, b: _bf(_sat(c, a * b)))
hfma = _fn("hfma", 3, lambda c, a, b, d: _bf(_fma(c, a, b, d)))
hfma_sat = _fn("hfma_sat", 3, lambda c, a, b, d: _bf(_sat(c, _fma(c, a, b, d))))
hfma_relu = _fn(
    "hfma_relu",
    3,
    lambda c, a, b, d: _bf((lambda r: c.f.select(r < _const(c, 0.0), _const(c, 0.0), r))(_fma(c, a, b, d))),
)
heq, hne, hge, hgt, hle, hlt = (_fn(f"h{p}", 2, _ordered(p)) for p in ("eq", "ne", "ge", "gt", "le", "lt"))
hequ, hneu, hgeu, hgtu, hleu, hltu = (_fn(f"h{p}u", 2, _unordered(p)) for p in ("eq", "ne", "ge", "gt", "le", "lt"))
hmax = _fn("hmax", 2, _maxmin("max", False))
hmin = _fn("hmin", 2, _maxmin("min", False))
hmax_nan = _fn("hmax_nan", 2, _maxmin("max", True))
hmin_nan = _fn("hmin_nan", 2, _maxmin("min", True))
hisnan = _fn("hisnan", 1, lambda c, a: TypedValue(_isnan(c, a), _t.boolean))
hisinf = _fn("hisinf", 1, _hisinf)

htrunc = _fn("htrunc", 1, _math("trunc"))
hceil = _fn("hceil", 1, _math("ceil"))
hfloor = _fn("hfloor", 1, _math("floor"))
hrint = _fn("hrint", 1, _math("roundeven"))
hsqrt = _fn("hsqrt", 1, _math("sqrt"))
hrsqrt = _fn("hrsqrt", 1, _math("rsqrt"))
hrcp = _fn("hrcp", 1, _math("rcp"))
hlog = _fn("hlog", 1, _math("log"))
hlog2 = _fn("hlog2", 1, _math("log2"))
hlog10 = _fn("hlog10", 1, _math("log10"))
hcos = _fn("hcos", 1, _math("cos"))
hsin = _fn("hsin", 1, _math("sin"))
hexp = _fn("hexp", 1, _math("exp"))
hexp2 = _fn("hexp2", 1, _math("exp2"))
hexp10 = _fn("hexp10", 1, _math("exp10"))
htanh = htanh_approx = _fn("htanh", 1, _math("tanh"))

# --- conversions (numba-cuda's NumPy-style names and cuda_bf16.h's) -----------------------------

bfloat16_to_float32 = bfloat162float = _fn("bfloat16_to_float32", 1, lambda c, a: TypedValue(_f32(c, a), _t.float32))
float32_to_bfloat16 = float2bfloat16 = _fn("float32_to_bfloat16", 1, lambda c, x: _bf(_lowp.to_bf16(c, x)), _t.float32)
float64_to_bfloat16 = double2bfloat16 = _fn("float64_to_bfloat16", 1, lambda c, x: _bf(_lowp.to_bf16(c, x)), _t.float64)

_INT_NAMES = {  # NumPy-style name: cuda_bf16.h's
    "int8": "char",
    "uint8": "uchar",
    "int16": "short",
    "uint16": "ushort",
    "int32": "int",
    "uint32": "uint",
    "int64": "ll",
    "uint64": "ull",
}


def _to_int(t, mode):
    return lambda c, a: TypedValue(_lowp.float_to_int(c, _f32(c, a), t, mode), t)


def _from_int(t, mode):
    return lambda c, v: _bf(_lowp.int_to_bf16(c, v, t, mode))


def _f32_to(mode):
    return lambda c, x: _bf(_lowp.f32_to_bf16(c, x, mode))


def _define_conversions(g):
    for mode in ("rn", "rz", "rd", "ru"):
        g[f"float32_to_bfloat16_{mode}"] = g[f"float2bfloat16_{mode}"] = _fn(
            f"float32_to_bfloat16_{mode}", 1, _f32_to(mode), _t.float32
        )
    for np_name, c_name in _INT_NAMES.items():
        t = getattr(_t, np_name)
        # 8-bit integers: only towards zero, and only from bfloat16 (as cuda_bf16.h)
        for mode in ("rz",) if t.bits == 8 else ("rn", "rz", "rd", "ru"):
            g[f"bfloat16_to_{np_name}_{mode}"] = g[f"bfloat162{c_name}_{mode}"] = _fn(
                f"bfloat16_to_{np_name}_{mode}", 1, _to_int(t, mode)
            )
            if t.bits > 8:
                g[f"{np_name}_to_bfloat16_{mode}"] = g[f"{c_name}2bfloat16_{mode}"] = _fn(
                    f"{np_name}_to_bfloat16_{mode}", 1, _from_int(t, mode), t
                )
    for np_name, c_name in (("int16", "short"), ("uint16", "ushort")):
        t = getattr(_t, np_name)
        g[f"bfloat16_as_{np_name}"] = g[f"bfloat16_as_{c_name}"] = _fn(
            f"bfloat16_as_{np_name}",
            1,
            lambda c, a, t=t: TypedValue(c.f.cast(_lowp.bits(c, a, 16), t.ir), t),
        )
        g[f"{np_name}_as_bfloat16"] = g[f"{c_name}_as_bfloat16"] = _fn(
            f"{np_name}_as_bfloat16",
            1,
            lambda c, v: _bf(_lowp.from_bits(c, c.f.cast(v, ir.ui16), ir.bf16, 16)),
            t,
        )


_define_conversions(globals())
