# Thread positioning (spec: Thread Positioning): the Dim3 objects and their
# components, tid() and grid_size() in 1 to 3 dimensions, warp_size, lane_id.
# RUN: pydevc %s --kernel dims --signature 'uint32[:]' --emit pydev | FileCheck %s --check-prefix=DIMS
# RUN: pydevc %s --kernel dim3_values --signature 'uint32[:]' --emit pydev | FileCheck %s --check-prefix=DIM3
# RUN: pydevc %s --kernel tid1 --signature 'float32[:]' --emit pydev | FileCheck %s --check-prefix=TID1
# RUN: pydevc %s --kernel tid2 --signature 'float32[:, :]' --emit pydev | FileCheck %s --check-prefix=TID2
# RUN: pydevc %s --kernel tid3 --signature 'int32[:, :, :]' --emit pydev | FileCheck %s --check-prefix=TID3
# RUN: pydevc %s --kernel grid_sizes --signature 'int32[:]' --emit pydev | FileCheck %s --check-prefix=GRID
# RUN: pydevc %s --kernel warp --signature 'int32[:]' --emit pydev | FileCheck %s --check-prefix=WARP
# RUN: pydevc %s --kernel dim3_as_vector --signature 'uint32[:]' --emit pydev | FileCheck %s --check-prefix=DIM3-VECTOR

import cuda.device as device
from cuda.device import thread_idx, tid, grid_size, lane_id, warp_size

# Each component is one gpu op, as uint32.
# DIMS-LABEL: func.func @dims
# DIMS: %[[TX:.*]] = gpu.thread_id x
# DIMS-NEXT: %[[TX32:.*]] = arith.index_cast %[[TX]] : index to i32
# DIMS-NEXT: %[[TXU:.*]] = pydev.cast %[[TX32]] : i32 to ui32
# DIMS: pydev.array_store %[[TXU]], %arg0
# DIMS: gpu.thread_id y
# DIMS: gpu.thread_id z
# DIMS: gpu.block_id x
# DIMS: gpu.block_id y
# DIMS: gpu.block_id z
# DIMS: gpu.block_dim x
# DIMS: gpu.block_dim y
# DIMS: gpu.block_dim z
# DIMS: gpu.grid_dim x
# DIMS: gpu.grid_dim y
# DIMS: gpu.grid_dim z
# DIMS: %[[IX:.*]] = gpu.thread_id x
# DIMS-NEXT: arith.index_cast %[[IX]] : index to i32
# DIMS-NEXT: pydev.cast %{{.*}} : i32 to ui32
# DIMS: return
@device.kernel
def dims(out):
    out[0] = device.thread_idx.x
    out[1] = device.thread_idx.y
    out[2] = device.thread_idx.z
    out[3] = device.block_idx.x
    out[4] = device.block_idx.y
    out[5] = device.block_idx.z
    out[6] = device.block_dim.x
    out[7] = device.block_dim.y
    out[8] = device.block_dim.z
    out[9] = device.grid_dim.x
    out[10] = device.grid_dim.y
    out[11] = device.grid_dim.z
    out[12] = thread_idx.x


# A Dim3 is a uint32x3: it can be named, indexed and unpacked.
# DIM3-LABEL: func.func @dim3_values
# DIM3: pydev.vector_create(%{{.*}}, %{{.*}}, %{{.*}}) : (ui32, ui32, ui32) -> !pydev.vector<3 x ui32>
# DIM3: pydev.vector_extract %{{.*}}[%{{.*}}] : <3 x ui32>, si32 -> ui32
# DIM3: gpu.block_dim z
# DIM3: pydev.vector_create
# DIM3: pydev.vector_extract %{{.*}} : <3 x ui32>, si32 -> ui32
# DIM3: gpu.grid_dim x
# DIM3: gpu.grid_dim y
# DIM3: gpu.grid_dim z
# DIM3: pydev.vector_create
# DIM3-COUNT-3: pydev.vector_extract
# DIM3: return
@device.kernel
def dim3_values(out):
    t = device.thread_idx
    out[0] = t[1]
    out[1] = device.block_dim[2]
    x, y, z = device.grid_dim
    out[2] = x + y + z


# tid(1) is threadIdx.x + blockIdx.x * blockDim.x as int32.
# TID1-LABEL: func.func @tid1
# tid(1) is non-negative and int32 (a value it cannot represent is UB), so
# its arithmetic is nsw nuw: negative-index wrap-around folds away.
# TID1: %[[T0:.*]] = gpu.thread_id x
# TID1-NEXT: %[[T:.*]] = arith.index_castui %[[T0]] : index to i32
# TID1-NEXT: %[[B0:.*]] = gpu.block_id x
# TID1-NEXT: %[[B:.*]] = arith.index_castui %[[B0]] : index to i32
# TID1-NEXT: %[[D0:.*]] = gpu.block_dim x
# TID1-NEXT: %[[D:.*]] = arith.index_castui %[[D0]] : index to i32
# TID1-NEXT: %[[M:.*]] = arith.muli %[[B]], %[[D]] overflow<nsw, nuw> : i32
# TID1-NEXT: %[[I:.*]] = arith.addi %[[M]], %[[T]] overflow<nsw, nuw> : i32
# TID1-NEXT: %[[TID:.*]] = pydev.cast %[[I]] : i32 to si32
# TID1-NOT: gpu.thread_id y
# TID1: pydev.cast %[[TID]] : si32 to si64
# TID1: pydev.array_store
@device.kernel
def tid1(a):
    i = device.tid(1)
    a[i] = 1.0


