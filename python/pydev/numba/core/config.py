"""`pydev.numba.core.config`: the switches of numba-cuda's config that
pydev.numba reads, set from the same environment variables (assign them to
change them at run time, as numba-cuda's `config` attributes)."""

import os

# A launch of fewer than 128 blocks warns (NumbaPerformanceWarning), as numba-cuda.
CUDA_LOW_OCCUPANCY_WARNINGS = int(os.environ.get("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "1"))
# Turns every performance warning off.
DISABLE_PERFORMANCE_WARNINGS = int(os.environ.get("NUMBA_DISABLE_PERFORMANCE_WARNINGS", "0"))
