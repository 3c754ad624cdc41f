"""`numba.cuda.core.config` for the test modules.

ENABLE_CUDASIM is False: pydev.numba compiles kernels (to native code on the
host target) rather than interpreting them as numba-cuda's simulator does, so
the tests numba-cuda keeps from its simulator (`skip_on_cudasim`) run, and the
simulator-only ones (`skip_unless_cudasim`) are skipped. The rest are the
defaults of numba-cuda 0.30.4; pydev.numba reads none of them.
"""

ENABLE_CUDASIM = False
CUDA_LOW_OCCUPANCY_WARNINGS = 1
CUDA_WARN_ON_IMPLICIT_COPY = 1
CUDA_MEMORY_MANAGER = "default"
CUDA_ENABLE_NRT = False
DISABLE_PERFORMANCE_WARNINGS = 0
CUDA_DEBUGINFO_DEFAULT = False
BOUNDSCHECK = None
