# Numbers in device code (spec: Builtin Numbers, Fixed-Format Numbers,
# Numeric Promotion; API.md "Scalars and numbers"): Python int/float/bool
# literals are weak int32/float32/bool scalars, the fixed-format numbers
# int8..uint64, float16, bfloat16, float32, float64, float8e4m3, float8e5m2,
# complex64/128, conversions, Array API promotion, Python operators with
# Python semantics, comparisons (chained), unary operators, abs/min/max and
# the math module.
# RUN: pydevc %s --kernel literals --signature 'float64[:]' --emit pydev | FileCheck %s --check-prefix=LIT
# RUN: pydevc %s --kernel weak_scalars --signature 'float32[:], int8, uint16, float16, bfloat16, float64, float32, int32, uint32' --emit pydev | FileCheck %s --check-prefix=WEAK
# RUN: pydevc %s --kernel fixed_formats --signature 'float32[:], float32, int32' --emit pydev | FileCheck %s --check-prefix=FIXED
# RUN: pydevc %s --kernel narrow_constants --signature 'float32[:]' --emit pydev | FileCheck %s --check-prefix=NARROW
# RUN: pydevc %s --kernel arithmetic --signature 'float32[:], int32, int32, float32, float32, int64' --emit pydev | FileCheck %s --check-prefix=ARITH
# RUN: pydevc %s --kernel bits --signature 'int32[:], int32, int32, uint8' --emit pydev | FileCheck %s --check-prefix=BITS
# RUN: pydevc %s --kernel compare --signature 'float32[:], int32, int32, float32' --emit pydev | FileCheck %s --check-prefix=CMP
# RUN: pydevc %s --kernel math_funcs --signature 'float32[:], float32, float64, float16' --emit pydev | FileCheck %s --check-prefix=MATH
# RUN: pydevc %s --kernel complex_numbers --signature 'complex128[:], complex64, float64' --emit pydev | FileCheck %s --check-prefix=COMPLEX
# RUN: pydevc %s --kernel folded_floats --signature 'float64[:], int32' --emit pydev | FileCheck %s --check-prefix=LITERAL-FOLD
# RUN: pydevc %s --kernel numpy_numbers --signature 'float64[:], int32, float32' --emit pydev | FileCheck %s --check-prefix=NUMPY

import math
import numpy as np
import cuda.device as device
from cuda.device import float16

BIG = 2**40


# A Python int is int32, a float float32, a bool i1; stored into a float64
# array they convert exactly (the literal's value, not a float32 widened).
# LIT-LABEL: func.func @literals
# LIT: pydev.constant 1.000000e+00 : f64
# LIT: pydev.constant 2.500000e+00 : f64
# LIT: %[[T:.*]] = pydev.constant 1.000000e+00 : f64
# LIT: pydev.array_store %[[T]]
# LIT: pydev.constant 2147483647 : si32
# LIT: pydev.constant -2147483648 : si32
# LIT: pydev.constant 1.000000e+03 : f64
# LIT: %[[TENTH:.*]] = pydev.constant 1.000000e-01 : f64
# LIT: pydev.array_store %[[TENTH]]
# LIT: pydev.constant 1099511627776 : si64
# LIT: pydev.constant 18446744073709551615 : ui64
# LIT: pydev.constant -3000000000 : si64
@device.kernel
def literals(out):
    out[0] = 1
    out[1] = 2.5
    out[2] = True
    out[3] = 1e-3
    out[4] = 0x7FFFFFFF
    out[5] = -2147483648
    out[6] = 1_000
    out[7] = 1 if True else 2
    out[8] = 7 // 2 * 2 + 7 % 2
    out[10] = 0.1
    out[11] = device.int64(BIG)
    out[12] = device.uint64(18446744073709551615)
    out[13] = device.int64(-3000000000)


