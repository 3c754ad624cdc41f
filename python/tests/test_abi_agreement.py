"""The Python halves of facts defined once in Rust agree with them:

- `pydev._types.c_layout` (the CUDA C++ layout of a dtype) with the
  dialect's layout (`getTypeLayout`, dialect/cpp/PydevDialect.cpp, reached
  through `_pydev.c_layout`), for numbers, every vector type, structs
  (nested, with vectors, with align=) and align() types;
- `pydev._arrays.dims` (the `::1` of a signature) with the launch fast
  path's contiguity (`dispatch::contiguity`, through `_pydev.array_layout`),
  for a table of shapes and strides.
"""

import itertools

import numpy as np
import pytest

import cuda.device as device
from pydev import _arrays, _types

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
        base.transpose(1, 0, 2),
    ]
    for v, order in itertools.product(views, "CF"):
        v = np.asarray(v, order=order) if order == "F" else v
        strides = tuple(s // v.itemsize for s in v.strides)
        assert _python_layout(v.shape, strides) == native.array_layout(list(v.shape), list(strides)), (v.shape, strides)
