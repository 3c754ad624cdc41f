# Static errors of structs, vectors and tuples in device code (spec:
# Vectors, Tuples, User-Defined Types): construction with wrong or missing
# fields and values [User Requirement], attributes that cannot be added
# [User Requirement], lanes and indices out of range [User Requirement],
# non-constant tuple indices, tuples being immutable. Errors in @device.struct
# definitions, which fail the whole module, are in aggregates-module-errors.py.
# RUN: not pydevc %s --kernel too_many_fields --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=TOO-MANY-FIELDS
# RUN: not pydevc %s --kernel missing_field --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=MISSING-FIELD
# RUN: not pydevc %s --kernel unknown_field --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=UNKNOWN-FIELD
# RUN: not pydevc %s --kernel field_twice --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FIELD-TWICE
# RUN: not pydevc %s --kernel field_type --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=FIELD-TYPE
# RUN: not pydevc %s --kernel field_float_literal --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FIELD-FLOAT-LITERAL
# RUN: not pydevc %s --kernel field_int_to_bool --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=FIELD-INT-TO-BOOL
# RUN: not pydevc %s --kernel add_attribute --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ADD-ATTRIBUTE
# RUN: not pydevc %s --kernel read_attribute --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=READ-ATTRIBUTE
# RUN: not pydevc %s --kernel assign_field_type --signature 'float32[:], float64' --emit pydev 2>&1 | FileCheck %s --check-prefix=ASSIGN-FIELD-TYPE
# RUN: not pydevc %s --kernel struct_class_value --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STRUCT-CLASS-VALUE
# RUN: not pydevc %s --kernel struct_arithmetic --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=STRUCT-ARITHMETIC
# RUN: not pydevc %s --kernel vector_args --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=VECTOR-ARGS
# RUN: not pydevc %s --kernel vector_element --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=VECTOR-ELEMENT
# RUN: not pydevc %s --kernel vector_lane --signature 'float32[:], float32x2' --emit pydev 2>&1 | FileCheck %s --check-prefix=VECTOR-LANE
# RUN: not pydevc %s --kernel vector_set_lane --signature 'float32[:], float32x2' --emit pydev 2>&1 | FileCheck %s --check-prefix=VECTOR-SET-LANE
# RUN: not pydevc %s --kernel vector_index --signature 'float32[:], float32x2' --emit pydev 2>&1 | FileCheck %s --check-prefix=VECTOR-INDEX
# RUN: not pydevc %s --kernel vector_negative --signature 'float32[:], float32x2' --emit pydev 2>&1 | FileCheck %s --check-prefix=VECTOR-NEGATIVE
# RUN: not pydevc %s --kernel vector_float_index --signature 'float32[:], float32x2, float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=VECTOR-FLOAT-INDEX
# RUN: not pydevc %s --kernel vector_type --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=VECTOR-TYPE
# RUN: not pydevc %s --kernel vector_bool --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=VECTOR-BOOL
# RUN: not pydevc %s --kernel tuple_index --signature 'float32[:], (int32, float32), int32' --emit pydev 2>&1 | FileCheck %s --check-prefix=TUPLE-INDEX
# RUN: not pydevc %s --kernel tuple_range --signature 'float32[:], (int32, float32)' --emit pydev 2>&1 | FileCheck %s --check-prefix=TUPLE-RANGE
# RUN: not pydevc %s --kernel tuple_immutable --signature 'float32[:], (int32, float32)' --emit pydev 2>&1 | FileCheck %s --check-prefix=TUPLE-IMMUTABLE
# RUN: not pydevc %s --kernel tuple_arithmetic --signature 'float32[:], (int32, float32)' --emit pydev 2>&1 | FileCheck %s --check-prefix=TUPLE-ARITHMETIC
# RUN: not pydevc %s --kernel tuple_store --signature 'float32[:], (int32, float32)' --emit pydev 2>&1 | FileCheck %s --check-prefix=TUPLE-STORE
# RUN: not pydevc %s --kernel align_not_power --signature 'float32[:]' --emit pydev 2>&1 | FileCheck %s --check-prefix=ALIGN-NOT-POWER
# RUN: not pydevc %s --kernel align_not_type --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=ALIGN-NOT-TYPE
# RUN: not pydevc %s --kernel len_number --signature 'float32[:], float32' --emit pydev 2>&1 | FileCheck %s --check-prefix=LEN-NUMBER

