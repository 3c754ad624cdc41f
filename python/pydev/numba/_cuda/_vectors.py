"""CUDA's vector types in the `cuda` namespace, as numba-cuda 0.30 exports
them: `cuda.float32x4`, `cuda.int16x2`, ... (element types int8 to uint64,
float32, float64; 1 to 4 lanes) and their C aliases (`cuda.float4`,
`cuda.double2`, `cuda.uint3`, `cuda.longlong2`, ...).

In device code they are pydev's vectors (`!pydev.vector<4 x f32>`, the
dialect's `pydev.vector_create`/`vector_extract`): `cuda.float32x4(a, b, c,
d)` builds one from numbers and smaller vectors of the same element type
whose lanes add up (`float32x4(f2, one, f1)`), `v.x`/`.y`/`.z`/`.w` read its
lanes; vectors are values (variables, tuples, device-function arguments and
results). `vector_types` (numba-cuda's `numba.cuda.vector_types`) maps each
name to its Numba type (`base_type`, `num_elements`, `attr_names`,
`user_facing_object`). A call on the host is Numba's NotImplementedError (its
stubs are not instantiable either)."""

import numpy as np

from ... import ir
from .. import types as _t
from .._typing import TypedValue, _tname

_ELEMENTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
_LANES = ("x", "y", "z", "w")

# Numba's C aliases: each C name is the element type of its size here.
_ALIASES = {
    "char": f"int{np.dtype(np.byte).itemsize * 8}",
    "short": f"int{np.dtype(np.short).itemsize * 8}",
    "int": f"int{np.dtype(np.intc).itemsize * 8}",
    "long": f"int{np.dtype(np.int_).itemsize * 8}",
    "longlong": f"int{np.dtype(np.longlong).itemsize * 8}",
    "uchar": f"uint{np.dtype(np.ubyte).itemsize * 8}",
    "ushort": f"uint{np.dtype(np.ushort).itemsize * 8}",
    "uint": f"uint{np.dtype(np.uintc).itemsize * 8}",
    "ulong": f"uint{np.dtype(np.uint).itemsize * 8}",
    "ulonglong": f"uint{np.dtype(np.ulonglong).itemsize * 8}",
    "float": "float32",
    "double": "float64",
}


class VectorType:
    """`cuda.float32x4` and the other vector type names."""

    def __init__(self, element, lanes):
        self.__name__ = f"{element}x{lanes}"
        self.element, self.lanes = element, lanes
        self.fields = _LANES[:lanes]
        self.aliases = []
        self._pydev_numba_name = f"cuda.{self.__name__}"

    @property
    def numba_type(self):
        t = self.__dict__.get("_type")
        if t is None:
            t = self._type = VectorNumbaType(self)
        return t

    def _pydev_numba_call(self, c, args, kwargs, node):
        vt = self.numba_type
        if kwargs:
            raise c.err(node, f"{self._pydev_numba_name}() takes its lanes positionally")
        lanes = []
        for a in args:
            if isinstance(a, TypedValue) and isinstance(a.t, VectorNumbaType):
                if a.t.base_type != vt.base_type:
                    raise c.err(node, f"{self._pydev_numba_name}() takes vectors of {vt.base_type}, got a {a.t}")
                lanes += [vt.lane(c, a, k, node) for k in range(a.t.num_elements)]
            elif isinstance(a, TypedValue) and isinstance(a.t, (_t.Number, _t.Boolean)) and a.items is None:
                lanes.append(c.val(c.cast(a, vt.base_type, node), node))
            else:
                raise c.err(node, f"{self._pydev_numba_name}() takes numbers and vectors, got {_tname(a)}")
        if len(lanes) != vt.num_elements:
            raise c.err(
                node,
                f"{self._pydev_numba_name}() needs {vt.num_elements} lanes in all, its arguments give {len(lanes)}",
            )
        c.at(node)
        return TypedValue(c.f.ops.vector_create(*lanes, result=vt.ir), vt)

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"{self._pydev_numba_name} is not instantiable on the host (as in Numba-CUDA)")

    def __repr__(self):
        return f"<{self.__name__}>"


class VectorNumbaType(_t.Type):
    """The Numba type of a vector type's values (numba-cuda's VectorType)."""

    _pydev_numba_vector = True  # what the compiler's modules test (they do not import _cuda)

    def __init__(self, obj):
        super().__init__(obj.__name__)
        self.user_facing_object = obj
        self.base_type = getattr(_t, obj.element)
        self.attr_names = obj.fields
        self.num_elements = obj.lanes
        self.ir = ir.vector(self.base_type.ir, obj.lanes)

    def lane(self, c, v, k, node):
        return c.f.ops.vector_extract(c.val(v, node), c.iconst(k), result=self.base_type.ir)

    def value_attr(self, c, v, name, node):
        """`v.x` ... `v.w`."""
        if name not in self.attr_names:
            raise c.err(node, f"a {self.name} has no attribute '{name}' ({', '.join(self.attr_names)})")
        c.at(node)
        return TypedValue(self.lane(c, v, self.attr_names.index(name), node), self.base_type)


def vector_types():
    """{name: VectorType} of every vector type name and alias."""
    out = {}
    for element in _ELEMENTS:
        for lanes in range(1, 5):
            out[f"{element}x{lanes}"] = VectorType(element, lanes)
    for alias, element in _ALIASES.items():
        for lanes in range(1, 5):
            v = out[f"{element}x{lanes}"]
            v.aliases.append(f"{alias}{lanes}")
            out[f"{alias}{lanes}"] = v
    return out
