# Structs, vectors and tuples in device code (spec: Vectors, Tuples,
# User-Defined Types, align(); API.md "Structs, vectors, tuples"): structs
# with and without align=, construction by position and by keyword, field
# reads, `s.f = v` rebinding `s` to a new struct (pydev.struct_insert),
# nested structs, vectors (construction, .x .y .z .w, indexing, len, .size,
# iteration, `v[i] = x` and `v.x = e` rebinding), tuples,
# device.align(t, n) as a struct field type, a dtype and a constructor, and
# field defaults.
# RUN: pydevc %s --kernel structs --signature 'float32[:], float32' --emit pydev | FileCheck %s --check-prefix=STRUCT
# RUN: pydevc %s --kernel nested_structs --signature 'float32[:], Particle, float32' --emit pydev | FileCheck %s --check-prefix=NESTED
# RUN: pydevc %s --kernel vectors --signature 'float32[:], float32x4, int32' --emit pydev | FileCheck %s --check-prefix=VEC
# RUN: pydevc %s --kernel vector_types --signature 'float32[:], uint8x3, float16x2, int64x1' --emit pydev | FileCheck %s --check-prefix=VTYPES
# RUN: pydevc %s --kernel tuples --signature 'float32[:], (int32, (float32, int8)), float32' --emit pydev | FileCheck %s --check-prefix=TUPLE
# RUN: pydevc %s --kernel aligned --signature 'float32[:], Padded, float32' --emit pydev | FileCheck %s --check-prefix=ALIGN
# RUN: pydevc %s --kernel aligned_plain --signature 'Padded[::1], Complex[::1], float32' --emit pydev | FileCheck %s --check-prefix=ALIGN-PLAIN

import cuda.device as device
from cuda.device import float32x4


@device.struct
class Point:
    x: int
    y: int
    z: int


@device.struct(align=16)
class Complex:
    real: float
    imag: float


@device.struct
class Particle:
    pos: device.float32x4
    mass: device.float64
    tag: device.int8
    c: Complex


ALIGN = 8


# A module constant as align=, a field with a default value.
@device.struct(align=ALIGN)
class Counter:
    n: int
    step: float = 0.5


@device.struct
class Padded:
    a: device.int8
    b: device.align(device.float32, 16)
    c: device.align(Complex, 32)


# STRUCT-LABEL: func.func @structs
# STRUCT-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[X:.*]]: f32)
# STRUCT: %[[C1:.*]] = pydev.constant 1 : si32
# STRUCT-NEXT: %[[C2:.*]] = pydev.constant 2 : si32
# STRUCT-NEXT: %[[C3:.*]] = pydev.constant 3 : si32
# STRUCT-NEXT: %[[A:.*]] = pydev.struct_create(%[[C1]], %[[C2]], %[[C3]]) : (si32, si32, si32) -> !pydev.struct<"Point", {x: si32, y: si32, z: si32}>
# Keywords are evaluated in the order written and placed in field order.
# STRUCT-NEXT: %[[C4:.*]] = pydev.constant 4 : si32
# STRUCT-NEXT: %[[C6:.*]] = pydev.constant 6 : si32
# STRUCT-NEXT: %[[C5:.*]] = pydev.constant 5 : si32
# STRUCT-NEXT: %[[B:.*]] = pydev.struct_create(%[[C4]], %[[C5]], %[[C6]]) : (si32, si32, si32) -> !pydev.struct<"Point", {x: si32, y: si32, z: si32}>
# A struct with align=16; a Python int becomes the float32 of the field.
# STRUCT: %[[CPLX:.*]] = pydev.struct_create(%{{.*}}, %[[X]]) : (f32, f32) -> !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>
# a.x = 10 makes a new struct; q keeps the old one.
# STRUCT: %[[TEN:.*]] = pydev.constant 10 : si32
# STRUCT-NEXT: %[[A1:.*]] = pydev.struct_insert %[[TEN]], %[[A]]["x"] : si32, <"Point", {x: si32, y: si32, z: si32}>
# STRUCT-NEXT: %[[BZ:.*]] = pydev.struct_extract %[[B]]["z"] : <"Point", {x: si32, y: si32, z: si32}> -> si32
# STRUCT-NEXT: %[[A2:.*]] = pydev.struct_insert %[[BZ]], %[[A1]]["y"] : si32, <"Point", {x: si32, y: si32, z: si32}>
# STRUCT-NEXT: pydev.struct_extract %[[A2]]["x"]
# STRUCT-NEXT: pydev.struct_extract %[[A2]]["y"]
# STRUCT: pydev.struct_extract %[[A1]]["y"]
# STRUCT: pydev.struct_extract %[[CPLX]]["real"] : <"Complex", {real: f32, imag: f32}, align 16> -> f32
# STRUCT: pydev.struct_extract %[[CPLX]]["imag"] : <"Complex", {real: f32, imag: f32}, align 16> -> f32
# STRUCT: %[[N:.*]] = pydev.constant 3 : si32
# STRUCT-NEXT: %[[STEP:.*]] = pydev.constant 5.000000e-01 : f32
# STRUCT-NEXT: pydev.struct_create(%[[N]], %[[STEP]]) : (si32, f32) -> !pydev.struct<"Counter", {n: si32, step: f32}, align 8>
@device.kernel
def structs(out, x):
    a = Point(1, 2, 3)
    b = Point(x=4, z=6, y=5)
    c = Complex(1, imag=x)
    a.x = 10
    q = a
    a.y = b.z
    out[0] = a.x + a.y + q.y + c.real + c.imag
    k = Counter(3)
    out[1] = k.step


