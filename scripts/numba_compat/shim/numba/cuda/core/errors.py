"""`numba.cuda.core.errors`: Numba's compile-error classes are pydev's.

pydev.numba reports a kernel it cannot type or compile with
`pydev.numba.core.errors.TypingError` (`RequireLiteralValue` where a
constant is needed), both `pydev.CompileError`s; Numba's other compile-time
error classes are `pydev.CompileError`. Warnings are Numba's classes' names
over Python's warnings.
"""

import pydev as _pydev
from pydev.numba.core.errors import RequireLiteralValue, TypingError  # noqa: F401

NumbaError = LoweringError = UnsupportedError = _pydev.CompileError
CompilerError = NumbaValueError = NumbaTypeError = _pydev.CompileError


from pydev.numba.core.errors import NumbaPerformanceWarning, NumbaWarning  # noqa: E402, F401


class NumbaDeprecationWarning(NumbaWarning, DeprecationWarning):
    pass
