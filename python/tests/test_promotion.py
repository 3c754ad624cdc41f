"""Numeric promotion has one definition (dialect/src/promotion.rs): the
dialect's verifier checks every promoting op's result type against it, and
the cuda.device frontend, pydev.ir's operators and pydev.numba (its own
typing, then explicit casts) give the types it gives. Fixed-seed inputs,
poisoned outputs."""

import itertools
import random
import re

import numpy as np
import pytest

import cuda.device as device
import pydev
from pydev import _facts, ir

SEED = 20261128
# The number types of the table, as NumPy dtypes (the frontend's signature names).
NUMPY = {
    "i1": "bool",
    "si8": "int8",
    "si16": "int16",
    "si32": "int32",
    "si64": "int64",
    "ui8": "uint8",
    "ui16": "uint16",
    "ui32": "uint32",
    "ui64": "uint64",
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "complex<f32>": "complex64",
    "complex<f64>": "complex128",
}
NUMBERS = sorted({a for a, _ in _facts.PROMOTION["arith"]})
SYMBOLS = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "and": "&",
    "or": "|",
    "xor": "^",
    "lshift": "<<",
    "rshift": ">>",
}


def result(op, a, b):
    return _facts.PROMOTION[_facts.PROMOTING_OPS[op]].get((a, b))


def test_the_table_covers_every_promoting_op_of_the_dialect():
    from pydev import _ods

    promoting = {name for name, entry in _ods.OPS.items() if name in _facts.PROMOTING_OPS}
    assert promoting == set(_facts.PROMOTING_OPS) and len(promoting) == 14
    assert result("truediv", "si64", "si64") == "f64" and result("truediv", "si32", "si32") == "f32"
    assert result("add", "si32", "si8") == "si32" and result("add", "ui64", "si8") is None


def test_the_verifier_accepts_the_table_and_names_the_op_and_both_types_otherwise(native):
    rng = random.Random(SEED)
    m = ir.Module()
    f = m.func("all", [ir.Type(t) for t in NUMBERS])
    args = dict(zip(NUMBERS, f.args))
    wrong = []
    for op in _facts.PROMOTING_OPS:
        for a, b in itertools.product(NUMBERS, NUMBERS):
            r = result(op, a, b)
            if r is not None:
                f.emit(f"pydev.{op}", [args[a], args[b]], [ir.Type(r)])
                wrong.append((op, a, b, r, rng.choice([t for t in NUMBERS if t != r])))
    f.ret()
    m.verify()  # every result the table gives verifies (one module, one call)
    for op, a, b, r, bad in rng.sample(wrong, 40):
        text = f"func.func @f(%a: {a}, %b: {b}) {{\n  %0 = pydev.{op} %a, %b : {a}, {b} -> {bad}\n  return\n}}\n"
        if op in ("and", "or", "xor", "lshift", "rshift") and not re.fullmatch(r"[su]?i\d+", bad):
            continue  # a float result is ODS's own error (a bool or integer)
        with pytest.raises(pydev.CompileError) as e:
            native.verify_ir(text, "wrong.mlir")
        msg = str(e.value)
        assert f"'pydev.{op}' op result type '{bad}' is not '{r}'" in msg and f"'{a}' and '{b}'" in msg, msg


def test_a_wrong_result_type_from_pydev_ir_is_a_verify_error(native):
    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.si8, 1, "c"), ir.si32])
    out, a = k.args
    out[0] = k.ops.add(a, a, result=ir.si8)  # 100 + 100 would wrap to -56
    with pytest.raises(pydev.CompileError, match=r"'pydev.add' op result type 'si8' is not 'si32'.*'si32' and 'si32'"):
        m.verify()
    with pytest.raises(pydev.CompileError, match="'pydev.add' op result type 'si8'"):
        pydev.Program(m)


def test_pydev_ir_operators_follow_the_table(native):
    m = ir.Module()
    f = m.func("ops", [ir.Type(t) for t in NUMBERS])
    for op, sym in SYMBOLS.items():
        for x, y in itertools.product(f.args, f.args):
            want = result(op, x.type.text, y.type.text)
            if want is None:
                with pytest.raises(TypeError, match=f"pydev.{op} is not defined for"):
                    eval(f"x {sym} y")
            else:
                assert eval(f"x {sym} y").type.text == want, (op, x.type, y.type)
    f.ret()
    m.verify()


def test_pydev_ir_divides_int64_to_float64(native, host_target):
    m = ir.Module()
    k = m.kernel("div", [ir.array(ir.si64, 1, "c"), ir.array(ir.si64, 1, "c"), ir.array(ir.f64, 1, "c")])
    x, y, out = k.args
    i = k.global_id()
    with k.if_(i < x.size):
        q = x[i] / y[i]
        assert q.type == ir.f64
        out[i] = q
    rng = np.random.default_rng(SEED)
    a = rng.integers(-(2**50), 2**50, 500, dtype=np.int64)
    a[0] = 2**40 + 1  # the case: exact in float64, not in float32
    b = rng.integers(1, 1000, 500, dtype=np.int64) * rng.choice([-1, 1], 500)
    b[0] = 1
    got = np.full(500, np.nan)
    device.launch(pydev.Program(m), a, b, got, grid=2, block=256, stream=pydev.default_stream())
    np.testing.assert_array_equal(got, a / b)
    assert got[0] == 1099511627777.0


