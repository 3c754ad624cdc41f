# Arrays in device code (spec: Arrays; API.md "Arrays in device code"):
# indexing with integers and tuples, negative indices (constants fold, run-
# time ones wrap with `i < 0 ? i + n : i`), partial indexing (a view of the
# rest), slices with any step (pydev.array_slice), .shape .size .ndim
# .strides .dtype, view(dtype), reshape of contiguous arrays (no copy),
# astype(dtype, copy=False), arrays of structs and of structured dtypes, and
# read-only arrays.
# RUN: pydevc %s --kernel indexing --signature 'float32[:], float32[:, :], int32, int64' --emit pydev | FileCheck %s --check-prefix=INDEX
# RUN: pydevc %s --kernel tuple_index --signature 'float32[:, ::1], (int32, int32)' --emit pydev | FileCheck %s --check-prefix=TINDEX
# RUN: pydevc %s --kernel slicing --signature 'float32[:], float32[:, :], int32, int32' --emit pydev | FileCheck %s --check-prefix=SLICE
# RUN: pydevc %s --kernel attributes --signature 'float32[:], float64[:, :]' --emit pydev | FileCheck %s --check-prefix=ATTR
# RUN: pydevc %s --kernel views --signature 'float32[:], float32[:], float32[::1], float64[::1, :]' --emit pydev | FileCheck %s --check-prefix=VIEW
# RUN: pydevc %s --kernel struct_arrays --signature 'float32[:], Particle[:], {a: int16, b: float64}[::1]' --emit pydev | FileCheck %s --check-prefix=STRUCT
# RUN: pydevc %s --kernel readonly_arrays --signature 'float32[:], readonly float32[::1], readonly int32[:, :]' --emit pydev | FileCheck %s --check-prefix=RO
# RUN: pydevc %s --kernel contiguous_slices --signature 'float32[:], float32[::1], float32[:, ::1], int32, int32' --emit pydev | FileCheck %s --check-prefix=CONTIG
# RUN: pydevc %s --kernel dtype_tests --signature 'float32[:], float32[:], float64[:, :]' --emit pydev | FileCheck %s --check-prefix=DTYPE

import numpy as np
import cuda.device as device


@device.struct
class Particle:
    x: float
    n: device.int32


