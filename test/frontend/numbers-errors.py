# Static errors of numbers in device code (spec: Fixed-Format Numbers,
# Numeric Promotion; API.md "Scalars and numbers"): types without a common
# type, operators a type does not have, constants out of their type's range,
# and Python operators and builtins device code does not support.
# RUN: not pydevc %s --kernel mix_uint64 --signature 'int32[:], uint64, int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MIX-UINT64
# RUN: not pydevc %s --kernel compare_uint64 --signature 'int32[:], uint64, int8' --emit pydev 2>&1 | FileCheck %s --check-prefix=CMP-UINT64
# RUN: not pydevc %s --kernel matmul --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MATMUL
# RUN: not pydevc %s --kernel float_bits --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT-BITS
# RUN: not pydevc %s --kernel float_shift --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT-SHIFT
# RUN: not pydevc %s --kernel float_invert --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT-INVERT
# RUN: not pydevc %s --kernel complex_floordiv --signature 'complex64[:], complex64' --emit pydev 2>&1 | FileCheck %s --check-prefix=COMPLEX-FLOORDIV
# RUN: not pydevc %s --kernel complex_order --signature 'int32[:], complex64' --emit pydev 2>&1 | FileCheck %s --check-prefix=COMPLEX-ORDER
# RUN: not pydevc %s --kernel complex_max --signature 'complex64[:], complex64' --emit pydev 2>&1 | FileCheck %s --check-prefix=COMPLEX-MAX
# RUN: not pydevc %s --kernel int8_overflow --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=INT8-RANGE
# RUN: not pydevc %s --kernel uint_negative --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=UINT-NEGATIVE
# RUN: not pydevc %s --kernel float_to_int_overflow --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT-TO-INT16
# RUN: not pydevc %s --kernel store_overflow --signature 'int8[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STORE-RANGE
# RUN: not pydevc %s --kernel big_literal --signature 'int64[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=INT32-LITERAL
# RUN: not pydevc %s --kernel huge_literal --signature 'uint64[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=HUGE-LITERAL
# RUN: not pydevc %s --kernel complex_to_float --signature 'float32[:], complex64' --emit pydev 2>&1 | FileCheck %s --check-prefix=COMPLEX-TO-FLOAT
# RUN: not pydevc %s --kernel is_operator --signature 'int32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=IS
# RUN: not pydevc %s --kernel in_operator --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=IN
# RUN: not pydevc %s --kernel string_add --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STRING-ADD
# RUN: not pydevc %s --kernel fstring --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=FSTRING
# RUN: not pydevc %s --kernel walrus --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=WALRUS
# RUN: not pydevc %s --kernel min_one --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MIN-ONE
# RUN: not pydevc %s --kernel abs_tuple --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=ABS-TUPLE
# RUN: not pydevc %s --kernel round_call --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=ROUND
# RUN: not pydevc %s --kernel conversion_args --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONVERT-ARGS
# RUN: not pydevc %s --kernel convert_array --signature 'float32[:], float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CONVERT-ARRAY
# RUN: not pydevc %s --kernel math_unknown --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MATH-UNKNOWN
# RUN: not pydevc %s --kernel math_complex --signature 'float32[:], complex64' --emit pydev 2>&1 | FileCheck %s --check-prefix=MATH-COMPLEX
# RUN: not pydevc %s --kernel math_arity --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=MATH-ARITY
# RUN: not pydevc %s --kernel no_attribute --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=NO-ATTRIBUTE
# RUN: not pydevc %s --kernel unknown_dtype --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNKNOWN-DTYPE
# RUN: not pydevc %s --kernel numpy_function --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=NUMPY-FUNCTION
# RUN: not pydevc %s --kernel dtype_order --signature 'int32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=DTYPE-ORDER
# RUN: not pydevc %s --kernel dtype_value --signature 'int32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=DTYPE-VALUE
# RUN: not pydevc %s --kernel numpy_dtype_name --signature 'int32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=NUMPY-DTYPE-NAME

import math
import numpy as np
import cuda.device as device


# MIX-UINT64: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: uint64 and int32 have no common type (uint64 with a signed integer); convert one explicitly
@device.kernel
def mix_uint64(out, u, i):
    out[0] = u + i


# CMP-UINT64: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: uint64 and int8 have no common type (uint64 with a signed integer); convert one explicitly
@device.kernel
def compare_uint64(out, u, i):
    out[0] = u < i


# MATMUL: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: the @ operator is not supported in device code
@device.kernel
def matmul(out, x):
    out[0] = x @ x


# FLOAT-BITS: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: '&' needs integers or bools, got float32 and int32
@device.kernel
def float_bits(out, x):
    out[0] = x & 1


# FLOAT-SHIFT: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: '<<' needs integers or bools, got int32 and float32
@device.kernel
def float_shift(out, x):
    out[0] = 1 << x


# FLOAT-INVERT: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: '~' needs an integer, got float32
@device.kernel
def float_invert(out, x):
    out[0] = ~x


# COMPLEX-FLOORDIV: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: '//' is not defined for complex numbers
@device.kernel
def complex_floordiv(out, c):
    out[0] = c // 2


# COMPLEX-ORDER: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: '<' is not defined for complex numbers
@device.kernel
def complex_order(out, c):
    out[0] = c < 1j


# COMPLEX-MAX: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: max() is not defined for complex numbers
@device.kernel
def complex_max(out, c):
    out[0] = max(c, 1)


# INT8-RANGE: {{.*}}numbers-errors.py:[[@LINE+4]]:14: error: 300 does not fit in int8
# INT8-RANGE: help: int8 holds -128 to 127
@device.kernel
def int8_overflow(out):
    out[0] = device.int8(300)


