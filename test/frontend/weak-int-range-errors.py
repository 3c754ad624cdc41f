# A Python int that meets a fixed-format integer takes its type (Array API
# weak scalars), which the standard requires only of an int within that
# type's bounds ("dashed lines: behavior for Python scalars is undefined on
# overflow"); NumPy 2 raises OverflowError. A constant one outside them is a
# compile error naming the literal, its value and the type, at the literal,
# instead of wrapping (-8 as a uint16 is 65528).
# RUN: not pydevc %s --kernel rem_negative --signature 'uint16[:], uint16[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=REM
# RUN: not pydevc %s --kernel left_literal --signature 'int8[:], int8[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=LEFT
# RUN: not pydevc %s --kernel augmented --signature 'uint8[:], uint8' --emit pydev 2>&1 | FileCheck %s --check-prefix=AUG
# RUN: not pydevc %s --kernel augmented_element --signature 'int8[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=AUG-ELEMENT
# RUN: not pydevc %s --kernel int16_overflow --signature 'int16[:], int16' --emit pydev 2>&1 | FileCheck %s --check-prefix=INT16
# RUN: not pydevc %s --kernel constant_expression --signature 'uint32[:], uint32' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONST-EXPR
# Does not fire: ints within the range, comparisons (NumPy compares values),
# an explicit conversion, two Python ints.
# RUN: pydevc %s --kernel fits --signature 'uint16[:], uint16[:]' --emit pydev | FileCheck %s --check-prefix=FITS

import cuda.device as device


# REM: {{.*}}weak-int-range-errors.py:[[@LINE+7]]:21: error: the Python int -8 does not fit in uint16, the type of the other operand of '%' (it would wrap to 65528)
# REM: out[i] = a[i] % -8
# REM-NEXT: ^^
# REM: help: a Python int takes the type of the fixed-format number it meets, and must be within its range 0..65535 (Array API; NumPy raises OverflowError); convert one operand explicitly, e.g. device.int32(x) % -8
@device.kernel
def rem_negative(out, a):
    i = device.tid(1)
    out[i] = a[i] % -8


# LEFT: {{.*}}weak-int-range-errors.py:[[@LINE+3]]:14: error: the Python int 300 does not fit in int8, the type of the other operand of '+' (it would wrap to 44)
@device.kernel
def left_literal(out, a):
    out[0] = 300 + a[0]


# AUG: {{.*}}weak-int-range-errors.py:[[@LINE+4]]:10: error: the Python int 256 does not fit in uint8, the type of the other operand of '+' (it would wrap to 0)
@device.kernel
def augmented(out, x):
    y = x
    y += 256
    out[0] = y


# AUG-ELEMENT: {{.*}}weak-int-range-errors.py:[[@LINE+3]]:15: error: the Python int -129 does not fit in int8, the type of the other operand of '-' (it would wrap to 127)
@device.kernel
def augmented_element(out):
    out[0] -= -129


# INT16: {{.*}}weak-int-range-errors.py:[[@LINE+3]]:18: error: the Python int 40000 does not fit in int16, the type of the other operand of '*' (it would wrap to -25536)
@device.kernel
def int16_overflow(out, x):
    out[0] = x * 40000


# A constant expression of Python ints is a Python int too.
# CONST-EXPR: {{.*}}weak-int-range-errors.py:[[@LINE+4]]:18: error: the Python int -1 does not fit in uint32, the type of the other operand of '^'
@device.kernel
def constant_expression(out, x):
    k = 3 - 4
    out[0] = x ^ k


# FITS-LABEL: func.func @fits
# FITS: pydev.mod
# FITS: pydev.add
# FITS: pydev.cmp
# FITS: pydev.mod
@device.kernel
def fits(out, a):
    i = device.tid(1)
    v = a[i] % 8 + 65535
    if a[i] > -1:
        v = device.int32(a[i]) % -8
    out[i] = v + (-8 % 3)
