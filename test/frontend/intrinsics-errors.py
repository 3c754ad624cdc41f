# Errors of numeric intrinsics (spec: Numeric Intrinsics): popc, brev, clz
# and ffs take heterogeneous integers, cbrt and fma floats [User Requirement].
# RUN: not pydevc %s --kernel popc_float --signature 'float32[:], int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=POPC-FLOAT
# RUN: not pydevc %s --kernel brev_bool --signature 'float32[:], int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=BREV-BOOL
# RUN: not pydevc %s --kernel clz_complex --signature 'complex64[:], int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CLZ-COMPLEX
# RUN: not pydevc %s --kernel ffs_vector --signature 'int32x2[:], int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FFS-VECTOR
# RUN: not pydevc %s --kernel clz_args --signature 'int32[:], int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CLZ-ARGS
# RUN: not pydevc %s --kernel ffs_kw --signature 'int32[:], int32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FFS-KEYWORD
# RUN: not pydevc %s --kernel cbrt_int --signature 'int32[:], float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CBRT-INT
# RUN: not pydevc %s --kernel cbrt_complex --signature 'complex64[:], float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=CBRT-COMPLEX
# RUN: not pydevc %s --kernel fma_int --signature 'float32[:], float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FMA-INT
# RUN: not pydevc %s --kernel fma_two --signature 'float32[:], float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FMA-TWO
# RUN: not pydevc %s --kernel fma_four --signature 'float32[:], float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FMA-FOUR

import cuda.device as device


# POPC-FLOAT: {{.*}}intrinsics-errors.py:[[@LINE+4]]:26: error: device.popc() needs an integer, got float32
# POPC-FLOAT: help: convert it, e.g. device.int32(x)
@device.kernel
def popc_float(a, out):
    out[0] = device.popc(a[0])


# BREV-BOOL: {{.*}}intrinsics-errors.py:[[@LINE+3]]:26: error: device.brev() needs an integer, got bool
@device.kernel
def brev_bool(a, out):
    out[0] = device.brev(a[0] > 0)


# CLZ-COMPLEX: {{.*}}intrinsics-errors.py:[[@LINE+3]]:25: error: device.clz() needs an integer, got complex64
@device.kernel
def clz_complex(a, out):
    out[0] = device.clz(a[0])


# FFS-VECTOR: {{.*}}intrinsics-errors.py:[[@LINE+3]]:25: error: device.ffs() needs an integer, got int32x2
@device.kernel
def ffs_vector(a, out):
    out[0] = device.ffs(a[0])


# CLZ-ARGS: {{.*}}intrinsics-errors.py:[[@LINE+3]]:14: error: device.clz() takes 1 argument, 2 given
@device.kernel
def clz_args(a, out):
    out[0] = device.clz(a[0], 1)


# FFS-KEYWORD: {{.*}}intrinsics-errors.py:[[@LINE+4]]:25: error: device.ffs() has no keyword argument 'value'
# FFS-KEYWORD: help: the parameters of device.ffs() are 'x'
@device.kernel
def ffs_kw(a, out):
    out[0] = device.ffs(value=a[0])


# CBRT-INT: {{.*}}intrinsics-errors.py:[[@LINE+4]]:26: error: device.cbrt() needs a floating-point number, got int32
# CBRT-INT: help: convert it, e.g. device.float32(x)
@device.kernel
def cbrt_int(a, out):
    out[0] = device.cbrt(a[0])


# CBRT-COMPLEX: {{.*}}intrinsics-errors.py:[[@LINE+3]]:26: error: device.cbrt() needs a floating-point number, got complex64
@device.kernel
def cbrt_complex(a, out):
    out[0] = device.cbrt(a[0])


# FMA-INT: {{.*}}intrinsics-errors.py:[[@LINE+4]]:37: error: device.fma() needs floating-point numbers, got int32
# FMA-INT: help: convert it, e.g. device.float32(x), or write a float literal such as 2.0
@device.kernel
def fma_int(a, out):
    out[0] = device.fma(a[0], a[1], 2)


# FMA-TWO: {{.*}}intrinsics-errors.py:[[@LINE+3]]:14: error: device.fma() is missing argument 'c'
@device.kernel
def fma_two(a, out):
    out[0] = device.fma(a[0], a[1])


# FMA-FOUR: {{.*}}intrinsics-errors.py:[[@LINE+3]]:14: error: device.fma() takes 3 arguments, 4 given
@device.kernel
def fma_four(a, out):
    out[0] = device.fma(a[0], a[1], a[2], a[3])
