// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-lower-simt-host | FileCheck %s

// A kernel gets the thread context as its last (noalias) argument; thread positioning
// reads it at fixed offsets; a block loop runs its threads in x-fastest
// order; the module lists the kernel's parameter sizes. No barrier: no
// pydev.host_fibers.
// CHECK: module attributes {pydev.host_kernels = {positions = array<i64: 24, 4>}, pydev.host_locations = []}
// CHECK-NOT: pydev.host_fibers
// CHECK-LABEL: func.func @positions
// CHECK-SAME: (%{{.*}}: !pydev.array<f32, 1>, %{{.*}}: i32, %[[CTX:.*]]: !llvm.ptr {llvm.noalias}) attributes {pydev.host_ctx, pydev.kernel}
// CHECK: %[[P:.*]] = llvm.getelementptr %[[CTX]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.load %[[P]] : !llvm.ptr -> i32
// CHECK: llvm.getelementptr %[[CTX]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.getelementptr %[[CTX]][32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.getelementptr %[[CTX]][36] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[L:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: arith.index_castui %[[L]] : i32 to index
// CHECK-LABEL: func.func @__pydev_block_positions(%{{.*}}: !pydev.array<f32, 1>, %{{.*}}: i32, %{{.*}}: !llvm.ptr {llvm.noalias}) attributes {pydev.host_ctx}
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: call @positions(
func.func @positions(%a: !pydev.array<f32, 1>, %n: i32) attributes {pydev.kernel} {
  %t = gpu.thread_id x
  %b = gpu.block_id y
  %d = gpu.block_dim z
  %g = gpu.grid_dim x
  %l = gpu.lane_id
  return
}

// -----

// Barriers and warp operations call the runtime, which switches threads;
// the module asks for coroutine threads.
// CHECK: module attributes {pydev.host_fibers
// CHECK-LABEL: func.func @sync
// CHECK: llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[K:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: call @pydev_rt_barrier(%{{.*}}, %[[K]], %{{.*}}) : (!llvm.ptr, i32, i32) -> i32
// CHECK: %[[C:.*]] = call @pydev_rt_barrier
// CHECK: %[[A:.*]] = call @pydev_rt_barrier
// CHECK: llvm.icmp "ne" %[[A]]
// CHECK: %[[SHFL:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[R:.*]] = call @pydev_rt_warp(%{{.*}}, %[[SHFL]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, i32, i64, i32) -> i64
// CHECK: %[[T:.*]] = llvm.trunc %[[R]] : i64 to i32
// CHECK: llvm.bitcast %[[T]] : i32 to f32
// CHECK: %[[MA:.*]] = call @pydev_rt_warp
// CHECK: llvm.lshr %[[MA]]
// CHECK: func.func private @pydev_rt_barrier(!llvm.ptr, i32, i32) -> i32
// CHECK: func.func private @pydev_rt_warp(!llvm.ptr, i32, i32, i64, i32) -> i64
func.func @sync(%p: i1, %f: f32, %lane: i32) attributes {pydev.kernel} {
  pydev.syncthreads
  %c = pydev.syncthreads_count %p : i32
  %a = pydev.syncthreads_and %p : i1
  %m = pydev.activemask
  %s = pydev.shfl down %m, %f, %lane : f32, i32
  %ma, %pa = pydev.match_all %m, %lane : i32
  return
}

// -----

// A grid barrier is a runtime barrier of kind 4; the kernels that reach one
// (through a call too) are listed as cooperative, the others are not.
// CHECK: pydev.host_cooperative = {direct = 1 : i64, indirect = 1 : i64}
// CHECK-LABEL: func.func @helper
// CHECK: %[[G:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: call @pydev_rt_barrier(%{{.*}}, %[[G]], %[[Z]]) : (!llvm.ptr, i32, i32) -> i32
// CHECK-NOT: pydev.grid_sync
func.func @helper() {
  pydev.grid_sync
  return
}
func.func @direct() attributes {pydev.kernel} {
  pydev.grid_sync
  return
}
func.func @indirect() attributes {pydev.kernel} {
  func.call @helper() : () -> ()
  return
}
func.func @other() attributes {pydev.kernel} {
  pydev.syncthreads
  return
}

// -----

// Calls between device functions pass the context along.
// CHECK-LABEL: func.func @callee(%{{.*}}: i32, %{{.*}}: !llvm.ptr {llvm.noalias}) -> i32 attributes {pydev.host_ctx}
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[X:.*]]: i32, %[[CTX:.*]]: !llvm.ptr {llvm.noalias})
// CHECK: call @callee(%[[X]], %[[CTX]]) : (i32, !llvm.ptr) -> i32
func.func @callee(%x: i32) -> i32 {
  return %x : i32
}
func.func @caller(%x: i32) attributes {pydev.kernel} {
  %r = func.call @callee(%x) : (i32) -> i32
  return
}

// -----

// Integer division by a value that may be zero reports the location and
// divides by one instead; a signed division cannot trap on INT_MIN / -1.
// CHECK: pydev.host_locations = ["{{.*}}pydev-lower-simt-host.mlir:{{[0-9]+}}:8"]
// CHECK-LABEL: func.func @divide
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[D:.*]], %{{.*}} : i32
// CHECK: scf.if %[[Z]] {
// CHECK:   func.call @pydev_rt_error(
// CHECK: }
// CHECK: %[[SAFE:.*]] = arith.select %[[Z]], %{{.*}}, %[[D]] : i32
// CHECK: %[[M1:.*]] = arith.cmpi eq, %[[SAFE]], %{{.*}} : i32
// CHECK: arith.floordivsi
// CHECK: arith.select %[[M1]]
// Dividing by a constant other than 0 and -1 is left alone.
// CHECK: arith.divui %{{.*}}, %{{.*}} : i32
// CHECK-NOT: scf.if
func.func @divide(%a: i32, %d: i32) attributes {pydev.kernel} {
  %q = arith.floordivsi %a, %d : i32
  %c7 = arith.constant 7 : i32
  %r = arith.divui %a, %c7 : i32
  return
}

