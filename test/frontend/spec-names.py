# Spec entities the other frontend tests leave out: fixed-format numbers as
# zero-dimensional arrays (spec: Fixed-Format Numbers), ConstExpr[type] hints
# (spec: Constant Expressions), Vector.dtype (spec: Vectors) and every
# vector type by its CUDA name (spec: Vector Types).
# RUN: pydevc %s --kernel zero_dim --signature 'float64[::1], float32[::1]' --emit pydev | FileCheck %s --check-prefix=ZERO-DIM
# RUN: pydevc %s --kernel const_expr_types --signature 'float32[::1]' --emit pydev | FileCheck %s --check-prefix=CONST-EXPR-TYPE
# RUN: pydevc %s --kernel vector_types --signature 'float64[::1]' --emit pydev | FileCheck %s --check-prefix=VECTOR-TYPES
# RUN: pydevc %s --kernel tuple_param --signature 'float64[::1], (int8, int32, (int8, int64))' --emit pydev | FileCheck %s --check-prefix=TUPLE-PARAM
# RUN: pydevc %s --kernel vector_each --signature 'float64[::1], float64[::1]' --emit pydev | FileCheck %s --check-prefix=VECTOR-EACH
# RUN: pydevc %s --kernel tuple_interop --signature 'float64[::1], float32[::1]' --emit pydev | FileCheck %s --check-prefix=TUPLE-INTEROP
# RUN: pydevc %s --kernel vector_types --signature 'float64[::1]' -o %t.ptx
# RUN: FileCheck %s --check-prefix=VECTOR-TYPES-PTX --input-file=%t.ptx
# RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: pydevc %s --kernel zero_dim --signature 'float64[::1], float32[::1]' --target sm_90 -o %t.zd90.ptx
# RUN: FileCheck %s --check-prefix=ZERO-DIM-PTX --input-file=%t.zd90.ptx
# RUN: ptxas -arch=sm_90 %t.zd90.ptx -o %t.zd90.cubin
# Every kernel here assembles for sm_70, sm_80 and sm_90.
# RUN: pydevc %s --kernel zero_dim --signature 'float64[::1], float32[::1]' --target sm_70 -o %t.zd70.ptx
# RUN: pydevc %s --kernel zero_dim --signature 'float64[::1], float32[::1]' --target sm_80 -o %t.zd80.ptx
# RUN: ptxas -arch=sm_70 %t.zd70.ptx -o %t.zd70.cubin
# RUN: ptxas -arch=sm_80 %t.zd80.ptx -o %t.zd80.cubin
# RUN: pydevc %s --kernel vector_types --signature 'float64[::1]' --target sm_70 -o %t.vt70.ptx
# RUN: pydevc %s --kernel vector_types --signature 'float64[::1]' --target sm_80 -o %t.vt80.ptx
# RUN: ptxas -arch=sm_70 %t.vt70.ptx -o %t.vt70.cubin
# RUN: ptxas -arch=sm_80 %t.vt80.ptx -o %t.vt80.cubin
# RUN: pydevc %s --kernel vector_each --signature 'float64[::1], float64[::1]' --target sm_70 -o %t.ve70.ptx
# RUN: pydevc %s --kernel vector_each --signature 'float64[::1], float64[::1]' --target sm_80 -o %t.ve80.ptx
# RUN: pydevc %s --kernel vector_each --signature 'float64[::1], float64[::1]' --target sm_90 -o %t.ve90.ptx
# RUN: ptxas -arch=sm_70 %t.ve70.ptx -o %t.ve70.cubin
# RUN: ptxas -arch=sm_80 %t.ve80.ptx -o %t.ve80.cubin
# RUN: ptxas -arch=sm_90 %t.ve90.ptx -o %t.ve90.cubin
# RUN: pydevc %s --kernel tuple_interop --signature 'float64[::1], float32[::1]' --target sm_90 -o %t.ti90.ptx
# RUN: FileCheck %s --check-prefix=TUPLE-INTEROP-PTX --input-file=%t.ti90.ptx
# RUN: ptxas -arch=sm_90 %t.ti90.ptx -o %t.ti90.cubin
# RUN: pydevc %s --kernel tuple_interop --signature 'float64[::1], float32[::1]' --target sm_70 -o %t.ti70.ptx
# RUN: pydevc %s --kernel tuple_interop --signature 'float64[::1], float32[::1]' --target sm_80 -o %t.ti80.ptx
# RUN: ptxas -arch=sm_70 %t.ti70.ptx -o %t.ti70.cubin
# RUN: ptxas -arch=sm_80 %t.ti80.ptx -o %t.ti80.cubin
import cuda.device as device


