"""`numba.cuda.core.errors`: Numba's compile-error classes are pydev's.

pydev.numba reports a kernel it cannot type or compile with
`pydev.CompileError`; a test expecting Numba's `TypingError` (or another
compile-time error) accepts it. Warnings are Numba's classes' names over
Python's warnings.
"""

import pydev as _pydev

NumbaError = TypingError = LoweringError = UnsupportedError = _pydev.CompileError
CompilerError = NumbaValueError = NumbaTypeError = _pydev.CompileError


class NumbaWarning(Warning):
    pass


class NumbaPerformanceWarning(NumbaWarning):
    pass


class NumbaDeprecationWarning(NumbaWarning, DeprecationWarning):
    pass
