# Calls between device functions (spec: Heterogeneous Functions; API.md
# "Machine representation"): @device.func functions are specialised per
# argument types (symbol `name_type1_type2`, arrays as `dtype_<ndim>d<layout>`),
# interop=True functions and kernels keep their plain name, calls nest,
# struct methods are functions of the struct, keyword arguments and constant
# defaults bind to parameters, ConstExpr parameters specialise on their value.
# RUN: pydevc %s --kernel specialised --signature 'float32[:], float32, int32, float64' --emit pydev | FileCheck %s --check-prefix=SPEC
# RUN: pydevc %s --kernel nested --signature 'float32[:], float32' --emit pydev | FileCheck %s --check-prefix=NESTED
# RUN: pydevc %s --kernel interop_kernel --signature 'float32[:], float32' --emit pydev | FileCheck %s --check-prefix=INTEROP
# RUN: pydevc %s --kernel methods --signature 'float32[:], float32' --emit pydev | FileCheck %s --check-prefix=METHOD
# RUN: pydevc %s --kernel arguments --signature 'float32[:], float32[:, ::1], int32, (int32, float64)' --emit pydev | FileCheck %s --check-prefix=ARGS
# RUN: pydevc %s --kernel recip --signature 'float64' --emit pydev | FileCheck %s --check-prefix=ENTRY
# RUN: pydevc %s --kernel const_exprs --signature 'float64[:]' --emit pydev | FileCheck %s --check-prefix=CONST-EXPR
# RUN: pydevc %s --kernel const_exprs --signature 'float64[:]' --target host --emit pydev | FileCheck %s --check-prefix=CONST-EXPR-HOST

import numpy as np
import cuda.device as device

ONE = 1


@device.func
def recip(a):
    return ONE / a


@device.func(interop=True)
def diff(a, b):
    return abs(a - b)


@device.func
def axpy(a, x, y=0.5):
    return a * x + y


@device.func
def outer(a, x, y):
    return axpy(a, recip(x), y) + diff(x, y)


# One specialisation per list of argument types; the result type follows
# from the body.
# SPEC-LABEL: func.func @recip_float32(%{{.*}}: f32) -> f32
# SPEC: pydev.truediv %{{.*}}, %{{.*}} : si32, f32 -> f32
# SPEC-LABEL: func.func @recip_int32(%{{.*}}: si32) -> f32
# SPEC: pydev.truediv %{{.*}}, %{{.*}} : si32, si32 -> f32
# SPEC-LABEL: func.func @recip_float64(%{{.*}}: f64) -> f64
# SPEC-LABEL: func.func @specialised
# SPEC-SAME: (%{{.*}}: !pydev.array<f32, 1>, %[[X:.*]]: f32, %[[I:.*]]: si32, %[[D:.*]]: f64)
# SPEC: call @recip_float32(%[[X]]) : (f32) -> f32
# SPEC: call @recip_int32(%[[I]]) : (si32) -> f32
# SPEC: call @recip_float64(%[[D]]) : (f64) -> f64
# The same types again reuse the first specialisation.
# SPEC: call @recip_float32(%[[X]]) : (f32) -> f32
# SPEC-NOT: func.func
@device.kernel
def specialised(out, x, i, d):
    out[0] = recip(x)
    out[1] = recip(i)
    out[2] = recip(d)
    out[3] = recip(x)


# Nested calls; a default value fills the missing argument.
# NESTED-LABEL: func.func @recip_float32
# NESTED-LABEL: func.func @axpy_float32_float32_float32(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32) -> f32
# NESTED-LABEL: func.func @diff(%{{.*}}: f32, %{{.*}}: f32) -> f32 attributes {pydev.interop}
# NESTED-LABEL: func.func @outer_float32_float32_float32
# NESTED: %[[R:.*]] = call @recip_float32(%{{.*}}) : (f32) -> f32
# NESTED-NEXT: %[[A:.*]] = call @axpy_float32_float32_float32(%{{.*}}, %[[R]], %{{.*}}) : (f32, f32, f32) -> f32
# NESTED-NEXT: %[[DF:.*]] = call @diff(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
# NESTED-NEXT: pydev.add %[[A]], %[[DF]] : f32, f32 -> f32
# NESTED-LABEL: func.func @axpy_int32_float32_float32
# NESTED-LABEL: func.func @nested
# NESTED: call @outer_float32_float32_float32
# NESTED: %[[HALF:.*]] = pydev.constant 5.000000e-01 : f32
# NESTED-NEXT: call @axpy_float32_float32_float32(%{{.*}}, %{{.*}}, %[[HALF]])
# NESTED: %[[TWO:.*]] = pydev.constant 2 : si32
# NESTED: call @axpy_int32_float32_float32(%[[TWO]], %{{.*}}, %{{.*}})
@device.kernel
def nested(out, x):
    out[0] = outer(x, x, x)
    out[1] = axpy(x, x)
    out[2] = axpy(y=x, x=x, a=2)


