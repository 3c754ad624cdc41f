"""`numba.cuda.np.numpy_support`: the dtype-to-type mapping the tests use.

`from_dtype` is pydev.numba.types'. The rest of numba's module (carray,
farray, ufunc tables) are stand-ins (_absent.py).
"""

from pydev.numba.types import from_dtype  # noqa: F401


def __getattr__(name):
    # carray/farray and the rest: numba-cuda internals (_absent.py).
    from .._absent import Absent

    if name.startswith("__"):
        raise AttributeError(name)
    return Absent(f"numba.cuda.np.numpy_support.{name}")
