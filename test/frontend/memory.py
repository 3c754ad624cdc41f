# Local, shared and dynamic shared memory (spec: Local, Shared, and Const
# Memory): constant shapes from literals, module constants and locals;
# order, align, and dtypes given as device types, builtins and structs.
# RUN: pydevc %s --kernel local_arrays --signature 'float32[:]' --emit pydev | FileCheck %s --check-prefix=LOCAL
# RUN: pydevc %s --kernel shared_arrays --signature 'float32[:]' --emit pydev | FileCheck %s --check-prefix=SHARED
# RUN: pydevc %s --kernel dynamic --signature 'float32[:]' --emit pydev | FileCheck %s --check-prefix=DYNAMIC
# RUN: pydevc %s --kernel tile --signature 'float32[:, ::1]' --emit pydev | FileCheck %s --check-prefix=TILE
# RUN: pydevc %s --kernel contiguous_memory --signature 'float64[:], int32' --emit pydev | FileCheck %s --check-prefix=CONTIGUOUS
# RUN: pydevc %s --kernel contiguous_memory --signature 'float64[:], int32' --target sm_90 -o %t.ptx
# RUN: pydevc %s --kernel contiguous_memory --signature 'float64[:], int32' --target host --emit llvm-ir -o %t.ll

import numpy as np
import cuda.device as device
from cuda.device import shared_array, local_array, float64

N = 64
SHAPE = (4, 8)
TILE = 16
ORDER = "F"


@device.struct
class Pair:
    a: int
    b: float


# LOCAL-LABEL: func.func @local_arrays
# LOCAL: pydev.local_array shape [16] order "C" : <f32, 1, local, c>
# LOCAL: pydev.local_array shape [2, 3] order "F" : <si32, 2, local, f>
# LOCAL: pydev.local_array shape [3, 4] order "C" : <f64, 2, local, c>
# LOCAL: pydev.local_array shape [4] order "C" align 8 : <ui8, 1, local, c>
# LOCAL: pydev.local_array shape [4, 8] order "F" align 16 : <!pydev.struct<"Pair", {a: si32, b: f32}>, 2, local, f>
# LOCAL: pydev.local_array shape [5] order "C" : <!pydev.vector<4 x f32>, 1, local, c>
# LOCAL: pydev.local_array shape [1] order "C" : <i1, 1, local, c>
# LOCAL: pydev.array_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : si32, <si32, 2, local, f>, si32, si32
# LOCAL: return
@device.kernel
def local_arrays(out):
    a = device.local_array(16, device.float32)
    b = device.local_array((2, 3), int, order="F")
    m = 3
    c = local_array((m, m + 1), float64)
    d = device.local_array(4, device.uint8, "C", 8)
    e = device.local_array(shape=SHAPE, dtype=Pair, order=ORDER, align=16)
    f = device.local_array(5, device.float32x4)
    g = device.local_array((1,), bool)
    a[0] = 1.0
    b[1, 2] = 3
    c[2, 3] = a[0]
    out[0] = c[2, 3] + b[1, 2] + d[0] + e[0, 0].b + f[0].x + g[0]


# SHARED-LABEL: func.func @shared_arrays
# SHARED: pydev.shared_array shape [64] order "C" align 16 : <f32, 1, shared, c>
# SHARED: pydev.shared_array shape [4, 8] order "C" : <si64, 2, shared, c>
# SHARED: pydev.shared_array shape [8] order "C" : <!pydev.struct<"Pair", {a: si32, b: f32}>, 1, shared, c>
# SHARED: pydev.shared_array shape [128] order "F" : <f32, 1, shared, f>
# SHARED: pydev.shared_array shape [2, 3, 4] order "C" : <f32, 3, shared, c>
# SHARED: pydev.array_load %{{.*}}[%{{.*}}] : <!pydev.struct<"Pair", {a: si32, b: f32}>, 1, shared, c>, si32 -> !pydev.struct<"Pair", {a: si32, b: f32}>
# SHARED: return
@device.kernel
def shared_arrays(out):
    a = device.shared_array(N, device.float32, align=16)
    b = device.shared_array(SHAPE, dtype=device.int64, order="C")
    c = shared_array(shape=8, dtype=Pair)
    n = N * 2
    d = shared_array(n, device.float32, order="F")
    e = shared_array((2, 3, 4), device.float32)
    a[0] = 1.0
    b[1, 2] = 7
    d[3] = e[1, 2, 3]
    out[0] = a[0] + b[1, 2] + c[3].b + d[3]


