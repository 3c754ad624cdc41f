"""The `numba` the numba-cuda test modules import, for the compatibility runner.

Only what the test modules name: `numba.cuda` (pydev.numba's cuda, see
cuda/__init__.py), Numba's type names, `types`, `typeof`, `errors`,
`__version__`, and `vectorize`/`guvectorize` with `target="cuda"` (as Numba
hands those to numba-cuda); the CPU `vectorize` that a few tests use for
their reference values is NumPy's `np.vectorize`. There is no CPU
Numba here (`njit`, `vectorize` on the CPU): `numba.cuda.HAS_NUMBA` is False,
so numba-cuda's own `skip_on_standalone_numba_cuda` skips the tests that need it.
"""

from pydev.numba import __version__  # noqa: F401
from pydev.numba.types import *  # noqa: F401,F403

from . import cuda  # noqa: F401
from .cuda.core import errors  # noqa: F401 - numba.errors

from .cuda import types  # noqa: E402,F401 - numba.types

typeof = types.typeof


def vectorize(*args, target="cpu", **kwargs):
    """numba.vectorize(..., target="cuda") is numba-cuda's (pydev.numba's
    cuda.vectorize); the CPU target needs the CPU Numba, absent here."""
    if target == "cuda":
        return cuda.vectorize(*args, **kwargs)
    return _cpu_vectorize(*args, **kwargs)


def _cpu_vectorize(sigs=None, **kwargs):
    # A few tests compute their references with the CPU Numba's vectorize:
    # NumPy's np.vectorize in its place (the reference, not what is tested),
    # with the first signature's result type.
    import numpy as np

    def decorate(fn):
        if not sigs or callable(sigs):
            return np.vectorize(fn)
        sig = sigs[0] if isinstance(sigs, (list, tuple)) else sigs
        sig = types.parse(sig) if isinstance(sig, str) else sig
        return np.vectorize(fn, otypes=[sig.return_type.dtype])

    if callable(sigs):
        f, sigs = sigs, None
        return decorate(f)
    return decorate


def guvectorize(*args, target="cpu", **kwargs):
    if target != "cuda":
        raise NotImplementedError(f"numba.guvectorize(target={target!r}) needs the CPU Numba")
    return cuda.guvectorize(*args, **kwargs)