# Constant indices are used as they are (negative ones plus the extent);
# run-time signed indices are wrapped; m[i] is the 1-d view of a row.
# INDEX-LABEL: func.func @indexing
# INDEX-SAME: (%[[A:.*]]: !pydev.array<f32, 1>, %[[M:.*]]: !pydev.array<f32, 2>, %[[I:.*]]: si32, %[[J:.*]]: si64)
# INDEX: %[[C1:.*]] = pydev.constant 1 : si32
# INDEX-NEXT: %[[C2:.*]] = pydev.constant 2 : si32
# INDEX-NEXT: pydev.array_load %[[M]][%[[C1]], %[[C2]]] : <f32, 2>, si32, si32 -> f32
# m[-1, -2]: the extent of each dimension plus the constant.
# INDEX: %[[S0:.*]] = pydev.array_shape %[[M]] : <f32, 2> -> <si64, si64>
# INDEX-NEXT: %[[N0:.*]] = pydev.tuple_extract %[[S0]][0] : <si64, si64> -> si64
# INDEX-NEXT: %[[M1:.*]] = pydev.constant -1 : si64
# INDEX-NEXT: %[[R:.*]] = pydev.add %[[M1]], %[[N0]] : si64, si64 -> si64
# INDEX: %[[S1:.*]] = pydev.array_shape %[[M]] : <f32, 2> -> <si64, si64>
# INDEX-NEXT: %[[N1:.*]] = pydev.tuple_extract %[[S1]][1] : <si64, si64> -> si64
# INDEX-NEXT: %[[M2:.*]] = pydev.constant -2 : si64
# INDEX-NEXT: %[[C:.*]] = pydev.add %[[M2]], %[[N1]] : si64, si64 -> si64
# INDEX-NEXT: %[[LAST:.*]] = pydev.array_load %[[M]][%[[R]], %[[C]]] : <f32, 2>, si64, si64 -> f32
# INDEX: pydev.array_store %[[LAST]], %[[A]][%{{.*}}] : f32, <f32, 1>, si64
# m[i, j]: run-time indices wrap when negative.
# INDEX: %[[EXT:.*]] = pydev.tuple_extract %{{.*}}[0] : <si64, si64> -> si64
# INDEX-NEXT: %[[I64:.*]] = pydev.cast %[[I]] : si32 to si64
# INDEX-NEXT: %[[Z:.*]] = pydev.constant 0 : si64
# INDEX-NEXT: %[[NEG:.*]] = pydev.cmp lt, %[[I64]], %[[Z]] : si64, si64
# INDEX-NEXT: %[[WRAP:.*]] = pydev.add %[[I64]], %[[EXT]] : si64, si64 -> si64
# INDEX-NEXT: %[[II:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[I64]] : si64
# INDEX: %[[JJ:.*]] = arith.select %{{.*}}, %{{.*}}, %[[J]] : si64
# INDEX-NEXT: pydev.array_load %[[M]][%[[II]], %[[JJ]]] : <f32, 2>, si64, si64 -> f32
# Unsigned indices need no wrapping.
# INDEX: %[[U:.*]] = pydev.cast %[[I]] : si32 to ui32
# INDEX-NEXT: pydev.array_load %[[A]][%[[U]]] : <f32, 1>, ui32 -> f32
# m[i] is a row; m[i][j] indexes the row.
# INDEX: %[[ROW:.*]] = pydev.array_index %[[M]][%{{.*}}] : <f32, 2>, si64 -> <f32, 1>
# INDEX: pydev.array_load %[[ROW]][%{{.*}}] : <f32, 1>, si64 -> f32
# INDEX: %[[ROW2:.*]] = pydev.array_index %[[M]][%{{.*}}] : <f32, 2>, si64 -> <f32, 1>
# INDEX: pydev.array_load %[[ROW2]][%{{.*}}] : <f32, 1>, si64 -> f32
@device.kernel
def indexing(a, m, i, j):
    a[0] = m[1, 2]
    a[-1] = m[-1, -2]
    a[i] = m[i, j]
    a[1] = a[device.uint32(i)]
    row = m[i]
    a[2] = row[j]
    a[3] = m[i][j]


# A tuple as the index: a literal, a local, an argument; a row of a
# C-contiguous array is C-contiguous.
# TINDEX-LABEL: func.func @tuple_index
# TINDEX-SAME: (%[[M:.*]]: !pydev.array<f32, 2, c>, %[[T:.*]]: !pydev.tuple<si32, si32>)
# TINDEX: %[[P1:.*]] = pydev.constant 1 : si32
# TINDEX-NEXT: %[[P0:.*]] = pydev.constant 0 : si32
# TINDEX-NEXT: pydev.tuple_create(%[[P1]], %[[P0]])
# TINDEX: %[[V:.*]] = pydev.array_load %[[M]][%{{.*}}, %{{.*}}] : <f32, 2, c>, si32, si32 -> f32
# TINDEX-NEXT: pydev.array_store %[[V]], %[[M]][%[[P1]], %[[P0]]] : f32, <f32, 2, c>, si32, si32
# TINDEX: %[[T0:.*]] = pydev.tuple_extract %[[T]][0] : <si32, si32> -> si32
# TINDEX-NEXT: %[[T1:.*]] = pydev.tuple_extract %[[T]][1] : <si32, si32> -> si32
# TINDEX: pydev.array_load %[[M]][%{{.*}}, %{{.*}}] : <f32, 2, c>, si64, si64 -> f32
# TINDEX: pydev.array_index %[[M]][%{{.*}}] : <f32, 2, c>, si32 -> <f32, 1, c>
@device.kernel
def tuple_index(m, t):
    p = (1, 0)
    m[p] = m[0, 1]
    m[0, 0] = m[t]
    r = m[1]
    r[0] = 2.0