# Array API promotion with weak Python scalars: the fixed type wins within a
# kind; a Python float with a fixed integer gives float32; a Python float
# constant takes the float type it meets (float64 + 0.1 is exact).
# WEAK-LABEL: func.func @weak_scalars
# WEAK-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[I8:.*]]: si8, %[[U16:.*]]: ui16, %[[H:.*]]: f16, %[[BF:.*]]: bf16, %[[D:.*]]: f64, %[[F:.*]]: f32, %[[I:.*]]: si32, %[[U:.*]]: ui32)
# A Python int takes the fixed type as a constant of it, so the op's operands
# promote to its result by the dialect's table (its verifier checks it).
# WEAK: %[[C1:.*]] = pydev.constant 1 : si8
# WEAK-NEXT: pydev.add %[[I8]], %[[C1]] : si8, si8 -> si8
# WEAK: %[[C2U:.*]] = pydev.constant 2 : ui16
# WEAK-NEXT: pydev.mul %[[U16]], %[[C2U]] : ui16, ui16 -> ui16
# WEAK: %[[C15:.*]] = pydev.constant 1.500000e+00 : f16
# WEAK-NEXT: pydev.add %[[H]], %[[C15]] : f16, f16 -> f16
# WEAK: %[[C2:.*]] = pydev.constant 2.000000e+00 : bf16
# WEAK-NEXT: pydev.mul %[[BF]], %[[C2]] : bf16, bf16 -> bf16
# WEAK: %[[C01:.*]] = pydev.constant 1.000000e-01 : f64
# WEAK-NEXT: pydev.add %[[D]], %[[C01]] : f64, f64 -> f64
# WEAK: pydev.add %[[I8]], %{{.*}} : si8, f32 -> f32
# WEAK: pydev.add %[[I8]], %[[H]] : si8, f16 -> f16
# WEAK: pydev.add %[[H]], %[[F]] : f16, f32 -> f32
# WEAK: pydev.add %[[H]], %[[BF]] : f16, bf16 -> f32
# WEAK: pydev.add %[[I8]], %[[U16]] : si8, ui16 -> si32
# WEAK: pydev.add %[[I]], %[[U]] : si32, ui32 -> si64
# WEAK: pydev.add %[[I]], %{{.*}} : si32, f32 -> f32
# WEAK: pydev.add %{{.*}}, %[[I8]] : i1, si8 -> si8
# WEAK: %[[NINE:.*]] = pydev.constant 9.000000e+00 : f32
# WEAK: pydev.array_store %[[NINE]]
@device.kernel
def weak_scalars(out, i8, u16, h, bf, d, f, i, u):
    out[0] = i8 + 1
    out[1] = u16 * 2
    out[2] = h + 1.5
    out[3] = bf * 2.0
    out[4] = d + 0.1
    out[5] = i8 + 1.5
    out[6] = i8 + h
    out[7] = h + f
    out[8] = h + bf
    out[9] = i8 + u16
    out[10] = i + u
    out[11] = i + 1.5
    out[12] = True + i8
    out[13] = (1 + 2) * 3


