"""`pydev.numba.core.errors`: Numba's compile-error classes, as `numba.core.errors` names them.

A kernel or device function that pydev.numba cannot type or compile raises
`TypingError` (`RequireLiteralValue` where a constant is needed and a
variable was given), so code written for Numba that catches
`numba.core.errors.TypingError` catches it. Each is a `pydev.CompileError`:
the message is pydev's (`file:line:col: error: ...`, the source line and a
caret), not Numba's text.
"""

import pydev as _pydev

__all__ = [
    "CompileValueError",
    "NumbaError",
    "NumbaPerformanceWarning",
    "NumbaWarning",
    "RequireLiteralValue",
    "TypingError",
]


class NumbaError(_pydev.CompileError):
    """Numba's base class of compile errors; a pydev.CompileError."""


class TypingError(NumbaError):
    """The function's code cannot be typed or compiled by pydev.numba."""


class RequireLiteralValue(TypingError):
    """A value that must be known when compiling (a literal integer, e.g.
    `cuda.grid(ndim)`'s or a shared array's shape) is a run-time value."""


class CompileValueError(NumbaError, ValueError):
    """A constant given to device code has an invalid value (e.g. an array
    alignment that is not a power of two): also a ValueError, as Numba-CUDA
    raises a plain ValueError while compiling."""


class NumbaWarning(Warning):
    """Numba's base class of warnings."""


class NumbaPerformanceWarning(NumbaWarning):
    """Code that works but is likely slow: a launch of fewer than 128 blocks
    (config.CUDA_LOW_OCCUPANCY_WARNINGS), as numba-cuda warns."""
