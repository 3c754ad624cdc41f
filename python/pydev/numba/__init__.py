"""`pydev.numba`: Numba-CUDA's kernel language as a pydev frontend.

    from pydev.numba import cuda, float32

    @cuda.jit
    def axpy(a, x, y, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = a * x[i] + y[i]

    axpy[blocks, threads](2.0, x, y, out)

Built only on pydev's public backend API (`pydev.ir`, `pydev.Program`,
`device.launch`); see docs/numba.md."""

import sys as _sys

from . import types
from .types import *  # noqa: F401,F403 - numba's scalar and array types

# The package is `_cuda`, known as `pydev.numba.cuda` through sys.modules:
# numba-cuda's import hook (_numba_cuda_redirector, installed with it)
# takes every module name containing "numba.cuda" for its own and recurses
# without end on any other (seen on a GPU machine with numba-cuda 0.30), so
# no finder may ever be asked for `pydev.numba.cuda...`. Both modules are
# registered here, before anyone can import them by that name.
from . import _cuda as cuda
from ._cuda import bf16 as _bf16
from ._cuda import fp8 as _fp8
from ._cuda import random as _random

_sys.modules[__name__ + ".cuda"] = cuda
_sys.modules[__name__ + ".cuda.random"] = _random
_sys.modules[__name__ + ".cuda.bf16"] = _bf16
_sys.modules[__name__ + ".cuda.fp8"] = _fp8
from ._cuda import vector_types as _vector_types  # noqa: E402

_sys.modules[__name__ + ".cuda.vector_types"] = _vector_types
from ._cuda import kernels as _kernels  # noqa: E402

_sys.modules[__name__ + ".cuda.kernels"] = _kernels
_sys.modules[__name__ + ".cuda.kernels.transpose"] = _kernels.transpose

from . import extending  # noqa: E402,F401 - numba.extending, for `import pydev.numba as numba; numba.extending`

# Builtins implemented in Numba syntax (compiled by this frontend), registered
# in _builtins' table on import; _ufuncs last: it gives every ufunc registered
# before it its array form.
from . import _cmath, _npfuncs  # noqa: E402,F401,I001
from . import _ufuncs  # noqa: E402,F401
from ._npfuncs import literal_unroll  # noqa: E402,F401 - numba.literal_unroll

__all__ = ["cuda", "types", "literal_unroll"] + list(types.__all__)

# The Numba version pydev.numba stands in for, for libraries that check
# `numba.__version__`: numba-cuda 0.30, whose host API and kernel language
# pydev.numba follows, runs on Numba 0.60 and later. PEP 440, three
# numbers, no suffix: `Version(v) >= Version("0.57")` and
# `tuple(map(int, v.split(".")))` both read it.
__version__ = "0.61.2"
