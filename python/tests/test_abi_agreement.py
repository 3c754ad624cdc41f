"""The Python halves of facts defined once in Rust agree with them:

- `pydev._types.c_layout` (the CUDA C++ layout of a dtype) with the
  dialect's layout (`getTypeLayout`, dialect/cpp/PydevDialect.cpp, reached
  through `_pydev.c_layout`), for numbers, every vector type, structs
  (nested, with vectors, with align=) and align() types;
- the field offsets of `@device.struct` classes (`_types`, pure Python for
  `import cuda.device`) and the scalars of their dtypes (what
  `pydev.Program` matches a structured argument by) with the dialect's
  (`_pydev.ir_type_layout`, the native type service that `pydev.Program`
  and `pydev._c_types` use), for the same table;
- `pydev._arrays.dims` (the `::1` of a signature) with the launch fast
  path's contiguity (`dispatch::contiguity`, through `_pydev.array_layout`),
  for a table of shapes and strides.
"""

import itertools

import numpy as np
import pytest

import cuda.device as device
from pydev import _arrays, _program, _types

_SCALARS = {
    "bool": "i1",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "i8",
    "uint16": "i16",
    "uint32": "i32",
    "uint64": "i64",
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
    "float8e4m3": "f8E4M3FN",
    "float8e5m2": "f8E5M2",
    "complex64": "complex<f32>",
    "complex128": "complex<f64>",
}


def mlir_type(dt, name="S"):
    """The pydev type of NumPy dtype `dt` as the compiler sees it."""
    dt = np.dtype(dt)
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        (n,) = shape
        return f"!pydev.vector<{n} x {mlir_type(base)}>"
    if dt.fields:
        fields = ", ".join(f"{f}: {mlir_type(dt.fields[f][0], name + '_' + f)}" for f in dt.names)
        align = (dt.metadata or {}).get("pydev_align", 0)
        return f'!pydev.struct<"{name}", {{{fields}}}' + (f", align {align}>" if align else ">")
    return _SCALARS[_types.dtype_name(dt)]


@device.struct
class Pair:
    a: device.int8
    b: device.float64


@device.struct
class WithVector:
    tag: device.int32
    v: device.float32x4
    c: device.uint8x3


@device.struct(align=16)
class Wide:
    x: device.float32
    y: device.float32


@device.struct
class Nested:
    p: Pair
    w: Wide
    h: device.float16


def _types_table():
    types = [getattr(device, n) for n in _SCALARS if n != "bool"] + [bool]
    types += list(_types.VECTOR_TYPES.values())
    types += [Pair, WithVector, Wide, Nested]
    types += [device.align(device.float32, 8), device.align(Pair, 32), device.align(device.float32x3, 16)]
    return types


@pytest.mark.parametrize("t", _types_table(), ids=lambda t: getattr(t, "__name__", repr(t)))
def test_c_layout_agrees_with_the_dialect(native, t):
    dt = _types.to_dtype(t)
    text = mlir_type(dt)
    assert _types.c_layout(dt) == native.c_layout(text), text


@pytest.mark.parametrize("t", _types_table(), ids=lambda t: getattr(t, "__name__", repr(t)))
def test_offsets_and_scalars_agree_with_the_dialect(native, t):
    dt = _types.to_dtype(t)
    text = mlir_type(dt)
    size, align, scalars, offsets = native.ir_type_layout(text)
    assert (size, align) == _types.c_layout(dt), text
    assert offsets == ([dt.fields[n][1] for n in dt.names] if dt.fields else []), text
    leaves = _program._dtype_leaves(dt)
    if any(
        k == "V" or (k == "f" and _types.dtype_name(d) not in ("float16", "float32", "float64")) for d, k in _kinds(dt)
    ):
        assert scalars is None, text  # bfloat16, float8: NumPy has no kind of them
        return
    assert [(o, s) for o, _, s in scalars] == [(o, s) for o, _, s in leaves], text
    assert all(g[1] in w[1] for g, w in zip(leaves, scalars)), (text, leaves, scalars)


def _kinds(dt):
    """(dtype, kind) of each scalar of `dt`."""
    dt = np.dtype(dt)
    if dt.fields:
        return [k for n in dt.names for k in _kinds(dt.fields[n][0])]
    if dt.subdtype is not None:
        return _kinds(dt.subdtype[0])
    return [(dt, dt.kind)]


# (IR type, size, alignment, scalars as (offset, kind, size) or None, member offsets)
LAYOUTS = [
    ("i1", 1, 1, [(0, "b", 1)], []),
    ("si16", 2, 2, [(0, "i", 2)], []),
    ("ui64", 8, 8, [(0, "u", 8)], []),
    ("i32", 4, 4, [(0, "iu", 4)], []),
    ("complex<f64>", 16, 8, [(0, "c", 16)], []),
    ("bf16", 2, 2, None, []),
    ("!pydev.vector<2 x f32>", 8, 8, [(0, "f", 4), (4, "f", 4)], []),
    ("!pydev.vector<3 x f32>", 12, 4, [(0, "f", 4), (4, "f", 4), (8, "f", 4)], []),
    ("!pydev.vector<4 x si16>", 8, 8, [(k, "i", 2) for k in (0, 2, 4, 6)], []),
    ("!pydev.vector<3 x f64>", 24, 8, [(k, "f", 8) for k in (0, 8, 16)], []),
    ("!pydev.vector<4 x f64>", 32, 16, [(k, "f", 8) for k in (0, 8, 16, 24)], []),
    ('!pydev.struct<"P", {a: si8, b: f64}>', 16, 8, [(0, "i", 1), (8, "f", 8)], [0, 8]),
    ('!pydev.struct<"W", {x: f32, y: f32}, align 16>', 16, 16, [(0, "f", 4), (4, "f", 4)], [0, 4]),
    (
        '!pydev.struct<"N", {p: !pydev.struct<"P", {a: si8, b: f64}>, h: f16, v: !pydev.vector<3 x ui8>}>',
        24,
        8,
        [(0, "i", 1), (8, "f", 8), (16, "f", 2), (18, "u", 1), (19, "u", 1), (20, "u", 1)],
        [0, 16, 18],
    ),
    ('!pydev.struct<"B", {h: bf16, x: f32}>', 8, 4, None, [0, 4]),
    ("!pydev.tuple<si8, f64, si16>", 24, 8, [(0, "i", 1), (8, "f", 8), (16, "i", 2)], [0, 8, 16]),
    ("!pydev.array<f32, 2>", 40, 8, None, []),
    ("index", 8, 8, None, []),
]