import cuda.device as device


@device.struct
class Point:
    x: int
    y: int


@device.struct
class Flags:
    on: bool
    scale: float


# TOO-MANY-FIELDS: {{.*}}aggregates-errors.py:[[@LINE+3]]:9: error: struct 'Point' has 2 fields but 3 arguments were given
@device.kernel
def too_many_fields(out):
    p = Point(1, 2, 3)


# MISSING-FIELD: {{.*}}aggregates-errors.py:[[@LINE+4]]:9: error: struct 'Point' needs a value for field 'y'
# MISSING-FIELD: help: pass it positionally or as y=...
@device.kernel
def missing_field(out):
    p = Point(1)


# UNKNOWN-FIELD: {{.*}}aggregates-errors.py:[[@LINE+3]]:18: error: struct 'Point' has no field 'w'
@device.kernel
def unknown_field(out):
    p = Point(1, w=2)


# FIELD-TWICE: {{.*}}aggregates-errors.py:[[@LINE+3]]:18: error: field 'x' is given twice
@device.kernel
def field_twice(out):
    p = Point(1, x=2)


# FIELD-TYPE: {{.*}}aggregates-errors.py:[[@LINE+4]]:9: error: field 'x' must be int32, got float32
# FIELD-TYPE: help: convert it explicitly, e.g. device.int32(...)
@device.kernel
def field_type(out, x):
    p = Point(x, 1)


# FIELD-FLOAT-LITERAL: {{.*}}aggregates-errors.py:[[@LINE+4]]:9: error: field 'x' must be int32, got float32
# FIELD-FLOAT-LITERAL: help: convert it explicitly, e.g. device.int32(...)
@device.kernel
def field_float_literal(out):
    p = Point(1.5, 1)


# FIELD-INT-TO-BOOL: {{.*}}aggregates-errors.py:[[@LINE+4]]:9: error: field 'on' must be bool, got int32
# FIELD-INT-TO-BOOL: help: convert it explicitly, e.g. bool(...)
@device.kernel
def field_int_to_bool(out):
    f = Flags(1, 2.0)


# ADD-ATTRIBUTE: {{.*}}aggregates-errors.py:[[@LINE+5]]:5: error: struct 'Point' has no field 'z'
# ADD-ATTRIBUTE: help: attributes cannot be added to a struct
@device.kernel
def add_attribute(out):
    p = Point(1, 2)
    p.z = 3


# READ-ATTRIBUTE: {{.*}}aggregates-errors.py:[[@LINE+4]]:14: error: a Point has no attribute 'z'
@device.kernel
def read_attribute(out):
    p = Point(1, 2)
    out[0] = p.z


# ASSIGN-FIELD-TYPE: {{.*}}aggregates-errors.py:[[@LINE+5]]:5: error: field 'x' must be int32, got float64
# ASSIGN-FIELD-TYPE: help: convert it explicitly, e.g. device.int32(...)
@device.kernel
def assign_field_type(out, d):
    p = Point(1, 2)
    p.x = d


# STRUCT-CLASS-VALUE: {{.*}}aggregates-errors.py:[[@LINE+4]]:5: error: struct class 'Point' is not a value that device code can store or pass
# STRUCT-CLASS-VALUE: help: device code stores and passes numbers, vectors, structs, tuples and arrays
@device.kernel
def struct_class_value(out):
    out[0] = Point


# STRUCT-ARITHMETIC: {{.*}}aggregates-errors.py:[[@LINE+4]]:14: error: '+' needs numbers, got a value of type Point
@device.kernel
def struct_arithmetic(out):
    p = Point(1, 2)
    out[0] = p + 1


# VECTOR-ARGS: {{.*}}aggregates-errors.py:[[@LINE+3]]:9: error: float32x4 takes 4 values, 2 given
@device.kernel
def vector_args(out):
    v = device.float32x4(1.0, 2.0)


# VECTOR-ELEMENT: {{.*}}aggregates-errors.py:[[@LINE+3]]:9: error: cannot convert tuple[float32, float32] to float32
@device.kernel
def vector_element(out, x):
    v = device.float32x2(x, (x, x))