# Conversions with the device types and with int(), float(), bool().
# FIXED-LABEL: func.func @fixed_formats
# FIXED-SAME: (%{{.*}}: !pydev.array<f32, 1>, %[[X:.*]]: f32, %[[I:.*]]: si32)
# FIXED: %[[A:.*]] = pydev.cast %[[X]] : f32 to si8
# FIXED-NEXT: %[[B:.*]] = pydev.cast %[[X]] : f32 to si16
# FIXED-NEXT: %[[C:.*]] = pydev.cast %[[X]] : f32 to si32
# FIXED-NEXT: %[[D:.*]] = pydev.cast %[[X]] : f32 to si64
# FIXED-NEXT: %[[E:.*]] = pydev.cast %[[I]] : si32 to ui8
# FIXED-NEXT: %[[F:.*]] = pydev.cast %[[I]] : si32 to ui16
# FIXED-NEXT: %[[G:.*]] = pydev.cast %[[I]] : si32 to ui32
# FIXED-NEXT: %[[H:.*]] = pydev.cast %[[I]] : si32 to ui64
# FIXED-NEXT: %[[J:.*]] = pydev.cast %[[X]] : f32 to f16
# FIXED-NEXT: %[[K:.*]] = pydev.cast %[[X]] : f32 to bf16
# FIXED-NEXT: %[[L:.*]] = pydev.cast %[[X]] : f32 to f64
# FIXED-NEXT: %[[M:.*]] = pydev.cast %[[X]] : f32 to f8E4M3FN
# FIXED-NEXT: %[[N:.*]] = pydev.cast %[[X]] : f32 to f8E5M2
# FIXED-NEXT: %[[O:.*]] = pydev.cast %[[X]] : f32 to complex<f32>
# FIXED-NEXT: %[[P:.*]] = pydev.cast %[[X]] : f32 to complex<f64>
# FIXED-NEXT: %[[Q:.*]] = pydev.cast %[[X]] : f32 to si32
# FIXED-NEXT: %[[R:.*]] = pydev.cast %[[I]] : si32 to f32
# FIXED: %[[S:.*]] = pydev.cmp ne, %[[I]], %{{.*}} : si32, si32
# FIXED: %[[AB:.*]] = pydev.add %[[A]], %[[B]] : si8, si16 -> si16
# FIXED-NEXT: %[[ABC:.*]] = pydev.add %[[AB]], %[[C]] : si16, si32 -> si32
# FIXED-NEXT: pydev.add %[[ABC]], %[[D]] : si32, si64 -> si64
# FIXED: %[[EF:.*]] = pydev.add %[[E]], %[[F]] : ui8, ui16 -> ui16
# FIXED-NEXT: %[[EFG:.*]] = pydev.add %[[EF]], %[[G]] : ui16, ui32 -> ui32
# FIXED-NEXT: pydev.add %[[EFG]], %[[H]] : ui32, ui64 -> ui64
# FIXED: %[[JK:.*]] = pydev.add %[[J]], %[[K]] : f16, bf16 -> f32
# FIXED-NEXT: %[[JKL:.*]] = pydev.add %[[JK]], %[[L]] : f32, f64 -> f64
# FIXED-NEXT: %[[JKLM:.*]] = pydev.add %[[JKL]], %[[M]] : f64, f8E4M3FN -> f64
# FIXED-NEXT: pydev.add %[[JKLM]], %[[N]] : f64, f8E5M2 -> f64
# FIXED: %[[OP:.*]] = pydev.add %[[O]], %[[P]] : complex<f32>, complex<f64> -> complex<f64>
# FIXED-NEXT: pydev.abs %[[OP]] : complex<f64> -> f64
# FIXED: pydev.add %[[Q]], %[[R]] : si32, f32 -> f32
# FIXED: pydev.cast %[[S]] : i1 to f32
# FIXED: %[[MAX:.*]] = pydev.constant 18446744073709551615 : ui64
# FIXED: %[[U8:.*]] = pydev.constant 255 : ui8
# FIXED-NEXT: pydev.add %[[MAX]], %[[U8]] : ui64, ui8 -> ui64
@device.kernel
def fixed_formats(out, x, i):
    a = device.int8(x)
    b = device.int16(x)
    c = device.int32(x)
    d = device.int64(x)
    e = device.uint8(i)
    f = device.uint16(i)
    g = device.uint32(i)
    h = device.uint64(i)
    j = float16(x)
    k = device.bfloat16(x)
    l = device.float64(x)
    m = device.float8e4m3(x)
    n = device.float8e5m2(x)
    o = device.complex64(x)
    p = device.complex128(x)
    q = int(x)
    r = float(i)
    s = bool(i)
    out[0] = float(a + b + c + d)
    out[1] = float(e + f + g + h)
    out[2] = j + k + l + m + n
    out[3] = abs(o + p)
    out[4] = q + r
    out[5] = s
    out[7] = device.uint64(18446744073709551615) + device.uint8(255)


