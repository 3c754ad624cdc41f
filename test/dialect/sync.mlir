// RUN: pydev-opt %s | pydev-opt | FileCheck %s
// Round trip of block and warp synchronization (spec: Thread Block
// Synchronization, Thread Warp Synchronization).

// CHECK-LABEL: func.func @block
func.func @block(%p: i1) -> (si32, i32, i1, i1) {
  // CHECK: pydev.syncthreads
  pydev.syncthreads
  // CHECK: pydev.grid_sync
  pydev.grid_sync
  // CHECK: pydev.syncthreads_count %{{.*}} : si32
  %0 = pydev.syncthreads_count %p : si32
  // CHECK: pydev.syncthreads_count %{{.*}} : i32
  %1 = pydev.syncthreads_count %p : i32
  // CHECK: pydev.syncthreads_and %{{.*}} : i1
  %2 = pydev.syncthreads_and %p : i1
  // CHECK: pydev.syncthreads_or %{{.*}} : i1
  %3 = pydev.syncthreads_or %p : i1
  return %0, %1, %2, %3 : si32, i32, i1, i1
}

// CHECK-LABEL: func.func @warp
func.func @warp(%m: !pydev.warp_mask) -> (!pydev.warp_mask, !pydev.warp_mask) {
  // CHECK: pydev.syncwarp %{{.*}}
  pydev.syncwarp %m
  // CHECK: %[[A:.*]] = pydev.activemask
  %0 = pydev.activemask
  // CHECK: pydev.syncwarp %[[A]]
  pydev.syncwarp %0
  // CHECK: pydev.lanemask_lt
  %1 = pydev.lanemask_lt
  return %0, %1 : !pydev.warp_mask, !pydev.warp_mask
}