# Numbers answer .shape == .strides == (), .ndim == .ndims == 0, .size == 1
# (constants), .dtype is their type, astype(dtype) converts, view(dtype)
# reads the same bytes as a type of that size (through a one-element local
# cell that LLVM folds into a bitcast), and x[()] and x.reshape(()) are x.
# ZERO-DIM-LABEL: func.func @zero_dim
# ZERO-DIM: %[[V:.*]] = pydev.array_load %arg1[%{{.*}}] : <f32, 1, c>, si64 -> f32
# ZERO-DIM: %[[ONE:.*]] = pydev.constant 1.000000e+00 : f64
# ZERO-DIM: pydev.array_store %[[ONE]], %arg0
# ZERO-DIM: %[[W:.*]] = pydev.cast %[[V]] : f32 to f64
# ZERO-DIM: pydev.mul %[[W]], %{{.*}} : f64, f64 -> f64
# ZERO-DIM: %[[D:.*]] = pydev.cast %{{.*}} : f64 to f32
# ZERO-DIM: pydev.cast %[[D]] : f32 to f64
# ZERO-DIM: %[[CELL:.*]] = pydev.local_array shape [1] order "C" : <f32, 1, local, c>
# ZERO-DIM: pydev.array_store %[[V]], %[[CELL]][%[[Z:.*]]] : f32, <f32, 1, local, c>, si64
# ZERO-DIM: %[[AS:.*]] = pydev.array_view %[[CELL]] : <f32, 1, local, c> -> <si32, 1, local, c>
# ZERO-DIM: %[[BITS:.*]] = pydev.array_load %[[AS]][%[[Z]]] : <si32, 1, local, c>, si64 -> si32
# ZERO-DIM: pydev.cast %[[BITS]] : si32 to f64
# ZERO-DIM: pydev.add %[[V]], %[[V]] : f32, f32 -> f32
# ZERO-DIM-PTX-LABEL: .visible .entry zero_dim(
# ZERO-DIM-PTX: ld.global.b32 %[[X:r[0-9]+]]
# ZERO-DIM-PTX-NOT: .local
# ZERO-DIM-PTX: cvt.rn.f64.s32 %{{[a-z]+[0-9]+}}, %[[X]];
@device.kernel
def zero_dim(out, x):
    v = x[device.tid(1)]
    out[0] = v.ndim + v.ndims + v.size + len(v.shape) + len(v.strides)
    out[1] = v.astype(device.float64) * 2.0
    out[2] = v.dtype(out[0])
    out[3] = v.view(device.int32)
    out[4] = v[()] + v.reshape(())


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


# Each of these vector types built in device code from a run-time value and
# constants, then read by lane name, by constant index and by run-time index.
# VECTOR-EACH-LABEL: func.func @vector_each
# VECTOR-EACH: %[[A:.*]] = pydev.vector_create({{.*}}) : (si8, si8, si8, si8) -> !pydev.vector<4 x si8>
# VECTOR-EACH-COUNT-3: pydev.vector_extract %[[A]][%{{.*}}] : <4 x si8>, si32 -> si8
# VECTOR-EACH: %[[B:.*]] = pydev.vector_create({{.*}}) : (si16, si16) -> !pydev.vector<2 x si16>
# VECTOR-EACH-COUNT-3: pydev.vector_extract %[[B]][%{{.*}}] : <2 x si16>, si32 -> si16
# VECTOR-EACH: %[[C:.*]] = pydev.vector_create({{.*}}) : (si32, si32, si32) -> !pydev.vector<3 x si32>
# VECTOR-EACH-COUNT-3: pydev.vector_extract %[[C]][%{{.*}}] : <3 x si32>, si32 -> si32
# VECTOR-EACH: %[[D:.*]] = pydev.vector_create({{.*}}) : (ui16, ui16, ui16, ui16) -> !pydev.vector<4 x ui16>
# VECTOR-EACH-COUNT-3: pydev.vector_extract %[[D]][%{{.*}}] : <4 x ui16>, si32 -> ui16
# VECTOR-EACH: %[[E:.*]] = pydev.vector_create({{.*}}) : (ui64, ui64) -> !pydev.vector<2 x ui64>
# VECTOR-EACH-COUNT-3: pydev.vector_extract %[[E]][%{{.*}}] : <2 x ui64>, si32 -> ui64
# VECTOR-EACH: %[[F:.*]] = pydev.vector_create({{.*}}) : (f8E5M2, f8E5M2) -> !pydev.vector<2 x f8E5M2>
# VECTOR-EACH-COUNT-3: pydev.vector_extract %[[F]][%{{.*}}] : <2 x f8E5M2>, si32 -> f8E5M2
# VECTOR-EACH: %[[G:.*]] = pydev.vector_create({{.*}}) : (f64, f64, f64) -> !pydev.vector<3 x f64>
# VECTOR-EACH-COUNT-3: pydev.vector_extract %[[G]][%{{.*}}] : <3 x f64>, si32 -> f64
@device.kernel
def vector_each(out, x):
    i = device.tid(1)
    n = i % 2
    a = device.int8x4(device.int8(x[i]), 2, 3, 4)
    out[0] = a.x + a[1] + a[n] + len(a) + a.size
    b = device.int16x2(device.int16(x[i]), 6)
    out[1] = b.x + b[1] + b[n]
    c = device.int32x3(device.int32(x[i]), 8, 9)
    out[2] = c.x + c[2] + c[n]
    d = device.uint16x4(device.uint16(x[i]), 2, 3, 4)
    out[3] = d.x + d[3] + d[n]
    e = device.uint64x2(device.uint64(x[i]), 11)
    out[4] = e.x + e[1] + e[n]
    f = device.float8e5m2x2(x[i], 1.5)
    out[5] = f.x + f[1] + f[n]
    g = device.float64x3(x[i], 2.5, 3.75)
    out[6] = g.x + g[2] + g[n]


