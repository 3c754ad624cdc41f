"""`pydev.numba.core.config`: the switches of numba-cuda's config that
pydev.numba reads, set from the same environment variables (assign them to
change them at run time, as numba-cuda's `config` attributes)."""

import os

# A launch of fewer than 128 blocks warns (NumbaPerformanceWarning), as numba-cuda.
CUDA_LOW_OCCUPANCY_WARNINGS = int(os.environ.get("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "1"))
# Turns every performance warning off.
DISABLE_PERFORMANCE_WARNINGS = int(os.environ.get("NUMBA_DISABLE_PERFORMANCE_WARNINGS", "0"))
# A read of a variable not assigned on its path (it reads zero) warns
# (NumbaWarning "Detected uninitialized variable x"), as Numba's SSA pass does.
ALWAYS_WARN_UNINIT_VAR = int(os.environ.get("NUMBA_ALWAYS_WARN_UNINIT_VAR", "0"))