# Struct arguments; assigning a field of a nested struct rebuilds the outer
# struct; a struct built from a vector, numbers and a struct.
# NESTED-LABEL: func.func @nested_structs
# NESTED-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[P:.*]]: !pydev.struct<"Particle", {pos: !pydev.vector<4 x f32>, mass: f64, tag: si8, c: !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>}>, %[[X:.*]]: f32)
# NESTED: %[[TWO:.*]] = pydev.constant 2.000000e+00 : f64
# NESTED-NEXT: %[[P1:.*]] = pydev.struct_insert %[[TWO]], %[[P]]["mass"] : f64
# NESTED-NEXT: %[[C:.*]] = pydev.struct_extract %[[P1]]["c"]
# NESTED-NEXT: %[[C1:.*]] = pydev.struct_insert %[[X]], %[[C]]["real"] : f32
# NESTED-NEXT: %[[P2:.*]] = pydev.struct_insert %[[C1]], %[[P1]]["c"] : !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>
# NESTED: %[[POS:.*]] = pydev.struct_extract %[[P2]]["pos"] : {{.*}} -> !pydev.vector<4 x f32>
# NESTED: pydev.vector_extract %[[POS]][%{{.*}}] : <4 x f32>, si32 -> f32
# NESTED: %[[V:.*]] = pydev.vector_create(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32, f32) -> !pydev.vector<4 x f32>
# NESTED: %[[TAG:.*]] = pydev.constant 2 : si8
# NESTED-NEXT: pydev.struct_create(%[[V]], %{{.*}}, %[[TAG]], %{{.*}}) : (!pydev.vector<4 x f32>, f64, si8, !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>) -> !pydev.struct<"Particle"
@device.kernel
def nested_structs(out, p, x):
    p.mass = 2.0
    p.c.real = x
    out[0] = p.mass + p.c.real + p.pos.w
    s = Particle(float32x4(1.0, 2.0, 3.0, 4.0), 1, 2, p.c)
    out[1] = s.tag


