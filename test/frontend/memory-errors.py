# Errors of local and shared arrays (spec: Local, Shared, and Const Memory):
# the shape is a constant expression [ConstExpr] of positive integers
# [User Requirement], order is 'C' or 'F', align a power of two.
# RUN: not pydevc %s --kernel runtime_shape --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RUNTIME
# RUN: not pydevc %s --kernel runtime_extent --signature 'int32[:], int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=RUNTIME-TUPLE
# RUN: not pydevc %s --kernel loop_shape --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=LOOP
# RUN: not pydevc %s --kernel zero_extent --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ZERO
# RUN: not pydevc %s --kernel negative_extent --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NEGATIVE
# RUN: not pydevc %s --kernel float_shape --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FLOAT
# RUN: not pydevc %s --kernel empty_shape --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=EMPTY
# RUN: not pydevc %s --kernel bad_order --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ORDER
# RUN: not pydevc %s --kernel bad_align --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ALIGN
# RUN: not pydevc %s --kernel bad_dtype --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=DTYPE
# RUN: not pydevc %s --kernel unknown_kw --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=KEYWORD
# RUN: not pydevc %s --kernel shape_twice --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TWICE
# RUN: not pydevc %s --kernel no_dtype --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NO-DTYPE
# RUN: not pydevc %s --kernel dynamic_size --signature 'int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=DYNAMIC
# RUN: not pydevc %s --kernel numpy_long_double --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=NUMPY-DTYPE

import numpy as np
import cuda.device as device

GLOBAL_SHAPE = (4, 0)


# RUNTIME: {{.*}}memory-errors.py:[[@LINE+4]]:29: error: the shape of device.shared_array() must be a constant expression
# RUNTIME: help: use literals, or locals or globals assigned constants
@device.kernel
def runtime_shape(out, n):
    a = device.shared_array(n, device.float32)


# RUNTIME-TUPLE: {{.*}}memory-errors.py:[[@LINE+3]]:28: error: the shape of device.local_array() must be a constant expression
@device.kernel
def runtime_extent(out, n):
    a = device.local_array((4, n), device.float32)


# A local assigned in a loop is not a constant expression.
# LOOP: {{.*}}memory-errors.py:[[@LINE+6]]:28: error: the shape of device.local_array() must be a constant expression
@device.kernel
def loop_shape(out):
    n = 4
    for i in range(3):
        n = n + 1
    a = device.local_array(n, device.float32)


# ZERO: {{.*}}memory-errors.py:[[@LINE+4]]:28: error: the extents of device.local_array() must be positive, got 0
# ZERO: help: an array has at least one element per dimension
@device.kernel
def zero_extent(out):
    a = device.local_array(GLOBAL_SHAPE, device.float32)


# NEGATIVE: {{.*}}memory-errors.py:[[@LINE+3]]:29: error: the extents of device.shared_array() must be positive, got -2
@device.kernel
def negative_extent(out):
    a = device.shared_array((4, -2), device.float32)


# FLOAT: {{.*}}memory-errors.py:[[@LINE+4]]:29: error: the shape of device.shared_array() must be an integer or a tuple of integers, got float32
# FLOAT: help: write the extents as integers, e.g. (32, 32)
@device.kernel
def float_shape(out):
    a = device.shared_array(2.5, device.float32)


# EMPTY: {{.*}}memory-errors.py:[[@LINE+3]]:28: error: the shape of device.local_array() is empty
@device.kernel
def empty_shape(out):
    a = device.local_array((), device.float32)


# ORDER: {{.*}}memory-errors.py:[[@LINE+4]]:53: error: 'A' is not a valid order
# ORDER: help: use one of 'C', 'F'
@device.kernel
def bad_order(out):
    a = device.local_array(4, device.float32, order="A")


# ALIGN: {{.*}}memory-errors.py:[[@LINE+4]]:54: error: the align of device.shared_array() must be a power of two, got 12
# ALIGN: help: e.g. align=16
@device.kernel
def bad_align(out):
    a = device.shared_array(4, device.float32, align=12)


# DTYPE: {{.*}}memory-errors.py:[[@LINE+4]]:31: error: the dtype of device.local_array() must be a type, got a value of type int32
# DTYPE: help: use a number type such as device.float32 or int, a vector type, or a @device.struct class
@device.kernel
def bad_dtype(out):
    a = device.local_array(4, 7)


# KEYWORD: {{.*}}memory-errors.py:[[@LINE+4]]:48: error: device.shared_array() has no keyword argument 'strides'
# KEYWORD: help: the parameters of device.shared_array() are 'shape', 'dtype', 'order', 'align'
@device.kernel
def unknown_kw(out):
    a = device.shared_array(4, device.float32, strides=2)


# TWICE: {{.*}}memory-errors.py:[[@LINE+3]]:48: error: device.shared_array() got two values for argument 'shape'
@device.kernel
def shape_twice(out):
    a = device.shared_array(4, device.float32, shape=8)


# NO-DTYPE: {{.*}}memory-errors.py:[[@LINE+3]]:9: error: device.local_array() is missing argument 'dtype'
@device.kernel
def no_dtype(out):
    a = device.local_array(4)


# DYNAMIC: {{.*}}memory-errors.py:[[@LINE+3]]:9: error: device.dynamic_shared_array() takes 0 arguments, 1 given
@device.kernel
def dynamic_size(out):
    a = device.dynamic_shared_array(16)


# NumPy's dtypes are dtypes, but only those device code has.
# NUMPY-DTYPE: {{.*}}memory-errors.py:[[@LINE+4]]:32: error: numpy.longdouble is not supported in device code
# NUMPY-DTYPE: help: device code takes NumPy's dtypes (np.float32, np.int64, np.dtype(...))
@device.kernel
def numpy_long_double(out):
    a = device.shared_array(4, np.longdouble)
    out[0] = a[0]