# UINT-NEGATIVE: {{.*}}numbers-errors.py:[[@LINE+4]]:14: error: -1 does not fit in uint32
# UINT-NEGATIVE: help: uint32 holds 0 to 4294967295
@device.kernel
def uint_negative(out):
    out[0] = device.uint32(-1)


# FLOAT-TO-INT16: {{.*}}numbers-errors.py:[[@LINE+4]]:14: error: 10000000000.0 does not fit in int16
# FLOAT-TO-INT16: help: int16 holds -32768 to 32767
@device.kernel
def float_to_int_overflow(out):
    out[0] = device.int16(1e10)


# STORE-RANGE: {{.*}}numbers-errors.py:[[@LINE+4]]:5: error: 1000 does not fit in int8
# STORE-RANGE: help: int8 holds -128 to 127
@device.kernel
def store_overflow(out):
    out[0] = 1000


# INT32-LITERAL: {{.*}}numbers-errors.py:[[@LINE+4]]:9: error: integer 3000000000 does not fit in int32, the type of Python ints in device code
# INT32-LITERAL: help: convert it explicitly, e.g. device.int64(...)
@device.kernel
def big_literal(out):
    x = 3000000000
    out[0] = x


# HUGE-LITERAL: {{.*}}numbers-errors.py:[[@LINE+4]]:28: error: integer literal 100000000000000000000 is too large for device code
# HUGE-LITERAL: help: the widest device integers are int64 and uint64
@device.kernel
def huge_literal(out):
    out[0] = device.uint64(100000000000000000000)


# COMPLEX-TO-FLOAT: {{.*}}numbers-errors.py:[[@LINE+3]]:5: error: cannot convert complex64 to float32
@device.kernel
def complex_to_float(out, c):
    out[0] = c


# IS: {{.*}}numbers-errors.py:[[@LINE+4]]:14: error: 'is' compares with None in device code
# IS: help: compare numbers with == and !=
@device.kernel
def is_operator(out, x):
    out[0] = x is x


# IN: {{.*}}numbers-errors.py:[[@LINE+4]]:14: error: 'in' is not supported in device code
# IN: help: compare with each value, e.g. x == a or x == b
@device.kernel
def in_operator(out, x):
    out[0] = x in (1, 2)


# STRING-ADD: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: '+' needs numbers, got a string
@device.kernel
def string_add(out):
    out[0] = "a" + 1


# FSTRING: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: strings are not values in device code
@device.kernel
def fstring(out, x):
    out[0] = f"{x}"


# WALRUS: {{.*}}numbers-errors.py:[[@LINE+3]]:15: error: assignment expressions (:=) are not supported in device code
@device.kernel
def walrus(out, x):
    out[0] = (y := x)


# MIN-ONE: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: min() takes two or more numbers in device code
@device.kernel
def min_one(out, x):
    out[0] = min(x)


# ABS-TUPLE: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: abs() needs a number, got tuple[float32, float32]
@device.kernel
def abs_tuple(out, x):
    out[0] = abs((x, x))


# ROUND: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: round() is not supported in device code
@device.kernel
def round_call(out, x):
    out[0] = round(x)


# CONVERT-ARGS: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: float32() takes one value
@device.kernel
def conversion_args(out, x):
    out[0] = device.float32(x, x)


# CONVERT-ARRAY: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: cannot convert float32[:] to float32
@device.kernel
def convert_array(out, a):
    out[0] = device.float32(a)


# MATH-UNKNOWN: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: math.gamma is not supported in device code
@device.kernel
def math_unknown(out, x):
    out[0] = math.gamma(x)


# MATH-COMPLEX: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: math.sqrt() needs real numbers, got complex64
@device.kernel
def math_complex(out, c):
    out[0] = math.sqrt(c)


# MATH-ARITY: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: math.pow() takes 2 arguments, 1 given
@device.kernel
def math_arity(out, x):
    out[0] = math.pow(x)


# NO-ATTRIBUTE: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: a float32 has no attribute 'imag'
@device.kernel
def no_attribute(out, x):
    out[0] = x.imag


# UNKNOWN-DTYPE: {{.*}}numbers-errors.py:[[@LINE+3]]:14: error: cuda.device has no 'float128'
@device.kernel
def unknown_dtype(out, x):
    out[0] = device.float128(x)


# NumPy's functions are host code: only its dtypes are device code.
# NUMPY-FUNCTION: {{.*}}numbers-errors.py:[[@LINE+4]]:14: error: numpy.sqrt is not supported in device code
# NUMPY-FUNCTION: help: device code takes NumPy's dtypes
@device.kernel
def numpy_function(out, x):
    out[0] = np.sqrt(x)


# dtypes compare for equality only, with dtypes (or their names).
# DTYPE-ORDER: {{.*}}numbers-errors.py:[[@LINE+4]]:14: error: dtypes compare only with == and !=, not '<'
# DTYPE-ORDER: help: e.g. a.dtype == device.float32
@device.kernel
def dtype_order(out, x):
    out[0] = x.dtype < device.float64


# DTYPE-VALUE: {{.*}}numbers-errors.py:[[@LINE+4]]:14: error: a dtype cannot be compared with a value of type int32 in device code
# DTYPE-VALUE: help: compare dtypes with dtypes
@device.kernel
def dtype_value(out, x):
    out[0] = x.dtype == 4


# NUMPY-DTYPE-NAME: {{.*}}numbers-errors.py:[[@LINE+3]]:23: error: 'float7' is not a dtype device code supports
@device.kernel
def numpy_dtype_name(out, x):
    out[0] = np.dtype("float7") == x.dtype
