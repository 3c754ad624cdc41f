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
from . import types
from .types import *  # noqa: F401,F403 - numba's scalar and array types
from . import cuda

__all__ = ["cuda", "types"] + list(types.__all__)
