// RUN: pydev-opt %s --pydev-vectorize-access="target=cuda" | FileCheck %s
// RUN: pydev-opt %s --pydev-vectorize-access | FileCheck %s --check-prefix=HOST
// RUN: pydev-opt %s --pydev-vectorize-access="target=host" | FileCheck %s --check-prefix=HOST

// Four adjacent loads at 4 * t (wrapped as the frontend wraps negative
// indices) become one 16-byte load when the first element is 16-byte
// aligned and 4 * t is not negative; else the scalar loads.
// CHECK-LABEL: func.func @loads4
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %arg1 : !pydev.array<f32, 1, c, readonly> to !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[DATA:.*]] = llvm.extractvalue %[[D]][0]
// CHECK: %[[P:.*]] = llvm.getelementptr %[[DATA]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: %[[A:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
// CHECK: %[[LOW:.*]] = arith.andi %[[A]], %c15_i64 : i64
// CHECK: %[[AL:.*]] = arith.cmpi eq, %[[LOW]], %{{.*}} : i64
// CHECK: %[[NN:.*]] = arith.cmpi sge
// CHECK: %[[OK:.*]] = arith.andi %[[AL]], %[[NN]] : i1
// CHECK: %[[R:.*]]:4 = scf.if %[[OK]] -> (f32, f32, f32, f32) {
// CHECK: llvm.inline_asm has_side_effects "ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %[[P]]
// CHECK-COUNT-4: llvm.bitcast
// CHECK: } else {
// CHECK: pydev.array_shape %arg1
// CHECK-COUNT-4: pydev.array_load %arg1
// CHECK: }
// CHECK-NOT: pydev.array_load
// CHECK: arith.addf %[[R]]#0, %[[R]]#1
// HOST-LABEL: func.func @loads4
// HOST: !llvm.struct<(ptr, array<1 x i64>, array<1 x i64>)>
// HOST: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
func.func @loads4(%out: !pydev.array<f32, 1, c>, %x: !pydev.array<f32, 1, c, readonly>) attributes {pydev.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %tid = gpu.thread_id x
  %t = arith.index_castui %tid : index to i32
  %j = arith.muli %t, %c4 overflow<nsw> : i32
  %s0 = pydev.array_shape %x : !pydev.array<f32, 1, c, readonly> -> !pydev.tuple<i64>
  %e0 = pydev.tuple_extract %s0[0] : !pydev.tuple<i64> -> i64
  %x0 = arith.extsi %j : i32 to i64
  %n0 = arith.cmpi slt, %x0, %c0 : i64
  %w0 = arith.addi %x0, %e0 : i64
  %i0 = arith.select %n0, %w0, %x0 : i64
  %v0 = pydev.array_load %x[%i0] : !pydev.array<f32, 1, c, readonly>, i64 -> f32
  %j1 = arith.addi %j, %c1 overflow<nsw> : i32
  %s1 = pydev.array_shape %x : !pydev.array<f32, 1, c, readonly> -> !pydev.tuple<i64>
  %e1 = pydev.tuple_extract %s1[0] : !pydev.tuple<i64> -> i64
  %x1 = arith.extsi %j1 : i32 to i64
  %n1 = arith.cmpi slt, %x1, %c0 : i64
  %w1 = arith.addi %x1, %e1 : i64
  %i1 = arith.select %n1, %w1, %x1 : i64
  %v1 = pydev.array_load %x[%i1] : !pydev.array<f32, 1, c, readonly>, i64 -> f32
  %j2 = arith.addi %j, %c2 overflow<nsw> : i32
  %x2 = arith.extsi %j2 : i32 to i64
  %n2 = arith.cmpi slt, %x2, %c0 : i64
  %w2 = arith.addi %x2, %e1 : i64
  %i2 = arith.select %n2, %w2, %x2 : i64
  %v2 = pydev.array_load %x[%i2] : !pydev.array<f32, 1, c, readonly>, i64 -> f32
  %j3 = arith.addi %j, %c3 overflow<nsw> : i32
  %x3 = arith.extsi %j3 : i32 to i64
  %n3 = arith.cmpi slt, %x3, %c0 : i64
  %w3 = arith.addi %x3, %e1 : i64
  %i3 = arith.select %n3, %w3, %x3 : i64
  %v3 = pydev.array_load %x[%i3] : !pydev.array<f32, 1, c, readonly>, i64 -> f32
  %a = arith.addf %v0, %v1 : f32
  %b = arith.addf %v2, %v3 : f32
  %s = arith.addf %a, %b : f32
  pydev.array_store %s, %out[%tid] : f32, !pydev.array<f32, 1, c>, index
  return
}

