"""The names of CUDA's vector types in the `cuda` namespace, as numba-cuda
0.30 exports them: `cuda.float32x4`, `cuda.int16x2`, ... (element types
int8 to uint64, float32, float64; 1 to 4 lanes) and their C aliases
(`cuda.float4`, `cuda.double2`, `cuda.uint3`, `cuda.longlong2`, ...).

The names exist, so that modules written for Numba-CUDA import; a use in
device code is a pydev.CompileError naming the type (pydev.numba does not
compile vector values yet), and a call on the host is Numba's
NotImplementedError (its stubs are not instantiable either)."""

import numpy as np

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

    def _pydev_numba_call(self, c, args, kwargs, node):
        raise c.err(
            node,
            f"{self._pydev_numba_name}: CUDA vector types are not supported in pydev.numba device code "
            "(use cuda.device's vector types with @device.kernel, or separate scalars)",
        )

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"{self._pydev_numba_name} is not instantiable on the host (as in Numba-CUDA)")

    def __repr__(self):
        return f"<{self.__name__}>"


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