# Constants of the narrow float types carry their exact bit patterns
# (rounded to nearest even; too large gives infinity, or NaN in float8e4m3,
# which has none), and constant arithmetic rounds like the device does.
# NARROW-LABEL: func.func @narrow_constants
# NARROW: pydev.constant 1.000000e+00 : f16
# NARROW: pydev.constant 5.000000e-01 : bf16
# NARROW: pydev.constant 4.480000e+02 : f8E4M3FN
# NARROW: %[[SUM:.*]] = pydev.constant 4.495000e+02 : f32
# NARROW: pydev.array_store %[[SUM]]
# NARROW: pydev.constant 0x7C00 : f16
# NARROW: pydev.constant 0x7F : f8E4M3FN
# NARROW: pydev.constant 5.734400e+04 : f8E5M2
# NARROW: %[[ZERO:.*]] = pydev.constant 0.000000e+00 : f32
# NARROW: pydev.array_store %[[ZERO]]
# NARROW: %[[TRUNC:.*]] = pydev.constant 0.000000e+00 : f32
# NARROW: pydev.array_store %[[TRUNC]]
@device.kernel
def narrow_constants(out):
    out[0] = device.float16(1.0) + device.bfloat16(0.5) + device.float8e4m3(448.0)
    out[1] = device.float16(65520.0)
    out[2] = device.float8e4m3(1000.0)
    out[3] = device.float8e5m2(57344.0)
    # 16777217 is not a float32: both operands are 2**24.
    out[4] = device.float32(16777217.0) - device.float32(16777216.0)
    # int() truncates toward zero.
    out[5] = device.int32(2.9) + device.int32(-2.9)


# `/` is true division (int / int is float32, int64 / int64 float64), `//`
# and `%` floor, `**`; constant operands fold with Python semantics.
# ARITH-LABEL: func.func @arithmetic
# ARITH-SAME: (%{{.*}}: !pydev.array<f32, 1>, %[[A:.*]]: si32, %[[B:.*]]: si32, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[W:.*]]: si64)
# ARITH: pydev.truediv %[[A]], %[[B]] : si32, si32 -> f32
# ARITH: pydev.floordiv %[[A]], %[[B]] : si32, si32 -> si32
# ARITH: pydev.mod %[[A]], %[[B]] : si32, si32 -> si32
# ARITH: pydev.pow %[[A]], %{{.*}} : si32, si32 -> si32
# ARITH: pydev.truediv %[[X]], %[[Y]] : f32, f32 -> f32
# ARITH: pydev.floordiv %[[X]], %[[Y]] : f32, f32 -> f32
# ARITH: pydev.mod %[[X]], %[[Y]] : f32, f32 -> f32
# ARITH: pydev.pow %[[X]], %[[Y]] : f32, f32 -> f32
# ARITH: pydev.truediv %[[W]], %[[W]] : si64, si64 -> f64
# -7 // 2 + -7 % 2 + 7 // -2 + 2 ** 10 == -4 + 1 - 4 + 1024
# ARITH: %[[FOLD:.*]] = pydev.constant 1.017000e+03 : f32
# ARITH: pydev.array_store %[[FOLD]]
# ARITH: %[[HALF:.*]] = pydev.constant 3.500000e+00 : f32
# ARITH-NEXT: pydev.constant 10 : si32
# ARITH: pydev.array_store %[[HALF]]
# ARITH: pydev.pow %[[X]], %{{.*}} : f32, si32 -> f32
@device.kernel
def arithmetic(out, a, b, x, y, w):
    out[0] = a / b
    out[1] = a // b
    out[2] = a % b
    out[3] = a ** 2
    out[4] = x / y
    out[5] = x // y
    out[6] = x % y
    out[7] = x ** y
    out[8] = w / w
    out[9] = -7 // 2 + -7 % 2 + 7 // -2 + 2 ** 10
    out[10] = 7 / 2
    out[11] = x ** -1