# VEC-LABEL: func.func @vectors
# VEC-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[V:.*]]: !pydev.vector<4 x f32>, %[[I:.*]]: si32)
# VEC: %[[A:.*]] = pydev.vector_create(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32, f32) -> !pydev.vector<4 x f32>
# The elements convert to the element type (spec: constructible from the
# arguments).
# VEC: %[[I64:.*]] = pydev.cast %[[I]] : si32 to si64
# VEC: %[[B:.*]] = pydev.vector_create(%[[I64]], %{{.*}}) : (si64, si64) -> !pydev.vector<2 x si64>
# .x .y .z .w are lanes 0 to 3.
# VEC: %[[L0:.*]] = pydev.constant 0 : si32
# VEC-NEXT: pydev.vector_extract %[[A]][%[[L0]]] : <4 x f32>, si32 -> f32
# VEC: %[[L3:.*]] = pydev.constant 3 : si32
# VEC-NEXT: pydev.vector_extract %[[A]][%[[L3]]] : <4 x f32>, si32 -> f32
# A run-time index wraps when negative; a constant -1 is lane 3.
# VEC: %[[NEG:.*]] = pydev.cmp lt, %[[I]], %{{.*}} : si32, si32
# VEC-NEXT: %[[WRAP:.*]] = pydev.add %[[I]], %{{.*}} : si32, si32 -> si32
# VEC-NEXT: %[[IDX:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[I]] : si32
# VEC-NEXT: pydev.vector_extract %[[A]][%[[IDX]]] : <4 x f32>, si32 -> f32
# VEC-NEXT: pydev.constant -1 : si32
# VEC-NEXT: %[[LAST:.*]] = pydev.constant 3 : si32
# VEC-NEXT: pydev.vector_extract %[[A]][%[[LAST]]]
# VEC: pydev.vector_extract %[[V]]
# len(a) + a.size == 8
# VEC: %[[EIGHT:.*]] = pydev.constant 8.000000e+00 : f32
# VEC: pydev.array_store %[[EIGHT]]
# Iteration is unrolled over the lanes.
# VEC: %[[B0:.*]] = pydev.vector_extract %[[B]]
# VEC: %[[B1:.*]] = pydev.vector_extract %[[B]]
# VEC: pydev.add %{{.*}}, %[[B0]] : f32, si64 -> f32
# VEC: pydev.add %{{.*}}, %[[B1]] : f32, si64 -> f32
# a[1] = 7 and a.x = 9 make new vectors; w keeps the one before a.x = 9.
# VEC: %[[SEVEN:.*]] = pydev.constant 7.000000e+00 : f32
# VEC-NEXT: %[[A1:.*]] = pydev.vector_insert %[[SEVEN]], %[[A]][%{{.*}}] : f32, <4 x f32>, si32
# VEC: %[[NINE:.*]] = pydev.constant 9.000000e+00 : f32
# VEC-NEXT: %[[LX:.*]] = pydev.constant 0 : si32
# VEC-NEXT: %[[A2:.*]] = pydev.vector_insert %[[NINE]], %[[A1]][%[[LX]]] : f32, <4 x f32>, si32
# VEC: pydev.vector_extract %[[A2]]
# VEC: pydev.vector_extract %[[A1]]
# v[i] = x with a run-time index.
# VEC: pydev.vector_insert %{{.*}}, %[[V]][%{{.*}}] : f32, <4 x f32>, si32
@device.kernel
def vectors(out, v, i):
    a = device.float32x4(1.0, 2.0, 3.0, 4.0)
    b = device.int64x2(i, 5)
    out[0] = a.x + a.y + a.z + a.w
    out[1] = a[i] + a[-1] + v[0]
    out[2] = len(a) + a.size
    for e in b:
        out[3] += e
    a[1] = 7
    w = a
    a.x = 9
    out[4] = a.y + w.x
    v[i] = out[5]
    out[6] = v.z