# Slices: one kind per source dimension (1 a slice, 0 an integer), Python's
# bounds (a missing start is 0, or -1 with a negative step; a missing stop
# is the extent, or -(extent + 1) with a negative step).
# SLICE-LABEL: func.func @slicing
# SLICE-SAME: (%[[A:.*]]: !pydev.array<f32, 1>, %[[M:.*]]: !pydev.array<f32, 2>, %[[I:.*]]: si32, %[[N:.*]]: si32)
# a[1:n]
# SLICE: %[[ST1:.*]] = pydev.constant 1 : si64
# SLICE-NEXT: %[[LO:.*]] = pydev.constant 1 : si32
# SLICE-NEXT: pydev.array_slice %[[A]] [1] starts(%[[LO]] : si32) stops(%[[N]] : si32) steps(%[[ST1]] : si64) : <f32, 1> -> <f32, 1>
# a[::2]
# SLICE: %[[TWO:.*]] = pydev.constant 2 : si32
# SLICE-NEXT: %[[ZERO:.*]] = pydev.constant 0 : si64
# SLICE-NEXT: %[[SH:.*]] = pydev.array_shape %[[A]]
# SLICE-NEXT: %[[EXT:.*]] = pydev.tuple_extract %[[SH]][0]
# SLICE-NEXT: pydev.array_slice %[[A]] [1] starts(%[[ZERO]] : si64) stops(%[[EXT]] : si64) steps(%[[TWO]] : si32)
# a[::-1]
# SLICE: %[[MONE:.*]] = pydev.constant -1 : si32
# SLICE-NEXT: %[[FROM:.*]] = pydev.constant -1 : si64
# SLICE: %[[N1:.*]] = pydev.add %{{.*}}, %{{.*}} : si64, si64 -> si64
# SLICE-NEXT: %[[TO:.*]] = pydev.neg %[[N1]] : si64 -> si64
# SLICE-NEXT: pydev.array_slice %[[A]] [1] starts(%[[FROM]] : si64) stops(%[[TO]] : si64) steps(%[[MONE]] : si32)
# a[n:1:-2]
# SLICE: pydev.array_slice %[[A]] [1] starts(%[[N]] : si32) stops(%{{.*}} : si32) steps(%{{.*}} : si32)
# m[:, 1] drops the second dimension.
# SLICE: pydev.array_slice %[[M]] [1, 0] starts(%{{.*}}, %{{.*}} : si64, si32) stops(%{{.*}} : si64) steps(%{{.*}} : si64) : <f32, 2> -> <f32, 1>
# m[i, ::2] wraps i.
# SLICE: %[[IW:.*]] = arith.select
# SLICE: pydev.array_slice %[[M]] [0, 1] starts(%[[IW]], %{{.*}} : si64, si64) stops(%{{.*}} : si64) steps(%{{.*}} : si32) : <f32, 2> -> <f32, 1>
# m[1:, :n]
# SLICE: pydev.array_slice %[[M]] [1, 1] starts(%{{.*}}, %{{.*}} : si32, si64) stops(%{{.*}}, %[[N]] : si64, si32) steps(%{{.*}}, %{{.*}} : si64, si64) : <f32, 2> -> <f32, 2>
# a[i:i + 4:n], a run-time step.
# SLICE: %[[HI:.*]] = pydev.add %[[I]], %{{.*}} : si32, si32 -> si32
# SLICE-NEXT: pydev.array_slice %[[A]] [1] starts(%[[I]] : si32) stops(%[[HI]] : si32) steps(%[[N]] : si32)
@device.kernel
def slicing(a, m, i, n):
    b = a[1:n]
    c = a[::2]
    d = a[::-1]
    e = a[n:1:-2]
    f = m[:, 1]
    g = m[i, ::2]
    h = m[1:, :n]
    k = a[i:i + 4:n]
    a[0] = b[0] + c[0] + d[0] + e[0] + f[0] + g[0] + h[0, 0] + k[0]