# Bit operations and shifts on integers and bools; unary operators.
# BITS-LABEL: func.func @bits
# BITS-SAME: (%{{.*}}: !pydev.array<si32, 1>, %[[A:.*]]: si32, %[[B:.*]]: si32, %[[U:.*]]: ui8)
# BITS: pydev.and %[[A]], %[[B]] : si32, si32 -> si32
# BITS: pydev.or %[[A]], %[[B]] : si32, si32 -> si32
# BITS: pydev.xor %[[A]], %[[B]] : si32, si32 -> si32
# BITS: pydev.lshift %[[A]], %{{.*}} : si32, si32 -> si32
# BITS: pydev.rshift %[[A]], %[[B]] : si32, si32 -> si32
# BITS: %[[ONE:.*]] = pydev.constant 1 : ui8
# BITS-NEXT: pydev.rshift %[[U]], %[[ONE]] : ui8, ui8 -> ui8
# BITS: pydev.invert %[[A]] : si32 -> si32
# BITS: pydev.neg %[[A]] : si32 -> si32
# BITS: pydev.pos %[[A]] : si32 -> si32
# (0xF0 | 0x0F) ^ (1 << 4) == 239
# BITS: %[[K:.*]] = pydev.constant 239 : si32
# BITS-NEXT: pydev.constant 9 : si32
# BITS: pydev.array_store %[[K]]
# BITS: pydev.and %{{.*}}, %{{.*}} : i1, i1 -> i1
# BITS: pydev.neg %{{.*}} : i1 -> si32
# BITS: pydev.invert %{{.*}} : i1 -> si32
@device.kernel
def bits(out, a, b, u):
    out[0] = a & b
    out[1] = a | b
    out[2] = a ^ b
    out[3] = a << 3
    out[4] = a >> b
    out[5] = u >> 1
    out[6] = ~a
    out[7] = -a
    out[8] = +a
    out[9] = (0xF0 | 0x0F) ^ (1 << 4)
    out[10] = True & False
    out[11] = -True
    out[12] = ~True


# Comparisons (a chain evaluates each operand once and short-circuits),
# `not`, abs, min and max of mixed types.
# CMP-LABEL: func.func @compare
# CMP-SAME: (%{{.*}}: !pydev.array<f32, 1>, %[[A:.*]]: si32, %[[B:.*]]: si32, %[[X:.*]]: f32)
# CMP: pydev.cmp lt, %[[A]], %[[B]] : si32, si32
# CMP: pydev.cmp le, %[[A]], %[[B]] : si32, si32
# CMP: pydev.cmp eq, %[[A]], %[[X]] : si32, f32
# CMP: pydev.cmp ne, %[[A]], %[[B]] : si32, si32
# CMP: pydev.cmp ge, %[[A]], %[[B]] : si32, si32
# CMP: pydev.cmp gt, %[[A]], %[[B]] : si32, si32
# 0 <= a < b <= 100
# CMP: %[[C1:.*]] = pydev.cmp le, %{{.*}}, %[[A]] : si32, si32
# CMP-NEXT: cf.cond_br %[[C1]], ^[[SECOND:.*]], ^[[DONE:.*]](%[[C1]] : i1)
# CMP: ^[[SECOND]]:
# CMP-NEXT: %[[C2:.*]] = pydev.cmp lt, %[[A]], %[[B]] : si32, si32
# CMP-NEXT: cf.cond_br %[[C2]], ^[[THIRD:.*]], ^[[DONE]](%[[C2]] : i1)
# CMP: ^[[THIRD]]:
# CMP: %[[C3:.*]] = pydev.cmp le, %[[B]], %{{.*}} : si32, si32
# CMP-NEXT: cf.br ^[[DONE]](%[[C3]] : i1)
# CMP: ^[[DONE]](%[[CHAIN:.*]]: i1):
# CMP-NEXT: pydev.constant 6 : si32
# CMP-NEXT: pydev.cast %[[CHAIN]] : i1 to f32
# CMP: %[[NZ:.*]] = pydev.cmp ne, %[[A]], %{{.*}} : si32, si32
# CMP-NEXT: pydev.not %[[NZ]] : i1 -> i1
# CMP: pydev.abs %[[X]] : f32 -> f32
# CMP: pydev.min %[[A]], %[[B]] : si32, si32 -> si32
# CMP: %[[M1:.*]] = pydev.max %[[A]], %[[X]] : si32, f32 -> f32
# CMP-NEXT: pydev.max %[[M1]], %{{.*}} : f32, si32 -> f32
# CMP: pydev.abs %[[A]] : si32 -> si32
# CMP: pydev.cmp lt, %[[X]], %{{.*}} : f32, f32
@device.kernel
def compare(out, a, b, x):
    out[0] = a < b
    out[1] = a <= b
    out[2] = a == x
    out[3] = a != b
    out[4] = a >= b
    out[5] = a > b
    out[6] = 0 <= a < b <= 100
    out[7] = not a
    out[8] = abs(x)
    out[9] = min(a, b)
    out[10] = max(a, x, 2)
    out[11] = abs(a)
    out[12] = x < 0.5