# dynamic_shared_array() is a 1-d uint8 shared array; view() retypes it.
# DYNAMIC-LABEL: func.func @dynamic
# DYNAMIC: %[[RAW:.*]] = pydev.dynamic_shared_array : <ui8, 1, shared, c>
# DYNAMIC: pydev.array_store %{{.*}}, %[[RAW]][%{{.*}}] : ui8, <ui8, 1, shared, c>, si32
# DYNAMIC: %[[RAW2:.*]] = pydev.dynamic_shared_array : <ui8, 1, shared, c>
# DYNAMIC-NEXT: %[[F:.*]] = pydev.array_view %[[RAW2]] : <ui8, 1, shared, c> -> <f32, 1, shared, c>
# DYNAMIC: pydev.array_store %{{.*}}, %[[F]][%{{.*}}] : f32, <f32, 1, shared, c>, si32
# DYNAMIC: %[[I:.*]] = pydev.array_view %[[RAW]] : <ui8, 1, shared, c> -> <si32, 1, shared, c>
# DYNAMIC: pydev.array_load %[[I]]
@device.kernel
def dynamic(out):
    raw = device.dynamic_shared_array()
    raw[0] = 1
    f = device.dynamic_shared_array().view(device.float32)
    f[1] = 2.0
    ints = raw.view(device.int32)
    out[0] = f[1] + ints[2]


# A shared tile of a constant size, loaded, synchronised and read back.
# TILE-LABEL: func.func @tile
# TILE: %[[T:.*]] = pydev.shared_array shape [16, 17] order "C" : <f32, 2, shared, c>
# TILE: pydev.array_store %{{.*}}, %[[T]][%{{.*}}, %{{.*}}] : f32, <f32, 2, shared, c>, ui32, ui32
# TILE: pydev.syncthreads
# TILE: pydev.array_load %[[T]][%{{.*}}, %{{.*}}] : <f32, 2, shared, c>, ui32, ui32 -> f32
@device.kernel
def tile(a):
    t = device.shared_array((TILE, TILE + 1), device.float32)
    tx = device.thread_idx.x
    ty = device.thread_idx.y
    t[ty, tx] = a[ty, tx]
    device.syncthreads()
    a[ty, tx] = t[tx, ty]


# Shared, local and dynamic shared arrays are C-contiguous, and so are their
# unit-step slices: dyn[0:k].view(float32) works. NumPy dtypes are dtypes
# (API.md): shared_array(n, np.int64).
# CONTIGUOUS-LABEL: func.func @contiguous_memory
# CONTIGUOUS: %[[DYN:.*]] = pydev.dynamic_shared_array : <ui8, 1, shared, c>
# CONTIGUOUS: %[[HEAD:.*]] = pydev.array_slice %[[DYN]] [1] {{.*}} : <ui8, 1, shared, c> -> <ui8, 1, shared, c>
# CONTIGUOUS-NEXT: pydev.array_view %[[HEAD]] : <ui8, 1, shared, c> -> <f32, 1, shared, c>
# CONTIGUOUS: %[[S:.*]] = pydev.shared_array shape [4] order "C" : <si64, 1, shared, c>
# CONTIGUOUS: %[[L:.*]] = pydev.local_array shape [2, 8] order "C" : <si16, 2, local, c>
# CONTIGUOUS: %[[ROW:.*]] = pydev.array_slice %[[L]] [0, 1] {{.*}} : <si16, 2, local, c> -> <si16, 1, local, c>
# CONTIGUOUS-NEXT: pydev.array_view %[[ROW]] : <si16, 1, local, c> -> <si32, 1, local, c>
# CONTIGUOUS: %[[T:.*]] = pydev.array_slice %[[S]] [1] {{.*}} : <si64, 1, shared, c> -> <si64, 1, shared, c>
# CONTIGUOUS-NEXT: pydev.array_view %[[T]] : <si64, 1, shared, c> -> <f64, 1, shared, c>
@device.kernel
def contiguous_memory(out, k):
    dyn = device.dynamic_shared_array()
    f = dyn[0:k].view(device.float32)
    f[0] = 1.5
    s = device.shared_array(4, np.int64)
    s[0] = 7
    loc = device.local_array((2, 8), np.short)
    loc[1, 2] = 3
    w = loc[1, 2:6].view(np.int32)
    out[0] = f[0] + w[0] + s[1:].view(np.float64)[0]
