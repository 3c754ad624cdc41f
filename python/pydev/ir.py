"""`pydev.ir`: build pydev IR from Python, for frameworks that use pydev as
their backend (docs/backend.md), without writing MLIR syntax by hand.

    from pydev import ir
    m = ir.Module()
    k = m.kernel("saxpy", [ir.f32, ir.array(ir.f32, 1, "c"), ir.array(ir.f32, 1, "c")])
    a, x, out = k.args
    i = k.global_id()
    with k.if_(i < x.size):
        out[i] = a * x[i]
    program = pydev.Program(str(m), kernel="saxpy")

Every pydev op has a constructor under `Function.ops` (`k.ops.cmp(a, b,
predicate="lt")`), made from the op table `pydev._ods`, which is generated
from dialect/pydev.td (the same ODS the dialect is built from): the
operand count, attribute names and enum values are checked when the op is
built, and the verifier checks the rest when `pydev.Program` parses the
module. `Value` overloads Python's operators (`+ - * / // % ** & | ^ << >>`,
comparisons, `a[i]`, `a[i] = v`); `Function` has thread positions,
shared arrays, barriers, casts and structured control flow (`if_` with
`else_` and results, `for_range` with loop-carried values) lowered to `cf`
branches. Every op carries a location:
`loc=`, `Function.at(file, line, col)` or `Function.locations_from(fn)`
sets it, and without them it is the line outside pydev that built the op,
so errors name the framework user's source lines. Mistakes MLIR would
report without a location (a non-i1 condition, a value of another
function, a value used after the loop or branch that made it) raise when
the op is built. Ops of other dialects: `Function.emit`.
"""

import contextlib
import os as _os
import struct as _struct
import sys as _sys
from types import MappingProxyType as _Frozen

import numpy as _np

from . import _facts, _native, _ods

__all__ = [
    "Type",
    "Value",
    "Function",
    "Module",
    "Block",
    "Attr",
    "array",
    "vector",
    "tuple_type",
    "struct_type",
    "warp_mask",
    "atomic_ref",
    "target",
    "loc",
    "i1",
    "si8",
    "si16",
    "si32",
    "si64",
    "ui8",
    "ui16",
    "ui32",
    "ui64",
    "i32",
    "i64",
    "f16",
    "bf16",
    "f32",
    "f64",
    "index",
]


class Type:
    """An MLIR type, printed as `text`. A type made by a constructor
    (`ir.array`, `ir.vector`, ... one per TypeDef of dialect/pydev.td, and
    the builtin scalars `ir.f32`, `ir.si32`, ...) knows its `kind` and
    `params`; one made from text (`ir.Type("!pydev.vector<4 x f32>")`) asks
    the native module for them (MLIR parses the text) when they are needed."""

    __slots__ = ("text", "_parts")

    def __init__(self, text):
        if isinstance(text, Type):
            self.text, self._parts = text.text, text._parts
            return
        self.text = str(text).strip()
        self._parts = _KNOWN.get(self.text)

    @classmethod
    def _made(cls, text, kind, params):
        t = cls.__new__(cls)
        t.text, t._parts = text, (kind, _Frozen(params))
        _KNOWN.setdefault(text, t._parts)
        return t

    def __str__(self):
        return self.text

    def __reduce__(self):
        # Pickled as its text (pydev.numba signatures travel with their kernels).
        return (Type, (self.text,))

    def __repr__(self):
        return f"ir.Type({self.text!r})"

    def __eq__(self, other):
        return isinstance(other, Type) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    def _get_parts(self):
        if self._parts is None:
            self._parts = _native_parts(self.text)
        return self._parts

    @property
    def kind(self):
        """The mnemonic of a pydev type (a key of `pydev._ods.TYPES`:
        "array", "vector", ...); "integer", "float", "index" or "complex"
        for MLIR's builtin scalars; None for other types."""
        return self._get_parts()[0]

    @property
    def params(self):
        """The parameters of a pydev type by their ODS names (types as
        `ir.Type`, enums as spelled in pydev.td, lists as tuples); `width`
        and `signedness` of an integer, `elementType` of a complex; empty
        for other types."""
        return self._get_parts()[1]

    @property
    def is_array(self):
        """Whether this is a `!pydev.array` type."""
        return self.kind == "array"

    @property
    def is_float(self):
        """Whether this is a floating-point type (f16, bf16, f32, f64, ...)."""
        return self.kind == "float"

    @property
    def is_integer(self):
        """Whether this is an integer type (signed siN, unsigned uiN or signless iN)."""
        return self.kind == "integer"

    def array_parts(self):
        """(element type, rank, [space/layout/readonly words]) of an array
        type; the words are those its text shows (no `global`, `strided`)."""
        if not self.is_array:
            raise TypeError(f"{self.text} is not an array type")
        p = self.params
        words = [p["space"]] if p["space"] != "global" else []
        words += [p["layout"]] if p["layout"] != "strided" else []
        words += ["readonly"] if p["readonly"] else []
        return p["elementType"], p["rank"], words

    @property
    def element(self):
        """The element type of an array, vector, atomic reference or complex."""
        if "elementType" not in self.params:
            raise TypeError(f"{self.text} has no element type")
        return self.params["elementType"]


# (kind, params) of type texts: those constructors made and the builtin
# scalars, by their exact text; other texts ask the native module.
_KNOWN = {}


def _native_parts(text):
    from . import _native

    kind, values, printed = _native.get().ir_type_parts(text)
    if kind is None:
        parts = (None, _Frozen({}))
    elif kind == "integer":
        parts = (kind, _Frozen({"width": values[0], "signedness": values[1]}))
    elif kind == "complex":
        parts = (kind, _Frozen({"elementType": Type(values[0])}))
    elif kind in _ods.TYPES:
        params = {}
        for (name, pkind, _), value in zip(_ods.TYPES[kind]["params"], values):
            params[name] = (
                Type(value)
                if pkind == "type"
                else tuple(map(Type, value))
                if pkind == "types"
                else tuple(value)
                if pkind in ("strs", "attrs")
                else value
            )
        parts = (kind, _Frozen(params))
    else:
        parts = (kind, _Frozen({}))
    _KNOWN[text] = parts
    if printed != text:
        _KNOWN.setdefault(printed, parts)
    return parts


def _scalar(text, kind, **params):
    return Type._made(text, kind, params)


for _w in (1, 8, 16, 32, 64):
    _scalar(f"i{_w}", "integer", width=_w, signedness="signless")
    if _w > 1:
        _scalar(f"si{_w}", "integer", width=_w, signedness="signed")
        _scalar(f"ui{_w}", "integer", width=_w, signedness="unsigned")
del _w
i1, si8, si16, si32, si64 = Type("i1"), Type("si8"), Type("si16"), Type("si32"), Type("si64")
ui8, ui16, ui32, ui64 = Type("ui8"), Type("ui16"), Type("ui32"), Type("ui64")
i32, i64, index = Type("i32"), Type("i64"), _scalar("index", "index")
f16, bf16, f32, f64 = (_scalar(t, "float") for t in ("f16", "bf16", "f32", "f64"))


def _type(t):
    """`t` as an ir.Type (an ir.Type as it is, keeping its parts)."""
    return t if isinstance(t, Type) else Type(t)