# The math module: float32 by default, float64 or float16 when an argument
# is (a Python float argument adopts the other's type).
# MATH-LABEL: func.func @math_funcs
# MATH-SAME: (%{{.*}}: !pydev.array<f32, 1>, %[[X:.*]]: f32, %[[D:.*]]: f64, %[[H:.*]]: f16)
# MATH: math.sqrt %[[X]] : f32
# MATH: math.exp %[[X]] : f32
# MATH: math.log %[[X]] : f32
# MATH: math.sin %[[D]] : f64
# MATH: math.powf %[[X]], %{{.*}} : f32
# MATH: math.floor %[[X]] : f32
# MATH: arith.cmpf uno, %[[X]], %[[X]] : f32
# MATH: %[[XD:.*]] = pydev.cast %[[X]] : f32 to f64
# MATH-NEXT: math.atan2 %[[D]], %[[XD]] : f64
# MATH: math.absf %[[D]] : f64
# MATH: %[[FOUR:.*]] = pydev.constant 4.000000e+00 : f32
# MATH-NEXT: math.sqrt %[[FOUR]] : f32
# MATH: %[[HA:.*]] = math.absf %[[H]] : f16
# MATH-NEXT: %[[INF:.*]] = arith.constant 0x7C00 : f16
# MATH-NEXT: arith.cmpf oeq, %[[HA]], %[[INF]] : f16
@device.kernel
def math_funcs(out, x, d, h):
    out[0] = math.sqrt(x)
    out[1] = math.exp(x) + math.log(x)
    out[2] = math.sin(d)
    out[3] = math.pow(x, 2.0)
    out[4] = math.floor(x)
    out[5] = math.isnan(x)
    out[6] = math.atan2(d, x)
    out[7] = math.fabs(d)
    out[8] = math.sqrt(4)
    out[9] = math.isinf(h)


# Complex numbers: complex literals are complex64, promotion with float64
# gives complex128, abs gives the real type, .real and .imag.
# COMPLEX-LABEL: func.func @complex_numbers
# COMPLEX-SAME: (%{{.*}}: !pydev.array<complex<f64>, 1>, %[[C:.*]]: complex<f32>, %[[D:.*]]: f64)
# COMPLEX: %[[J:.*]] = complex.constant [0.000000e+00 : f32, 2.000000e+00 : f32] : complex<f32>
# COMPLEX-NEXT: pydev.mul %[[C]], %[[J]] : complex<f32>, complex<f32> -> complex<f32>
# COMPLEX: pydev.add %[[C]], %[[D]] : complex<f32>, f64 -> complex<f64>
# COMPLEX: pydev.abs %[[C]] : complex<f32> -> f32
# COMPLEX: complex.re %[[C]] : complex<f32>
# COMPLEX: complex.im %[[C]] : complex<f32>
# COMPLEX: pydev.cmp eq, %[[C]], %{{.*}} : complex<f32>, complex<f32>
@device.kernel
def complex_numbers(out, c, d):
    out[0] = c * 2j
    out[1] = c + d
    out[2] = abs(c)
    out[3] = c.real + c.imag
    out[4] = c == 1j


