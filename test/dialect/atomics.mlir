// RUN: pydev-opt %s | pydev-opt | FileCheck %s
// Round trip of atomics (spec: Synchronization / Atomics, Memory Orderings,
// Thread Scopes).

// CHECK-LABEL: func.func @refs
func.func @refs(%a: !pydev.array<ui32, 1>, %s: !pydev.array<f32, 2, shared, c>,
                %l: !pydev.array<si64, 3, local>, %z: !pydev.array<f64, 0>,
                %v: !pydev.array<!pydev.vector<4 x f32>, 1>, %i: si32, %j: index) {
  // CHECK: pydev.atomic_ref %{{.*}}[%{{.*}}] : <ui32, 1>, si32 -> <ui32>
  %0 = pydev.atomic_ref %a[%i] : !pydev.array<ui32, 1>, si32 -> !pydev.atomic_ref<ui32>
  // CHECK: pydev.atomic_ref %{{.*}}[%{{.*}}, %{{.*}}] : <f32, 2, shared, c>, si32, index -> <f32, shared>
  %1 = pydev.atomic_ref %s[%i, %j] : !pydev.array<f32, 2, shared, c>, si32, index -> !pydev.atomic_ref<f32, shared>
  // CHECK: pydev.atomic_ref %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : <si64, 3, local>, index, index, index -> <si64, local>
  %2 = pydev.atomic_ref %l[%j, %j, %j] : !pydev.array<si64, 3, local>, index, index, index -> !pydev.atomic_ref<si64, local>
  // CHECK: pydev.atomic_ref %{{.*}}[] : <f64, 0> -> <f64>
  %3 = pydev.atomic_ref %z[] : !pydev.array<f64, 0> -> !pydev.atomic_ref<f64>
  // CHECK: pydev.atomic_ref %{{.*}}[%{{.*}}] : <!pydev.vector<4 x f32>, 1>, si32 -> <!pydev.vector<4 x f32>>
  %4 = pydev.atomic_ref %v[%i] : !pydev.array<!pydev.vector<4 x f32>, 1>, si32 -> !pydev.atomic_ref<!pydev.vector<4 x f32>>
  return
}

// All ten read-modify-write kinds.
// CHECK-LABEL: func.func @rmw_kinds
func.func @rmw_kinds(%ri: !pydev.atomic_ref<si32>, %i: si32, %rf: !pydev.atomic_ref<f32>, %f: f32,
                     %ru: !pydev.atomic_ref<ui64, shared>, %u: ui64, %rd: !pydev.atomic_ref<f64>, %d: f64) {
  // CHECK: pydev.atomic_rmw add %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <f32>, f32
  %0 = pydev.atomic_rmw add %rf, %f memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
  // CHECK: pydev.atomic_rmw sub %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <si32>, si32
  %1 = pydev.atomic_rmw sub %ri, %i memory <relaxed> scope <device> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_rmw and %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <ui64, shared>, ui64
  %2 = pydev.atomic_rmw and %ru, %u memory <relaxed> scope <device> : !pydev.atomic_ref<ui64, shared>, ui64
  // CHECK: pydev.atomic_rmw or %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <si32>, si32
  %3 = pydev.atomic_rmw or %ri, %i memory <relaxed> scope <device> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_rmw xor %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <ui64, shared>, ui64
  %4 = pydev.atomic_rmw xor %ru, %u memory <relaxed> scope <device> : !pydev.atomic_ref<ui64, shared>, ui64
  // CHECK: pydev.atomic_rmw max %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <f64>, f64
  %5 = pydev.atomic_rmw max %rd, %d memory <relaxed> scope <device> : !pydev.atomic_ref<f64>, f64
  // CHECK: pydev.atomic_rmw min %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <ui64, shared>, ui64
  %6 = pydev.atomic_rmw min %ru, %u memory <relaxed> scope <device> : !pydev.atomic_ref<ui64, shared>, ui64
  // CHECK: pydev.atomic_rmw nanmax %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <f32>, f32
  %7 = pydev.atomic_rmw nanmax %rf, %f memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
  // CHECK: pydev.atomic_rmw nanmin %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <f64>, f64
  %8 = pydev.atomic_rmw nanmin %rd, %d memory <relaxed> scope <device> : !pydev.atomic_ref<f64>, f64
  // CHECK: pydev.atomic_rmw exch %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <f32>, f32
  %9 = pydev.atomic_rmw exch %rf, %f memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
  return
}