# --- the types of dialect/pydev.td --------------------------------------------------------
# One constructor per TypeDef (pydev._ods.TYPES): it checks each parameter
# against its ODS kind, and prints the type as MLIR does (_PRINT, one
# printer per TypeDef; the tests parse each with MLIR and compare).


def _enum_cases(kind):
    return tuple(c for c, _ in _ods.ENUM_CASES[kind[5:]])


def _check(owner, name, kind, value):
    """`value` of parameter `name` (ODS kind `kind`) of `owner` (`!pydev.array`), checked."""

    def bad(what, exc=TypeError):
        return exc(f"{owner}: parameter '{name}' {what}, got {value!r}")

    if kind == "type":
        if isinstance(value, Type):
            return value
        if isinstance(value, str) and value.strip():
            return Type(value)
        raise bad("must be an ir.Type")
    if kind in ("unsigned", "uint64"):
        if isinstance(value, (bool, _np.bool_)) or not isinstance(value, (int, _np.integer)):
            raise bad("must be an int")
        if not 0 <= int(value) < 2 ** (32 if kind == "unsigned" else 64):
            raise bad(f"must be in [0, 2**{32 if kind == 'unsigned' else 64})", ValueError)
        return int(value)
    if kind == "bool":
        if not isinstance(value, (bool, _np.bool_)):
            raise bad("must be a bool")
        return bool(value)
    if kind == "str":
        if not isinstance(value, str):
            raise bad("must be a str")
        return value
    if kind.startswith("enum:"):
        cases = _enum_cases(kind)
        if value not in cases:
            raise bad(f"must be one of {', '.join(cases)}", ValueError)
        return value
    if kind in ("types", "strs", "attrs"):
        if isinstance(value, (str, Type, Attr)) or not hasattr(value, "__iter__"):
            raise bad("must be a sequence")
        item = {"types": "type", "strs": "str"}.get(kind)
        if item is None:
            out = tuple(value)
            if not all(isinstance(v, Attr) for v in out):
                raise bad("must hold ir.Attr values")
            return out
        return tuple(_check(owner, f"{name}[{i}]", item, v) for i, v in enumerate(value))
    raise AssertionError(f"pydev.ir has no parameter kind {kind} (of {owner}); add it to ir._check")


def _mlir_string(s):
    """`s` as MLIR prints a string (AsmPrinter::printString)."""
    out = []
    for b in s.encode():
        c = chr(b)
        out.append("\\\\" if c == "\\" else c if 0x20 <= b < 0x7F and c != '"' else f"\\{b:02X}")
    return '"' + "".join(out) + '"'


def _keyword_or_string(s):
    """`s` as MLIR prints a keyword-or-string (AsmPrinter::printKeywordOrString)."""
    bare = s and (s[0].isascii() and (s[0].isalpha() or s[0] == "_"))
    bare = bare and all(c.isascii() and (c.isalnum() or c in "_$.") for c in s)
    return s if bare else _mlir_string(s)


_PRINT = {
    "array": lambda p: (
        f"<{p['elementType']}, {p['rank']}"
        + "".join(
            f", {w}"
            for w, shown in (
                (p["space"], p["space"] != "global"),
                (p["layout"], p["layout"] != "strided"),
                ("readonly", p["readonly"]),
            )
            if shown
        )
        + ">"
    ),
    "vector": lambda p: f"<{p['lanes']} x {p['elementType']}>",
    "tuple": lambda p: f"<{', '.join(map(str, p['types']))}>",
    "struct": lambda p: (
        f"<{_mlir_string(p['name'])}, {{"
        + ", ".join(f"{_keyword_or_string(n)}: {t}" for n, t in zip(p["fieldNames"], p["fieldTypes"]))
        + "}"
        + (f", align {p['align']}" if p["align"] else "")
        + ">"
    ),
    "warp_mask": lambda p: "",
    "atomic_ref": lambda p: f"<{p['elementType']}" + (f", {p['space']}" if p["space"] != "global" else "") + ">",
}


def _make(mnemonic, **params):
    """The type of TypeDef `mnemonic` with `params` (every ODS parameter)."""
    entry = _ods.TYPES[mnemonic]
    owner = "!" + entry["name"]
    checked = {name: _check(owner, name, kind, params[name]) for name, kind, _ in entry["params"]}
    return Type._made(owner + _PRINT[mnemonic](checked), mnemonic, checked)


_CONSTRUCTORS = {}  # TypeDef mnemonic -> its public constructor


def _typedef(mnemonic):
    """Marks the constructor of TypeDef `mnemonic`; its docstring starts with
    the TypeDef's summary and ends with its parameters and examples."""
    entry = _ods.TYPES[mnemonic]

    def mark(fn):
        params = ", ".join(f"{n} ({k})" for n, k, _ in entry["params"]) or "none"
        examples = "".join(f"\n        {e}" for e in entry["examples"])
        fn.__doc__ = (
            f"`!{entry['name']}`: {entry['summary']}.\n\n    {(fn.__doc__ or '').strip()}\n\n"
            f"    ODS parameters: {params}." + (f"\n    Examples:{examples}" if examples else "")
        )
        _CONSTRUCTORS[mnemonic] = fn
        return fn

    return mark


@_typedef("array")
def array(element, ndim, layout=None, space=None, readonly=False):
    """layout "c" / "f" (contiguous; None or "strided": any strides), space
    "shared" / "local" / "constant" (read-only) (None or "global": global), `readonly`."""
    return _make(
        "array",
        elementType=element,
        rank=ndim,
        space="global" if space is None else space,
        layout="strided" if layout is None else layout,
        readonly=readonly,
    )


@_typedef("vector")
def vector(element, lanes):
    """`lanes` (1 to 4) of `element`: `ir.vector(ir.f32, 4)` is float32x4."""
    return _make("vector", lanes=lanes, elementType=element)


@_typedef("tuple")
def tuple_type(*items):
    """The tuple of types `items` (none: the empty tuple)."""
    return _make("tuple", types=items)


@_typedef("struct")
def struct_type(name, fields, align=0):
    """Struct `name` with `fields` ({name: type} or (name, type) pairs, in
    order) and minimum alignment `align` (0: the natural one)."""
    items = list(fields.items()) if isinstance(fields, dict) else list(fields)
    if not all(isinstance(f, tuple) and len(f) == 2 for f in items):
        raise TypeError(f"!pydev.struct: parameter 'fields' must be a dict or (name, type) pairs, got {fields!r}")
    return _make("struct", name=name, fieldNames=[n for n, _ in items], fieldTypes=[t for _, t in items], align=align)


@_typedef("warp_mask")
def warp_mask():
    """The warp mask type."""
    return _make("warp_mask")


@_typedef("atomic_ref")
def atomic_ref(element, space=None):
    """A reference to one `element` in memory space `space` (None or
    "global", "shared", "local")."""
    return _make("atomic_ref", elementType=element, space="global" if space is None else space)


def loc(file, line, col=0):
    """An MLIR file location `loc("file":line:col)`."""
    name = str(file).replace("\\", "\\\\").replace('"', '\\"')
    return f'loc("{name}":{int(line)}:{int(col)})'


_location = loc


class Attr:
    """An attribute. `ir.Attr(text)` is MLIR text used as written; one made
    by a constructor (`ir.target`) also knows its `kind` (an AttrDef
    mnemonic of pydev.td, `pydev._ods.ATTRS`) and `params`."""

    __slots__ = ("text", "kind", "params")

    def __init__(self, text, kind=None, params=None):
        self.text, self.kind, self.params = str(text), kind, _Frozen(dict(params or {}))

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"ir.Attr({self.text!r})"

    def __eq__(self, other):
        return isinstance(other, Attr) and other.text == self.text

    def __hash__(self):
        return hash(self.text)