# An interop function or kernel has the plain symbol of its Python name.
# INTEROP-LABEL: func.func @diff(%{{.*}}: f32, %{{.*}}: f32) -> f32 attributes {pydev.interop}
# INTEROP-LABEL: func.func @interop_kernel(%{{.*}}: !pydev.array<f32, 1>, %{{.*}}: f32) attributes {pydev.interop, pydev.kernel}
# INTEROP: call @diff(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
# INTEROP: call @diff(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
@device.kernel(interop=True)
def interop_kernel(out, x):
    out[0] = diff(x, x)
    out[1] = diff(1.5, x)


# Struct methods: `self` is the struct value; methods call methods and
# build structs.
# METHOD-LABEL: func.func @Vec2_scaled_Vec2_int32
# METHOD-SAME: (%[[S:.*]]: !pydev.struct<"Vec2", {x: f32, y: f32}>, %[[K:.*]]: si32) -> !pydev.struct<"Vec2", {x: f32, y: f32}>
# METHOD: %[[SX:.*]] = pydev.struct_extract %[[S]]["x"]
# METHOD-NEXT: %[[X2:.*]] = pydev.mul %[[SX]], %[[K]] : f32, si32 -> f32
# METHOD: pydev.struct_create(%[[X2]], %{{.*}}) : (f32, f32) -> !pydev.struct<"Vec2", {x: f32, y: f32}>
# METHOD-LABEL: func.func @Vec2_dot_Vec2_Vec2
# METHOD-LABEL: func.func @Vec2_norm2_Vec2
# METHOD-SAME: (%[[N:.*]]: !pydev.struct<"Vec2", {x: f32, y: f32}>) -> f32
# METHOD: call @Vec2_dot_Vec2_Vec2(%[[N]], %[[N]])
# METHOD-LABEL: func.func @methods
# METHOD: %[[V:.*]] = pydev.struct_create
# METHOD: %[[W:.*]] = call @Vec2_scaled_Vec2_int32(%[[V]], %{{.*}})
# METHOD: call @Vec2_dot_Vec2_Vec2(%[[V]], %[[W]])
# METHOD: call @Vec2_norm2_Vec2(%[[W]])
# METHOD: call @Vec2_dot_Vec2_Vec2(%[[W]], %[[V]])
@device.struct
class Vec2:
    x: float
    y: float

    @device.func
    def dot(self, other):
        return self.x * other.x + self.y * other.y

    @device.func
    def scaled(self, k):
        return Vec2(self.x * k, self.y * k)

    @device.func
    def norm2(self):
        return self.dot(self)


@device.kernel
def methods(out, x):
    v = Vec2(x, 2.0)
    w = v.scaled(2)
    out[0] = v.dot(w) + w.norm2()
    out[1] = w.dot(other=v)


# Arrays, tuples and nothing as arguments and results; ConstExpr parameters
# are specialised on their value (and are constants in the body).
# ARGS-LABEL: func.func @first_float32_1d(%{{.*}}: !pydev.array<f32, 1>) -> f32
# ARGS-LABEL: func.func @first_float32_2dC(%{{.*}}: !pydev.array<f32, 2, c>) -> !pydev.array<f32, 1, c>
# ARGS-LABEL: func.func @store_float32_1d_int32_float32(%{{.*}}: !pydev.array<f32, 1>, %{{.*}}: si32, %{{.*}}: f32) {
# ARGS: pydev.array_store
# ARGS-LABEL: func.func @nothing() {
# ARGS-NEXT: return
# ARGS-LABEL: func.func @pair_tuple2_int32_float64(%{{.*}}: !pydev.tuple<si32, f64>) -> !pydev.tuple<f64, si32>
# ARGS-LABEL: func.func @scale_int32_float32_c3
# ARGS-SAME: (%{{.*}}: si32, %[[Y:.*]]: f32) -> f32
# ARGS: %[[THREE:.*]] = pydev.constant 3 : si32
# ARGS-NEXT: pydev.mul %[[THREE]], %[[Y]] : si32, f32 -> f32
# ARGS-LABEL: func.func @scale_int32_float32_c4
# ARGS-LABEL: func.func @arguments
# ARGS: call @first_float32_1d(%{{.*}}) : (!pydev.array<f32, 1>) -> f32
# ARGS: call @first_float32_2dC(%{{.*}}) : (!pydev.array<f32, 2, c>) -> !pydev.array<f32, 1, c>
# ARGS: call @store_float32_1d_int32_float32
# ARGS: call @nothing() : () -> ()
# ARGS: %[[P:.*]] = call @pair_tuple2_int32_float64(%{{.*}}) : (!pydev.tuple<si32, f64>) -> !pydev.tuple<f64, si32>
# ARGS-NEXT: pydev.tuple_extract %[[P]][0] : <f64, si32> -> f64
# ARGS-NEXT: pydev.tuple_extract %[[P]][1] : <f64, si32> -> si32
# ARGS: call @scale_int32_float32_c3
# ARGS: call @scale_int32_float32_c4
@device.func
def first(a):
    return a[0]


