"""`numba.cuda.np`: only `numpy_support`, for its `from_dtype`."""

from . import numpy_support  # noqa: F401
