"""`numba.cuda.extending`: pydev.numba.extending (overload, register_jitable,
intrinsic); numba's low-level extension API (typeof_impl, register_model,
models, lower_builtin, ...) as stand-ins (_absent.py)."""

from pydev.numba import extending as _extending
from pydev.numba.extending import *  # noqa: F401,F403

from ._absent import Absent


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_extending, name, None) or Absent(f"numba.cuda.extending.{name}")
