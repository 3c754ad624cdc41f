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
            "ElementsAttr": "typed",
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


# How a TypeDef/AttrDef parameter is given in Python (dialect/build/defs.rs
# maps the same C++ types for Rust).
_PARAM_KINDS = {
    "::mlir::Type": "type",
    "unsigned": "unsigned",
    "uint64_t": "uint64",
    "bool": "bool",
    "::llvm::StringRef": "str",
    "::llvm::ArrayRef<::mlir::Type>": "types",
    "::llvm::ArrayRef<::mlir::Attribute>": "attrs",
    "::llvm::ArrayRef<::mlir::StringAttr>": "strs",
}


def _param(d, p, name, enum_classes):
    """(name, kind, optional) of a TypeDef/AttrDef parameter."""
    if isinstance(p, str):
        cpp, optional = p, False
    else:
        r = d[p["def"]]
        cpp, optional = r["cppType"], "OptionalParameter" in r["!superclasses"]
    kind = _PARAM_KINDS.get(cpp)
    if kind is None and cpp.startswith("::mlir::pydev::") and cpp[15:] in enum_classes:
        kind = "enum:" + cpp[15:]
    if kind is None:
        raise AssertionError(
            f"pydev.ir has no parameter kind for the ODS parameter type {cpp}: add one to the generator and to pydev/ir.py"
        )
    return name, kind, optional


def _examples(description):
    """The lines of the description's ```mlir blocks (its assembly examples)."""
    out, inside = [], False
    for line in description.splitlines():
        line = line.strip()
        if line.startswith("```"):
            inside = line == "```mlir"
        elif inside and line:
            out.append(line)
    return tuple(out)


def _defs(d, base, name_field, dialect, enum_classes):
    """{mnemonic: entry} of the TypeDefs or AttrDefs of the dialect."""
    out = {}
    for rec in sorted(d["!instanceof"][base]):
        r = d[rec]
        if r["dialect"]["def"] != dialect:
            continue
        params = tuple(_param(d, p, name, enum_classes) for p, name in r["parameters"]["args"])
        out[r["mnemonic"]] = {
            "name": r[name_field],
            "cpp": r["cppClassName"],
            "summary": r["summary"],
            "params": params,
            "format": None if r["hasCustomAssemblyFormat"] or not r["assemblyFormat"] else r["assemblyFormat"],
            "examples": _examples(r["description"] or ""),
        }
    return out


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
        "i64array, unit, strarray, typed, str, i64, target. ENUMS[mnemonic]: the",
        "cases of the enum attributes ops take; ENUM_CASES[class]: (spelling, value)",
        "of every enum of pydev.td.",
        "",
        "TYPES[mnemonic] (every TypeDef) and ATTRS[mnemonic] (every AttrDef): name",
        "(`pydev.array`), cpp (class), summary, params as (name, kind, optional)",
        "with kind one of type, unsigned, uint64, bool, str, types, attrs, strs,",
        "enum:<class> (cases in ENUM_CASES), format (the declarative assembly",
        'format; None: custom) and examples (those of the description)."""',
        "",
        "OPS = {",
    ]
    for name, entry in sorted(ops.items()):
        lines.append(f"    {name!r}: {entry!r},")
    lines += ["}", "", "ENUMS = {"]
    for name, cases in sorted(enums.items()):
        lines.append(f"    {name!r}: {cases!r},")
    enum_cases = {}
    for rec in sorted(d["!instanceof"]["I32EnumAttr"]):
        r = d[rec]
        if any(loc.startswith(os.path.basename(TD) + ":") for loc in r["!locs"]):
            enum_cases[r["className"]] = tuple((d[e["def"]]["str"], d[e["def"]]["value"]) for e in r["enumerants"])
    lines += ["}", "", "ENUM_CASES = {"]
    for name, cases in sorted(enum_cases.items()):
        lines.append(f"    {name!r}: {cases!r},")
    for table, base, name_field in (("TYPES", "TypeDef", "typeName"), ("ATTRS", "AttrDef", "attrName")):
        lines += ["}", "", f"{table} = {{"]
        for mnemonic, entry in sorted(_defs(d, base, name_field, dialect, enum_cases).items()):
            lines.append(f"    {mnemonic!r}: {{")
            for key, value in entry.items():
                lines.append(f"        {key!r}: {value!r},")
            lines.append("    },")
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