// Two adjacent stores of f64 at 2 * t (an index, not wrapped): one 16-byte
// store at the last one, built from both values.
// CHECK-LABEL: func.func @stores2
// CHECK: pydev.array_load
// CHECK: %[[OK:.*]] = arith.cmpi eq
// CHECK-NOT: arith.cmpi sge
// CHECK: scf.if %[[OK]] {
// CHECK: %[[V0:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i64] : vector<2xf64>
// CHECK: %[[V1:.*]] = llvm.insertelement %{{.*}}, %[[V0]][%{{.*}} : i64] : vector<2xf64>
// CHECK: llvm.store %[[V1]], %{{.*}} {alignment = 16 : i64} : vector<2xf64>, !llvm.ptr<1>
// CHECK: } else {
// CHECK-COUNT-2: pydev.array_store
// CHECK: }
// CHECK-NOT: pydev.array_store
func.func @stores2(%out: !pydev.array<f64, 1, c>, %y: f64) attributes {pydev.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %tid = gpu.thread_id x
  %i = arith.muli %tid, %c2 : index
  %z = pydev.array_load %out[%tid] : !pydev.array<f64, 1, c>, index -> f64
  pydev.array_store %z, %out[%i] : f64, !pydev.array<f64, 1, c>, index
  %i1 = arith.addi %i, %c1 : index
  %u = arith.addf %z, %y : f64
  pydev.array_store %u, %out[%i1] : f64, !pydev.array<f64, 1, c>, index
  return
}

// A shared array with a group at 2 * t: aligned to 8 bytes, so that LLVM
// proves the group's alignment and vectorizes it (no test at run time).
// CHECK-LABEL: func.func @shared_pairs
// CHECK: pydev.shared_array shape [64] order "C" align 8
// CHECK-NOT: scf.if
func.func @shared_pairs(%y: f32) attributes {pydev.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %buf = pydev.shared_array shape [64] order "C" : !pydev.array<f32, 1, shared, c>
  %tid = gpu.thread_id x
  %i = arith.muli %tid, %c2 : index
  %i1 = arith.addi %i, %c1 : index
  pydev.array_store %y, %buf[%i] : f32, !pydev.array<f32, 1, shared, c>, index
  pydev.array_store %y, %buf[%i1] : f32, !pydev.array<f32, 1, shared, c>, index
  return
}

// Does not fire: the first index not a known multiple of 2 (t); a load
// between two stores (it may read what the first one wrote); a store
// between two loads; an F-order array; an odd extent of a shared array;
// stores of different arrays.
// CHECK-LABEL: func.func @does_not_fire
// CHECK-NOT: scf.if
// CHECK-NOT: align
// CHECK: return
func.func @does_not_fire(%a: !pydev.array<f32, 1, c>, %b: !pydev.array<f32, 1, c>, %f: !pydev.array<f32, 1, f>, %y: f32) attributes {pydev.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %tid = gpu.thread_id x
  %t1 = arith.addi %tid, %c1 : index
  pydev.array_store %y, %a[%tid] : f32, !pydev.array<f32, 1, c>, index
  pydev.array_store %y, %a[%t1] : f32, !pydev.array<f32, 1, c>, index
  %i = arith.muli %tid, %c2 : index
  %i1 = arith.addi %i, %c1 : index
  pydev.array_store %y, %b[%i] : f32, !pydev.array<f32, 1, c>, index
  %r = pydev.array_load %b[%c1] : !pydev.array<f32, 1, c>, index -> f32
  pydev.array_store %r, %b[%i1] : f32, !pydev.array<f32, 1, c>, index
  %l0 = pydev.array_load %a[%i] : !pydev.array<f32, 1, c>, index -> f32
  pydev.array_store %l0, %b[%c1] : f32, !pydev.array<f32, 1, c>, index
  %l1 = pydev.array_load %a[%i1] : !pydev.array<f32, 1, c>, index -> f32
  pydev.array_store %l1, %b[%c2] : f32, !pydev.array<f32, 1, c>, index
  pydev.array_store %y, %f[%i] : f32, !pydev.array<f32, 1, f>, index
  pydev.array_store %y, %f[%i1] : f32, !pydev.array<f32, 1, f>, index
  %odd = pydev.shared_array shape [63] order "C" : !pydev.array<f32, 1, shared, c>
  pydev.array_store %y, %odd[%i] : f32, !pydev.array<f32, 1, shared, c>, index
  pydev.array_store %y, %odd[%i1] : f32, !pydev.array<f32, 1, shared, c>, index
  return
}
