# Numeric intrinsics (spec: Numeric Intrinsics): popc, brev, clz and ffs on
# integers of each width (popc, clz, ffs give int32; brev keeps the type),
# cbrt and fma (rounded once) on floats.
# RUN: pydevc %s --kernel bits --signature 'int32[:], int32[:]' --emit pydev | FileCheck %s --check-prefixes=BITS,I32
# RUN: pydevc %s --kernel bits --signature 'int64[:], int32[:]' --emit pydev | FileCheck %s --check-prefixes=BITS,I64
# RUN: pydevc %s --kernel bits --signature 'uint32[:], int32[:]' --emit pydev | FileCheck %s --check-prefixes=BITS,U32
# RUN: pydevc %s --kernel bits --signature 'uint8[:], int32[:]' --emit pydev | FileCheck %s --check-prefixes=BITS,U8
# RUN: pydevc %s --kernel brev_types --signature 'int32[:], int64[:], uint32[:]' --emit pydev | FileCheck %s --check-prefix=BREV
# RUN: pydevc %s --kernel floats --signature 'float32[:], float64[:]' --emit pydev | FileCheck %s --check-prefix=FLOATS
# RUN: pydevc %s --kernel half --signature 'float16[:]' --emit pydev | FileCheck %s --check-prefix=HALF

import cuda.device as device
from cuda.device import popc, fma


# BITS-LABEL: func.func @bits
# I32: %[[X:.*]] = pydev.cast %{{.*}} : si32 to i32
# I32-NEXT: %[[P:.*]] = math.ctpop %[[X]] : i32
# I32-NEXT: pydev.cast %[[P]] : i32 to si32
# I64: %[[X:.*]] = pydev.cast %{{.*}} : si64 to i64
# I64-NEXT: %[[P:.*]] = math.ctpop %[[X]] : i64
# I64-NEXT: %[[T:.*]] = arith.trunci %[[P]] : i64 to i32
# I64-NEXT: pydev.cast %[[T]] : i32 to si32
# U32: %[[X:.*]] = pydev.cast %{{.*}} : ui32 to i32
# U32-NEXT: math.ctpop %[[X]] : i32
# U8: %[[X:.*]] = pydev.cast %{{.*}} : ui8 to i8
# U8-NEXT: %[[P:.*]] = math.ctpop %[[X]] : i8
# U8-NEXT: %[[E:.*]] = arith.extui %[[P]] : i8 to i32
# U8-NEXT: pydev.cast %[[E]] : i32 to si32
# BITS: math.ctlz
# ffs(x) is 0 for 0, else the 1-based position of the lowest set bit.
# BITS: %[[TZ:.*]] = math.cttz %[[RAW:[^ ]*]] :
# BITS-NEXT: %[[ONE:.*]] = arith.constant 1
# BITS-NEXT: %[[ZERO:.*]] = arith.constant 0
# BITS-NEXT: %[[P1:.*]] = arith.addi %[[TZ]], %[[ONE]]
# BITS-NEXT: %[[IS0:.*]] = arith.cmpi eq, %[[RAW]], %[[ZERO]]
# BITS-NEXT: arith.select %[[IS0]], %[[ZERO]], %[[P1]]
# BITS: math.ctpop
# BITS: pydev.array_store
@device.kernel
def bits(a, out):
    i = device.tid(1)
    out[0] = device.popc(a[i])
    out[1] = device.clz(a[i])
    out[2] = device.ffs(x=a[i])
    out[3] = popc(5)


# BREV-LABEL: func.func @brev_types
# BREV: %[[A:.*]] = pydev.cast %{{.*}} : si32 to i32
# BREV-NEXT: %[[RA:.*]] = llvm.intr.bitreverse(%[[A]]) : (i32) -> i32
# BREV-NEXT: %[[SA:.*]] = pydev.cast %[[RA]] : i32 to si32
# BREV: pydev.array_store %[[SA]], %arg0
# BREV: %[[B:.*]] = pydev.cast %{{.*}} : si64 to i64
# BREV-NEXT: %[[RB:.*]] = llvm.intr.bitreverse(%[[B]]) : (i64) -> i64
# BREV-NEXT: %[[SB:.*]] = pydev.cast %[[RB]] : i64 to si64
# BREV: pydev.array_store %[[SB]], %arg1
# BREV: %[[C:.*]] = pydev.cast %{{.*}} : ui32 to i32
# BREV-NEXT: %[[RC:.*]] = llvm.intr.bitreverse(%[[C]]) : (i32) -> i32
# BREV-NEXT: %[[SC:.*]] = pydev.cast %[[RC]] : i32 to ui32
# BREV: pydev.array_store %[[SC]], %arg2
@device.kernel
def brev_types(a, b, c):
    i = device.tid(1)
    a[i] = device.brev(a[i])
    b[i] = device.brev(b[i])
    c[i] = device.brev(c[i])


# FLOATS-LABEL: func.func @floats
# FLOATS: math.cbrt %{{.*}} : f32
# FLOATS: math.cbrt %{{.*}} : f64
# FLOATS: %[[ONE:.*]] = pydev.constant 1.000000e+00 : f32
# FLOATS: math.fma %{{.*}}, %{{.*}}, %[[ONE]] : f32
# FLOATS: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f64
# Mixed float32 and float64 operands promote to float64.
# FLOATS: pydev.cast %{{.*}} : f32 to f64
# FLOATS: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f64
# FLOATS: %[[EIGHT:.*]] = pydev.constant 8.000000e+00 : f32
# FLOATS-NEXT: math.cbrt %[[EIGHT]] : f32
@device.kernel
def floats(x, y):
    i = device.tid(1)
    x[i] = device.cbrt(x[i])
    y[i] = device.cbrt(a=y[i])
    x[0] = fma(x[i], x[i], 1.0)
    y[0] = device.fma(y[i], y[i], y[i])
    y[1] = device.fma(x[i], y[i], c=y[0])
    x[1] = device.cbrt(8.0)


# A Python float takes the type of the fixed-format operands.
# HALF-LABEL: func.func @half
# HALF: pydev.constant 5.000000e-01 : f16
# HALF: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f16
# HALF: math.cbrt %{{.*}} : f16
@device.kernel
def half(h):
    h[0] = device.fma(h[1], h[2], 0.5)
    h[1] = device.cbrt(h[0])