# A Python float is a float32, also where the frontend folds it: x * 3 of
# x = 0.1 is float32(0.1) * 3 rounded to float32 (0.30000001192092896), the
# value the run-time product x * k has for k = 3; 1 / 3 and 0.1 + 0.2 fold
# in float32 too. A lone literal stored into a float64 array keeps its own
# value (it adopts the type it meets), and integers fold exactly.
# LITERAL-FOLD-LABEL: func.func @folded_floats
# LITERAL-FOLD: %[[A:.*]] = pydev.constant 0.30000001192092896 : f64
# LITERAL-FOLD-NEXT: pydev.array_store %[[A]]
# LITERAL-FOLD: pydev.mul %{{.*}}, %{{.*}} : f32, si32 -> f32
# LITERAL-FOLD: %[[C:.*]] = pydev.constant 0.30000001192092896 : f64
# LITERAL-FOLD-NEXT: pydev.array_store %[[C]]
# LITERAL-FOLD: %[[D:.*]] = pydev.constant 0.3333333432674408 : f64
# LITERAL-FOLD-NEXT: pydev.array_store %[[D]]
# LITERAL-FOLD: %[[E:.*]] = pydev.constant 1.000000e-01 : f64
# LITERAL-FOLD-NEXT: pydev.array_store %[[E]]
# LITERAL-FOLD: %[[F:.*]] = pydev.constant 0x4270000000001000 : f64
# LITERAL-FOLD-NEXT: pydev.array_store %[[F]]
# LITERAL-FOLD: %[[G:.*]] = pydev.constant 0.30000000000000004 : f64
# LITERAL-FOLD: pydev.array_store %[[G]]
@device.kernel
def folded_floats(out, k):
    x = 0.1
    out[0] = x * 3
    out[1] = x * k
    out[2] = 0.1 + 0.2
    out[3] = 1 / 3
    out[4] = x
    out[5] = device.int64(1 << 20) * (1 << 20) + 1
    out[6] = device.float64(0.1) * 3


# NumPy's scalar types are dtypes in device code (API.md): conversions
# (np.int8(x) wraps like device.int8(x)), views, and `.dtype` of numbers
# (zero-dimensional arrays), which compares with == and != at compile time.
# NUMPY-LABEL: func.func @numpy_numbers
# NUMPY-SAME: (%{{.*}}: !pydev.array<f64, 1>, %[[I:.*]]: si32, %[[X:.*]]: f32)
# NUMPY: pydev.cast %[[I]] : si32 to si8
# NUMPY: pydev.cast %[[I]] : si32 to f32
# NUMPY: pydev.cast %[[X]] : f32 to f64
# NUMPY: pydev.array_view %{{.*}} : <f32, 1, local, c> -> <si32, 1, local, c>
# NUMPY: %[[T:.*]] = pydev.constant 1.000000e+00 : f64
# NUMPY-NEXT: pydev.array_store %[[T]]
# NUMPY: %[[F:.*]] = pydev.constant 0.000000e+00 : f64
# NUMPY-NEXT: pydev.array_store %[[F]]
# NUMPY: %[[S:.*]] = pydev.constant 4.000000e+00 : f64
# NUMPY-NEXT: pydev.array_store %[[S]]
@device.kernel
def numpy_numbers(out, i, x):
    out[0] = np.int8(i)
    out[1] = np.float32(i) / 3
    out[2] = np.double(x)
    out[3] = x.view(np.int32)
    out[4] = x.dtype == np.float32
    out[5] = i.dtype != np.intc
    out[6] = x.dtype.itemsize
