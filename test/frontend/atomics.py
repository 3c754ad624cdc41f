# Atomics (spec: Atomics): atomic_ref on 1-d and n-d arrays, every method of
# AtomicInterface with memory= and scope= as keywords and positionally, on
# the dtypes the spec allows, and threadfence with each order and scope.
# RUN: pydevc %s --kernel int_ops --signature 'int32[:], int32[:, :]' --emit pydev | FileCheck %s --check-prefixes=INT,I32
# RUN: pydevc %s --kernel int_ops --signature 'uint32[::1], uint32[:, ::1]' --emit pydev | FileCheck %s --check-prefixes=INT,U32
# RUN: pydevc %s --kernel int_ops --signature 'int64[:], int64[:, :]' --emit pydev | FileCheck %s --check-prefixes=INT,I64
# RUN: pydevc %s --kernel int_ops --signature 'uint64[:], uint64[:, :]' --emit pydev | FileCheck %s --check-prefixes=INT,U64
# RUN: pydevc %s --kernel float_ops --signature 'float32[:]' --emit pydev | FileCheck %s --check-prefixes=FLOAT,F32
# RUN: pydevc %s --kernel float_ops --signature 'float64[:]' --emit pydev | FileCheck %s --check-prefixes=FLOAT,F64
# RUN: pydevc %s --kernel indexing --signature 'int32[:], float32[:, :, :], int64[:]' --emit pydev | FileCheck %s --check-prefix=INDEX
# RUN: pydevc %s --kernel shared_counter --signature 'int32[:]' --emit pydev | FileCheck %s --check-prefix=SHARED
# RUN: pydevc %s --kernel small_types --signature 'int8[:], float16[:], complex128[:]' --emit pydev | FileCheck %s --check-prefix=SMALL
# RUN: pydevc %s --kernel fences --emit pydev | FileCheck %s --check-prefix=FENCE

import cuda.device as device
from cuda.device import atomic_ref, threadfence

RELAXED = "relaxed"


# INT-LABEL: func.func @int_ops
# I32: %[[R:.*]] = pydev.atomic_ref %arg0[%{{.*}}] : <si32, 1>, si32 -> <si32>
# U32: %[[R:.*]] = pydev.atomic_ref %arg0[%{{.*}}] : <ui32, 1, c>, si32 -> <ui32>
# I64: %[[R:.*]] = pydev.atomic_ref %arg0[%{{.*}}] : <si64, 1>, si32 -> <si64>
# U64: %[[R:.*]] = pydev.atomic_ref %arg0[%{{.*}}] : <ui64, 1>, si32 -> <ui64>
# INT: pydev.atomic_rmw add %[[R]], %{{.*}} memory <seq_cst> scope <system>
# INT: pydev.atomic_rmw sub %[[R]], %{{.*}} memory <relaxed> scope <system>
# INT: pydev.atomic_rmw and %[[R]], %{{.*}} memory <seq_cst> scope <device>
# INT: pydev.atomic_rmw or %[[R]], %{{.*}} memory <acquire> scope <block>
# INT: pydev.atomic_rmw xor %[[R]], %{{.*}} memory <release> scope <thread>
# INT: pydev.atomic_rmw max %[[R]], %{{.*}} memory <acq_rel> scope <system>
# INT: pydev.atomic_rmw min %[[R]], %{{.*}} memory <seq_cst> scope <system>
# INT: pydev.atomic_rmw nanmax %[[R]], %{{.*}} memory <seq_cst> scope <system>
# INT: pydev.atomic_rmw nanmin %[[R]], %{{.*}} memory <consume> scope <device>
# INT: %[[OLD:.*]] = pydev.atomic_rmw exch %[[R]], %{{.*}} memory <relaxed> scope <system>
# INT: %[[PREV:.*]] = pydev.atomic_cas %[[R]], %[[OLD]], %{{.*}} memory <acq_rel> scope <device>
# INT: %[[V:.*]] = pydev.atomic_load %[[R]] memory <acquire> scope <device>
# INT: pydev.atomic_store %{{.*}}, %[[R]] memory <release> scope <block>
# INT: pydev.atomic_wait %[[R]], %[[V]] memory <relaxed> scope <system>
# INT: pydev.atomic_notify %[[R]] :
# INT: pydev.atomic_notify %[[R]] all :
# I32: %[[Q:.*]] = pydev.atomic_ref %arg1[%{{.*}}, %{{.*}}] : <si32, 2>, si32, si32 -> <si32>
# U32: %[[Q:.*]] = pydev.atomic_ref %arg1[%{{.*}}, %{{.*}}] : <ui32, 2, c>, si32, si32 -> <ui32>
# I64: %[[Q:.*]] = pydev.atomic_ref %arg1[%{{.*}}, %{{.*}}] : <si64, 2>, si32, si32 -> <si64>
# U64: %[[Q:.*]] = pydev.atomic_ref %arg1[%{{.*}}, %{{.*}}] : <ui64, 2>, si32, si32 -> <ui64>
# INT: pydev.atomic_rmw add %[[Q]], %{{.*}} memory <seq_cst> scope <device>
# I32-SAME: : <si32>, si32
# U32-SAME: : <ui32>, ui32
# I64-SAME: : <si64>, si64
# U64-SAME: : <ui64>, ui64
@device.kernel
def int_ops(a, b):
    r = device.atomic_ref(a, 0)
    r.add(1)
    r.sub(2, memory="relaxed")
    r.and_(3, scope="device")
    r.or_(4, memory="acquire", scope="block")
    r.xor(5, "release", "thread")
    r.max(6, memory="acq_rel")
    r.min(7, "seq_cst", scope="system")
    r.nanmax(val=8)
    r.nanmin(9, scope="device", memory="consume")
    old = r.exch(10, RELAXED)
    prev = r.cas(old, 11, memory="acq_rel", scope="device")
    v = r.load(memory="acquire", scope="device")
    r.store(prev, memory="release", scope="block")
    r.wait(v, memory="relaxed")
    r.notify_one()
    r.notify_all()
    atomic_ref(b, (1, 2)).add(1, scope="device")


