"""`cuda.kernels`: numba-cuda's ready-made kernels, written in pydev.numba
(`cuda.kernels.transpose.transpose`)."""

from . import transpose  # noqa: F401