# .shape and .strides (bytes) are tuples of int64, .size is int64, .ndim a
# constant, .dtype a type (here a conversion), len() the first extent.
# ATTR-LABEL: func.func @attributes
# ATTR-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[M:.*]]: !pydev.array<f64, 2>)
# ATTR: %[[S:.*]] = pydev.array_shape %[[M]] : <f64, 2> -> <si64, si64>
# ATTR-NEXT: %[[ST:.*]] = pydev.array_strides %[[M]] : <f64, 2> -> <si64, si64>
# ATTR: %[[S0:.*]] = pydev.tuple_extract %[[S]][0] : <si64, si64> -> si64
# ATTR: %[[S1:.*]] = pydev.tuple_extract %[[S]][1] : <si64, si64> -> si64
# ATTR: pydev.mul %{{.*}}, %[[S1]] : si64, si64 -> si64
# ATTR: pydev.tuple_extract %[[ST]][0] : <si64, si64> -> si64
# ATTR: %[[SIZE:.*]] = pydev.array_size %[[M]] : <f64, 2> -> si64
# ATTR-NEXT: pydev.constant 2 : si32
# ATTR-NEXT: pydev.cast %[[SIZE]] : si64 to f32
# ATTR: %[[NDIM:.*]] = pydev.constant 2.000000e+00 : f32
# ATTR-NEXT: pydev.array_store %[[NDIM]]
# ATTR: %[[LS:.*]] = pydev.array_shape %[[M]] : <f64, 2> -> <si64, si64>
# ATTR-NEXT: pydev.tuple_extract %[[LS]][0] : <si64, si64> -> si64
# ATTR: pydev.constant 3.000000e+00 : f64
@device.kernel
def attributes(out, m):
    s = m.shape
    st = m.strides
    out[0] = s[0] * s[1]
    out[1] = st[0]
    out[2] = m.size
    out[3] = m.ndim
    out[4] = len(m)
    out[5] = m.dtype(3)


# view() reinterprets in place (another element size needs C order);
# reshape() of a contiguous array gives a view in its own order, -1 takes
# the rest of the size; astype(dtype, copy=False) of the same dtype is the
# array itself.
# VIEW-LABEL: func.func @views
# VIEW-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[A:.*]]: !pydev.array<f32, 1>, %[[C:.*]]: !pydev.array<f32, 1, c>, %[[F:.*]]: !pydev.array<f64, 2, f>)
# VIEW: %[[U:.*]] = pydev.array_view %[[A]] : <f32, 1> -> <ui32, 1>
# VIEW: %[[B:.*]] = pydev.array_view %[[C]] : <f32, 1, c> -> <ui8, 1, c>
# VIEW: pydev.array_reshape %[[C]](%{{.*}}, %{{.*}}) : <f32, 1, c>, si32, si32 -> <f32, 2, c>
# VIEW: pydev.array_reshape %[[C]](%{{.*}}, %{{.*}}) : <f32, 1, c>, si32, si32 -> <f32, 2, c>
# c.reshape(4, -1): -1 is c.size // 4.
# VIEW: %[[K:.*]] = pydev.mul %{{.*}}, %{{.*}} : si64, si64 -> si64
# VIEW-NEXT: %[[SZ:.*]] = pydev.array_size %[[C]] : <f32, 1, c> -> si64
# VIEW-NEXT: %[[REST:.*]] = pydev.floordiv %[[SZ]], %[[K]] : si64, si64 -> si64
# VIEW-NEXT: pydev.array_reshape %[[C]](%{{.*}}, %[[REST]]) : <f32, 1, c>, si32, si64 -> <f32, 2, c>
# A Fortran-ordered array reshapes in Fortran order.
# VIEW: pydev.array_reshape %[[F]](%{{.*}}) : <f64, 2, f>, si64 -> <f64, 1, f>
# VIEW: pydev.array_load %[[A]][%{{.*}}] : <f32, 1>, si32 -> f32
@device.kernel
def views(out, a, c, f):
    u = a.view(device.uint32)
    out[0] = u[0]
    b = c.view(device.uint8)
    out[1] = b[0]
    r = c.reshape(4, 8)
    out[2] = r[1, 2]
    r2 = c.reshape((2, 16))
    out[3] = r2[1, 2]
    r3 = c.reshape(4, -1)
    out[4] = r3[0, 0]
    flat = f.reshape(-1, order='F')
    out[5] = flat[3]
    same = a.astype(device.float32, copy=False)
    out[6] = same[0]