def test_the_frontend_follows_the_table(native, tmp_path):
    """One kernel with a parameter of each type applies every operator to
    every pair; its `pydev` stage's ops carry the table's result types
    (where Python defines the operation; the others are compile errors)."""
    types = [t for t in NUMBERS if t in NUMPY and t != "i1"]
    lines = [
        "import cuda.device as device",
        "",
        "",
        "@device.kernel",
        f"def k({', '.join(f'p{i}' for i in range(len(types)))}):",
    ]
    for op, sym in SYMBOLS.items():
        for (i, a), (j, b) in itertools.product(enumerate(types), enumerate(types)):
            r = result(op, a, b)
            ints = all(re.fullmatch(r"[su]i\d+", t) for t in (a, b))
            complex_ = "complex" in a + b
            if r is None or (op in ("and", "or", "xor", "lshift", "rshift") and not ints):
                continue
            if complex_ and op in ("floordiv", "mod"):
                continue
            lines.append(f"    v{len(lines)} = p{i} {sym} p{j}")
    for fn in ("min", "max"):
        for (i, a), (j, b) in itertools.product(enumerate(types), enumerate(types)):
            if result(fn, a, b) is not None and "complex" not in a + b:
                lines.append(f"    v{len(lines)} = {fn}(p{i}, p{j})")
    src = tmp_path / "promote_all.py"
    src.write_text("\n".join(lines) + "\n")
    import importlib.util

    spec = importlib.util.spec_from_file_location("promote_all", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    text = pydev.compile(mod.k, ", ".join(NUMPY[t] for t in types), target="host", stage="pydev")
    seen = 0
    for op, a, b, r in re.findall(r"pydev\.(\w+) %arg\d+, %arg\d+ : (\S+), (\S+) -> (\S+)", text):
        if op in _facts.PROMOTING_OPS:
            assert r == result(op, a, b), (op, a, b, r)
            seen += 1
    assert seen > 1000


def test_pydev_numba_casts_to_its_own_types(native):
    from pydev.numba import cuda

    @cuda.jit
    def k(out, a, b, c):
        out[0] = a / b + c
        out[1] = (a + b) // c

    text = pydev.compile(k, "float64[::1], int32, int64, uint8", target="host", stage="pydev")
    ops = re.findall(r"pydev\.(\w+) %\S+, %\S+ : (\S+), (\S+) -> (\S+)", text)
    ops = [o for o in ops if o[0] in _facts.PROMOTING_OPS]
    assert ops and all(a == b == r for _, a, b, r in ops), ops  # Numba's type, operands cast to it


def test_python_scalars_take_the_type_they_meet(native, host_target, tmp_path):
    """A Python int or float meeting a fixed-format number (Array API weak
    scalars) becomes a constant of its type: the ops verify, and the
    results are those of NumPy's weak scalars."""
    src = tmp_path / "weak.py"
    src.write_text(
        "import cuda.device as device\n\n\n"
        "@device.kernel\n"
        "def k(out, x, h):\n"
        "    i = device.tid(1)\n"
        "    if i < x.size:\n"
        "        out[i] = min(x[i], 1) + (x[i] >> 1) + x[i] * 3 - max(x[i], -100, 2)\n"
        "        h[i] = max(h[i], 0.5) * 2\n"
    )
    import importlib.util

    spec = importlib.util.spec_from_file_location("weak", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    text = pydev.compile(mod.k, "int8[::1], int8[::1], float16[::1]", target="host", stage="pydev")
    ops = re.findall(r"pydev\.(add|sub|mul|min|max|rshift) \S+, \S+ : (\S+), (\S+) -> (\S+)", text)
    # Every op is the table's; the weak ints met by int8s are si8 constants.
    assert ops and all(r == result(op, a, b) for op, a, b, r in ops), ops
    assert all(a == b for _, a, b, r in ops if r == "si8"), ops
    assert {(op, r) for op, _, _, r in ops} >= {("min", "si8"), ("max", "si8"), ("rshift", "si8"), ("max", "f16")}
    rng = np.random.default_rng(SEED)
    x = rng.integers(-40, 40, 300, dtype=np.int8)
    h = rng.standard_normal(300).astype(np.float16)
    out = np.full(300, 99, np.int8)
    hh = h.copy()
    device.launch(mod.k, out, x, hh, grid=2, block=256, stream=pydev.default_stream())
    with np.errstate(over="ignore"):
        want = np.minimum(x, 1) + (x >> 1) + x * np.int8(3) - np.maximum(np.maximum(x, -100), 2)
    np.testing.assert_array_equal(out, want.astype(np.int8))
    np.testing.assert_array_equal(hh, np.maximum(h, np.float16(0.5)) * np.float16(2))