// The arithmetic kinds on every allowed type.
// CHECK-LABEL: func.func @rmw_types
func.func @rmw_types(%r1: !pydev.atomic_ref<i32>, %v1: i32, %r2: !pydev.atomic_ref<ui32>, %v2: ui32,
                     %r3: !pydev.atomic_ref<i64>, %v3: i64, %r4: !pydev.atomic_ref<si64>, %v4: si64) {
  // CHECK: pydev.atomic_rmw add %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <i32>, i32
  %0 = pydev.atomic_rmw add %r1, %v1 memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  // CHECK: pydev.atomic_rmw max %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <ui32>, ui32
  %1 = pydev.atomic_rmw max %r2, %v2 memory <relaxed> scope <device> : !pydev.atomic_ref<ui32>, ui32
  // CHECK: pydev.atomic_rmw nanmin %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <i64>, i64
  %2 = pydev.atomic_rmw nanmin %r3, %v3 memory <relaxed> scope <device> : !pydev.atomic_ref<i64>, i64
  // CHECK: pydev.atomic_rmw and %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <si64>, si64
  %3 = pydev.atomic_rmw and %r4, %v4 memory <relaxed> scope <device> : !pydev.atomic_ref<si64>, si64
  // CHECK: pydev.atomic_rmw or %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <ui32>, ui32
  %4 = pydev.atomic_rmw or %r2, %v2 memory <relaxed> scope <device> : !pydev.atomic_ref<ui32>, ui32
  return
}

// exch takes any value of at most 8 bytes.
// CHECK-LABEL: func.func @exch_types
func.func @exch_types(%r1: !pydev.atomic_ref<si8>, %v1: si8, %r2: !pydev.atomic_ref<f16>, %v2: f16,
                      %r3: !pydev.atomic_ref<!pydev.vector<2 x f32>>, %v3: !pydev.vector<2 x f32>,
                      %r4: !pydev.atomic_ref<!pydev.struct<"P", {x: si16, y: si16}>>, %v4: !pydev.struct<"P", {x: si16, y: si16}>,
                      %r5: !pydev.atomic_ref<i1>, %v5: i1, %r6: !pydev.atomic_ref<complex<f32>>, %v6: complex<f32>) {
  // CHECK: pydev.atomic_rmw exch %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <si8>, si8
  %0 = pydev.atomic_rmw exch %r1, %v1 memory <relaxed> scope <device> : !pydev.atomic_ref<si8>, si8
  // CHECK: pydev.atomic_rmw exch %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <f16>, f16
  %1 = pydev.atomic_rmw exch %r2, %v2 memory <relaxed> scope <device> : !pydev.atomic_ref<f16>, f16
  // CHECK: pydev.atomic_rmw exch %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <!pydev.vector<2 x f32>>, !pydev.vector<2 x f32>
  %2 = pydev.atomic_rmw exch %r3, %v3 memory <relaxed> scope <device> : !pydev.atomic_ref<!pydev.vector<2 x f32>>, !pydev.vector<2 x f32>
  // CHECK: pydev.atomic_rmw exch %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <!pydev.struct<"P", {x: si16, y: si16}>>, !pydev.struct<"P", {x: si16, y: si16}>
  %3 = pydev.atomic_rmw exch %r4, %v4 memory <relaxed> scope <device> : !pydev.atomic_ref<!pydev.struct<"P", {x: si16, y: si16}>>, !pydev.struct<"P", {x: si16, y: si16}>
  // CHECK: pydev.atomic_rmw exch %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <i1>, i1
  %4 = pydev.atomic_rmw exch %r5, %v5 memory <relaxed> scope <device> : !pydev.atomic_ref<i1>, i1
  // CHECK: pydev.atomic_rmw exch %{{.*}}, %{{.*}} memory <relaxed> scope <device> : <complex<f32>>, complex<f32>
  %5 = pydev.atomic_rmw exch %r6, %v6 memory <relaxed> scope <device> : !pydev.atomic_ref<complex<f32>>, complex<f32>
  return
}

