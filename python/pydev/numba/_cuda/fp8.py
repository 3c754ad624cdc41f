"""`cuda.fp8` (numba-cuda's float8 bindings, `numba.cuda._internal.cuda_fp8`):
the float8 types and CUDA's float8 conversion intrinsics (cuda_fp8.h) in
device code.

`fp8_e4m3(x)`, `fp8_e5m2(x)`, `fp8_e8m0(x)` convert a number as CUDA's
constructors do (with `__NV_SATFINITE`; e8m0 rounding up); `float32(v)`,
`int32(v)`, `bfloat16(v)`, ... convert back (exactly to floats; to integers
towards zero, saturating, NaN to 0). As in numba-cuda, the float8 types
have no arithmetic. The `cvt_*` functions take and return the bits
(`uint8`, `bfloat16_raw`), with the saturation (`saturation_t`), format
(`fp8_interpretation_t`) and rounding (`cudaRoundMode`: CUDA's enum, this
module's or cuda-bindings') as compile-time constants. Semantics:
pydev.numba._lowp."""

from enum import IntEnum

from ... import ir
from .. import _lowp
from .. import types as _t
from .._typing import TypedValue
from . import _DeviceOnly

fp8_e4m3 = _t.fp8_e4m3
fp8_e5m2 = _t.fp8_e5m2
fp8_e8m0 = _t.fp8_e8m0


class saturation_t(IntEnum):  # noqa: N801 - CUDA's name, as numba-cuda binds it
    NOSAT = _lowp.NOSAT
    SATFINITE = _lowp.SATFINITE


class fp8_interpretation_t(IntEnum):  # noqa: N801
    E4M3 = _lowp.E4M3
    E5M2 = _lowp.E5M2


class cudaRoundMode(IntEnum):  # noqa: N801 - the CUDA runtime's enum (cuda.bindings.runtime.cudaRoundMode)
    cudaRoundNearest = _lowp.ROUND_NEAREST
    cudaRoundZero = _lowp.ROUND_ZERO
    cudaRoundPosInf = _lowp.ROUND_POS_INF
    cudaRoundMinInf = _lowp.ROUND_MIN_INF


def _enum(c, tv, node, name, what, allowed):
    v = c.const_int(tv, node, f"the {what} of {name}()")
    if v not in allowed:
        raise c.err(node, f"{name}(): {what} {v} is not one of {sorted(allowed)}")
    return v


def _fn(name, arg_type, body, rounding=False):
    """cvt_*(x, saturate, interpretation or rounding): x converted to
    `arg_type`, the other two compile-time constants."""

    def impl(c, args, kwargs, node):
        from .. import _builtins as _b

        _b._nargs(c, args, kwargs, node, 3, name=name)
        x = args[0]
        if arg_type is _t.bfloat16_raw:
            if not (hasattr(x, "t") and x.t == _t.bfloat16_raw):
                raise c.err(node, f"{name}() takes a bfloat16_raw (from cvt_e8m0_to_bf16raw), got {_tname(x)}")
            xv = c.val(x, node)
        else:
            xv = c.val(c.cast(c.num_arg(x, node), arg_type, node), node)
        sat = _enum(c, args[1], node, name, "saturation", {_lowp.NOSAT, _lowp.SATFINITE})
        if rounding:
            mode = _enum(c, args[2], node, name, "rounding mode", {_lowp.ROUND_ZERO, _lowp.ROUND_POS_INF})
        else:
            mode = _enum(c, args[2], node, name, "interpretation", {_lowp.E4M3, _lowp.E5M2})
        return TypedValue(body(c, xv, sat, mode), _t.uint8)

    return _DeviceOnly(f"fp8.{name}", impl)


def _tname(x):
    from .._typing import _tname as tn

    return tn(x)


def _raw_to_f32(c, raw):
    return _lowp.from_bits(c, c.f.cast(raw, ir.ui32) << 16, ir.f32, 32)


cvt_float_to_fp8 = _fn("cvt_float_to_fp8", _t.float32, lambda c, x, s, i: _lowp.cvt_to_fp8(c, x, False, s, i))
cvt_double_to_fp8 = _fn("cvt_double_to_fp8", _t.float64, lambda c, x, s, i: _lowp.cvt_to_fp8(c, x, True, s, i))
cvt_bfloat16raw_to_fp8 = _fn(
    "cvt_bfloat16raw_to_fp8", _t.bfloat16_raw, lambda c, r, s, i: _lowp.cvt_to_fp8(c, _raw_to_f32(c, r), False, s, i)
)
cvt_float_to_e8m0 = _fn(
    "cvt_float_to_e8m0", _t.float32, lambda c, x, s, m: _lowp.cvt_to_e8m0(c, x, False, s, m), rounding=True
)
cvt_double_to_e8m0 = _fn(
    "cvt_double_to_e8m0", _t.float64, lambda c, x, s, m: _lowp.cvt_to_e8m0(c, x, True, s, m), rounding=True
)
cvt_bfloat16raw_to_e8m0 = _fn(
    "cvt_bfloat16raw_to_e8m0", _t.bfloat16_raw, lambda c, r, s, m: _lowp.bf16_bits_to_e8m0(c, r, s, m), rounding=True
)


def _e8m0_to_bf16raw(c, args, kwargs, node):
    from .. import _builtins as _b

    _b._nargs(c, args, kwargs, node, 1, name="cvt_e8m0_to_bf16raw")
    e = c.val(c.cast(c.num_arg(args[0], node), _t.uint8, node), node)
    return TypedValue(_lowp.e8m0_to_bf16_bits(c, e), _t.bfloat16_raw)


cvt_e8m0_to_bf16raw = _DeviceOnly("fp8.cvt_e8m0_to_bf16raw", _e8m0_to_bf16raw)
