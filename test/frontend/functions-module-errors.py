# Decorator errors of device functions (spec: @func, @kernel): a function
# both @kernel and @func [User Requirement], unknown or unsupported
# decorator arguments ("Frameworks shall produce an error"). Python applies
# decorators when the module is imported, so these errors fail the whole
# module: every one is reported, whichever kernel is compiled.
# RUN: not pydevc %s --kernel fine --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=DECO

import cuda.device as device
from cuda.device import kernel, func


# DECO: {{.*}}functions-module-errors.py:[[@LINE+2]]:1: error: a function cannot be both @device.kernel and @device.func
@device.kernel
@device.func
def both(out):
    pass


# DECO: {{.*}}functions-module-errors.py:[[@LINE+3]]:1: error: a function cannot be both @device.kernel and @device.func
# DECO: help: kernels are device-only; call a @device.func from the kernel instead
@func(interop=True)
@kernel
def both_imported(out):
    pass


# DECO: {{.*}}functions-module-errors.py:[[@LINE+2]]:14: error: unknown keyword 'inline' of @device.func
# DECO: help: the keywords are interop=True|False, link=[paths], lineinfo=True|False, fmad=True|False, passes={point: passes} and plugins=[paths]
@device.func(inline=True)
def unknown_keyword(x):
    return x


# link= is a keyword (the Python package links the files): not this error.
# DECO: {{.*}}functions-module-errors.py:[[@LINE+2]]:16: error: unknown keyword 'maxregs' of @device.kernel
# DECO: help: the keywords are interop=True|False, link=[paths], lineinfo=True|False, fmad=True|False, passes={point: passes} and plugins=[paths]
@device.kernel(maxregs=32)
def unknown_kernel_keyword(out):
    pass


# DECO: {{.*}}functions-module-errors.py:[[@LINE+2]]:15: error: the arguments of @device.kernel must be keywords
# DECO: help: write @device.kernel(interop=True)
@device.kernel(True)
def positional(out):
    pass


# DECO: {{.*}}functions-module-errors.py:[[@LINE+2]]:22: error: interop of @device.func must be True or False
# DECO: help: write interop=True or interop=False
@device.func(interop=1)
def bad_interop(x):
    return x


# DECO: {{.*}}functions-module-errors.py:[[@LINE+2]]:14: error: @device.func does not take **kwargs
# DECO: help: write the keywords out, e.g. interop=True
@device.func(**{"interop": True})
def kwargs_decorator(x):
    return x


# The kernel itself is fine; it is not compiled because the module fails.
# DECO-NOT: error
@device.kernel
def fine(out):
    out[0] = 1
