"""`numba.cuda.core.config` for the test modules.

ENABLE_CUDASIM is False: pydev.numba compiles kernels (to native code on the
host target) rather than interpreting them as numba-cuda's simulator does, so
the tests numba-cuda keeps from its simulator (`skip_on_cudasim`) run, and the
simulator-only ones (`skip_unless_cudasim`) are skipped. The switches
pydev.numba reads (CUDA_LOW_OCCUPANCY_WARNINGS, DISABLE_PERFORMANCE_WARNINGS,
ALWAYS_WARN_UNINIT_VAR)
are pydev.numba.core.config's, read and assigned through this module; the
rest are the defaults of numba-cuda 0.30.4, which pydev.numba does not read.
"""

import sys
import types

import pydev.numba.core.config as _pydev_config

ENABLE_CUDASIM = False
CUDA_WARN_ON_IMPLICIT_COPY = 1
CUDA_MEMORY_MANAGER = "default"
CUDA_ENABLE_NRT = False
CUDA_DEBUGINFO_DEFAULT = False
BOUNDSCHECK = None

_PYDEV = ("CUDA_LOW_OCCUPANCY_WARNINGS", "DISABLE_PERFORMANCE_WARNINGS", "ALWAYS_WARN_UNINIT_VAR")


class _Config(types.ModuleType):
    def __getattr__(self, name):
        if name in _PYDEV:
            return getattr(_pydev_config, name)
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")

    def __setattr__(self, name, value):
        if name in _PYDEV:
            setattr(_pydev_config, name, value)
        else:
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Config
