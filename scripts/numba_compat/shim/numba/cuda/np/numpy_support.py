"""`numba.cuda.np.numpy_support`: the dtype-to-type mapping the tests use.

`from_dtype` is pydev.numba.types'. The rest of numba's module (carray,
farray, ufunc tables) is numba-cuda's own and not provided.
"""

from pydev.numba.types import from_dtype  # noqa: F401