# Vector element types and sizes; unpacking a vector.
# VTYPES-LABEL: func.func @vector_types
# VTYPES-SAME: (%{{.*}}: !pydev.array<f32, 1>, %[[U:.*]]: !pydev.vector<3 x ui8>, %[[H:.*]]: !pydev.vector<2 x f16>, %[[L:.*]]: !pydev.vector<1 x si64>)
# VTYPES: %[[X:.*]] = pydev.vector_extract %[[U]][%{{.*}}] : <3 x ui8>, si32 -> ui8
# VTYPES: %[[Y:.*]] = pydev.vector_extract %[[U]][%{{.*}}] : <3 x ui8>, si32 -> ui8
# VTYPES: %[[Z:.*]] = pydev.vector_extract %[[U]][%{{.*}}] : <3 x ui8>, si32 -> ui8
# VTYPES: %[[XY:.*]] = pydev.add %[[X]], %[[Y]] : ui8, ui8 -> ui8
# VTYPES-NEXT: pydev.add %[[XY]], %[[Z]] : ui8, ui8 -> ui8
# VTYPES: pydev.vector_extract %[[H]][%{{.*}}] : <2 x f16>, si32 -> f16
# VTYPES: pydev.vector_extract %[[L]][%{{.*}}] : <1 x si64>, si32 -> si64
# VTYPES: %[[C:.*]] = pydev.constant 1 : ui8
# VTYPES: pydev.vector_create(%[[C]], %{{.*}}, %{{.*}}) : (ui8, ui8, ui8) -> !pydev.vector<3 x ui8>
# VTYPES: pydev.vector_create(%{{.*}}, %{{.*}}) : (bf16, bf16) -> !pydev.vector<2 x bf16>
# VTYPES: pydev.vector_create(%{{.*}}) : (f8E4M3FN) -> !pydev.vector<1 x f8E4M3FN>
@device.kernel
def vector_types(out, u, h, l):
    x, y, z = u
    out[0] = x + y + z
    out[1] = h.y + l.x
    u2 = device.uint8x3(1, 2, 3)
    b = device.bfloat16x2(1.0, 2.0)
    f = device.float8e4m3x1(1.0)
    out[2] = u2.z + b.x + f.x


# Tuples: nested packing, constant (also negative) indices, len, nested
# unpacking of a tuple argument.
# TUPLE-LABEL: func.func @tuples
# TUPLE-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[T:.*]]: !pydev.tuple<si32, !pydev.tuple<f32, si8>>, %[[X:.*]]: f32)
# TUPLE: %[[IN:.*]] = pydev.tuple_create(%{{.*}}, %{{.*}}) : (f32, si32) -> !pydev.tuple<f32, si32>
# TUPLE-NEXT: pydev.tuple_create(%{{.*}}, %[[X]], %[[IN]]) : (si32, f32, !pydev.tuple<f32, si32>) -> !pydev.tuple<si32, f32, !pydev.tuple<f32, si32>>
# TUPLE: %[[THREE:.*]] = pydev.constant 3.000000e+00 : f32
# TUPLE: pydev.array_store %[[THREE]]
# TUPLE: %[[U:.*]] = pydev.tuple_extract %[[T]][0] : <si32, !pydev.tuple<f32, si8>> -> si32
# TUPLE-NEXT: %[[VW:.*]] = pydev.tuple_extract %[[T]][1] : <si32, !pydev.tuple<f32, si8>> -> !pydev.tuple<f32, si8>
# TUPLE-NEXT: %[[V:.*]] = pydev.tuple_extract %[[VW]][0] : <f32, si8> -> f32
# TUPLE-NEXT: %[[W:.*]] = pydev.tuple_extract %[[VW]][1] : <f32, si8> -> si8
# TUPLE-NEXT: %[[UV:.*]] = pydev.add %[[U]], %[[V]] : si32, f32 -> f32
# TUPLE-NEXT: pydev.add %[[UV]], %[[W]] : f32, si8 -> f32
@device.kernel
def tuples(out, t, x):
    a = (1, x, (2.5, 3))
    out[0] = a[0] + a[1] + a[2][0] + a[-1][1]
    out[1] = len(a)
    u, (v, w) = t
    out[2] = u + v + w


