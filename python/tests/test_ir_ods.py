"""`pydev.ir`'s op table (python/pydev/_ods.py) is generated from the
dialect's one definition, dialect/pydev.td: this test runs TableGen on it
(`llvm-tblgen --dump-json`, the records mlir-tblgen reads) and checks that
the checked-in table is what the generator makes of them, so an op added,
renamed or given another operand or attribute in pydev.td fails here until
the table is regenerated:

    python3 python/tests/test_ir_ods.py --write

It also checks the builder against the verifier: every op of the table
built by `pydev.ir` with its ODS arity parses in the generic syntax."""

import json
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TD = os.path.join(ROOT, "dialect", "pydev.td")
TABLE = os.path.join(ROOT, "python", "pydev", "_ods.py")
LLVM = os.environ.get("LLVM_PREFIX", "/usr/lib/llvm-22")


def tblgen():
    for name in (os.path.join(LLVM, "bin", "llvm-tblgen"), shutil.which("llvm-tblgen-22"), shutil.which("llvm-tblgen")):
        if name and os.path.exists(name):
            return name
    return None


def records():
    exe = tblgen()
    if exe is None:
        pytest.skip("llvm-tblgen (LLVM 22) is not installed")
    out = subprocess.run(
        [exe, "--dump-json", "-I", os.path.join(LLVM, "include"), "-I", os.path.dirname(TD), TD],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def _attr_kind(d, name):
    """(kind, required) of an ODS attribute constraint."""
    r = d[name]
    sc = r["!superclasses"]
    optional = "OptionalAttr" in sc or "DefaultValuedAttr" in sc or name == "UnitAttr"
    base = r.get("baseAttr")
    if base:
        name, r, sc = base["def"], d[base["def"]], d[base["def"]]["!superclasses"]
    if "EnumAttr" in sc:
        kind = "enum:" + r["mnemonic"]
    else:
        kind = {
            "DenseI32ArrayAttr": "i32array",
            "DenseI64ArrayAttr": "i64array",
            "UnitAttr": "unit",
            "StrArrayAttr": "strarray",
            "TypedAttrInterface": "typed",
            "StrAttr": "str",
            "I64Attr": "i64",
            "Pydev_TargetAttr": "target",
        }.get(name)
        if kind is None:
            raise AssertionError(
                f"pydev.ir has no attribute kind for ODS {name}: add one to the generator and to pydev/ir.py"
            )
    return kind, not optional


def _arity(d, name):
    sc = d[name]["!superclasses"]
    return "*" if "Variadic" in sc else "?" if "Optional" in sc else "1"


def generate(d):
    """The text of python/pydev/_ods.py for TableGen records `d`."""
    dialect = "Pydev_Dialect"
    ops, enums = {}, {}
    for rec in sorted(d["!instanceof"]["Op"]):
        r = d[rec]
        if r["opDialect"]["def"] != dialect:
            continue
        operands, attrs = [], []
        for arg, name in r["arguments"]["args"]:
            sc = d[arg["def"]]["!superclasses"]
            if "Attr" in sc or "AttrConstraint" in sc:
                kind, required = _attr_kind(d, arg["def"])
                attrs.append((name, kind, required))
                if kind.startswith("enum:"):
                    enum = d[d[arg["def"]]["enum"]["def"]]
                    enums[kind[5:]] = tuple(d[e["def"]]["str"] for e in enum["enumerants"])
            else:
                operands.append((name, _arity(d, arg["def"])))
        results = tuple((name, _arity(d, res["def"])) for res, name in r["results"]["args"])
        traits = {t["def"] for t in r["traits"]}
        ops[r["opName"]] = (tuple(operands), tuple(attrs), results, "AttrSizedOperandSegments" in traits)
    lines = [
        '"""The pydev ops as dialect/pydev.td defines them, for `pydev.ir`.',
        "",
        "GENERATED from TableGen's records of dialect/pydev.td by",
        "python/tests/test_ir_ods.py (`python3 python/tests/test_ir_ods.py --write`),",
        "which fails when this file is stale. Do not edit.",
        "",
        "OPS[name] = (operands, attributes, results, attr_sized_operands): operands",
        "and results as (name, arity) with arity '1', '?' (optional) or '*' (variadic);",
        "attributes as (name, kind, required), kind one of enum:<mnemonic>, i32array,",
        'i64array, unit, strarray, typed, str, i64, target."""',
        "",
        "OPS = {",
    ]
    for name, entry in sorted(ops.items()):
        lines.append(f"    {name!r}: {entry!r},")
    lines += ["}", "", "ENUMS = {"]
    for name, cases in sorted(enums.items()):
        lines.append(f"    {name!r}: {cases!r},")
    lines += ["}", ""]
    return "\n".join(lines)


def test_op_table_is_generated_from_pydev_td():
    expected = generate(records())
    with open(TABLE) as f:
        assert f.read() == expected, "python/pydev/_ods.py is stale: run python3 python/tests/test_ir_ods.py --write"


def test_table_covers_every_op_of_the_td_file():
    # Independent of the generator: every `Pydev_Op<"name"` / Pydev_*Op<"name"
    # definition of the .td file is in the table.
    import re

    from pydev import _ods

    text = open(TD).read()
    defined = set(re.findall(r'^def \w+\s*:\s*Pydev_\w*Op<"(\w+)"', text, re.M))
    assert defined, "no op definitions found in pydev.td"
    assert defined == set(_ods.OPS), defined ^ set(_ods.OPS)


def test_generated_constructors_check_arity():
    from pydev import ir

    m = ir.Module()
    k = m.kernel("k", [ir.f32, ir.f32])
    a, b = k.args
    with pytest.raises(TypeError, match=r"pydev.add takes 2 operands \(lhs, rhs\), got 1"):
        k.ops.add(a)
    with pytest.raises(TypeError, match="pydev.cmp needs the attribute 'predicate'"):
        k.ops.cmp(a, b)
    with pytest.raises(ValueError, match="predicate must be one of eq, ne, lt, le, gt, ge"):
        k.ops.cmp(a, b, predicate="less")
    with pytest.raises(TypeError, match="pydev.add has no attribute 'scope'"):
        k.ops.add(a, b, scope="block")
    with pytest.raises(AttributeError, match="no op 'addd'"):
        k.ops.addd


def test_every_op_has_a_constructor_with_its_ods_arity():
    """Each op of the table is built through Function.ops with its ODS
    operands (variadic ones given one value) and required attributes."""
    from pydev import _ods, ir

    samples = {"i32array": [0], "i64array": [4], "str": "C", "i64": 0, "typed": 1}
    for name, (operands, attrs, results, sized) in sorted(_ods.OPS.items()):
        m = ir.Module()
        k = m.kernel("k", [ir.si32])
        x = k.args[0]
        args = [([x] if sized or sum(a != "1" for _, a in operands) > 1 else x) if a != "1" else x for _, a in operands]
        if not (sized or sum(a != "1" for _, a in operands) > 1):
            args = [x for _, a in operands if a == "1"] + [x for _, a in operands if a == "*"]
        kw = {}
        for attr, kind, required in attrs:
            if required:
                kw[attr] = (
                    _ods.ENUMS[kind[5:]][0]
                    if kind.startswith("enum:")
                    else ir.Attr("#pydev.target<is_host>")
                    if kind == "target"
                    else samples[kind]
                )
        n_results = sum(a == "1" for _, a in results)
        k.ops.__getattr__(name)(*args, result=ir.si32 if n_results else None, **kw)
        line = [ln for ln in str(m).splitlines() if f'"pydev.{name}"' in ln]
        assert len(line) == 1, name
        assert line[0].count("%arg0") == len(args) if not sized else True, (name, line)


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        with open(TABLE, "w") as f:
            f.write(generate(records()))
        print("wrote", TABLE)
    else:
        print(generate(records()))