def _target_node(kind, sm, operands):
    """A target description as its custom assembly prints it (without `#pydev.target<>`)."""
    arch = dict((v, c) for c, v in _ods.ENUM_CASES["SmArch"])
    text = kind + (f"({arch[sm]})" if kind in ("is_exactly", "provides") else "")
    if operands:
        text += (
            "("
            + ", ".join(_target_node(o.params["kind"], o.params["sm"], o.params["operands"]) for o in operands)
            + ")"
        )
    return text


def target(kind, *operands, sm=0):
    """`#pydev.target<...>`: a target description (AttrDef pydev.target):
    leaves `is_host`, `is_device`, `any_target`, `no_target`,
    `is_exactly`/`provides` with `sm` (90 or "sm_90"); nodes `and`, `or`
    (one or more operands) and `not` (one), whose operands are targets:
    `ir.target("or", ir.target("is_host"), ir.target("provides", sm=80))`."""
    owner = "#" + _ods.ATTRS["target"]["name"]
    kind = _check(owner, "kind", "enum:TargetKind", kind)
    arch = dict(_ods.ENUM_CASES["SmArch"])
    if isinstance(sm, str) and sm in arch:
        sm = arch[sm]
    sm = _check(owner, "sm", "unsigned", sm)
    operands = _check(owner, "operands", "attrs", operands)
    if not all(o.kind == "target" for o in operands):
        raise TypeError(f"{owner}: parameter 'operands' must be targets (ir.target), got {operands!r}")
    if kind in ("is_exactly", "provides"):
        if sm not in arch.values():
            raise ValueError(f"{owner}: parameter 'sm' of {kind} must be one of {', '.join(arch)}, got {sm!r}")
    elif sm:
        raise ValueError(f"{owner}: target '{kind}' takes no parameter 'sm', got {sm!r}")
    if kind in ("and", "or", "not"):
        if not operands or (kind == "not" and len(operands) != 1):
            raise ValueError(
                f"{owner}: parameter 'operands' of '{kind}' takes {'one target' if kind == 'not' else 'one or more targets'}, got {len(operands)}"
            )
    elif operands:
        raise ValueError(f"{owner}: target '{kind}' takes no parameter 'operands', got {len(operands)}")
    params = {"kind": kind, "sm": sm, "operands": operands}
    return Attr(f"{owner}<{_target_node(kind, sm, operands)}>", "target", params)


def _float_literal(value, ty):
    """An exact MLIR float literal: the bits in hexadecimal."""
    if ty.text == "f64":
        return f"0x{_struct.unpack('<Q', _struct.pack('<d', float(value)))[0]:016X}"
    if ty.text == "f32":
        return f"0x{_np.float32(value).view(_np.uint32):08X}"
    if ty.text == "f16":
        return f"0x{_np.float16(value).view(_np.uint16):04X}"
    if ty.text == "bf16":
        return f"0x{(int(_np.float32(value).view(_np.uint32)) + 0x7FFF + ((int(_np.float32(value).view(_np.uint32)) >> 16) & 1)) >> 16:04X}"
    raise TypeError(f"no float constants of type {ty}")


def _typed_literal(value, ty):
    if isinstance(value, Attr):
        return value.text
    if ty.text == "i1":
        return "true" if value else "false"
    if ty.is_float:
        return f"{_float_literal(value, ty)} : {ty}"
    if ty.is_integer or ty.text == "index":
        if isinstance(value, float) or not isinstance(value, (int, _np.integer)):
            raise TypeError(f"an integer constant of type {ty} needs an int, got {value!r}")
        return f"{int(value)} : {ty}"
    raise TypeError(f"constants of type {ty} are not supported by pydev.ir (pass ir.Attr(text))")


# Enum attributes whose declarative format is `<` $value `>` print with their
# own mnemonic (`#pydev.scope<device>`); the others as `#pydev<cmp_predicate lt>`.
_OWN_MNEMONIC = {m for m, a in _ods.ATTRS.items() if (a["format"] or "").startswith("`<`")}


def _attr_text(op, name, kind, value, result_type):
    if isinstance(value, Attr):
        return value.text
    if kind.startswith("enum:"):
        cases = _ods.ENUMS[kind[5:]]
        if value not in cases:
            raise ValueError(f"pydev.{op}: {name} must be one of {', '.join(cases)}, got {value!r}")
        if kind[5:] in _OWN_MNEMONIC:  # attributes with their own mnemonic: #pydev.scope<device>
            return f"#pydev.{kind[5:]}<{value}>"
        return f"#pydev<{kind[5:]} {value}>"
    if kind in ("i32array", "i64array"):
        return f"array<{kind[:3]}: {', '.join(str(int(v)) for v in value)}>" if len(value) else f"array<{kind[:3]}>"
    if kind == "unit":
        return "unit"
    if kind == "strarray":
        return "[" + ", ".join(_string(v) for v in value) + "]"
    if kind == "str":
        return _string(value)
    if kind == "i64":
        return f"{int(value)} : i64"
    if kind == "target" and isinstance(value, str):
        return target(value).text
    if kind == "typed":
        if result_type is None:
            raise TypeError(f"pydev.{op}: the attribute '{name}' needs result=<type>")
        return _typed_literal(value, result_type)
    raise TypeError(f"pydev.{op}: pass the attribute '{name}' ({kind}) as ir.Attr(text)")