# FLOAT-LABEL: func.func @float_ops
# F32: %[[R:.*]] = pydev.atomic_ref %arg0[%{{.*}}] : <f32, 1>, si32 -> <f32>
# F64: %[[R:.*]] = pydev.atomic_ref %arg0[%{{.*}}] : <f64, 1>, si32 -> <f64>
# FLOAT: pydev.atomic_rmw add %[[R]], %{{.*}} memory <seq_cst> scope <system>
# FLOAT: pydev.atomic_rmw sub %[[R]], %{{.*}} memory <relaxed> scope <block>
# FLOAT: pydev.atomic_rmw max %[[R]], %{{.*}} memory <acq_rel> scope <system>
# FLOAT: pydev.atomic_rmw min %[[R]], %{{.*}} memory <seq_cst> scope <system>
# FLOAT: pydev.atomic_rmw nanmax %[[R]], %{{.*}} memory <seq_cst> scope <device>
# FLOAT: pydev.atomic_rmw nanmin %[[R]], %{{.*}} memory <release> scope <thread>
# FLOAT: pydev.atomic_rmw exch %[[R]], %{{.*}} memory <seq_cst> scope <system>
# FLOAT: pydev.atomic_cas %[[R]], %{{.*}}, %{{.*}} memory <seq_cst> scope <system>
# F32-SAME: : <f32>, f32
# F64-SAME: : <f64>, f64
# FLOAT: %[[V:.*]] = pydev.atomic_load %[[R]] memory <seq_cst> scope <system>
# F32-SAME: : <f32> -> f32
# F64-SAME: : <f64> -> f64
# FLOAT: pydev.atomic_store %[[V]], %[[R]] memory <relaxed> scope <system>
@device.kernel
def float_ops(a):
    r = device.atomic_ref(a, 0)
    r.add(1.0)
    r.sub(2.0, "relaxed", "block")
    r.max(6.0, memory="acq_rel")
    r.min(7)
    r.nanmax(8.0, scope="device")
    r.nanmin(9.0, memory="release", scope="thread")
    r.exch(10.0)
    r.cas(1.0, 2.0)
    r.store(r.load(), memory=RELAXED)