# TID2-LABEL: func.func @tid2
# TID2: gpu.thread_id x
# TID2: gpu.block_id x
# TID2: gpu.block_dim x
# TID2: %[[X:.*]] = pydev.cast %{{.*}} : i32 to si32
# TID2: gpu.thread_id y
# TID2: gpu.block_id y
# TID2: gpu.block_dim y
# TID2: %[[Y:.*]] = pydev.cast %{{.*}} : i32 to si32
# TID2-NOT: gpu.thread_id z
# TID2: pydev.cast %[[X]] : si32 to si64
# TID2: pydev.cast %[[Y]] : si32 to si64
# TID2: pydev.array_store %{{.*}}, %arg0[%{{.*}}, %{{.*}}] : f32, <f32, 2>, si64, si64
@device.kernel
def tid2(a):
    x, y = device.tid(2)
    a[x, y] = 2.0


# A tid(3) tuple: unpacked, indexed, or used whole as an index.
# TID3-LABEL: func.func @tid3
# TID3: gpu.thread_id z
# TID3: gpu.block_id z
# TID3: gpu.block_dim z
# TID3: %[[Z:.*]] = pydev.cast %{{.*}} : i32 to si32
# TID3: pydev.tuple_create(%{{.*}}, %{{.*}}, %[[Z]]) : (si32, si32, si32) -> !pydev.tuple<si32, si32, si32>
# TID3: pydev.array_store %{{.*}}, %arg0[%{{.*}}, %{{.*}}, %{{.*}}] : si32, <si32, 3>
# TID3: pydev.array_store %[[Z]], %arg0
@device.kernel
def tid3(a):
    p = tid(3)
    x, y, z = p
    a[p] = x + y
    a[0, 0, 0] = p[2]


# grid_size(n) is blockDim * gridDim per dimension, as int32.
# GRID-LABEL: func.func @grid_sizes
# GRID: %[[BD0:.*]] = gpu.block_dim x
# GRID-NEXT: %[[BD:.*]] = arith.index_castui %[[BD0]] : index to i32
# GRID-NEXT: %[[GD0:.*]] = gpu.grid_dim x
# GRID-NEXT: %[[GD:.*]] = arith.index_castui %[[GD0]] : index to i32
# GRID-NEXT: %[[I:.*]] = arith.muli %[[BD]], %[[GD]] overflow<nsw, nuw> : i32
# GRID-NEXT: pydev.cast %[[I]] : i32 to si32
# GRID: gpu.block_dim y
# GRID: gpu.grid_dim y
# GRID: gpu.block_dim z
# GRID: gpu.grid_dim z
# GRID: pydev.tuple_create(%{{.*}}, %{{.*}}, %{{.*}}) : (si32, si32, si32)
# GRID: return
@device.kernel
def grid_sizes(out):
    n = device.grid_size(1)
    gx, gy = device.grid_size(2)
    g = grid_size(3)
    out[0] = n
    out[1] = gx * gy
    out[2] = g[0] * g[1] * g[2]


# warp_size is the constant 32; lane_id is gpu.lane_id as int32.
# WARP-LABEL: func.func @warp
# WARP: %[[W:.*]] = pydev.constant 32 : si32
# WARP: pydev.array_store %[[W]], %arg0
# WARP: %[[L:.*]] = gpu.lane_id
# WARP-NEXT: %[[L32:.*]] = arith.index_cast %[[L]] : index to i32
# WARP-NEXT: %[[LANE:.*]] = pydev.cast %[[L32]] : i32 to si32
# WARP: pydev.array_store %[[LANE]], %arg0
# WARP: gpu.block_dim x
# WARP: %[[W2:.*]] = pydev.constant 32 : si32
# WARP-NEXT: pydev.mod %{{.*}}, %[[W2]] : si32, si32 -> si32
# WARP-NEXT: gpu.lane_id
@device.kernel
def warp(out):
    out[0] = device.warp_size
    out[1] = device.lane_id
    out[2] = tid(1) % warp_size + lane_id


# A Dim3 is a uint32x3 (spec: `Dim3` is a subclass of `uint32x3`): a for
# loop over it runs over its lanes (unrolled), len() is 3, and its size
# and dtype are a uint32x3's; indexing and unpacking are above.
# DIM3-VECTOR-LABEL: func.func @dim3_as_vector
# DIM3-VECTOR: %[[BD:.*]] = pydev.vector_create(%{{.*}}, %{{.*}}, %{{.*}}) : (ui32, ui32, ui32) -> !pydev.vector<3 x ui32>
# DIM3-VECTOR-COUNT-3: pydev.vector_extract %[[BD]]
# DIM3-VECTOR: %[[T0:.*]] = pydev.add %{{.*}}, %{{.*}} : ui32, ui32 -> ui32
# DIM3-VECTOR: %[[T1:.*]] = pydev.add %[[T0]], %{{.*}} : ui32, ui32 -> ui32
# DIM3-VECTOR: %[[T2:.*]] = pydev.add %[[T1]], %{{.*}} : ui32, ui32 -> ui32
# DIM3-VECTOR: pydev.array_store %[[T2]], %arg0
# DIM3-VECTOR: %[[LEN:.*]] = pydev.constant 3 : ui32
# DIM3-VECTOR-NEXT: pydev.array_store %[[LEN]], %arg0
# DIM3-VECTOR: %[[SIZE:.*]] = pydev.constant 3 : ui32
# DIM3-VECTOR-NEXT: pydev.array_store %[[SIZE]], %arg0
# DIM3-VECTOR: %[[DT:.*]] = pydev.constant 1 : ui32
# DIM3-VECTOR-NEXT: pydev.array_store %[[DT]], %arg0
@device.kernel
def dim3_as_vector(out):
    t = 0
    for d in device.block_dim:
        t += d
    out[0] = t
    out[1] = len(device.thread_idx)
    out[2] = device.grid_dim.size
    out[3] = device.block_idx.dtype == device.uint32