def _string(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


# Result types pydev.ir infers (others take result=...).
_SAME = {
    "add",
    "sub",
    "mul",
    "floordiv",
    "mod",
    "pow",
    "min",
    "max",
    "and",
    "or",
    "xor",
    "lshift",
    "rshift",
    "neg",
    "pos",
    "invert",
    "abs",
}
_BOOL = {"cmp", "not", "syncthreads_and", "syncthreads_or"}
# The type of the operand at this index (the op's result has its type).
_AS_OPERAND = {"shfl": 1, "atomic_rmw": 1, "atomic_cas": 1, "struct_insert": 1, "tuple_insert": 1, "vector_insert": 1}
# The element type of the first operand (a vector, or an atomic reference).
_ELEMENT_OF_FIRST = {"vector_extract", "atomic_load"}
_MASKS = {"activemask", "lanemask_lt", "match_any"}
# Ops that take contract= (float + - * fused into multiply-adds or not).
_CONTRACTIBLE = frozenset({"add", "sub", "mul"})


class Value:
    """An SSA value of a Function: `name` (`%v3`) and `type`. Operators build
    pydev ops; a Python number operand becomes a constant of the other
    operand's type."""

    __slots__ = ("fn", "name", "type", "_scope")

    def __init__(self, fn, name, type_):
        self.fn, self.name, self.type = fn, name, type_
        # The region (for_range / if_ body) it was made in; used after that
        # region closed, it does not dominate the use (Function._value).
        self._scope = getattr(fn, "_scope", None)

    def __repr__(self):
        return f"<ir.Value {self.name}: {self.type}>"

    __hash__ = object.__hash__

    def _other(self, v):
        return self.fn._value(v, self.type)

    def _bin(self, op, other, swap=False):
        if not isinstance(other, _OPERANDS):
            return NotImplemented  # a framework's own type may know how (its __radd__, ...)
        if self.type.kind == "vector" or (isinstance(other, Value) and other.type.kind == "vector"):
            return self.fn._lanewise(op, self, other, swap)
        other = self._other(other)
        a, b = (other, self) if swap else (self, other)
        # Numbers: the result type is the dialect's promotion table's (its
        # verifier checks it), as the frontends give it: si64 / si64 is f64.
        table = _facts.PROMOTION[_facts.PROMOTING_OPS[op]]
        numbers = _facts.PROMOTION["arith"]
        if (a.type.text, a.type.text) in numbers and (b.type.text, b.type.text) in numbers:
            result = table.get((a.type.text, b.type.text))
            if result is None:
                raise TypeError(
                    f"pydev.ir: pydev.{op} is not defined for {a.type} and {b.type} (Numeric Promotion): cast an operand (Function.cast)"
                )
            return getattr(self.fn.ops, op)(a, b, result=Type(result))
        if a.type != b.type:
            raise TypeError(
                f"pydev.ir: the operands of pydev.{op} have types {a.type} and {b.type}: cast one (Function.cast) or call Function.ops.{op}(..., result=...)"
            )
        return getattr(self.fn.ops, op)(a, b)

    def __add__(self, o):
        return self._bin("add", o)

    def __radd__(self, o):
        return self._bin("add", o, True)

    def __sub__(self, o):
        return self._bin("sub", o)

    def __rsub__(self, o):
        return self._bin("sub", o, True)

    def __mul__(self, o):
        return self._bin("mul", o)

    def __rmul__(self, o):
        return self._bin("mul", o, True)

    def __truediv__(self, o):
        return self._bin("truediv", o)

    def __rtruediv__(self, o):
        return self._bin("truediv", o, True)

    def __floordiv__(self, o):
        return self._bin("floordiv", o)

    def __rfloordiv__(self, o):
        return self._bin("floordiv", o, True)

    def __mod__(self, o):
        return self._bin("mod", o)

    def __rmod__(self, o):
        return self._bin("mod", o, True)

    def __pow__(self, o):
        return self._bin("pow", o)

    def __and__(self, o):
        return self._bin("and", o)

    def __or__(self, o):
        return self._bin("or", o)

    def __xor__(self, o):
        return self._bin("xor", o)

    def __lshift__(self, o):
        return self._bin("lshift", o)

    def __rshift__(self, o):
        return self._bin("rshift", o)

    def __neg__(self):
        return self.fn.ops.neg(self)

    def __invert__(self):
        return self.fn.ops.invert(self)

    def _cmp(self, pred, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return self.fn.ops.cmp(self, self._other(other), predicate=pred)

    def __lt__(self, o):
        return self._cmp("lt", o)

    def __le__(self, o):
        return self._cmp("le", o)

    def __gt__(self, o):
        return self._cmp("gt", o)

    def __ge__(self, o):
        return self._cmp("ge", o)

    def __eq__(self, o):
        return self._cmp("eq", o)

    def __ne__(self, o):
        return self._cmp("ne", o)

    def __bool__(self):
        raise TypeError(
            "an ir.Value has no truth value at trace time: use Function.if_(cond) for a branch in the kernel"
        )

    def _indices(self, key):
        key = key if isinstance(key, tuple) else (key,)
        return [k if isinstance(k, Value) else self.fn.constant(k, si64) for k in key]

    def __getitem__(self, key):
        return self.fn.ops.array_load(self, *self._indices(key))

    def __setitem__(self, key, value):
        self.fn.ops.array_store(self.fn._value(value, self.type.element), self, *self._indices(key))

    @property
    def size(self):
        """The array's number of elements (si64)."""
        return self.fn.ops.array_size(self)

    def extent(self, dim):
        """The array's extent in dimension `dim` (si64)."""
        shape = self.fn.ops.array_shape(self, result=tuple_type(*[si64] * self.type.params["rank"]))
        return self.fn.ops.tuple_extract(shape, index=dim, result=si64)


_OPERANDS = (Value, bool, int, float, _np.generic)


_PACKAGE = _os.path.dirname(_os.path.abspath(__file__)) + _os.sep
_SKIPPED = {contextlib.__file__}


def _caller_loc():
    """The location of the innermost frame outside pydev (and contextlib):
    the framework user's line that is building the op."""
    f = _sys._getframe(1)
    while f is not None:
        name = f.f_code.co_filename
        if not name.startswith(_PACKAGE) and name not in _SKIPPED:
            return _location(name, f.f_lineno, 0)
        f = f.f_back
    return "loc(unknown)"


def _loc_text(location):
    """`loc("f.py":3:0)` as f.py:3."""
    if location.startswith('loc("'):
        file, _, rest = location[5:].rpartition('":')
        return f"{file}:{rest.split(':')[0]}"
    return location


class _If:
    """What `Function.if_` returns: a context manager for the `then` arm,
    `else_()` for the other, `yield_` and `results` (see Function.if_)."""

    def __init__(self, fn, cond, types):
        self._fn, self._types = fn, types
        self.results = [Value(fn, fn._fresh(), t) for t in types]
        self._then, self._else = fn._new_block(), fn._new_block()
        self._after = fn._new_block(self.results)
        self._where = fn._loc(None)  # the if_'s location, also that of an arm never built
        fn._terminate(f"cf.cond_br {cond.name}, {fn._label(self._then)}, {fn._label(self._else)} {self._where}")
        fn._cur = self._after  # ops not inside an arm follow the if_
        self._arm, self._yielded, self._then_done, self._else_done = None, None, False, False
        fn._pending.append(self)

    def _open(self, block, arm):
        fn = self._fn
        self._saved, fn._cur = fn._cur, block
        self._arm, self._yielded = arm, None
        self._region = fn._region("if_" if arm == "then" else "else_")
        self._region.__enter__()

    def __enter__(self):
        if self._then_done:
            raise RuntimeError("pydev.ir: enter the object if_ returned once (`with k.if_(c) as b:`)")
        self._then_done = True
        self._open(self._then, "then")
        return self

    def __exit__(self, kind, exc, tb):
        self._close(kind is None)

    def _close(self, ok):
        fn, arm = self._fn, self._arm
        self._region.__exit__(None, None, None)
        self._arm = None
        if ok and id(fn._cur) not in fn._terminated:
            if self._types and self._yielded is None:
                raise RuntimeError(
                    f"pydev.ir: the {arm} arm of an if_ with results ({', '.join(map(str, self._types))}) "
                    "must end with yield_(...) of its values"
                )
            fn._terminate(f"cf.br {fn._succ_values(self._after, self._yielded or [])} {fn._loc(None)}")
        fn._cur = self._after if arm == "then" else self._saved

    def else_(self):
        """`with b.else_():` the ops inside run where the condition does not hold."""
        if self._arm is not None or self._else_done or not self._then_done:
            raise RuntimeError("pydev.ir: else_() comes once, after the `with` of its if_ ended")
        return _ElseArm(self)

    def yield_(self, *values):
        """The values the arm being built gives as the results (one per type)."""
        if self._arm is None:
            raise RuntimeError("pydev.ir: yield_ inside the `with` of an if_ arm (or its else_)")
        if len(values) != len(self._types):
            raise TypeError(
                f"pydev.ir: yield_ takes {len(self._types)} value(s) ({', '.join(map(str, self._types))}), got {len(values)}"
            )
        self._yielded = _converted(self._fn, values, self._types, "yield_ of if_")

    def _finish(self):
        """At the end of the function: an else arm never built passes through."""
        if not self._then_done:  # never entered: an empty arm
            self._then_done = True
            if self._types:
                raise RuntimeError("pydev.ir: an if_ with results needs its `with` arm, that yields them")
            self._fn._else_fallthrough(self._then, self._after, self._where)
        if not self._else_done:
            if self._types:
                raise RuntimeError(
                    f"pydev.ir: an if_ with results ({', '.join(map(str, self._types))}) needs an else_ arm that yields them"
                )
            self._else_done = True
            fn = self._fn
            fn._else_fallthrough(self._else, self._after, self._where)


class _ElseArm:
    """The context manager `_If.else_` returns."""

    def __init__(self, branch):
        self._branch = branch

    def __enter__(self):
        if self._branch._else_done:
            raise RuntimeError("pydev.ir: else_() comes once, after the `with` of its if_ ended")
        self._branch._else_done = True
        self._branch._open(self._branch._else, "else")
        return self._branch

    def __exit__(self, kind, exc, tb):
        self._branch._close(kind is None)


class _Loop:
    """What `Function.for_range` returns (see there)."""

    def __init__(self, fn, start, stop, step, carry):
        self._fn, self._stop, self._step = fn, stop, step
        start = fn._value(start, stop.type if isinstance(stop, Value) else None)
        inits = [fn._value(v, None) for v in carry]
        self._iv = Value(fn, fn._fresh(), start.type)
        self.carried = [Value(fn, fn._fresh(), v.type) for v in inits]
        self.results = self.carried  # the head's arguments dominate the code after the loop
        self._head = fn._new_block([self._iv, *self.carried])
        self._body, self._after = fn._new_block(), fn._new_block()
        fn._terminate(f"cf.br {fn._succ_values(self._head, [start, *inits])} {fn._loc(None)}")
        fn._cur = self._head
        cond = self._iv < stop
        fn._terminate(f"cf.cond_br {cond.name}, {fn._label(self._body)}, {fn._label(self._after)} {fn._loc(None)}")
        fn._cur = self._body
        self._next, self._inside = None, False

    def __enter__(self):
        self._region = self._fn._region("for_range")
        self._region.__enter__()
        self._iv._scope = self._fn._scope
        self._inside = True
        return self._iv

    def next(self, *values):
        """The carried values of the next iteration (one per `carry`)."""
        if not self._inside:
            raise RuntimeError("pydev.ir: loop.next(...) goes inside the `with` of its for_range")
        if len(values) != len(self.carried):
            raise TypeError(f"pydev.ir: next takes {len(self.carried)} value(s), got {len(values)}")
        self._next = _converted(self._fn, values, [v.type for v in self.carried], "next of for_range")

    def __exit__(self, kind, exc, tb):
        fn = self._fn
        try:
            if kind is None:
                nxt = self._iv + self._step
        finally:
            self._inside = False
            self._region.__exit__(None, None, None)
        if kind is None:
            fn._terminate(f"cf.br {fn._succ_values(self._head, [nxt, *(self._next or self.carried)])} {fn._loc(None)}")
            fn._cur = self._after


def _converted(fn, values, types, what):
    out = [fn._value(v, t) for v, t in zip(values, types)]
    for v, t in zip(out, types):
        if v.type != t:
            raise TypeError(f"pydev.ir: {what}: {v.name} has type {v.type}, the result is {t}: cast it (Function.cast)")
    return out


class _Scope:
    """A region of a Function (a for_range or if_ body) being built."""

    __slots__ = ("what", "loc", "parent", "open")

    def __init__(self, what, location, parent):
        self.what, self.loc, self.parent, self.open = what, location, parent, True


# op name -> {attribute: (ODS kind, required)}, from pydev._ods.OPS, built on first use.
_KNOWN_ATTRS = {}
# op name -> (fixed operands, variadic groups, whether the one variadic group is optional).
_OPERAND_SHAPES = {}


def _operand_shape(op, operand_spec):
    shape = _OPERAND_SHAPES.get(op)
    if shape is None:
        var = [a for _, a in operand_spec if a != "1"]
        shape = _OPERAND_SHAPES[op] = (len(operand_spec) - len(var), len(var), bool(var) and var[0] == "?")
    return shape


class _Ops:
    """`Function.ops.<name>(*operands, result=None, loc=None, **attributes)`
    for every op of pydev.td (the table pydev._ods)."""

    def __init__(self, fn):
        self._fn = fn

    def __getattr__(self, name):
        entry = _ods.OPS.get(name.rstrip("_"))
        if entry is None:
            raise AttributeError(f"pydev has no op '{name}' (dialect/pydev.td defines: {', '.join(sorted(_ods.OPS))})")
        op = name.rstrip("_")
        fn = self._fn

        def build(*operands, result=None, loc=None, contract=None, **attrs):
            if contract is not None:
                if op not in _CONTRACTIBLE:
                    raise TypeError(f"pydev.{op} takes no contract= (only {', '.join(sorted(_CONTRACTIBLE))} do)")
                if not isinstance(contract, bool):
                    raise TypeError(f"contract= takes True or False, got {contract!r}")
            return fn._build(op, entry, operands, result, loc, attrs, contract)

        build.__name__ = name
        build.__doc__ = f"pydev.{op}: operands {', '.join(n + ('' if a == '1' else a) for n, a in entry[0]) or 'none'}; attributes {', '.join(n for n, _, _ in entry[1]) or 'none'}"
        # Later lookups of this op on this Function skip __getattr__ (a
        # frontend builds most ops through it: this is its hot path).
        self.__dict__[name] = build
        return build


# The upstream `math` ops a Program may use (docs/backend.md), by operand
# count: `Function.math.<name>(*operands)` builds them with their result type.
MATH_FLOAT_OPS = {
    **dict.fromkeys(
        "absf acos acosh asin asinh atan atanh cbrt ceil cos cosh erf erfc exp exp2 expm1 floor log log10 "
        "log1p log2 round roundeven rsqrt sin sinh sqrt tan tanh trunc".split(),
        1,
    ),
    **dict.fromkeys("atan2 copysign powf".split(), 2),
    "fma": 3,
}
MATH_CLASS_OPS = ("isfinite", "isinf", "isnan", "isnormal")
MATH_INT_OPS = ("absi", "ctlz", "cttz", "ctpop")


class _Math:
    """`Function.math.<op>(*operands, loc=None)`: upstream `math` ops on
    pydev values. Float ops keep their operand's type; the class tests give
    `i1`; the integer ops take pydev's signed or unsigned integers (cast to
    signless and back, which costs nothing)."""

    def __init__(self, fn):
        self._fn = fn

    def __dir__(self):
        return sorted([*MATH_FLOAT_OPS, *MATH_CLASS_OPS, *MATH_INT_OPS])

    def __getattr__(self, name):
        fn = self._fn
        if name in MATH_FLOAT_OPS:
            arity = MATH_FLOAT_OPS[name]
        elif name in MATH_CLASS_OPS or name in MATH_INT_OPS:
            arity = 1
        else:
            raise AttributeError(f"pydev.ir has no math helper '{name}' (it has: {', '.join(dir(self))})")

        def build(*operands, loc=None):
            if len(operands) != arity:
                raise TypeError(f"math.{name} takes {arity} operand{'s' * (arity != 1)}, got {len(operands)}")
            first = next((v for v in operands if isinstance(v, Value)), None)
            like = first.type if first is not None else f32
            vals = [fn._value(v, like) for v in operands]
            t = vals[0].type
            if name in MATH_INT_OPS:
                if not t.is_integer:
                    raise TypeError(f"math.{name} takes an integer, got {t}")
                signless = Type(f"i{t.params['width']}")
                r = fn.emit(f"math.{name}", [fn.cast(vals[0], signless)], [signless], loc=loc)
                return fn.cast(r, t)
            if not t.is_float or any(v.type != t for v in vals):
                raise TypeError(f"math.{name} takes floats of one type, got {', '.join(str(v.type) for v in vals)}")
            return fn.emit(f"math.{name}", vals, [i1 if name in MATH_CLASS_OPS else t], loc=loc)

        build.__name__ = name
        return build


class Function:
    """A func.func being built: `args` (Values), `ops` (op constructors), and
    helpers. Ops go to the current block; `if_`/`for_range` make blocks."""

    def __init__(self, module, name, params, results, kernel, location, exited_skip_barriers=False):
        self.module, self.name, self.kernel = module, name, kernel
        # A kernel whose threads that returned do not hold up later block
        # barriers, as on GPUs (`pydev.exited_skip_barriers`; without it the
        # spec's rule holds: every thread reaches each barrier).
        self.exited_skip_barriers = bool(exited_skip_barriers)
        # Further attributes of the func.func, by name (MLIR attribute text):
        # a kernel's launch bounds (`nvvm.maxntid`, ...) from a frontend.
        self._attributes = {}
        self.results = [_type(r) for r in results]
        self._scope = None  # the innermost open for_range / if_ region (a _Scope), None: the function's
        self.args = [Value(self, f"%arg{i}", _type(t)) for i, t in enumerate(params)]
        self.location = location
        self.ops = _Ops(self)
        self.math = _Math(self)
        self._blocks = [["", []]]  # [label, lines]
        self._cur = self._blocks[0]
        self._n = 0
        self._nb = 0
        self._terminated = set()
        self._traced = None
        self._pending = []  # if_ objects whose else arm may still come
        # The function's own location: the one given, or the line that made it.
        self._def_loc = location or _caller_loc()

    # --- emission -----------------------------------------------------------------------
    def _fresh(self):
        self._n += 1
        return f"%v{self._n}"

    def _loc(self, loc):
        if loc:
            return loc
        if self._traced is not None:
            f = _sys._getframe(1)
            while f is not None and f.f_code is not self._traced:
                f = f.f_back
            if f is not None:
                return _location(f.f_code.co_filename, f.f_lineno, 0)
        return self.location or _caller_loc()

    def locations_from(self, fn):
        """Ops built while Python function `fn` runs carry the location of
        the line of `fn` that is running (a tracing framework's user code);
        other ops the function's location."""
        self._traced = getattr(fn, "__code__", fn)

    def _line(self, text):
        if id(self._cur) in self._terminated:
            raise RuntimeError(f"pydev.ir: the block of {self.name} is already terminated")
        self._cur[1].append(text)

    def _generic(self, name, operands, results, attrs, loc, discardable=None):
        names = [self._fresh() for _ in results]
        lhs = (", ".join(names) + " = ") if names else ""
        props = f" <{{{', '.join(f'{k} = {v}' for k, v in attrs.items())}}}>" if attrs else ""
        if discardable:  # attributes of no ODS definition (`pydev.contract`): the attr-dict
            props += f" {{{', '.join(f'{k} = {v}' for k, v in discardable.items())}}}"
        sig = f"({', '.join(str(o.type) for o in operands)}) -> ({', '.join(map(str, results))})"
        return names, f'{lhs}"{name}"({", ".join(o.name for o in operands)}){props} : {sig} {self._loc(loc)}'

    def emit(self, name, operands=(), results=(), attrs=None, loc=None):
        """Any op in MLIR's generic form: `name` ("gpu.thread_id"), operand
        Values, result types, attributes {name: MLIR text}. Returns None, a
        Value, or a tuple of Values."""
        results = [_type(r) for r in results]
        operands = [self._value(v, None) for v in operands]
        names, text = self._generic(name, operands, results, {k: str(v) for k, v in (attrs or {}).items()}, loc)
        self._line(text)
        vals = tuple(Value(self, n, t) for n, t in zip(names, results))
        return None if not vals else vals[0] if len(vals) == 1 else vals

    def _build(self, op, entry, operands, result, loc, attrs, contract=None):
        operand_spec, attr_spec, result_spec, sized = entry
        groups = []
        if sum(a != "1" for _, a in operand_spec) > 1 or sized:
            # Several optional/variadic operands: each is a list (or None).
            if len(operands) != len(operand_spec):
                raise TypeError(
                    f"pydev.{op} takes {len(operand_spec)} operands ({', '.join(n for n, _ in operand_spec)}; variadic ones as lists), got {len(operands)}"
                )
            for (n, a), v in zip(operand_spec, operands):
                groups.append([v] if a == "1" else list(v or ()))
        else:
            n_fixed, n_var, optional = _operand_shape(op, operand_spec)
            extra = len(operands) - n_fixed
            if extra < 0 or (not n_var and extra) or (optional and extra > 1):
                names = ", ".join(n + ("..." if a == "*" else "?" if a == "?" else "") for n, a in operand_spec)
                raise TypeError(
                    f"pydev.{op} takes {n_fixed}{' or more' if n_var else ''} operand{'s' * (n_fixed != 1)} ({names}), got {len(operands)}"
                )
            if not n_var:
                groups = [operands]
            else:
                at = 0
                for n, a in operand_spec:
                    take = 1 if a == "1" else extra
                    groups.append(list(operands[at : at + take]))
                    at += take
        flat = [self._value(v, None) for g in groups for v in g]
        # The result type: given, or inferred for the common ops.
        n_results = sum(a == "1" for _, a in result_spec)
        if n_results == 1 and result is None:
            if op in _SAME and flat:
                result = flat[0].type
            elif op in _BOOL:
                result = i1
            elif op in _AS_OPERAND and len(flat) > _AS_OPERAND[op]:
                result = flat[_AS_OPERAND[op]].type
            elif op in _ELEMENT_OF_FIRST and flat:
                result = flat[0].type.element
            elif op in _MASKS:
                result = warp_mask()
            elif op == "atomic_ref" and flat and flat[0].type.is_array and "field" not in attrs:
                space = flat[0].type.params.get("space", "global")
                result = atomic_ref(flat[0].type.element, None if space == "global" else space)
            elif op == "array_load" and flat[0].type.is_array:
                result = flat[0].type.element
            elif op in ("array_size",):
                result = si64
            elif op == "syncthreads_count":
                result = si32
            else:
                raise TypeError(f"pydev.{op} needs result=<type>")
        results = (
            []
            if n_results == 0
            else [_type(result)]
            if not isinstance(result, (list, tuple))
            else [_type(r) for r in result]
        )
        known = _KNOWN_ATTRS.get(op)
        if known is None:
            known = _KNOWN_ATTRS[op] = {n: (k, req) for n, k, req in attr_spec}
        texts = {}
        for name, value in attrs.items():
            if name not in known:
                raise TypeError(f"pydev.{op} has no attribute '{name}' (it has: {', '.join(known) or 'none'})")
            if known[name][0] == "unit" and not value:
                continue
            texts[name] = _attr_text(op, name, known[name][0], value, results[0] if results else None)
        for name, (kind, required) in known.items():
            if required and name not in texts:
                raise TypeError(f"pydev.{op} needs the attribute '{name}'")
        if sized:
            texts["operandSegmentSizes"] = f"array<i32: {', '.join(str(len(g)) for g in groups)}>"
        # contract=False: this op is never fused into a multiply-add (pydev-promote-types).
        discardable = {"pydev.contract": "false"} if contract is False else None
        names, text = self._generic(f"pydev.{op}", flat, results, texts, loc, discardable)
        self._line(text)
        vals = [Value(self, n, t) for n, t in zip(names, results)]
        return None if not vals else vals[0] if len(vals) == 1 else tuple(vals)

    def _lanewise(self, op, a, b, swap):
        """`a op b` on vectors lane by lane (pydev's arithmetic ops take
        numbers): a vector with a vector of the same type, or with a scalar
        (a number or a Value of its element type), as CUDA C++'s vector
        operators; the result is a vector of the lane results' type."""
        vec = a if a.type.kind == "vector" else b
        lanes, elem = vec.type.params["lanes"], vec.type.element
        other = b if vec is a else a
        if isinstance(other, Value) and other.type.kind == "vector" and other.type != vec.type:
            raise TypeError(f"pydev.ir: pydev.{op} of vectors {vec.type} and {other.type}: cast the lanes to one type")
        if not (isinstance(other, Value) and other.type.kind == "vector"):
            other = self._value(other, elem)
        out = []
        for lane in range(lanes):
            idx = self.constant(lane, si32)

            def get(v):
                return self.ops.vector_extract(v, idx) if v.type.kind == "vector" else v

            x, y = get(vec if vec is a else other), get(other if vec is a else vec)
            x, y = (y, x) if swap else (x, y)
            out.append(x._bin(op, y))
        kind = out[0].type
        result = vec.type if kind == elem else vector(kind, lanes)
        return self.ops.vector_create(*out, result=result)

    def _value(self, v, like):
        if isinstance(v, Value):
            if v.fn is not self:
                raise ValueError(
                    f"pydev.ir: {v.name} ({v.type}) belongs to function {getattr(v.fn, 'name', '?')}, "
                    f"not to {self.name}: pass it as an argument (a parameter of {self.name}), "
                    "or rebuild it in this function"
                )
            if v._scope is not None and not v._scope.open:
                raise ValueError(
                    f"pydev.ir: {v.name} ({v.type}) was made inside the {v._scope.what} at "
                    f"{_loc_text(v._scope.loc)} and is used after it ended: a value made in a loop or branch "
                    "does not outlive it; carry it (for_range(..., carry=[init]) / if_(..., results=[...])), "
                    "or store it in an array"
                )
            return v
        if isinstance(v, (bool, int, float, _np.generic)):
            if like is None or not (like.is_float or like.is_integer or like.text == "i1"):
                like = i1 if isinstance(v, bool) else f32 if isinstance(v, float) else si32
            return self.constant(v, like)
        raise TypeError(f"pydev.ir: expected an ir.Value or a number, got {type(v).__name__}")

    # --- helpers ------------------------------------------------------------------------
    @contextlib.contextmanager
    def at(self, file, line, col=0):
        """Ops built inside carry loc("file":line:col)."""
        saved, self.location = self.location, loc(file, line, col)
        try:
            yield
        finally:
            self.location = saved

    def constant(self, value, type_):
        """A constant `value` of type `type_` (`k.constant(2.0, ir.f32)`)."""
        return self.ops.constant(value=value, result=type_)

    def cast(self, value, type_):
        """`value` converted to `type_` (pydev.cast: numbers, signed and signless integers)."""
        return self.ops.cast(self._value(value, None), result=type_)

    def _dim(self, op, dim):
        idx = self.emit(f"gpu.{op}", [], [index], {"dimension": f"#gpu<dim {dim}>"})
        return self.cast(self.emit("arith.index_castui", [idx], [i32]), si32)

    def thread_id(self, dim="x"):
        """threadIdx.<dim> as si32."""
        return self._dim("thread_id", dim)

    def block_id(self, dim="x"):
        """blockIdx.<dim> as si32."""
        return self._dim("block_id", dim)

    def block_dim(self, dim="x"):
        """blockDim.<dim> as si32."""
        return self._dim("block_dim", dim)

    def grid_dim(self, dim="x"):
        """gridDim.<dim> as si32."""
        return self._dim("grid_dim", dim)

    def global_id(self, dim="x"):
        """blockIdx * blockDim + threadIdx in dimension `dim` (si32)."""
        return self.block_id(dim) * self.block_dim(dim) + self.thread_id(dim)

    def shared_array(self, element, shape, order="C"):
        """A block's shared array of static `shape`."""
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        layout = "c" if order == "C" else "f"
        return self.ops.shared_array(shape=shape, order=order, result=array(element, len(shape), layout, "shared"))

    def syncthreads(self):
        """A block barrier (pydev.syncthreads)."""
        self.ops.syncthreads()

    def select(self, cond, a, b):
        """`a if cond else b` without a branch (arith.select); a Python number
        operand takes the other's type."""
        a = self._value(a, b.type if isinstance(b, Value) else None)
        return self.emit("arith.select", [cond, a, self._value(b, a.type)], [a.type])

    def _new_block(self, args=()):
        self._nb += 1
        block = [f"^bb{self._nb}" + (f"({', '.join(f'{v.name}: {v.type}' for v in args)})" if args else ""), []]
        self._blocks.append(block)
        return block

    def _label(self, block):
        return block[0].split("(")[0]

    def _terminate(self, text):
        self._line(text)
        self._terminated.add(id(self._cur))

    def _condition(self, cond, what):
        """`cond` checked to be an i1 Value of this function."""
        if not isinstance(cond, Value):
            raise TypeError(
                f"pydev.ir: {what} needs an ir.Value of type i1 as its condition, got {type(cond).__name__} "
                "(a Python condition is decided at build time: use a plain Python `if`)"
            )
        cond = self._value(cond, None)
        if cond.type != i1:
            raise TypeError(
                f"pydev.ir: {what} needs an i1 condition, got {cond.name} of type {cond.type}: "
                f'compare it (`c != 0`, or k.ops.cmp(c, zero, predicate="ne")) to make an i1'
            )
        return cond

    @contextlib.contextmanager
    def _region(self, what):
        """Values made inside do not outlive it (they do not dominate later uses)."""
        scope = _Scope(what, self._loc(None), self._scope)
        self._scope = scope
        try:
            yield scope
        finally:
            scope.open = False
            self._scope = scope.parent

    def if_(self, cond, results=()):
        """`with k.if_(c):` the ops inside run where `c` (i1) holds; values
        made inside do not outlive it. `with b.else_():` (b the object
        `if_` returned) adds the other arm. With `results` (types), each arm
        ends by `b.yield_(*values)` and `b.results` are the Values after
        both arms (scf.if with results):

            b = k.if_(x > 0, results=[ir.f32])
            with b:
                b.yield_(x * 2.0)
            with b.else_():
                b.yield_(0.0)
            (y,) = b.results
        """
        return _If(self, self._condition(cond, "Function.if_"), [_type(t) for t in results])

    def for_range(self, start, stop, step=1, carry=()):
        """`with k.for_range(a, b, s) as i:` a loop for i = a, a+s, ... < b
        (s > 0); values made inside do not outlive it. `carry` (initial
        Values or numbers) are loop-carried values (scf.for iter_args):
        inside, `loop.carried` are this iteration's and `loop.next(*values)`
        gives the next iteration's (unchanged without it); after the loop,
        `loop.results` are the final ones:

            loop = k.for_range(0, n, carry=[0.0])
            with loop as i:
                (acc,) = loop.carried
                loop.next(acc + x[i])
            (total,) = loop.results
        """
        return _Loop(self, start, stop, step, carry)

    # --- explicit blocks (for frontends with their own control flow) -------------------
    def new_block(self, *arg_types):
        """A new, empty block (with arguments of `arg_types`); returns an
        `ir.Block` whose `args` are Values. Fill it after `set_block(b)`."""
        self._nb += 1
        args = [Value(self, self._fresh(), _type(t)) for t in arg_types]
        return Block(self._new_block_from(args), args)

    def _new_block_from(self, args):
        block = [f"^bb{self._nb}" + (f"({', '.join(f'{v.name}: {v.type}' for v in args)})" if args else ""), []]
        self._blocks.append(block)
        return block

    def set_block(self, block):
        """Ops built from now on go to the end of `block` (an `ir.Block`)."""
        self._cur = block._raw

    @property
    def block(self):
        """The block ops go to (an `ir.Block`)."""
        return Block(self._cur, [])

    @property
    def terminated(self):
        """Whether the current block already ends in a terminator."""
        return id(self._cur) in self._terminated

    def _succ_values(self, raw, args):
        return self._label(raw) + (
            f"({', '.join(a.name for a in args)} : {', '.join(str(a.type) for a in args)})" if args else ""
        )

    def _else_fallthrough(self, else_block, after, location):
        saved, self._cur = self._cur, else_block
        self._terminate(f"cf.br {self._label(after)} {location}")
        self._cur = saved

    def _succ(self, block, args):
        args = [self._value(a, None) for a in args]
        return self._label(block._raw) + (
            f"({', '.join(a.name for a in args)} : {', '.join(str(a.type) for a in args)})" if args else ""
        )

    def br(self, block, *args, loc=None):
        """`cf.br` to `block` passing `args` (ends the current block)."""
        self._terminate(f"cf.br {self._succ(block, args)} {self._loc(loc)}")

    def cond_br(self, cond, then, else_, then_args=(), else_args=(), loc=None):
        """`cf.cond_br` on `cond` (i1) to `then` / `else_` (ends the current block)."""
        cond = self._condition(cond, "Function.cond_br")
        self._terminate(
            f"cf.cond_br {cond.name}, {self._succ(then, then_args)}, {self._succ(else_, else_args)} {self._loc(loc)}"
        )

    def ret(self, *values, loc=None):
        """Ends the current block with func.return of `values`."""
        values = [self._value(v, r) for v, r in zip(values, self.results + [None] * len(values))]
        vals = ", ".join(v.name for v in values)
        self._terminate(
            f"func.return {vals}{' : ' + ', '.join(str(v.type) for v in values) if values else ''} {self._loc(loc)}"
        )

    def text(self):
        """The function's MLIR text (`str(module)` gives the whole module)."""
        for branch in self._pending:
            branch._finish()
        self._pending.clear()
        if id(self._cur) not in self._terminated:
            if self.results:
                raise RuntimeError(
                    f"pydev.ir: function {self.name} returns {', '.join(map(str, self.results))}: end it with ret(...)"
                )
            self.ret()
        params = ", ".join(f"{a.name}: {a.type}" for a in self.args)
        res = f" -> ({', '.join(map(str, self.results))})" if self.results else ""
        attrs = ""
        if self.kernel:
            skip = ", pydev.exited_skip_barriers" if self.exited_skip_barriers else ""
            extra = "".join(f", {k} = {v}" for k, v in self._attributes.items())
            attrs = f" attributes {{pydev.kernel{skip}{extra}}}"
        lines = [f"  func.func @{_symbol(self.name)}({params}){res}{attrs} {{"]
        for label, body in self._blocks:
            if label:
                lines.append(f"  {label}:")
            lines += [f"    {b}" for b in body]
        lines.append(f"  }} {self.location or self._def_loc}")
        return "\n".join(lines)


class Block:
    """A block of a Function (`Function.new_block`): `args` are its
    arguments as Values; branch to it with `Function.br`/`cond_br`."""

    __slots__ = ("_raw", "args")

    def __init__(self, raw, args):
        self._raw, self.args = raw, list(args)

    def __eq__(self, other):
        return isinstance(other, Block) and other._raw is self._raw

    def __hash__(self):
        return id(self._raw)

    def __repr__(self):
        return f"<ir.Block {self._raw[0]}>"


def _symbol(name):
    return name if name.replace("_", "a").isalnum() and not name[0].isdigit() else _string(name)


class Module:
    """A module of pydev IR being built; `str(module)` is its text."""

    def __init__(self):
        self.functions = []

    def kernel(self, name, params, loc=None, exited_skip_barriers=False):
        """A kernel (func.func with pydev.kernel) taking `params` (types).
        `exited_skip_barriers=True`: its threads that have returned do not
        hold up the block barriers the others reach later, as on GPUs
        (Numba-CUDA's rule; pydev.numba sets it). Without it every thread
        must reach each barrier (the spec's rule), and the host target
        reports a thread that returned before one."""
        f = Function(self, name, params, (), True, loc, exited_skip_barriers)
        self.functions.append(f)
        return f

    def func(self, name, params, results=(), loc=None):
        """A device function (call it with Function.call)."""
        f = Function(self, name, params, results, False, loc)
        self.functions.append(f)
        return f

    def declare(self, name, params, results=(), loc=None):
        """An external function (a `func.func private` declaration, no
        body) that link files define with the C calling convention
        (`pydev.Program(..., link=[...])`); call it with Function.call."""
        d = Declaration(name, params, results, loc)
        self.functions.append(d)
        return d

    def __str__(self):
        return "module {\n" + "\n".join(f.text() for f in self.functions) + "\n}\n"

    def verify(self, filename="<pydev ir>"):
        """Parses and verifies the module as `pydev.Program` would, without
        compiling it: returns the names of its kernels, or raises
        pydev.CompileError with every error at its location (the op's
        `loc=`)."""
        return _native.get().verify_ir(str(self), str(filename))


class Declaration:
    """An external function of a Module (`Module.declare`)."""

    def __init__(self, name, params, results, location):
        self.name, self.kernel = name, False
        self.params = [_type(t) for t in params]
        self.results = [_type(r) for r in results]
        self.location = location

    def text(self):
        res = f" -> ({', '.join(map(str, self.results))})" if self.results else ""
        return f"  func.func private @{_symbol(self.name)}({', '.join(map(str, self.params))}){res} {self.location or ''}".rstrip()


def _call(self, callee, *args):
    """Calls device function `callee` (a Function of the same module)."""
    return self.emit(
        "func.call", [self._value(a, None) for a in args], callee.results, {"callee": f"@{_symbol(callee.name)}"}
    )


Function.call = _call
