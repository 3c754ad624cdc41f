// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-cuda-boundscheck | FileCheck %s
// RUN: pydev-opt %s --split-input-file '--pydev-cuda-boundscheck=accesses=0' | FileCheck %s --check-prefix=RAISE

// Each index of a load and a store is compared (unsigned, after sign
// extension, so a negative index fails too) with its extent; a failing
// check calls the failure function, which records the first failure in the
// module's error buffer and ends the thread. The access itself is unchanged.
// The location table holds each checked access's file:line:col once.
// CHECK-LABEL: gpu.module @pydev
// CHECK: llvm.mlir.global external @__pydev_error() {addr_space = 1 : i32, alignment = 8 : i64} : !llvm.array<16 x i32>
// CHECK: llvm.mlir.global external constant @__pydev_error_locations("{{.*}}pydev-cuda-boundscheck.mlir:42:12\00{{.*}}pydev-cuda-boundscheck.mlir:43:7\00")
// CHECK: func.func private @__pydev_bounds_fail(%[[KIND:.*]]: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i64) attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} monotonic monotonic : !llvm.ptr<1>, i32
// CHECK: cf.cond_br
// CHECK: gpu.thread_id x
// CHECK: gpu.block_id z
// CHECK: llvm.store volatile
// CHECK: nvvm.exit
// CHECK-LABEL: gpu.func @k
// CHECK: %[[S:.*]] = pydev.array_shape %{{.*}} : <f32, 2> -> <i64, i64>
// CHECK: %[[E0:.*]] = pydev.tuple_extract %[[S]][0] : <i64, i64> -> i64
// CHECK: %[[I:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[BAD:.*]] = arith.cmpi uge, %[[I]], %[[E0]] : i64
// CHECK: %[[LOAD:.*]] = arith.constant 1 : i32
// CHECK: %[[AXIS0:.*]] = arith.constant 0 : i32
// CHECK: %[[LOC0:.*]] = arith.constant 0 : i32
// CHECK: scf.if %[[BAD]] {
// CHECK-NEXT: func.call @__pydev_bounds_fail(%[[LOAD]], %[[AXIS0]], %[[LOC0]], %[[I]], %[[E0]])
// CHECK: %[[E1:.*]] = pydev.tuple_extract %[[S]][1]
// CHECK: %[[J:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: arith.cmpi uge, %[[J]], %[[E1]] : i64
// CHECK: pydev.array_load
// CHECK: pydev.array_shape
// CHECK: %[[STORE:.*]] = arith.constant 2 : i32
// CHECK: %{{.*}} = arith.constant 0 : i32
// CHECK: %[[LOC1:.*]] = arith.constant 1 : i32
// CHECK: func.call @__pydev_bounds_fail(%[[STORE]], %{{.*}}, %[[LOC1]],
// CHECK: pydev.array_store
module attributes {gpu.container_module} {
  gpu.module @pydev {
    gpu.func @k(%a: !pydev.array<f32, 2>, %i: i32, %j: index, %v: f32) kernel {
      %x = pydev.array_load %a[%i, %j] : !pydev.array<f32, 2>, i32, index -> f32
      pydev.array_store %v, %a[%i, %j] : f32, !pydev.array<f32, 2>, i32, index
      gpu.return
    }
  }
}

// -----

// Atomic references (kind 3) and views (array_index, kind 4) are checked
// too, in device functions as in kernels, and shared arrays like global ones.
// CHECK-LABEL: func.func @f
// CHECK: %[[E:.*]] = pydev.tuple_extract %{{.*}}[0] : <i64> -> i64
// CHECK: %[[BAD:.*]] = arith.cmpi uge, %{{.*}}, %[[E]] : i64
// CHECK: %[[ATOMIC:.*]] = arith.constant 3 : i32
// CHECK: scf.if %[[BAD]]
// CHECK-NEXT: func.call @__pydev_bounds_fail(%[[ATOMIC]],
// CHECK: pydev.atomic_ref
// CHECK: %[[VIEW:.*]] = arith.constant 4 : i32
// CHECK: func.call @__pydev_bounds_fail(%[[VIEW]],
// CHECK: pydev.array_index
module attributes {gpu.container_module} {
  gpu.module @pydev {
    func.func @f(%s: !pydev.array<i32, 1, shared>, %m: !pydev.array<f32, 2>, %i: i64) -> !pydev.array<f32, 1> {
      %r = pydev.atomic_ref %s[%i] : !pydev.array<i32, 1, shared>, i64 -> !pydev.atomic_ref<i32, shared>
      %row = pydev.array_index %m[%i] : !pydev.array<f32, 2>, i64 -> !pydev.array<f32, 1>
      return %row : !pydev.array<f32, 1>
    }
  }
}

