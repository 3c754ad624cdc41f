// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-lower-atomics=target=host | FileCheck %s

// On the host, atomics are LLVM atomics with the requested order (every
// scope widens to the system: one process's threads share memory).
// CHECK-LABEL: func.func @rmw
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic {alignment = {{[48]}} : i64} : !llvm.ptr, i32
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} acq_rel {alignment = {{[48]}} : i64} : !llvm.ptr, f32
// CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} seq_cst {alignment = {{[48]}} : i64} : !llvm.ptr, i64
// CHECK: llvm.atomicrmw umin %{{.*}}, %{{.*}} acquire {alignment = {{[48]}} : i64} : !llvm.ptr, i32
// CHECK: llvm.atomicrmw fmax %{{.*}}, %{{.*}} monotonic {alignment = {{[48]}} : i64} : !llvm.ptr, f32
// CHECK: llvm.atomicrmw xchg %{{.*}}, %{{.*}} release {alignment = {{[48]}} : i64} : !llvm.ptr, f32
func.func @rmw(%pi: !llvm.ptr, %pf: !llvm.ptr, %pl: !llvm.ptr, %i: i32, %f: f32, %l: i64) {
  %ri = builtin.unrealized_conversion_cast %pi : !llvm.ptr to !pydev.atomic_ref<i32>
  %rf = builtin.unrealized_conversion_cast %pf : !llvm.ptr to !pydev.atomic_ref<f32>
  %rl = builtin.unrealized_conversion_cast %pl : !llvm.ptr to !pydev.atomic_ref<i64>
  %0 = pydev.atomic_rmw add %ri, %i memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  %1 = pydev.atomic_rmw add %rf, %f memory <acq_rel> scope <system> : !pydev.atomic_ref<f32>, f32
  %2 = pydev.atomic_rmw max %rl, %l memory <seq_cst> scope <block> : !pydev.atomic_ref<i64>, i64
  %3 = pydev.atomic_rmw min %ri, %i memory <acquire> scope <device> {pydev.unsigned} : !pydev.atomic_ref<i32>, i32
  %4 = pydev.atomic_rmw nanmax %rf, %f memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
  %5 = pydev.atomic_rmw exch %rf, %f memory <release> scope <device> : !pydev.atomic_ref<f32>, f32
  return
}

// -----

// Python-order max of floats is a compare-and-swap loop in the runtime.
// CHECK-LABEL: func.func @python_max
// CHECK: call @pydev_rt_atomic_fmax_f64(%{{.*}}, %{{.*}}) : (!llvm.ptr, f64) -> f64
// CHECK: func.func private @pydev_rt_atomic_fmax_f64(!llvm.ptr, f64) -> f64
func.func @python_max(%p: !llvm.ptr, %d: f64) {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<f64>
  %0 = pydev.atomic_rmw max %r, %d memory <relaxed> scope <device> : !pydev.atomic_ref<f64>, f64
  return
}

// -----

// CAS compares bits; loads and stores are atomic with their order; fences
// keep theirs (relaxed ones vanish).
// CHECK-LABEL: func.func @cas_load_store_fence
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[P:.*]] = llvm.cmpxchg %{{.*}}, %[[B]], %{{.*}} acquire acquire {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: llvm.extractvalue %[[P]][0] : !llvm.struct<(i32, i1)>
// CHECK: llvm.load %{{.*}} atomic seq_cst {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}}, %{{.*}} atomic release {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK: llvm.fence seq_cst
// CHECK-NOT: llvm.fence
func.func @cas_load_store_fence(%p: !llvm.ptr, %f: f32) {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<f32>
  %0 = pydev.atomic_cas %r, %f, %f memory <acquire> scope <device> : !pydev.atomic_ref<f32>, f32
  %1 = pydev.atomic_load %r memory <seq_cst> scope <system> : !pydev.atomic_ref<f32> -> f32
  pydev.atomic_store %f, %r memory <release> scope <block> : f32, !pydev.atomic_ref<f32>
  pydev.threadfence memory <seq_cst> scope <device>
  pydev.threadfence memory <relaxed> scope <device>
  return
}

// -----

// Waiting needs the thread context (pydev-lower-simt-host) to yield.
func.func @wait_without_context(%p: !llvm.ptr, %i: i32) {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<i32>
  // expected-error @+1 {{atomic waits on the host need pydev-lower-simt-host first}}
  pydev.atomic_wait %r, %i memory <seq_cst> scope <device> : !pydev.atomic_ref<i32>, i32
  return
}

// -----

// The host also has byte and word atomics: exch and cas of int8 and float16.
// CHECK-LABEL: func.func @narrow
// CHECK: llvm.atomicrmw xchg %{{.*}}, %{{.*}} seq_cst {alignment = 1 : i64} : !llvm.ptr, i8
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : f16 to i16
// CHECK: llvm.cmpxchg %{{.*}}, %[[B]], %{{.*}} seq_cst seq_cst {alignment = 2 : i64} : !llvm.ptr, i16
func.func @narrow(%p: !llvm.ptr, %q: !llvm.ptr, %b: i8, %h: f16) {
  %rb = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<i8>
  %rh = builtin.unrealized_conversion_cast %q : !llvm.ptr to !pydev.atomic_ref<f16>
  %0 = pydev.atomic_rmw exch %rb, %b memory <seq_cst> scope <device> : !pydev.atomic_ref<i8>, i8
  %1 = pydev.atomic_cas %rh, %h, %h memory <seq_cst> scope <device> : !pydev.atomic_ref<f16>, f16
  return
}
