"""`numba.cuda.core`: only `config` and `errors`, the two the test modules read."""

from . import config, errors  # noqa: F401