# device.align(t, n): a struct gets the larger alignment; another type is
# stored in a one-field struct aligned to n, and is a plain t where it is
# read or computed with.
# ALIGN-LABEL: func.func @aligned
# ALIGN-SAME: %[[P:.*]]: !pydev.struct<"Padded", {a: si8, b: !pydev.struct<"aligned_float32_16", {value: f32}, align 16>, c: !pydev.struct<"Complex", {real: f32, imag: f32}, align 32>}>, %[[X:.*]]: f32
# ALIGN: %[[W:.*]] = pydev.struct_create(%{{.*}}, %[[X]]) : (f32, f32) -> !pydev.struct<"Complex", {real: f32, imag: f32}, align 32>
# ALIGN: %[[XB:.*]] = pydev.struct_create(%[[X]]) : (f32) -> !pydev.struct<"aligned_float32_16", {value: f32}, align 16>
# ALIGN-NEXT: %[[Q:.*]] = pydev.struct_create(%{{.*}}, %[[XB]], %[[W]])
# ALIGN: %[[HALF:.*]] = pydev.struct_create(%{{.*}}) : (f32) -> !pydev.struct<"aligned_float32_16", {value: f32}, align 16>
# ALIGN-NEXT: %[[Q1:.*]] = pydev.struct_insert %[[HALF]], %[[Q]]["b"]
# ALIGN-NEXT: %[[QB:.*]] = pydev.struct_extract %[[Q1]]["b"]
# ALIGN-NEXT: %[[QBV:.*]] = pydev.struct_extract %[[QB]]["value"] : <"aligned_float32_16", {value: f32}, align 16> -> f32
# ALIGN-NEXT: pydev.add %[[X]], %[[QBV]] : f32, f32 -> f32
# ALIGN: %[[S:.*]] = pydev.shared_array shape [4] order "C" : <!pydev.struct<"aligned_float32_16", {value: f32}, align 16>, 1, shared, c>
# ALIGN: %[[SX:.*]] = pydev.struct_create(%[[X]])
# ALIGN-NEXT: pydev.array_store %[[SX]], %[[S]]
# ALIGN: %[[E:.*]] = pydev.array_load %[[S]]
# ALIGN-NEXT: pydev.struct_extract %[[E]]["value"]
@device.kernel
def aligned(out, p, x):
    A = device.align(device.float32, 16)
    B = device.align(Complex, 32)
    v = A(x)
    w = B(1.0, x)
    q = Padded(1, x, w)
    q.b = 2.5
    out[0] = v + q.b + q.c.imag + p.b
    s = device.shared_array(4, A)
    s[0] = x
    out[1] = s[0]


# align(Complex, 32) holds the same fields as Complex: a plain Complex stores
# into the aligned field (moved field by field into the aligned layout), and
# the field stores into an array of plain Complex (moved back).
# ALIGN-PLAIN-LABEL: func.func @aligned_plain
# ALIGN-PLAIN: %[[Z:.*]] = pydev.struct_create(%{{.*}}, %{{.*}}) : (f32, f32) -> !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>
# ALIGN-PLAIN-NEXT: %[[ZR:.*]] = pydev.struct_extract %[[Z]]["real"] : <"Complex", {real: f32, imag: f32}, align 16> -> f32
# ALIGN-PLAIN-NEXT: %[[ZI:.*]] = pydev.struct_extract %[[Z]]["imag"] : <"Complex", {real: f32, imag: f32}, align 16> -> f32
# ALIGN-PLAIN-NEXT: %[[ZA:.*]] = pydev.struct_create(%[[ZR]], %[[ZI]]) : (f32, f32) -> !pydev.struct<"Complex", {real: f32, imag: f32}, align 32>
# ALIGN-PLAIN-NEXT: %[[P:.*]] = pydev.struct_insert %[[ZA]], %{{.*}}["c"]
# ALIGN-PLAIN: %[[C:.*]] = pydev.struct_extract %[[P]]["c"] : <"Padded", {{.*}}> -> !pydev.struct<"Complex", {real: f32, imag: f32}, align 32>
# ALIGN-PLAIN: %[[CR:.*]] = pydev.struct_extract %[[C]]["real"]
# ALIGN-PLAIN-NEXT: %[[CI:.*]] = pydev.struct_extract %[[C]]["imag"]
# ALIGN-PLAIN-NEXT: %[[CP:.*]] = pydev.struct_create(%[[CR]], %[[CI]]) : (f32, f32) -> !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>
# ALIGN-PLAIN-NEXT: pydev.array_store %[[CP]], %{{.*}}[%{{.*}}] : !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>
@device.kernel
def aligned_plain(ps, cs, x):
    p = ps[0]
    p.c = Complex(x, 2.0)
    ps[0] = p
    cs[0] = p.c