def test_table_covers_every_typedef_and_attrdef_of_the_td_file():
    # Independent of the generator: every Pydev_Type<"Name", "mnemonic"> and
    # every AttrDef / EnumAttr of the dialect in the .td file is in the tables.
    import re

    from pydev import _ods

    text = open(TD).read()
    types = set(re.findall(r'^def \w+\s*:\s*Pydev_Type<"\w+",\s*"(\w+)"', text, re.M))
    assert types, "no type definitions found in pydev.td"
    assert types == set(_ods.TYPES), types ^ set(_ods.TYPES)
    attrs = set(re.findall(r'^def \w+\s*:\s*EnumAttr<Pydev_Dialect,\s*\w+,\s*"(\w+)">', text, re.M))
    attrs |= set(re.findall(r'^def \w+\s*:\s*AttrDef<Pydev_Dialect,[^{]*\{\s*let mnemonic = "(\w+)"', text, re.M))
    assert "target" in attrs, "no AttrDef found in pydev.td"
    assert attrs == set(_ods.ATTRS), attrs ^ set(_ods.ATTRS)


def test_every_typedef_has_a_constructor_documented_from_its_summary():
    from pydev import _ods, ir

    assert set(ir._CONSTRUCTORS) == set(_ods.TYPES) == set(ir._PRINT)
    for mnemonic, fn in ir._CONSTRUCTORS.items():
        assert fn.__doc__.startswith(f"`!pydev.{mnemonic}`: {_ods.TYPES[mnemonic]['summary']}."), mnemonic
        assert getattr(ir, fn.__name__) is fn and fn.__name__ in ir.__all__


def _samples():
    from pydev import ir

    point = ir.struct_type("Point", {"x": ir.si32, "y": ir.f32})
    return {
        "array": [
            ir.array(ir.f32, 1, "c"),
            ir.array(ir.f32, 2),
            ir.array(ir.si32, 1, "c", "shared"),
            ir.array(ir.f64, 3, readonly=True),
            ir.array(ir.ui8, 2, "f", "local", True),
            ir.array(point, 1, "strided", "global"),
            ir.array(ir.vector(ir.f32, 4), 1, "c"),
        ],
        "vector": [ir.vector(ir.f32, 4), ir.vector(ir.si8, 1), ir.vector(ir.bf16, 3)],
        "tuple": [ir.tuple_type(), ir.tuple_type(ir.si32, ir.f32), ir.tuple_type(ir.tuple_type(ir.si64), point)],
        "struct": [
            point,
            ir.struct_type("Complex", [("real", ir.f32), ("imag", ir.f32)], align=16),
            ir.struct_type('odd "name" \\ é', {"a b": ir.si8, "_x.y$": ir.vector(ir.f32, 2), "2nd": point}),
        ],
        "warp_mask": [ir.warp_mask()],
        "atomic_ref": [ir.atomic_ref(ir.f32), ir.atomic_ref(ir.ui32, "shared"), ir.atomic_ref(point, "local")],
    }


def test_every_constructor_round_trips_through_mlir(native):
    """Each TypeDef's constructor makes a type MLIR accepts as a kernel
    parameter and prints exactly as the constructor wrote it, and the
    native module reads back the parameters the constructor remembers."""
    from pydev import _ods, ir

    samples = _samples()
    assert set(samples) == set(_ods.TYPES)
    for mnemonic, types in samples.items():
        for t in types:
            assert t.kind == mnemonic
            m = ir.Module()
            m.kernel("k", [t])
            assert native.ir_kernel(str(m), "k")[1] == [t.text], t
            fresh = ir._native_parts(t.text)  # what MLIR reads from the text
            assert fresh == (t.kind, t.params), t


def test_the_td_examples_are_what_the_constructors_print(native):
    """Each assembly example of a TypeDef's description, read by MLIR into
    (kind, params), is rebuilt by the constructor to the same text."""
    from pydev import _ods, ir

    n = 0
    for mnemonic, entry in _ods.TYPES.items():
        for example in entry["examples"]:
            t = ir.Type(example)
            assert t.kind == mnemonic
            assert ir._make(mnemonic, **t.params).text == example
            n += 1
    assert n >= 5


def test_a_type_from_text_asks_mlir_for_its_parts(native):
    from pydev import ir

    t = ir.Type("!pydev.array<f32,2,  c>")  # not as MLIR prints it
    assert t.is_array and t.array_parts() == (ir.f32, 2, ["c"]) and t.element == ir.f32
    assert ir.Type("!pydev.array<si8, 1, shared, readonly>").array_parts() == (ir.si8, 1, ["shared", "readonly"])
    assert ir.Type("!pydev.vector<2 x f64>").params == {"lanes": 2, "elementType": ir.f64}
    assert ir.Type("!pydev.atomic_ref<ui32, shared>").element == ir.ui32
    s = ir.Type('!pydev.struct<"P", {x: si32, "y z": f32}, align 8>')
    assert dict(s.params) == {"name": "P", "fieldNames": ("x", "y z"), "fieldTypes": (ir.si32, ir.f32), "align": 8}
    assert ir.Type("i16").is_integer and ir.Type("f8E4M3FN").is_float and not ir.Type("index").is_integer
    assert ir.Type("complex<f32>").kind == "complex" and ir.Type("complex<f64>").element == ir.f64
    assert ir.Type("!llvm.ptr").kind is None
    assert not ir.Type("!pydev.warp_mask").is_array
    with pytest.raises(TypeError, match="not an array type"):
        ir.Type("!pydev.tuple<si32>").array_parts()
    with pytest.raises(ValueError, match="cannot parse the type"):
        ir.Type("!pydev.array<").kind


