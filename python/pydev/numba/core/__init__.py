"""`pydev.numba.core`: the parts of `numba.core` that user code imports (`errors`, `config`)."""

from . import config, errors  # noqa: F401