# A tuple by value (its interop representation is the C struct of its
# members, in order: pipeline/conformance-aggregates.py TUPLE checks the layout).
# TUPLE-PARAM-LABEL: func.func @tuple_param
# TUPLE-PARAM-SAME: %{{.*}}: !pydev.tuple<si8, si32, !pydev.tuple<si8, si64>>
# TUPLE-PARAM: pydev.tuple_extract %arg1[2] : <si8, si32, !pydev.tuple<si8, si64>> -> !pydev.tuple<si8, si64>
@device.kernel
def tuple_param(out, t):
    a, b, (c, d) = t
    out[0] = a + b + c + d


@device.func(interop=True)
def tuple_total(t):
    a, b, (c, d) = t
    return a + b + c + d


# A tuple passed to an interoperable function: one by-value parameter of the
# tuple type, its members in order (the C struct layout: pipeline/conformance-aggregates.py
# TUPLE; the host run: python/tests/test_conformance_host.py).
# TUPLE-INTEROP-LABEL: func.func @tuple_total(%{{.*}}: !pydev.tuple<si8, f32, !pydev.tuple<si16, f64>>) -> f64 attributes {pydev.interop}
# TUPLE-INTEROP-LABEL: func.func @tuple_interop
# TUPLE-INTEROP: %[[T:.*]] = pydev.tuple_create({{.*}}) : (si8, f32, !pydev.tuple<si16, f64>) -> !pydev.tuple<si8, f32, !pydev.tuple<si16, f64>>
# TUPLE-INTEROP: call @tuple_total(%[[T]]) : (!pydev.tuple<si8, f32, !pydev.tuple<si16, f64>>) -> f64
# struct { int8_t a; float b; struct { int16_t c; double d; } n; }: 24 bytes,
# b at 4, the nested struct at 8 (c at 8, d at 16).
# TUPLE-INTEROP-PTX-LABEL: .visible .func (.param .b64 func_retval0) tuple_total(
# TUPLE-INTEROP-PTX-NEXT: .param .align 8 .b8 tuple_total_param_0[24]
# TUPLE-INTEROP-PTX-DAG: ld.param.b64 %{{.*}}, [tuple_total_param_0+16];
# TUPLE-INTEROP-PTX-DAG: ld.param.b16 %{{.*}}, [tuple_total_param_0+8];
# TUPLE-INTEROP-PTX-DAG: ld.param.b32 %{{.*}}, [tuple_total_param_0+4];
# TUPLE-INTEROP-PTX-DAG: ld.param.s8 %{{.*}}, [tuple_total_param_0];
# TUPLE-INTEROP-PTX-LABEL: .visible .entry tuple_interop(
# The kernel's call is inlined (d = 0.5 added last).
# TUPLE-INTEROP-PTX: add.f64 %{{.*}}, %{{.*}}, 0d3FE0000000000000;
@device.kernel
def tuple_interop(out, x):
    i = device.tid(1)
    out[i] = tuple_total((device.int8(i), x[i], (device.int16(2), device.float64(0.5))))