// -----

// Does not fire: a gpu.module without array accesses (shapes and sizes are
// not accesses) gets no error buffer and is unchanged.
// CHECK-LABEL: gpu.module @pydev
// CHECK-NOT: __pydev_error
// CHECK-NOT: __pydev_bounds_fail
// CHECK: pydev.array_shape
// CHECK-NOT: scf.if
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @pydev {
    gpu.func @shape_only(%a: !pydev.array<f32, 1>) kernel {
      %s = pydev.array_shape %a : !pydev.array<f32, 1> -> !pydev.tuple<i64>
      gpu.return
    }
  }
}

// -----

// Accesses outside a gpu.module (not outlined yet) are an error at the access.
func.func @not_outlined(%a: !pydev.array<f32, 1>, %i: i64) -> f32 {
  // expected-error @+1 {{pydev-cuda-boundscheck: an array access outside a gpu.module (run pydev-outline-kernels first)}}
  %x = pydev.array_load %a[%i] : !pydev.array<f32, 1>, i64 -> f32
  return %x : f32
}

// -----

// A Python exception raised in device code: the frontend's empty
// @__pydev_raise(%id) records kind 5 with the id as the index (sign-extended)
// and ends the thread, through the same buffer and failure function, with or
// without the access checks (accesses=0: only this).
// CHECK-LABEL: gpu.module @pydev
// CHECK: llvm.mlir.global external @__pydev_error()
// CHECK: func.func private @__pydev_bounds_fail(
// CHECK: nvvm.exit
// CHECK-LABEL: func.func @__pydev_raise(%{{.*}}: i32)
// CHECK: %[[ID:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[KIND:.*]] = arith.constant 5 : i32
// CHECK: call @__pydev_bounds_fail(%[[KIND]], %{{.*}}, %{{.*}}, %[[ID]], %[[ZERO]])
// CHECK-NEXT: return
// RAISE-LABEL: gpu.module @pydev
// RAISE: llvm.mlir.global external @__pydev_error()
// RAISE: func.func private @__pydev_bounds_fail(
// RAISE-LABEL: func.func @__pydev_raise(
// RAISE: %[[KIND:.*]] = arith.constant 5 : i32
// RAISE: call @__pydev_bounds_fail(%[[KIND]],
// RAISE-LABEL: gpu.func @raises
// RAISE-NOT: scf.if
// RAISE: pydev.array_load
module attributes {gpu.container_module} {
  gpu.module @pydev {
    func.func @__pydev_raise(%id: i32) {
      return
    }
    gpu.func @raises(%a: !pydev.array<f32, 1>, %i: i64, %bad: i1) kernel {
      cf.cond_br %bad, ^raise, ^ok
    ^raise:
      %c2 = arith.constant 2 : i32
      func.call @__pydev_raise(%c2) : (i32) -> ()
      gpu.return
    ^ok:
      %x = pydev.array_load %a[%i] : !pydev.array<f32, 1>, i64 -> f32
      gpu.return
    }
  }
}

// -----

// Does not fire with accesses=0 on a module without @__pydev_raise: its
// accesses stay unchecked and no buffer is added.
// RAISE-LABEL: gpu.module @pydev
// RAISE-NOT: __pydev_error
// RAISE-NOT: scf.if
// RAISE: pydev.array_load
module attributes {gpu.container_module} {
  gpu.module @pydev {
    gpu.func @plain(%a: !pydev.array<f32, 1>, %i: i64) kernel {
      %x = pydev.array_load %a[%i] : !pydev.array<f32, 1>, i64 -> f32
      gpu.return
    }
  }
}

// -----

// An exception not to report (a negative constant id at every call: raised
// without debug=True) only ends the thread: no buffer, no record.
// RAISE-LABEL: gpu.module @pydev
// RAISE-NOT: __pydev_error
// RAISE-LABEL: func.func @__pydev_raise(
// RAISE: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.lt.s32 p, $0, 0; @p exit; }", "r"
// RAISE-NOT: __pydev_bounds_fail
// RAISE: return
module attributes {gpu.container_module} {
  gpu.module @pydev {
    func.func @__pydev_raise(%id: i32) {
      return
    }
    func.func @silent() {
      %m1 = arith.constant -1 : i32
      func.call @__pydev_raise(%m1) : (i32) -> ()
      return
    }
  }
}