@pytest.mark.parametrize("text,size,align,scalars,offsets", LAYOUTS, ids=[t[0] for t in LAYOUTS])
def test_ir_type_layout(native, text, size, align, scalars, offsets):
    assert native.ir_type_layout(text) == (size, align, scalars, offsets)
    assert native.c_layout(text) == (size, align)


def test_ir_type_layout_of_types_without_one(native):
    assert native.ir_type_layout("none") is None
    with pytest.raises(ValueError, match="cannot parse the type"):
        native.ir_type_layout("!pydev.nonsense<")


@pytest.mark.parametrize(
    "a,b,same",
    [
        ('!pydev.struct<"A", {x: f32}>', '!pydev.struct<"B", {x: f32}>', True),
        ('!pydev.struct<"A", {x: f32}>', '!pydev.struct<"A", {y: f32}>', False),
        ('!pydev.struct<"A", {x: f32}>', '!pydev.struct<"B", {x: f32}, align 16>', False),
        ('!pydev.struct<"A", {x: f32}>', '!pydev.struct<"B", {x: si32}>', False),
        (
            '!pydev.struct<"O", {i: !pydev.struct<"A", {x: f32}>}>',
            '!pydev.struct<"Q", {i: !pydev.struct<"B", {x: f32}>}>',
            True,
        ),
        ('!pydev.tuple<!pydev.struct<"A", {x: f32}>, si8>', '!pydev.tuple<!pydev.struct<"B", {x: f32}>, si8>', True),
        ('!pydev.tuple<!pydev.struct<"A", {x: f32}>, si8>', '!pydev.tuple<!pydev.struct<"B", {x: f32}>, ui8>', False),
        ('!pydev.array<!pydev.struct<"A", {x: f32}>, 1>', '!pydev.array<!pydev.struct<"B", {x: f32}>, 1>', True),
        ('!pydev.array<!pydev.struct<"A", {x: f32}>, 1>', '!pydev.array<!pydev.struct<"B", {x: f32}>, 2>', False),
        ("!pydev.vector<2 x f32>", "!pydev.vector<2 x f32>", True),
        ("!pydev.vector<2 x f32>", "!pydev.vector<3 x f32>", False),
        ("si32", "i32", False),
    ],
)
def test_types_match_up_to_struct_names(native, a, b, same):
    assert native.ir_types_match(a, b) is same
    assert native.ir_types_match(b, a) is same


SHAPES_STRIDES = [
    ((5,), (1,)),
    ((5,), (2,)),
    ((5,), (-1,)),
    ((1,), (7,)),
    ((0,), (3,)),
    ((3, 4), (4, 1)),
    ((3, 4), (1, 3)),
    ((3, 4), (8, 2)),
    ((3, 4), (-4, 1)),
    ((3, 4), (4, -1)),
    ((3, 1), (1, 5)),
    ((1, 4), (9, 1)),
    ((1, 1), (0, 0)),
    ((0, 4), (4, 1)),
    ((0, 4), (1, 7)),
    ((1, 0, 2), (0, 0, 0)),
    ((2, 0), (0, 1)),
    ((2, 3, 4), (12, 4, 1)),
    ((2, 3, 4), (1, 2, 6)),
    ((2, 3, 4), (12, 1, 3)),
    ((2, 1, 4), (4, 99, 1)),
    ((2, 1, 4), (1, 99, 2)),
    ((4, 3), (3, 1)),
    ((2, 2), (1, 1)),
    ((2, 2), (2, 1)),
]


def _python_layout(shape, strides):
    d = _arrays.dims(shape, strides).split(", ")
    return 1 if d[-1] == "::1" else 2 if d[0] == "::1" else 0


@pytest.mark.parametrize("shape,strides", SHAPES_STRIDES)
def test_contiguity_agrees_with_the_fast_path(native, shape, strides):
    assert _python_layout(shape, strides) == native.array_layout(list(shape), list(strides))


def test_contiguity_of_numpy_views_agrees(native):
    base = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    views = [
        base,
        base.T,
        base[:, ::-1],
        base[:, :1],
        base[::2],
        np.asfortranarray(base),
        base[:0],
        base[:, 1:1],
        np.zeros((1, 0, 2), np.float32),
        base.transpose(1, 0, 2),
    ]
    for v, order in itertools.product(views, "CF"):
        v = np.asarray(v, order=order) if order == "F" else v
        strides = tuple(s // v.itemsize for s in v.strides)
        assert _python_layout(v.shape, strides) == native.array_layout(list(v.shape), list(strides)), (v.shape, strides)
