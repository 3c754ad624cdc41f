"""`numba.cuda.np.numpy_support`: the dtype-to-type mapping the tests use.

`from_dtype` is pydev.numba.types'; `as_dtype` reads a type's dtype; `numpy_version` is NumPy's. The rest of numba's module (carray,
farray, ufunc tables) are stand-ins (_absent.py).
"""

import numpy as np

from pydev.numba.types import from_dtype  # noqa: F401

# The installed NumPy's (major, minor), as numba's module defines it (tests pick NumPy's behaviour by it).
numpy_version = tuple(map(int, np.__version__.split(".")[:2]))


def as_dtype(nbtype):
    """The NumPy dtype of a Numba scalar or record type (numba's as_dtype)."""
    dt = getattr(nbtype, "dtype", None)
    if isinstance(dt, np.dtype):
        return dt
    raise NotImplementedError(f"{nbtype!r} cannot be represented as a NumPy dtype")


def __getattr__(name):
    # carray/farray and the rest: numba-cuda internals (_absent.py).
    from .._absent import Absent

    if name.startswith("__"):
        raise AttributeError(name)
    return Absent(f"numba.cuda.np.numpy_support.{name}")