# Arrays of @device.struct classes and of NumPy structured dtypes: elements
# are struct values; a stored struct is written whole.
# STRUCT-LABEL: func.func @struct_arrays
# STRUCT-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[PS:.*]]: !pydev.array<!pydev.struct<"Particle", {x: f32, n: si32}>, 1>, %[[SD:.*]]: !pydev.array<!pydev.struct<"structured", {a: si16, b: f64}>, 1, c>)
# STRUCT: %[[P:.*]] = pydev.array_load %[[PS]][%{{.*}}] : <!pydev.struct<"Particle", {x: f32, n: si32}>, 1>, si32 -> !pydev.struct<"Particle", {x: f32, n: si32}>
# STRUCT-NEXT: pydev.struct_extract %[[P]]["x"]
# STRUCT: pydev.array_store %[[P]], %[[PS]][%{{.*}}] : !pydev.struct<"Particle", {x: f32, n: si32}>, <!pydev.struct<"Particle", {x: f32, n: si32}>, 1>, si32
# STRUCT: %[[NEW:.*]] = pydev.struct_create(%{{.*}}, %{{.*}}) : (f32, si32) -> !pydev.struct<"Particle", {x: f32, n: si32}>
# STRUCT-NEXT: pydev.constant 3 : si32
# STRUCT-NEXT: pydev.array_store %[[NEW]], %[[PS]]
# STRUCT: %[[E:.*]] = pydev.array_load %[[SD]][%{{.*}}] : <!pydev.struct<"structured", {a: si16, b: f64}>, 1, c>, si32 -> !pydev.struct<"structured", {a: si16, b: f64}>
# STRUCT-NEXT: pydev.struct_extract %[[E]]["b"] : <"structured", {a: si16, b: f64}> -> f64
# A field update of an element: load, struct_insert, store.
# STRUCT: %[[Q:.*]] = pydev.array_load %[[PS]]
# STRUCT: %[[Q1:.*]] = pydev.struct_insert %{{.*}}, %[[Q]]["n"] : si32
# STRUCT: pydev.array_store %[[Q1]], %[[PS]]
@device.kernel
def struct_arrays(out, ps, sd):
    p = ps[0]
    out[0] = p.x + ps[1].n
    ps[2] = p
    ps[3] = Particle(1.0, 2)
    out[1] = sd[0].b
    ps[4].n = 7


# Read-only arguments can be read (and viewed, sliced, indexed).
# RO-LABEL: func.func @readonly_arrays
# RO-SAME: (%[[OUT:.*]]: !pydev.array<f32, 1>, %[[R:.*]]: !pydev.array<f32, 1, c, readonly>, %[[Q:.*]]: !pydev.array<si32, 2, readonly>)
# RO: pydev.array_load %[[R]][%{{.*}}] : <f32, 1, c, readonly>, si32 -> f32
# RO: pydev.array_slice %[[R]] [1] {{.*}} -> <f32, 1, c, readonly>
# RO: pydev.array_index %[[Q]][%{{.*}}] : <si32, 2, readonly>, si32 -> <si32, 1, readonly>
# RO: pydev.array_view %[[R]] : <f32, 1, c, readonly> -> <si32, 1, c, readonly>
@device.kernel
def readonly_arrays(out, r, q):
    out[0] = r[0] + r[1:][0] + q[1][0] + r.view(device.int32)[0]


