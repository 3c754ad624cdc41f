"""The `numba` the numba-cuda test modules import, for the compatibility runner.

Only what the test modules name: `numba.cuda` (pydev.numba's cuda, see
cuda/__init__.py), Numba's type names and `__version__`. There is no CPU
Numba here (`njit`, `vectorize` on the CPU): `numba.cuda.HAS_NUMBA` is False,
so numba-cuda's own `skip_on_standalone_numba_cuda` skips the tests that need it.
"""

from pydev.numba import __version__  # noqa: F401
from pydev.numba.types import *  # noqa: F401,F403

from . import cuda  # noqa: F401
from .cuda.core import errors  # noqa: F401 - numba.errors

from .cuda import types  # noqa: E402,F401 - numba.types

typeof = types.typeof
