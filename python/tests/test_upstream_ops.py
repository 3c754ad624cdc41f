"""The upstream `math`, `arith` and `complex` ops a `pydev.Program` may use
(docs/backend.md, "Upstream ops"): each compiles on both targets, the host
(`llvm` stage) and sm_90 (`ptx`), from one kernel that loads an element,
applies the op and stores the result. The floating-point class tests,
which no upstream lowering takes everywhere (pydev-expand-fp-class), also
run on the host against NumPy on infinities, NaNs, subnormals and zeros."""

import numpy as np
import pytest

import pydev
from pydev import _native, _toolchain

pytestmark = pytest.mark.skipif(not _native.available(), reason="needs the native module")

FLOAT_UNARY = (
    "absf acos acosh asin asinh atan atanh cbrt ceil cos cosh erf erfc exp exp2 expm1 floor log log10 log1p "
    "log2 round roundeven rsqrt sin sinh sqrt tan tanh trunc"
).split()
FLOAT_CLASS = ["isfinite", "isinf", "isnan", "isnormal"]
FLOAT_BINARY = ["atan2", "copysign", "powf"]
INT_UNARY = ["absi", "ctlz", "cttz", "ctpop"]
ARITH_FLOAT = "addf subf mulf divf remf maximumf minimumf maxnumf minnumf".split()
ARITH_INT = (
    "addi subi muli divsi divui remsi remui ceildivsi ceildivui floordivsi andi ori xori shli shrsi shrui "
    "maxsi minsi maxui minui"
).split()
COMPLEX_UNARY = "exp log sqrt sin cos tan tanh conj sign expm1 log1p rsqrt neg".split()
COMPLEX_BINARY = "add sub mul div pow".split()
COMPLEX_TO_REAL = "abs angle re im".split()

SIGNED = {"i32": "si32", "i64": "si64"}


def kernel(elem, body):
    """A kernel `k(out, x)` over one-dimensional arrays of `elem` (pydev's
    signed integers in memory, signless in arithmetic): `%v` is x[0],
    `body` makes `%r` of the same type, which is stored in out[0]."""
    arr = SIGNED.get(elem, elem)
    if arr == elem:
        load, store = f"%v = pydev.array_load %x[%i] : <{arr}, 1>, si64 -> {arr}", "%r"
    else:
        load = f"%x0 = pydev.array_load %x[%i] : <{arr}, 1>, si64 -> {arr}\n    %v = pydev.cast %x0 : {arr} to {elem}"
        body += f"\n    %w = pydev.cast %r : {elem} to {arr}"
        store = "%w"
    return f"""
module {{
  func.func @k(%out: !pydev.array<{arr}, 1>, %x: !pydev.array<{arr}, 1>) attributes {{pydev.kernel}} {{
    %i = pydev.constant 0 : si64
    {load}
    {body}
    pydev.array_store {store}, %out[%i] : {arr}, <{arr}, 1>, si64
    return
  }}
}}"""