// -----

// A Python exception raised in device code (@__pydev_raise, defined empty by
// the frontend) reports its id through pydev_rt_error (code 3); whether the
// thread raised (@__pydev_raised) asks the runtime.
// CHECK-LABEL: func.func @raising
// CHECK: %[[ID:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[CODE:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: call @pydev_rt_error(%{{.*}}, %[[CODE]], %{{.*}}, %[[ID]], %{{.*}}) : (!llvm.ptr, i32, i32, i64, i64) -> ()
// CHECK-NOT: @__pydev_raise
// CHECK: %[[R:.*]] = call @pydev_rt_raised(%{{.*}}) : (!llvm.ptr) -> i32
// CHECK: arith.cmpi ne, %[[R]], %{{.*}} : i32
// CHECK: func.func private @pydev_rt_raised(!llvm.ptr) -> i32
func.func @__pydev_raise(%id: i32) {
  return
}
func.func @__pydev_raised() -> i1 {
  %f = arith.constant false
  return %f : i1
}
func.func @raising(%c: i32) attributes {pydev.kernel} {
  func.call @__pydev_raise(%c) : (i32) -> ()
  %r = func.call @__pydev_raised() : () -> i1
  return
}

// -----

// Aggregates move member by member: one runtime shuffle per member.
// CHECK-LABEL: func.func @shuffle_tuple
// CHECK: pydev.tuple_extract %{{.*}}[0]
// CHECK: call @pydev_rt_warp
// CHECK: pydev.tuple_extract %{{.*}}[1]
// CHECK: call @pydev_rt_warp
// CHECK: pydev.tuple_create
func.func @shuffle_tuple(%m: !pydev.warp_mask, %t: !pydev.tuple<i32, f32>, %l: i32) attributes {pydev.kernel} {
  %0 = pydev.shfl idx %m, %t, %l : !pydev.tuple<i32, f32>, i32
  return
}

// -----

// Reduction privatization: %bins only receives relaxed atomic adds whose
// results are unused (its size may be read), so the runtime may give each
// worker a private copy (parameter 0, i32); %data is read, %seen receives
// an acq_rel add, %olds' add result is used: none of those.
// CHECK: pydev.host_private = {hist = array<i64: 0, 1>}
func.func @hist(%bins: !pydev.array<i32, 1>, %data: !pydev.array<i32, 1>, %seen: !pydev.array<i32, 1>, %olds: !pydev.array<f32, 1>, %i: i64) attributes {pydev.kernel} {
  %n = pydev.array_size %bins : !pydev.array<i32, 1> -> i64
  %d = pydev.array_load %data[%i] : !pydev.array<i32, 1>, i64 -> i32
  %r = pydev.atomic_ref %bins[%n] : !pydev.array<i32, 1>, i64 -> !pydev.atomic_ref<i32>
  %0 = pydev.atomic_rmw add %r, %d memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  %s = pydev.atomic_ref %seen[%i] : !pydev.array<i32, 1>, i64 -> !pydev.atomic_ref<i32>
  %1 = pydev.atomic_rmw add %s, %d memory <acq_rel> scope <device> : !pydev.atomic_ref<i32>, i32
  %o = pydev.atomic_ref %olds[%i] : !pydev.array<f32, 1>, i64 -> !pydev.atomic_ref<f32>
  %one = arith.constant 1.0 : f32
  %2 = pydev.atomic_rmw add %o, %one memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
  pydev.array_store %2, %olds[%i] : f32, !pydev.array<f32, 1>, i64
  return
}

// -----

// Interoperable device functions keep their C signature (no context); the
// kernel calls them without one. Thread positioning in them is an error.
// CHECK-LABEL: func.func @diff
// CHECK-SAME: (%{{.*}}: f32, %{{.*}}: f32) -> f32 attributes {pydev.interop}
// CHECK-LABEL: func.func @calls_interop
// CHECK: call @diff(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
func.func @diff(%a: f32, %b: f32) -> f32 attributes {pydev.interop} {
  %d = arith.subf %a, %b : f32
  return %d : f32
}
func.func @calls_interop(%a: f32) attributes {pydev.kernel} {
  %r = func.call @diff(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @positioned(%a: f32) -> index attributes {pydev.interop} {
  // expected-error @+1 {{'gpu.thread_id' in an interoperable (interop=True) device function is not supported on the host target: its C signature has no room for the thread context}}
  %t = gpu.thread_id x
  return %t : index
}

// -----

// Launch bounds: the module maps each kernel with nvvm.maxntid to the most
// threads its blocks may have (the product of the bound's dimensions), which
// the runtime checks at launch; a kernel without bounds is not listed.
// CHECK: module attributes {
// CHECK-SAME: pydev.host_max_threads = {bounded = 128 : i64, bounded_2d = 32 : i64}
// CHECK-LABEL: func.func @bounded(
func.func @bounded(%a: !pydev.array<f32, 1>) attributes {pydev.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32} {
  return
}
func.func @bounded_2d(%a: !pydev.array<f32, 1>) attributes {pydev.kernel, nvvm.maxntid = array<i32: 8, 4>} {
  return
}
func.func @free(%a: !pydev.array<f32, 1>) attributes {pydev.kernel} {
  return
}
