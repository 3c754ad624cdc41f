# Spec entities the other frontend tests leave out: fixed-format numbers as
# zero-dimensional arrays (spec: Fixed-Format Numbers), ConstExpr[type] hints
# (spec: Constant Expressions), Vector.dtype (spec: Vectors) and every
# vector type by its CUDA name (spec: Vector Types).
# RUN: pydevc %s --kernel zero_dim --signature 'float64[::1], float32[::1]' --emit pydev | FileCheck %s --check-prefix=ZERO-DIM
# RUN: pydevc %s --kernel const_expr_types --signature 'float32[::1]' --emit pydev | FileCheck %s --check-prefix=CONST-EXPR-TYPE
# RUN: pydevc %s --kernel vector_types --signature 'float64[::1]' --emit pydev | FileCheck %s --check-prefix=VECTOR-TYPES
# RUN: pydevc %s --kernel tuple_param --signature 'float64[::1], (int8, int32, (int8, int64))' --emit pydev | FileCheck %s --check-prefix=TUPLE-PARAM
# RUN: pydevc %s --kernel vector_types --signature 'float64[::1]' -o %t.ptx
# RUN: FileCheck %s --check-prefix=VECTOR-TYPES-PTX --input-file=%t.ptx
import cuda.device as device


# Numbers answer .shape == (), .ndim == 0, .size == 1 (constants) and
# astype(dtype) converts.
# ZERO-DIM-LABEL: func.func @zero_dim
# ZERO-DIM: %[[ONE:.*]] = pydev.constant 1.000000e+00 : f64
# ZERO-DIM: pydev.array_store %[[ONE]], %arg0
# ZERO-DIM: %[[W:.*]] = pydev.cast %{{.*}} : f32 to f64
# ZERO-DIM: pydev.mul %[[W]], %{{.*}} : f64, f64 -> f64
@device.kernel
def zero_dim(out, x):
    v = x[device.tid(1)]
    out[0] = v.ndim + v.size + len(v.shape) + len(v.strides)
    out[1] = v.astype(device.float64) * 2.0


@device.func
def times(x, n: device.ConstExpr[int]):
    return x * n


# A ConstExpr[int] parameter: specialised for the constant's value.
# CONST-EXPR-TYPE-LABEL: func.func @times_float32_int32_c3
# CONST-EXPR-TYPE: %[[N:.*]] = pydev.constant 3 : si32
# CONST-EXPR-TYPE: pydev.mul %arg0, %[[N]]
@device.kernel
def const_expr_types(out):
    out[0] = times(out[0], 3)


# Every vector type by name, with .dtype as a converter.
# VECTOR-TYPES-LABEL: func.func @vector_types
# VECTOR-TYPES-DAG: pydev.vector_create({{.*}}) : (si8, si8, si8, si8) -> !pydev.vector<4 x si8>
# VECTOR-TYPES-DAG: pydev.vector_create({{.*}}) : (si16, si16) -> !pydev.vector<2 x si16>
# VECTOR-TYPES-DAG: pydev.vector_create({{.*}}) : (si32, si32, si32) -> !pydev.vector<3 x si32>
# VECTOR-TYPES-DAG: pydev.vector_create({{.*}}) : (ui16, ui16, ui16, ui16) -> !pydev.vector<4 x ui16>
# VECTOR-TYPES-DAG: pydev.vector_create({{.*}}) : (ui64, ui64) -> !pydev.vector<2 x ui64>
# VECTOR-TYPES-DAG: pydev.vector_create({{.*}}) : (f8E5M2, f8E5M2) -> !pydev.vector<2 x f8E5M2>
# VECTOR-TYPES-DAG: pydev.vector_create({{.*}}) : (f64, f64, f64) -> !pydev.vector<3 x f64>
# VECTOR-TYPES-DAG: pydev.cast %{{.*}} : f64 to si8
# VECTOR-TYPES-PTX-LABEL: .visible .entry vector_types(
# VECTOR-TYPES-PTX: st.global.b64
@device.kernel
def vector_types(out):
    a = device.int8x4(1, 2, 3, 4)
    b = device.int16x2(5, 6)
    c = device.int32x3(7, 8, 9)
    d = device.uint16x4(1, 2, 3, 4)
    e = device.uint64x2(10, 11)
    f = device.float8e5m2x2(0.5, 1.5)
    g = device.float64x3(1.25, 2.5, 3.75)
    out[0] = a.w + b.y + c.z + d.x + g.z + device.float64(e.y)
    out[1] = f.y + f.x
    out[2] = a.dtype(g.x)


# A tuple by value (its interop representation is the C struct of its
# members, in order: pipeline/spec-numbers.py TUPLE checks the layout).
# TUPLE-PARAM-LABEL: func.func @tuple_param
# TUPLE-PARAM-SAME: %{{.*}}: !pydev.tuple<si8, si32, !pydev.tuple<si8, si64>>
# TUPLE-PARAM: pydev.tuple_extract %arg1[2] : <si8, si32, !pydev.tuple<si8, si64>> -> !pydev.tuple<si8, si64>
@device.kernel
def tuple_param(out, t):
    a, b, (c, d) = t
    out[0] = a + b + c + d