# Contiguity is known where it is certain: a unit-step slice of a
# C-contiguous 1-d array, a run of a row, whole rows; so views that change
# the element size work on them. Slices that skip elements, or columns, are
# strided.
# CONTIG-LABEL: func.func @contiguous_slices
# CONTIG: pydev.array_slice %arg1 [1] {{.*}} : <f32, 1, c> -> <f32, 1, c>
# CONTIG: pydev.array_slice %arg2 [0, 1] {{.*}} : <f32, 2, c> -> <f32, 1, c>
# CONTIG: pydev.array_slice %arg2 [1, 1] {{.*}} : <f32, 2, c> -> <f32, 2, c>
# CONTIG: pydev.array_slice %arg2 [1, 1] {{.*}} : <f32, 2, c> -> <f32, 2, c>
# CONTIG: pydev.array_slice %arg2 [1, 1] {{.*}} : <f32, 2, c> -> <f32, 2>
# CONTIG: pydev.array_slice %arg1 [1] {{.*}} : <f32, 1, c> -> <f32, 1>
# CONTIG: pydev.array_slice %arg1 [1] {{.*}} : <f32, 1, c> -> <f32, 1, c>
# CONTIG: pydev.array_slice %arg0 [1] {{.*}} : <f32, 1> -> <f32, 1>
# CONTIG: pydev.array_view %{{.*}} : <f32, 1, c> -> <si16, 1, c>
# CONTIG: pydev.array_view %{{.*}} : <f32, 1, c> -> <si16, 1, c>
# CONTIG: pydev.array_view %{{.*}} : <f32, 2, c> -> <si16, 2, c>
# CONTIG: pydev.array_view %{{.*}} : <f32, 2, c> -> <si16, 2, c>
@device.kernel
def contiguous_slices(out, c, m, lo, hi):
    v1 = c[lo:hi]
    v2 = m[1, lo:hi]
    v3 = m[lo:hi, :]
    v4 = m[lo:hi]
    v5 = m[:, lo:hi]
    v6 = c[lo:hi:2]
    v7 = c[::1]
    v8 = out[lo:hi]
    out[0] = v1.view(device.int16)[0] + v2.view(device.int16)[0] + v3.view(device.int16)[0, 0] + v4.view(device.int16)[0, 0]
    out[1] = v5[0, 0] + v6[0] + v7[0] + v8[0]


# dtypes of arrays and numbers compare with == and != at compile time (also
# with NumPy's): the result is a constant bool, and an `if` on one lowers
# the branch taken only (here, the other would not compile).
# DTYPE-LABEL: func.func @dtype_tests
# DTYPE-NOT: pydev.cmp
# DTYPE-NOT: cf.cond_br
# DTYPE: %[[T:.*]] = pydev.constant 1.000000e+00 : f32
# DTYPE-NEXT: pydev.array_store %[[T]]
# DTYPE: %[[U:.*]] = pydev.constant 1.000000e+00 : f32
# DTYPE-NEXT: pydev.array_store %[[U]]
# DTYPE: %[[V:.*]] = pydev.constant 1.000000e+00 : f32
# DTYPE-NEXT: pydev.array_store %[[V]]
# DTYPE: %[[W:.*]] = pydev.constant 0.000000e+00 : f32
# DTYPE-NEXT: pydev.array_store %[[W]]
# DTYPE: return
@device.kernel
def dtype_tests(out, a, m):
    if a.dtype == device.float32:
        out[0] = 1
    else:
        out[0] = undefined_name  # noqa: F821
    out[1] = a.dtype != m.dtype
    out[2] = m.dtype == np.float64 and a[0].dtype == np.float32
    out[3] = m.dtype == "float32" or m.dtype == device.int64