@device.func
def store(out, i, v):
    out[i] = v


@device.func
def nothing():
    pass


@device.func
def pair(t):
    i, d = t
    return d, i


@device.func
def scale(k: device.ConstExpr, y):
    return k * y


@device.kernel
def arguments(out, m, i, t):
    out[0] = first(out) + first(m)[0]
    store(out, i, 2.0)
    nothing()
    a, b = pair(t)
    out[1] = a + b
    out[2] = scale(3, out[0])
    four = 4
    out[3] = scale(four, out[0])


# A @device.func compiled by itself.
# ENTRY-LABEL: func.func @recip_float64(%{{.*}}: f64) -> f64
# ENTRY-NOT: pydev.kernel


# A ConstExpr parameter is a constant expression wherever the spec needs
# one: local_array/shared_array shapes (an int or a tuple), range bounds,
# target(...) descriptions, dtypes. Descriptions, dtypes and tuples are
# compile-time objects, passed as nothing: each object is a specialisation
# (a readable part and a hash in its symbol).
# CONST-EXPR-LABEL: func.func @fill_int32_k__2__3_{{.*}}_k_is_host_{{.*}}_k_float32_{{.*}}(%{{.*}}: si32) -> f32
# CONST-EXPR: pydev.local_array shape [2, 3] order "C" : <f32, 2, local, c>
# CONST-EXPR-NEXT: pydev.shared_array shape [4] order "C" : <f32, 1, shared, c>
# CONST-EXPR: pydev.target <is_host>
# CONST-EXPR-LABEL: func.func @fill_int32_k__8_{{.*}}_k_and_provides_sm_80{{.*}}_k_float64_{{.*}}(%{{.*}}: si32) -> f64
# CONST-EXPR: pydev.local_array shape [8] order "C" : <f64, 1, local, c>
# CONST-EXPR: pydev.target <and(provides(sm_80), not(is_exactly(sm_90)))>
# CONST-EXPR-LABEL: func.func @fill_int32_k__5_{{.*}}_k_any_target_{{.*}}_k_float64_{{.*}}(%{{.*}}: si32) -> f64
# CONST-EXPR: pydev.local_array shape [5] order "C" : <f64, 1, local, c>
# CONST-EXPR-NEXT: pydev.shared_array shape [2] order "C" : <f64, 1, shared, c>
# CONST-EXPR-LABEL: func.func @const_exprs
# CONST-EXPR: call @fill_int32_k__2__3_{{.*}}(%{{.*}}) : (si32) -> f32
# CONST-EXPR: call @fill_int32_k__8_{{.*}}(%{{.*}}) : (si32) -> f64
# CONST-EXPR: call @fill_int32_k__5_{{.*}}(%{{.*}}) : (si32) -> f64
# For a known target, target(where) selects its branch.
# CONST-EXPR-HOST-LABEL: func.func @fill_int32_k__2__3_
# CONST-EXPR-HOST: pydev.target <is_host>
# CONST-EXPR-HOST-NEXT: pydev.array_size
# CONST-EXPR-HOST-LABEL: func.func @fill_int32_k__8_
# CONST-EXPR-HOST: pydev.target <and(provides(sm_80), not(is_exactly(sm_90)))>
# CONST-EXPR-HOST-NEXT: cf.br
# CONST-EXPR-HOST-NOT: pydev.array_size
# CONST-EXPR-HOST: return
SHAPE = (2, 3)


@device.func
def fill(n: device.ConstExpr, shape: device.ConstExpr, where: device.ConstExpr, dt: device.ConstExpr):
    buf = device.local_array(shape, dt)
    tile = device.shared_array(n, dt)
    s = dt(0)
    for i in range(n):
        tile[i] = i
        s += tile[i]
    if device.target(where):
        return s + buf.size
    return s


@device.kernel
def const_exprs(out):
    out[0] = fill(4, SHAPE, device.is_host, np.float32)
    out[1] = fill(4, (8,), device.provides(device.sm80) & ~device.is_exactly(device.sm90), device.float64)
    dims = (5,)
    out[2] = fill(2, dims, device.any_target, device.float64)
