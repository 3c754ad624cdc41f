// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-lower-atomics=target=host | FileCheck %s

// On the host too, atomic_<k>(local) => load; k; store (the object is the
// thread's own: no llvm atomics, which LLVM would not promote to registers).
// CHECK-LABEL: func.func @local_host
// CHECK-NOT: llvm.atomicrmw
// CHECK-NOT: llvm.cmpxchg
// CHECK: %[[P:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !pydev.atomic_ref<i32, local> to !llvm.ptr
// CHECK-NEXT: %[[O:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[N:.*]] = llvm.add %[[O]], %{{.*}} : i32
// CHECK-NEXT: llvm.store %[[N]], %[[P]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %[[C:.*]] = llvm.load
// CHECK-NEXT: llvm.icmp "eq" %[[C]]
// CHECK-NEXT: llvm.select
// CHECK-NEXT: llvm.store
// CHECK: return %[[O]], %[[C]] : i32, i32
func.func @local_host(%p: !llvm.ptr, %v: i32) -> (i32, i32) {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<i32, local>
  %0 = pydev.atomic_rmw add %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<i32, local>, i32
  %1 = pydev.atomic_cas %r, %v, %v memory <seq_cst> scope <system> : !pydev.atomic_ref<i32, local>, i32
  return %0, %1 : i32, i32
}

// -----

// Does not fire on global memory: it stays an LLVM atomic.
// CHECK-LABEL: func.func @global_host
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic
func.func @global_host(%p: !llvm.ptr, %v: i32) -> i32 {
  %r = builtin.unrealized_conversion_cast %p : !llvm.ptr to !pydev.atomic_ref<i32>
  %0 = pydev.atomic_rmw add %r, %v memory <relaxed> scope <thread> : !pydev.atomic_ref<i32>, i32
  return %0 : i32
}