def cases():
    out = []
    for t in ("f32", "f64"):
        out += [(f"math.{op}", t, kernel(t, f"%r = math.{op} %v : {t}")) for op in FLOAT_UNARY]
        out += [
            (
                f"math.{op}",
                t,
                kernel(
                    t,
                    f"%c = math.{op} %v : {t}\n    %one = arith.constant 1.0 : {t}\n    "
                    f"%zero = arith.constant 0.0 : {t}\n    %r = arith.select %c, %one, %zero : {t}",
                ),
            )
            for op in FLOAT_CLASS
        ]
        out += [(f"math.{op}", t, kernel(t, f"%r = math.{op} %v, %v : {t}")) for op in FLOAT_BINARY]
        out.append(("math.fma", t, kernel(t, f"%r = math.fma %v, %v, %v : {t}")))
        out.append(("math.fpowi", t, kernel(t, f"%n = arith.constant 3 : i32\n    %r = math.fpowi %v, %n : {t}, i32")))
        out.append(
            (
                "math.sincos",
                t,
                kernel(t, f"%s, %c = math.sincos %v : {t}\n    %r = arith.addf %s, %c : {t}"),
            )
        )
        out += [(f"arith.{op}", t, kernel(t, f"%r = arith.{op} %v, %v : {t}")) for op in ARITH_FLOAT]
        out.append(("arith.negf", t, kernel(t, f"%r = arith.negf %v : {t}")))
        out.append(
            ("arith.cmpf", t, kernel(t, f"%c = arith.cmpf olt, %v, %v : {t}\n    %r = arith.select %c, %v, %v : {t}"))
        )
        wide = "f64" if t == "f32" else "f32"
        conv = "extf" if t == "f32" else "truncf"
        back = "truncf" if t == "f32" else "extf"
        out.append(
            (
                f"arith.{conv}",
                t,
                kernel(t, f"%y = arith.{conv} %v : {t} to {wide}\n    %r = arith.{back} %y : {wide} to {t}"),
            )
        )
        out.append(
            ("arith.fptosi", t, kernel(t, f"%y = arith.fptosi %v : {t} to i32\n    %r = arith.sitofp %y : i32 to {t}"))
        )
    for t in ("i32", "i64"):
        out += [(f"math.{op}", t, kernel(t, f"%r = math.{op} %v : {t}")) for op in INT_UNARY]
        out.append(("math.ipowi", t, kernel(t, f"%r = math.ipowi %v, %v : {t}")))
        out += [(f"arith.{op}", t, kernel(t, f"%r = arith.{op} %v, %v : {t}")) for op in ARITH_INT]
        out.append(
            ("arith.cmpi", t, kernel(t, f"%c = arith.cmpi slt, %v, %v : {t}\n    %r = arith.select %c, %v, %v : {t}"))
        )
    for f in ("f32", "f64"):
        c = f"complex<{f}>"
        out += [(f"complex.{op}", c, kernel(c, f"%r = complex.{op} %v : {c}")) for op in COMPLEX_UNARY]
        out += [(f"complex.{op}", c, kernel(c, f"%r = complex.{op} %v, %v : {c}")) for op in COMPLEX_BINARY]
        out += [
            (
                f"complex.{op}",
                c,
                kernel(
                    c,
                    f"%a = complex.{op} %v : {c}\n    %z = arith.constant 0.0 : {f}\n    "
                    f"%r = complex.create %a, %z : {c}",
                ),
            )
            for op in COMPLEX_TO_REAL
        ]
        out += [
            (
                f"complex.{op}",
                c,
                kernel(c, f"%e = complex.{op} %v, %v : {c}\n    %r = arith.select %e, %v, %v : {c}"),
            )
            for op in ("eq", "neq")
        ]
    return out


CASES = cases()


@pytest.mark.parametrize("target", ["host", "sm_90"])
@pytest.mark.parametrize("op,elem,text", CASES, ids=[f"{op}-{t}" for op, t, _ in CASES])
def test_op_compiles_on_both_targets(op, elem, text, target):
    if target != "host" and not _toolchain.libdevice():
        pytest.skip("the cuda pipeline's math functions need libdevice")
    program = pydev.Program(text, "k")
    out = program.compile(target, "llvm" if target == "host" else "ptx")
    assert op not in out  # lowered


SPECIAL = {
    np.float32: [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-45, 1.1754944e-38, 1.1754942e-38, 3.4028235e38, -2.5],
    np.float64: [np.inf, -np.inf, np.nan, 0.0, -0.0, 5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, -7.0],
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", FLOAT_CLASS)
def test_class_tests_agree_with_numpy_on_the_host(op, dtype):
    rng = np.random.default_rng(35)
    t = "f32" if dtype is np.float32 else "f64"
    text = f"""
module {{
  func.func @k(%out: !pydev.array<{t}, 1>, %x: !pydev.array<{t}, 1>) attributes {{pydev.kernel}} {{
    %tid = gpu.thread_id x
    %n = arith.index_cast %tid : index to i64
    %i = pydev.cast %n : i64 to si64
    %v = pydev.array_load %x[%i] : <{t}, 1>, si64 -> {t}
    %c = math.{op} %v : {t}
    %one = arith.constant 1.0 : {t}
    %zero = arith.constant 0.0 : {t}
    %r = arith.select %c, %one, %zero : {t}
    pydev.array_store %r, %out[%i] : {t}, <{t}, 1>, si64
    return
  }}
}}"""
    x = np.array(SPECIAL[dtype] + list(rng.standard_normal(22) * 1e3), dtype)
    out = np.full_like(x, 7.0)  # poison: every element is written 0 or 1
    device = pytest.importorskip("cuda.device")
    device.launch(pydev.Program(text, "k"), out, x, grid=1, block=x.size, stream=pydev.default_stream())
    pydev.default_stream().synchronize()
    finfo = np.finfo(dtype)
    want = {
        "isfinite": np.isfinite(x),
        "isinf": np.isinf(x),
        "isnan": np.isnan(x),
        "isnormal": np.isfinite(x) & (np.abs(x) >= finfo.tiny),
    }[op]
    np.testing.assert_array_equal(out, want.astype(dtype))
