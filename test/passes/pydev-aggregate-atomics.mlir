// RUN: pydev-opt %s --pydev-aggregate-atomics | FileCheck %s
// RUN: pydev-opt %s --pydev-aggregate-atomics="floats=1" | FileCheck %s --check-prefix=FLOATS

// A histogram under `if i < n:`: the bin varies, the value (1) is uniform:
// the lanes sharing a bin (match_any over the active lanes) add popc(group)
// once, from the group's lowest lane.
// CHECK-LABEL: func.func @histogram
// CHECK: %[[ACT:.*]] = pydev.activemask
// CHECK: %[[A:.*]] = pydev.cast %[[ACT]] : !pydev.warp_mask to i32
// CHECK: %[[M:.*]] = pydev.match_any %[[ACT]], %{{.*}} : i64
// CHECK: %[[MI:.*]] = pydev.cast %[[M]] : !pydev.warp_mask to i32
// CHECK: %[[G:.*]] = arith.andi %[[A]], %[[MI]] : i32
// CHECK: %[[LT:.*]] = pydev.lanemask_lt
// CHECK: %[[LTI:.*]] = pydev.cast %[[LT]]
// CHECK: %[[BELOW:.*]] = arith.andi %[[G]], %[[LTI]] : i32
// CHECK: %[[LEAD:.*]] = arith.cmpi eq, %[[BELOW]], %{{.*}} : i32
// CHECK: %[[N:.*]] = math.ctpop %[[G]] : i32
// CHECK: %[[V:.*]] = arith.muli %{{.*}}, %[[N]] : i32
// CHECK: scf.if %[[LEAD]] {
// CHECK-NEXT: pydev.atomic_rmw add %{{.*}}, %[[V]] memory <relaxed> scope <device>
// CHECK-NEXT: }
// CHECK-NOT: pydev.atomic_rmw
// CHECK: return
func.func @histogram(%bins: !pydev.array<i32, 1, c>, %data: !pydev.array<i32, 1, c, readonly>, %n: i64) attributes {pydev.kernel} {
  %c1 = arith.constant 1 : i32
  %tx = gpu.thread_id x
  %i = arith.index_cast %tx : index to i64
  %in = arith.cmpi slt, %i, %n : i64
  cf.cond_br %in, ^bb1, ^bb2
^bb1:
  %v = pydev.array_load %data[%i] : !pydev.array<i32, 1, c, readonly>, i64 -> i32
  %bin = arith.extsi %v : i32 to i64
  %r = pydev.atomic_ref %bins[%bin] : !pydev.array<i32, 1, c>, i64 -> !pydev.atomic_ref<i32>
  %old = pydev.atomic_rmw add %r, %c1 memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  cf.br ^bb2
^bb2:
  return
}

// A block sum: the address (block id) is uniform, the value varies: a full
// warp reduces with five xor shuffles and lane 0 adds; a partial one adds
// lane by lane as before.
// CHECK-LABEL: func.func @block_sum
// CHECK: %[[ACT:.*]] = pydev.activemask
// CHECK: %[[G:.*]] = pydev.cast %[[ACT]] : !pydev.warp_mask to i32
// CHECK-NOT: pydev.match_any
// CHECK: %[[LEAD:.*]] = arith.cmpi eq
// CHECK: %[[FULL:.*]] = arith.cmpi eq, %[[G]], %{{.*}} : i32
// CHECK: scf.if %[[FULL]] {
// CHECK: %[[S1:.*]] = pydev.shfl xor %[[ACT]], %[[X:.*]], %{{.*}} : i64, i32
// CHECK: %[[A1:.*]] = arith.addi %[[X]], %[[S1]] : i64
// CHECK-COUNT-4: pydev.shfl xor
// CHECK: %[[SUM:.*]] = arith.addi
// CHECK: scf.if %[[LEAD]] {
// CHECK-NEXT: pydev.atomic_rmw add %{{.*}}, %[[SUM]] memory <relaxed> scope <device>
// CHECK: } else {
// CHECK-NEXT: pydev.atomic_rmw add %{{.*}}, %[[X]] memory <relaxed> scope <device>
// CHECK-NEXT: }
// CHECK-NOT: pydev.atomic_rmw
func.func @block_sum(%out: !pydev.array<i64, 1, c>, %x: !pydev.array<i64, 1, c, readonly>) attributes {pydev.kernel} {
  %tx = gpu.thread_id x
  %bx = gpu.block_id x
  %bd = gpu.block_dim x
  %base = arith.muli %bx, %bd : index
  %i = arith.addi %base, %tx : index
  %v = pydev.array_load %x[%i] : !pydev.array<i64, 1, c, readonly>, index -> i64
  %r = pydev.atomic_ref %out[%bx] : !pydev.array<i64, 1, c>, index -> !pydev.atomic_ref<i64>
  %old = pydev.atomic_rmw add %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<i64>, i64
  return
}