def test_constructors_check_their_parameters():
    from pydev import ir

    cases = [
        (
            lambda: ir.array(ir.f32, 1, "x"),
            ValueError,
            r"!pydev.array: parameter 'layout' must be one of strided, c, f",
        ),
        (lambda: ir.array(ir.f32, 1, space="device"), ValueError, r"!pydev.array: parameter 'space' must be one of"),
        (lambda: ir.array(3, 1), TypeError, r"!pydev.array: parameter 'elementType' must be an ir.Type"),
        (lambda: ir.array(ir.f32, -1), ValueError, r"!pydev.array: parameter 'rank' must be in \[0, 2\*\*32\)"),
        (lambda: ir.array(ir.f32, 1.0), TypeError, r"!pydev.array: parameter 'rank' must be an int"),
        (lambda: ir.array(ir.f32, 1, readonly="yes"), TypeError, r"!pydev.array: parameter 'readonly' must be a bool"),
        (lambda: ir.vector(ir.f32, "4"), TypeError, r"!pydev.vector: parameter 'lanes' must be an int"),
        (lambda: ir.tuple_type(ir.f32, 1), TypeError, r"!pydev.tuple: parameter 'types\[1\]' must be an ir.Type"),
        (lambda: ir.struct_type(1, {}), TypeError, r"!pydev.struct: parameter 'name' must be a str"),
        (lambda: ir.struct_type("S", [ir.f32]), TypeError, r"!pydev.struct: parameter 'fields' must be a dict"),
        (lambda: ir.struct_type("S", {1: ir.f32}), TypeError, r"!pydev.struct: parameter 'fieldNames\[0\]' must be"),
        (lambda: ir.struct_type("S", {}, align=-4), ValueError, r"!pydev.struct: parameter 'align' must be in"),
        (lambda: ir.atomic_ref(ir.f32, "texture"), ValueError, r"!pydev.atomic_ref: parameter 'space' must be one of"),
        (lambda: ir.target("sometimes"), ValueError, r"#pydev.target: parameter 'kind' must be one of is_host"),
        (lambda: ir.target("provides", sm=91), ValueError, r"#pydev.target: parameter 'sm' of provides must be one"),
        (lambda: ir.target("is_host", sm=90), ValueError, r"#pydev.target: target 'is_host' takes no parameter 'sm'"),
        (lambda: ir.target("not"), ValueError, r"#pydev.target: parameter 'operands' of 'not' takes one target"),
        (lambda: ir.target("or", "is_host"), TypeError, r"#pydev.target: parameter 'operands' must hold ir.Attr"),
    ]
    for make, exc, message in cases:
        with pytest.raises(exc, match=message):
            make()


def test_target_attribute_round_trips_through_mlir(native):
    from pydev import _ods, ir

    (example,) = _ods.ATTRS["target"]["examples"]
    t = ir.target(
        "or",
        ir.target("is_host"),
        ir.target("and", ir.target("provides", sm=80), ir.target("not", ir.target("is_exactly", sm="sm_90"))),
    )
    assert t.text == example and t.kind == "target" and t.params["kind"] == "or"
    for desc in (t, "is_device", ir.target("any_target")):
        m = ir.Module()
        k = m.kernel("k", [])
        k.ops.target(desc=desc, result=ir.i1)
        native.ir_kernel(str(m), "k")  # parses and verifies
        assert (desc if isinstance(desc, str) else desc.text.split("<", 1)[1][:-1]) in str(m)


def test_enum_attributes_print_as_their_declared_format(native):
    # scope and memory_order declare `<` $value `>` (their own mnemonic);
    # the others print as #pydev<mnemonic value>.
    from pydev import ir

    m = ir.Module()
    k = m.kernel("k", [ir.array(ir.f32, 1, "c"), ir.f32])
    a, x = k.args
    ref = k.ops.atomic_ref(a, k.constant(0, ir.si64), result=ir.atomic_ref(ir.f32))
    k.ops.atomic_load(ref, memory="acquire", scope="device", result=ir.f32)
    k.ops.cmp(x, x, predicate="lt")
    text = str(m)
    assert "#pydev.memory_order<acquire>" in text and "#pydev.scope<device>" in text
    assert "#pydev<cmp_predicate lt>" in text
    native.ir_kernel(text, "k")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        with open(TABLE, "w") as f:
            f.write(generate(records()))
        print("wrote", TABLE)
    else:
        print(generate(records()))
