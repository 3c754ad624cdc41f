# Thread block synchronization (spec: Thread Block Synchronization):
# syncthreads, and syncthreads_count/and/or with predicates given as a
# lambda, a local def (with locals of its own) and a @device.func.
# RUN: pydevc %s --kernel barriers --signature 'float32[:], int32[:]' --emit pydev | FileCheck %s --check-prefix=BARRIERS
# RUN: pydevc %s --kernel local_def --signature 'float32[:], int32[:]' --emit pydev | FileCheck %s --check-prefix=LOCAL-DEF
# RUN: pydevc %s --kernel func_pred --signature 'int32[:]' --emit pydev | FileCheck %s --check-prefix=FUNC-PRED

import cuda.device as device
from cuda.device import syncthreads, syncthreads_count


# BARRIERS-LABEL: func.func @barriers
# BARRIERS: pydev.syncthreads
# BARRIERS: %[[L:.*]] = pydev.array_load %arg0
# BARRIERS: %[[P:.*]] = pydev.cmp gt, %[[L]], %{{.*}} : f32, si32
# BARRIERS-NEXT: %[[N:.*]] = pydev.syncthreads_count %[[P]] : si32
# BARRIERS: %[[Q:.*]] = pydev.cmp lt, %{{.*}}, %{{.*}} : f32, f32
# BARRIERS-NEXT: pydev.syncthreads_and %[[Q]] : i1
# BARRIERS: pydev.syncthreads_or %{{.*}} : i1
# BARRIERS: pydev.syncthreads
# BARRIERS: return
@device.kernel
def barriers(a, out):
    i = device.tid(1)
    device.syncthreads()
    n = device.syncthreads_count(lambda: a[i] > 0)
    all_small = device.syncthreads_and(lambda: a[i] < 1.0)
    # A number is a predicate by its truth.
    any_set = device.syncthreads_or(pred=lambda: out[i])
    out[i] = n + all_small + any_set
    syncthreads()


# A local def is inlined where it is called; its locals are its own.
# LOCAL-DEF-LABEL: func.func @local_def
# LOCAL-DEF: %[[T:.*]] = pydev.constant 7 : si32
# LOCAL-DEF: %[[TWICE:.*]] = pydev.mul %{{.*}}, %{{.*}} : f32, f32 -> f32
# LOCAL-DEF: %[[C:.*]] = pydev.cmp gt, %[[TWICE]], %{{.*}} : f32, f32
# LOCAL-DEF-NEXT: %[[CNT:.*]] = pydev.syncthreads_count %[[C]] : si32
# LOCAL-DEF: pydev.syncthreads_and %{{.*}} : i1
# LOCAL-DEF: pydev.add %[[CNT]], %[[T]] : si32, si32 -> si32
@device.kernel
def local_def(a, out):
    i = device.tid(1)
    t = 7

    def big():
        t = a[i] * 2.0
        return t > 10.0

    def positive():
        return a[i] > 0.0

    n = syncthreads_count(big)
    p = device.syncthreads_and(positive)
    out[i] = n + t + p


@device.func
def first_lane():
    return device.thread_idx.x == 0


# A @device.func without parameters is a predicate too.
# FUNC-PRED-DAG: func.func @first_lane() -> i1
# FUNC-PRED-DAG: func.func @func_pred
# FUNC-PRED: %[[F:.*]] = call @first_lane() : () -> i1
# FUNC-PRED-NEXT: pydev.syncthreads_count %[[F]] : si32
@device.kernel
def func_pred(out):
    out[0] = device.syncthreads_count(first_lane)