# Indices: a tuple per dimension (literal, local, from tid), negative indices
# counting from the end like a[i], and values that convert without loss.
# INDEX-LABEL: func.func @indexing
# INDEX: pydev.atomic_ref %arg0[%{{.*}}] : <si32, 1>, si64 -> <si32>
# INDEX: pydev.atomic_ref %arg1[%{{.*}}, %{{.*}}, %{{.*}}] : <f32, 3>, si32, si32, si32 -> <f32>
# INDEX: pydev.atomic_ref %arg1[%{{.*}}, %{{.*}}, %{{.*}}] : <f32, 3>, si64, si64, si64 -> <f32>
# INDEX: pydev.array_shape %arg2
# INDEX: %[[LAST:.*]] = pydev.add %{{.*}}, %{{.*}} : si64, si64 -> si64
# INDEX-NEXT: %[[R:.*]] = pydev.atomic_ref %arg2[%[[LAST]]] : <si64, 1>, si64 -> <si64>
# INDEX: %[[W:.*]] = pydev.cast %{{.*}} : si32 to si64
# INDEX: pydev.atomic_rmw max %[[R]], %[[W]] memory <seq_cst> scope <system> : <si64>, si64
@device.kernel
def indexing(counts, grid, wide):
    i = device.tid(1)
    device.atomic_ref(counts, i).add(1)
    device.atomic_ref(grid, (0, 1, 2)).add(0.5)
    p = device.tid(3)
    device.atomic_ref(grid, p).max(grid[p])
    device.atomic_ref(wide, -1).max(i)


# Atomics on shared memory carry the space in their type.
# SHARED-LABEL: func.func @shared_counter
# SHARED: %[[S:.*]] = pydev.shared_array shape [1] order "C" : <si32, 1, shared, c>
# SHARED: %[[R:.*]] = pydev.atomic_ref %[[S]][%{{.*}}] : <si32, 1, shared, c>, si32 -> <si32, shared>
# SHARED: pydev.atomic_rmw add %[[R]], %{{.*}} memory <relaxed> scope <block> : <si32, shared>, si32
# SHARED: pydev.atomic_load %{{.*}} memory <acquire> scope <block> : <si32, shared> -> si32
# AtomicInterface.dtype is the element type.
# SHARED: pydev.local_array shape [2] order "C" : <si32, 1, local, c>
@device.kernel
def shared_counter(out):
    count = device.shared_array(1, device.int32)
    device.atomic_ref(count, 0).add(1, memory="relaxed", scope="block")
    device.syncthreads()
    r = device.atomic_ref(count, 0)
    out[0] = r.load(memory="acquire", scope="block")
    tmp = device.local_array(2, r.dtype)


# load, store, exch and cas take any type of at most 8 (exch, cas) or 16
# (load, store) bytes.
# SMALL-LABEL: func.func @small_types
# SMALL: pydev.atomic_rmw exch %{{.*}}, %{{.*}} memory <seq_cst> scope <system> : <si8>, si8
# SMALL: pydev.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} memory <seq_cst> scope <system> : <f16>, f16
# SMALL: pydev.atomic_load %{{.*}} memory <relaxed> scope <system> : <complex<f64>> -> complex<f64>
# SMALL: pydev.atomic_store %{{.*}}, %{{.*}} memory <seq_cst> scope <system> : complex<f64>, <complex<f64>>
@device.kernel
def small_types(a, h, z):
    device.atomic_ref(a, 0).exch(a[1])
    device.atomic_ref(h, 0).cas(h[1], h[2])
    v = device.atomic_ref(z, 0).load("relaxed")
    device.atomic_ref(z, 1).store(v)


# FENCE-LABEL: func.func @fences
# FENCE-NEXT: pydev.threadfence memory <seq_cst> scope <system>
# FENCE-NEXT: pydev.threadfence memory <relaxed> scope <system>
# FENCE-NEXT: pydev.threadfence memory <consume> scope <system>
# FENCE-NEXT: pydev.threadfence memory <acquire> scope <system>
# FENCE-NEXT: pydev.threadfence memory <release> scope <device>
# FENCE-NEXT: pydev.threadfence memory <acq_rel> scope <block>
# FENCE-NEXT: pydev.threadfence memory <seq_cst> scope <thread>
# FENCE-NEXT: pydev.threadfence memory <seq_cst> scope <device>
# FENCE-NEXT: pydev.threadfence memory <relaxed> scope <block>
# FENCE-NEXT: return
@device.kernel
def fences():
    device.threadfence()
    device.threadfence(memory="relaxed")
    device.threadfence("consume")
    device.threadfence(memory="acquire", scope="system")
    device.threadfence("release", "device")
    device.threadfence("acq_rel", scope="block")
    device.threadfence(scope="thread")
    threadfence(scope="device", memory="seq_cst")
    order = "relaxed"
    threadfence(order, "block")