# VECTOR-LANE: {{.*}}aggregates-errors.py:[[@LINE+4]]:14: error: a float32x2 has no lane 'z'
# VECTOR-LANE: help: its lanes are 'x', 'y'
@device.kernel
def vector_lane(out, v):
    out[0] = v.z


# VECTOR-SET-LANE: {{.*}}aggregates-errors.py:[[@LINE+4]]:5: error: a float32x2 has no lane 'w'
# VECTOR-SET-LANE: help: its lanes are 'x', 'y'
@device.kernel
def vector_set_lane(out, v):
    v.w = 1.0


# VECTOR-INDEX: {{.*}}aggregates-errors.py:[[@LINE+4]]:16: error: index 2 is out of range for a float32x2 (2 lanes)
# VECTOR-INDEX: help: use an index from 0 to 1
@device.kernel
def vector_index(out, v):
    out[0] = v[2]


# VECTOR-NEGATIVE: {{.*}}aggregates-errors.py:[[@LINE+4]]:7: error: index -3 is out of range for a float32x2 (2 lanes)
# VECTOR-NEGATIVE: help: use an index from 0 to 1
@device.kernel
def vector_negative(out, v):
    v[-3] = 1.0


# VECTOR-FLOAT-INDEX: {{.*}}aggregates-errors.py:[[@LINE+3]]:16: error: indices must be integers, got a value of type float32
@device.kernel
def vector_float_index(out, v, x):
    out[0] = v[x]


# VECTOR-TYPE: {{.*}}aggregates-errors.py:[[@LINE+3]]:9: error: cuda.device has no 'float32x5'
@device.kernel
def vector_type(out):
    v = device.float32x5(1.0, 2.0, 3.0, 4.0, 5.0)


# VECTOR-BOOL: {{.*}}aggregates-errors.py:[[@LINE+3]]:9: error: cuda.device has no 'boolx2'
@device.kernel
def vector_bool(out):
    v = device.boolx2(True, False)


# TUPLE-INDEX: {{.*}}aggregates-errors.py:[[@LINE+4]]:16: error: tuple indices must be constant
# TUPLE-INDEX: help: tuples are heterogeneous, so the element must be known at compile time
@device.kernel
def tuple_index(out, t, i):
    out[0] = t[i]


# TUPLE-RANGE: {{.*}}aggregates-errors.py:[[@LINE+3]]:16: error: index 2 is out of range for a tuple of 2 elements
@device.kernel
def tuple_range(out, t):
    out[0] = t[2]


# TUPLE-IMMUTABLE: {{.*}}aggregates-errors.py:[[@LINE+4]]:5: error: tuples are immutable
# TUPLE-IMMUTABLE: help: build a new tuple, e.g. t = (x, t[1])
@device.kernel
def tuple_immutable(out, t):
    t[0] = 1


# TUPLE-ARITHMETIC: {{.*}}aggregates-errors.py:[[@LINE+3]]:14: error: '*' needs numbers, got a value of type tuple[int32, float32]
@device.kernel
def tuple_arithmetic(out, t):
    out[0] = t * 2


# TUPLE-STORE: {{.*}}aggregates-errors.py:[[@LINE+3]]:5: error: cannot store a tuple[int32, float32] into an array of float32
@device.kernel
def tuple_store(out, t):
    out[0] = t


# ALIGN-NOT-POWER: {{.*}}aggregates-errors.py:[[@LINE+4]]:38: error: the alignment of device.align() must be a power of two, got 12
# ALIGN-NOT-POWER: help: e.g. device.align(device.float32, 16)
@device.kernel
def align_not_power(out):
    T = device.align(device.float32, 12)


# ALIGN-NOT-TYPE: {{.*}}aggregates-errors.py:[[@LINE+4]]:22: error: the type of device.align() must be a type, got a value of type float32
# ALIGN-NOT-TYPE: help: use a number type such as device.float32 or int, a vector type, or a @device.struct class
@device.kernel
def align_not_type(out, x):
    T = device.align(x, 16)


# LEN-NUMBER: {{.*}}aggregates-errors.py:[[@LINE+3]]:18: error: a float32 has no len()
@device.kernel
def len_number(out, x):
    out[0] = len(x)