// Uniform address and value, in shared memory: one add of popc(active) *
// value; xor of a uniform value: popc & 1; max of a uniform value: itself.
// CHECK-LABEL: func.func @counters
// CHECK: math.ctpop
// CHECK: arith.muli
// CHECK: scf.if
// CHECK-NEXT: pydev.atomic_rmw add
// CHECK: %[[P:.*]] = math.ctpop
// CHECK: %[[ODD:.*]] = arith.andi %[[P]], %{{.*}} : i32
// CHECK: arith.muli %{{.*}}, %[[ODD]] : i32
// CHECK: scf.if
// CHECK-NEXT: pydev.atomic_rmw xor
// CHECK-NOT: math.ctpop
// CHECK: scf.if
// CHECK-NEXT: pydev.atomic_rmw max %{{.*}}, %arg0 memory <relaxed> scope <block> {pydev.unsigned}
func.func @counters(%k: i32) attributes {pydev.kernel} {
  %s = pydev.shared_array shape [4] order "C" : !pydev.array<i32, 1, shared, c>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = pydev.atomic_ref %s[%c0] : !pydev.array<i32, 1, shared, c>, i32 -> !pydev.atomic_ref<i32, shared>
  %a = pydev.atomic_rmw add %r, %c1 memory <relaxed> scope <block> : !pydev.atomic_ref<i32, shared>, i32
  %b = pydev.atomic_rmw xor %r, %k memory <relaxed> scope <block> : !pydev.atomic_ref<i32, shared>, i32
  %c = pydev.atomic_rmw max %r, %k memory <relaxed> scope <block> {pydev.unsigned} : !pydev.atomic_ref<i32, shared>, i32
  return
}

// A varying unsigned min at a uniform address combines with minui.
// CHECK-LABEL: func.func @unsigned_min
// CHECK: arith.minui
// CHECK: pydev.atomic_rmw min {{.*}} {pydev.unsigned}
func.func @unsigned_min(%out: !pydev.array<i32, 1, c>) attributes {pydev.kernel} {
  %c0 = arith.constant 0 : i32
  %l = gpu.lane_id
  %v = arith.index_cast %l : index to i32
  %r = pydev.atomic_ref %out[%c0] : !pydev.array<i32, 1, c>, i32 -> !pydev.atomic_ref<i32>
  %a = pydev.atomic_rmw min %r, %v memory <relaxed> scope <device> {pydev.unsigned} : !pydev.atomic_ref<i32>, i32
  return
}

// Does not fire: the old value is used; a non-relaxed order; thread scope;
// exch; a local array; a float (without floats=1); a varying value at a
// varying address; a device function's array (not thread-uniform).
// CHECK-LABEL: func.func @does_not_fire
// CHECK-NOT: pydev.activemask
// CHECK-NOT: scf.if
// CHECK: return
// FLOATS-LABEL: func.func @does_not_fire
// FLOATS: pydev.activemask
// FLOATS: math.ctpop
// FLOATS: arith.uitofp %{{.*}} : i32 to f32
// FLOATS: arith.mulf %arg2
// FLOATS: pydev.atomic_rmw add %{{.*}} : <f32>, f32
// FLOATS-NOT: pydev.activemask
// FLOATS: return
func.func @does_not_fire(%out: !pydev.array<i32, 1, c>, %f: !pydev.array<f32, 1, c>, %x: f32) attributes {pydev.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = pydev.atomic_ref %out[%c0] : !pydev.array<i32, 1, c>, i32 -> !pydev.atomic_ref<i32>
  %used = pydev.atomic_rmw add %r, %c1 memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  %1 = pydev.atomic_rmw add %r, %c1 memory <seq_cst> scope <device> : !pydev.atomic_ref<i32>, i32
  %2 = pydev.atomic_rmw add %r, %c1 memory <relaxed> scope <thread> : !pydev.atomic_ref<i32>, i32
  %3 = pydev.atomic_rmw exch %r, %c1 memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  %loc = pydev.local_array shape [2] order "C" : !pydev.array<i32, 1, local, c>
  %lr = pydev.atomic_ref %loc[%c0] : !pydev.array<i32, 1, local, c>, i32 -> !pydev.atomic_ref<i32, local>
  %4 = pydev.atomic_rmw add %lr, %c1 memory <relaxed> scope <device> : !pydev.atomic_ref<i32, local>, i32
  %fr = pydev.atomic_ref %f[%c0] : !pydev.array<f32, 1, c>, i32 -> !pydev.atomic_ref<f32>
  %5 = pydev.atomic_rmw add %fr, %x memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
  %l = gpu.lane_id
  %li = arith.index_cast %l : index to i32
  %vr = pydev.atomic_ref %out[%li] : !pydev.array<i32, 1, c>, i32 -> !pydev.atomic_ref<i32>
  %6 = pydev.atomic_rmw add %vr, %li memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  pydev.array_store %used, %out[%c1] : i32, !pydev.array<i32, 1, c>, i32
  return
}

// CHECK-LABEL: func.func @device_function
// CHECK-NOT: pydev.activemask
func.func @device_function(%out: !pydev.array<i32, 1, c>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = pydev.atomic_ref %out[%c0] : !pydev.array<i32, 1, c>, i32 -> !pydev.atomic_ref<i32>
  %0 = pydev.atomic_rmw add %r, %c1 memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  return
}