// Every memory order and scope on a read-modify-write.
// CHECK-LABEL: func.func @rmw_orders_scopes
func.func @rmw_orders_scopes(%r: !pydev.atomic_ref<si32>, %v: si32) {
  // CHECK: pydev.atomic_rmw add %{{.*}}, %{{.*}} memory <relaxed> scope <system>
  %0 = pydev.atomic_rmw add %r, %v memory <relaxed> scope <system> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_rmw add %{{.*}}, %{{.*}} memory <consume> scope <device>
  %1 = pydev.atomic_rmw add %r, %v memory <consume> scope <device> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_rmw add %{{.*}}, %{{.*}} memory <acquire> scope <block>
  %2 = pydev.atomic_rmw add %r, %v memory <acquire> scope <block> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_rmw add %{{.*}}, %{{.*}} memory <release> scope <thread>
  %3 = pydev.atomic_rmw add %r, %v memory <release> scope <thread> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_rmw add %{{.*}}, %{{.*}} memory <acq_rel> scope <system>
  %4 = pydev.atomic_rmw add %r, %v memory <acq_rel> scope <system> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_rmw add %{{.*}}, %{{.*}} memory <seq_cst> scope <block>
  %5 = pydev.atomic_rmw add %r, %v memory <seq_cst> scope <block> : !pydev.atomic_ref<si32>, si32
  return
}

// CHECK-LABEL: func.func @cas
func.func @cas(%r: !pydev.atomic_ref<si32>, %old: si32, %new: si32,
               %rv: !pydev.atomic_ref<!pydev.vector<2 x f32>, shared>, %v: !pydev.vector<2 x f32>) {
  // CHECK: pydev.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} memory <seq_cst> scope <system> : <si32>, si32
  %0 = pydev.atomic_cas %r, %old, %new memory <seq_cst> scope <system> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} memory <acq_rel> scope <block> : <!pydev.vector<2 x f32>, shared>, !pydev.vector<2 x f32>
  %1 = pydev.atomic_cas %rv, %v, %v memory <acq_rel> scope <block> : !pydev.atomic_ref<!pydev.vector<2 x f32>, shared>, !pydev.vector<2 x f32>
  return
}

// CHECK-LABEL: func.func @load_store
func.func @load_store(%r: !pydev.atomic_ref<si64>, %v: si64,
                      %rw: !pydev.atomic_ref<!pydev.vector<4 x f32>, shared>, %w: !pydev.vector<4 x f32>) {
  // CHECK: pydev.atomic_load %{{.*}} memory <relaxed> scope <device> : <si64> -> si64
  %0 = pydev.atomic_load %r memory <relaxed> scope <device> : !pydev.atomic_ref<si64> -> si64
  // CHECK: pydev.atomic_load %{{.*}} memory <consume> scope <system> : <si64> -> si64
  %1 = pydev.atomic_load %r memory <consume> scope <system> : !pydev.atomic_ref<si64> -> si64
  // CHECK: pydev.atomic_load %{{.*}} memory <acquire> scope <device> : <si64> -> si64
  %2 = pydev.atomic_load %r memory <acquire> scope <device> : !pydev.atomic_ref<si64> -> si64
  // CHECK: pydev.atomic_load %{{.*}} memory <seq_cst> scope <thread> : <si64> -> si64
  %3 = pydev.atomic_load %r memory <seq_cst> scope <thread> : !pydev.atomic_ref<si64> -> si64
  // Loads and stores take up to 16 bytes.
  // CHECK: pydev.atomic_load %{{.*}} memory <acquire> scope <block> : <!pydev.vector<4 x f32>, shared> -> !pydev.vector<4 x f32>
  %4 = pydev.atomic_load %rw memory <acquire> scope <block> : !pydev.atomic_ref<!pydev.vector<4 x f32>, shared> -> !pydev.vector<4 x f32>
  // CHECK: pydev.atomic_store %{{.*}}, %{{.*}} memory <relaxed> scope <device> : si64, <si64>
  pydev.atomic_store %v, %r memory <relaxed> scope <device> : si64, !pydev.atomic_ref<si64>
  // CHECK: pydev.atomic_store %{{.*}}, %{{.*}} memory <release> scope <block> : si64, <si64>
  pydev.atomic_store %v, %r memory <release> scope <block> : si64, !pydev.atomic_ref<si64>
  // CHECK: pydev.atomic_store %{{.*}}, %{{.*}} memory <seq_cst> scope <system> : !pydev.vector<4 x f32>, <!pydev.vector<4 x f32>, shared>
  pydev.atomic_store %w, %rw memory <seq_cst> scope <system> : !pydev.vector<4 x f32>, !pydev.atomic_ref<!pydev.vector<4 x f32>, shared>
  return
}

