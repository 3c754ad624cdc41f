"""`pydev.numba.core`: the parts of `numba.core` that user code imports (`errors`)."""

from . import errors  # noqa: F401
