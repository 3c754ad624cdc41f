"""`numba.cuda` for the test modules: pydev.numba's `cuda`, name for name.

A package (so that `numba.cuda.testing` and `numba.cuda.tests` resolve to this
shim) whose attributes are those of `pydev.numba.cuda`; submodules the tests
import by name (`numba.cuda.types`, `.random`, `.extending`, `.args`, `.bf16`,
`.fp8`, and numba-cuda's bfloat16 / float8 binding modules) are aliases of
pydev.numba's. Anything else of numba-cuda (its driver, compiler, typing
internals) is absent on purpose: a test module that imports it fails to
import, and its tests count as failures unless the module is out of scope.
"""

import sys as _sys
import types as _types

import pydev.numba as _numba
import pydev.numba.cuda as _cuda
from pydev.numba import extending, types  # noqa: F401

globals().update({k: v for k, v in vars(_cuda).items() if not k.startswith("__")})

from . import core  # noqa: E402,F401
from .core import config  # noqa: E402,F401

# numba-cuda 0.30 runs without the CPU Numba; so does pydev.numba.
HAS_NUMBA = False

for _name, _mod in (
    ("types", types),
    ("random", _cuda.random),
    ("args", _cuda.args),
    ("vector_types", _cuda.vector_types),
    ("bf16", _cuda.bf16),
    ("fp8", _cuda.fp8),
    ("kernels", _cuda.kernels),
    ("kernels.transpose", _cuda.kernels.transpose),
    # numba-cuda's generated bfloat16 / float8 bindings, which its bf16 module
    # re-exports and the tests import by these names: pydev.numba's modules
    # of the same functions.
    ("_internal.cuda_bf16", _cuda.bf16),
    ("_internal.cuda_fp8", _cuda.fp8),
):
    _sys.modules[__name__ + "." + _name] = _mod


# numba.cuda.misc.special, where numba-cuda defines literal_unroll (also
# numba.cuda.literal_unroll): pydev.numba's. The rest of numba.cuda.misc is absent.
_special = _types.ModuleType(__name__ + ".misc.special")
_special.literal_unroll = _cuda.literal_unroll
_sys.modules[_special.__name__] = _special

from . import _absent, extending  # noqa: E402,F401,F811

# numba-cuda's internals (its compiler, typing, data models, driver) and the
# CUDA Python bindings' cuda.core: stand-ins (_absent.py). The public API of
# numba.cuda (vectorize, cg, ...) is not among them: what pydev.numba
# lacks of it is missing, and the tests that need it fail.
_absent.install(
    [
        __name__ + "." + m
        for m in (
            "core",
            "typing",
            "compiler",
            "cudadrv",
            "_internal",
            "descriptor",
            "flags",
            "typeconv",
            "cudaimpl",
            "cudadecl",
            "codegen",
            "dispatcher",
            "utils",
            "cgutils",
            "datamodel",
            "misc",
            "memory_management",
            "target",
            "api",
            "deviceufunc",
            "libdevicefuncs",
            "launchconfig",
        )
    ]
    + ["numba.core", "numba.np", "cuda.core", "cuda.bindings", "cuda.pathfinder"]
)

# `numba.cuda.typing.typeof.typeof` is numba's type of a value (numba.typeof): pydev.numba's.
_typeof = _sys.modules[__name__ + ".typing.typeof"] = type(_sys)(__name__ + ".typing.typeof")
_typeof.typeof = types.typeof


# `numba.cuda.cudadrv.devicearray`, numba-cuda's device-array module (driver
# code reaches it as `cuda.cudadrv.devicearray`): pydev.numba's
# `cuda.devicearray`. The rest of numba.cuda.cudadrv stays inert stand-ins.
_cudadrv = _absent._AbsentModule(__name__ + ".cudadrv")
_cudadrv.__path__ = []
_cudadrv.devicearray = _cuda.devicearray
_sys.modules[_cudadrv.__name__] = _cudadrv
_sys.modules[_cudadrv.__name__ + ".devicearray"] = _cuda.devicearray
cudadrv = _cudadrv


# The CUDA runtime's cudaRoundMode (cuda-bindings, which pydev's own `cuda`
# package shadows here), as the float8 tests import it: the enum itself,
# with CUDA's values, from pydev.numba's fp8 module (its cvt_*_to_e8m0 take
# it, or any IntEnum of those values). The module's other names stay inert
# stand-ins, as the rest of cuda.bindings.
_runtime = _absent._AbsentModule("cuda.bindings.runtime")
_runtime.cudaRoundMode = _cuda.fp8.cudaRoundMode
_sys.modules["cuda.bindings.runtime"] = _runtime


def __getattr__(name):
    # Names pydev.numba.cuda defines after this module was made (none today).
    return getattr(_cuda, name)


del _numba