// CHECK-LABEL: func.func @wait_notify
func.func @wait_notify(%r: !pydev.atomic_ref<si32>, %old: si32) {
  // CHECK: pydev.atomic_wait %{{.*}}, %{{.*}} memory <acquire> scope <device> : <si32>, si32
  pydev.atomic_wait %r, %old memory <acquire> scope <device> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_wait %{{.*}}, %{{.*}} memory <seq_cst> scope <system> : <si32>, si32
  pydev.atomic_wait %r, %old memory <seq_cst> scope <system> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_wait %{{.*}}, %{{.*}} memory <relaxed> scope <block> : <si32>, si32
  pydev.atomic_wait %r, %old memory <relaxed> scope <block> : !pydev.atomic_ref<si32>, si32
  // CHECK: pydev.atomic_notify %{{.*}} : <si32>
  pydev.atomic_notify %r : !pydev.atomic_ref<si32>
  // CHECK: pydev.atomic_notify %{{.*}} all : <si32>
  pydev.atomic_notify %r all : !pydev.atomic_ref<si32>
  return
}

// CHECK-LABEL: func.func @fences
func.func @fences() {
  // CHECK: pydev.threadfence memory <seq_cst> scope <device>
  pydev.threadfence memory <seq_cst> scope <device>
  // CHECK: pydev.threadfence memory <acq_rel> scope <block>
  pydev.threadfence memory <acq_rel> scope <block>
  // CHECK: pydev.threadfence memory <seq_cst> scope <system>
  pydev.threadfence memory <seq_cst> scope <system>
  return
}

// A device.Atomic field of a struct element: `field` names the member path.
// CHECK-LABEL: func.func @field_refs
func.func @field_refs(%m: !pydev.array<!pydev.struct<"M", {line: !pydev.struct<"atomic_int32_16", {value: si32}, align 16>, n: f32}>, 1, shared>, %i: si64) {
  // CHECK: pydev.atomic_ref %{{.*}}[%{{.*}}] field ["line", "value"] : <!pydev.struct<"M", {{.*}}>, 1, shared>, si64 -> <si32, shared>
  %0 = pydev.atomic_ref %m[%i] field ["line", "value"] : !pydev.array<!pydev.struct<"M", {line: !pydev.struct<"atomic_int32_16", {value: si32}, align 16>, n: f32}>, 1, shared>, si64 -> !pydev.atomic_ref<si32, shared>
  // CHECK: pydev.atomic_ref %{{.*}}[%{{.*}}] field ["n"] : {{.*}} -> <f32, shared>
  %1 = pydev.atomic_ref %m[%i] field ["n"] : !pydev.array<!pydev.struct<"M", {line: !pydev.struct<"atomic_int32_16", {value: si32}, align 16>, n: f32}>, 1, shared>, si64 -> !pydev.atomic_ref<f32, shared>
  return
}
