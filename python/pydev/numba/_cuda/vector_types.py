"""numba-cuda's `numba.cuda.vector_types`: `vector_types`, each vector type's
name (`float32x4`, ...; not the C aliases) to its Numba type."""

from . import _VECTOR_TYPES

vector_types = {name: v.numba_type for name, v in _VECTOR_TYPES.items() if name == v.__name__}
