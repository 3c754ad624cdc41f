// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-lower-arrays | FileCheck %s
// The host variant: pydev-lower-arrays-host.mlir.

// Array arguments become the ABI descriptor; a 2-d load is a GEP on
// data[i * strides[0] + j * strides[1]].
// CHECK-LABEL: func.func @load_2d
// CHECK-SAME: (%[[D:.*]]: !llvm.struct<(ptr<1>, array<2 x i64>, array<2 x i64>)>, %[[I:.*]]: i64, %[[J:.*]]: i32)
// CHECK: %[[DATA:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK: %[[S0:.*]] = llvm.extractvalue %{{.*}}[2, 0]
// CHECK: %[[O0:.*]] = llvm.mul %[[I]], %[[S0]] : i64
// CHECK: %[[J64:.*]] = arith.extsi %[[J]] : i32 to i64
// CHECK: %[[S1:.*]] = llvm.extractvalue %{{.*}}[2, 1]
// CHECK: %[[O1:.*]] = llvm.mul %[[J64]], %[[S1]] : i64
// CHECK: %[[OFF:.*]] = llvm.add %[[O0]], %[[O1]] : i64
// CHECK: %[[P:.*]] = llvm.getelementptr %[[DATA]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
func.func @load_2d(%a: !pydev.array<f32, 2>, %i: i64, %j: i32) -> f32 {
  %x = pydev.array_load %a[%i, %j] : !pydev.array<f32, 2>, i64, i32 -> f32
  return %x : f32
}

// -----

// Stores and atomic references; shared arrays live in address space 3.
// CHECK-LABEL: func.func @store_and_ref
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK: %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
// CHECK: builtin.unrealized_conversion_cast %[[P]] : !llvm.ptr<3> to !pydev.atomic_ref<i32, shared>
func.func @store_and_ref(%a: !pydev.array<i32, 1>, %s: !pydev.array<i32, 1, shared>, %i: index, %v: i32) {
  pydev.array_store %v, %a[%i] : i32, !pydev.array<i32, 1>, index
  %r = pydev.atomic_ref %s[%i] : !pydev.array<i32, 1, shared>, index -> !pydev.atomic_ref<i32, shared>
  %o = pydev.atomic_rmw add %r, %v memory <relaxed> scope <block> : !pydev.atomic_ref<i32, shared>, i32
  return
}

// -----

// atomic_ref %a[i] field [f..] => data + i * strides[0] * sizeof(T) + offsetof(T, f..):
// `current` sits at byte 16 of the 32-byte struct (two align-16 atomic fields).
// CHECK-LABEL: func.func @field_ref
// CHECK: %[[S:.*]] = llvm.extractvalue %{{.*}}[2, 0]
// CHECK: %[[O:.*]] = llvm.mul %{{.*}}, %[[S]] : i64
// CHECK: %[[B:.*]] = llvm.mul %[[O]], %{{.*}} : i64
// CHECK: %[[E:.*]] = llvm.getelementptr %{{.*}}[%[[B]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[P:.*]] = llvm.getelementptr %[[E]][%[[C16]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: builtin.unrealized_conversion_cast %[[P]] : !llvm.ptr<1> to !pydev.atomic_ref<i32>
func.func @field_ref(%m: !pydev.array<!pydev.struct<"M", {line: !pydev.struct<"atomic_int32_16", {value: i32}, align 16>, current: !pydev.struct<"atomic_int32_16", {value: i32}, align 16>}>, 1>, %i: i64, %v: i32) {
  %r = pydev.atomic_ref %m[%i] field ["current", "value"] : !pydev.array<!pydev.struct<"M", {line: !pydev.struct<"atomic_int32_16", {value: i32}, align 16>, current: !pydev.struct<"atomic_int32_16", {value: i32}, align 16>}>, 1>, i64 -> !pydev.atomic_ref<i32>
  %o = pydev.atomic_rmw add %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  return
}

// -----

// Elements are accessed at their natural alignment: 8 for i64 and f64 (the
// data layout's ABI alignment of i64 is 4, which NVPTX would split in two).
// CHECK-LABEL: func.func @wide_elements
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : f64, !llvm.ptr<1>
func.func @wide_elements(%a: !pydev.array<i64, 1>, %b: !pydev.array<f64, 1>, %i: index, %v: f64) -> i64 {
  %x = pydev.array_load %a[%i] : !pydev.array<i64, 1>, index -> i64
  pydev.array_store %v, %b[%i] : f64, !pydev.array<f64, 1>, index
  return %x : i64
}

// -----

// Static arrays of aggregates (a device.align(f32, 16) struct) are bytes at
// the CUDA size: 64 x 16 = 1024, aligned to 16.
// CHECK: llvm.mlir.global internal @__pydev_shared_{{[0-9]+}}() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x i8>
// CHECK-LABEL: func.func @aggregate_shared
// CHECK: llvm.alloca %{{.*}} x i8 {alignment = 16 : i64}
func.func @aggregate_shared(%i: index) {
  %s = pydev.shared_array shape [64] order "C" : !pydev.array<!pydev.struct<"aligned_float32_16", {value: f32}, align 16>, 1, shared, c>
  %l = pydev.local_array shape [4] order "C" : !pydev.array<!pydev.struct<"aligned_float32_16", {value: f32}, align 16>, 1, local, c>
  return
}

// -----

// Does not fire: no arrays.
// CHECK-LABEL: func.func @no_arrays(%{{.*}}: i32) -> i32
// CHECK-NEXT: return
func.func @no_arrays(%x: i32) -> i32 {
  return %x : i32
}

// -----

// Element types must be machine types: signed integers wait for promotion.
func.func @signed_element(%a: !pydev.array<si32, 1>, %i: index) -> si32 {
  // expected-error @+1 {{array element type si32 has no machine form yet: run pydev-promote-types first}}
  %x = pydev.array_load %a[%i] : !pydev.array<si32, 1>, index -> si32
  return %x : si32
}

// -----

// Shared arrays are module globals in address space 3 with C or Fortran
// strides; local arrays are allocas in the entry block.
// CHECK: llvm.mlir.global internal @__pydev_shared_{{[0-9]+}}() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1056 x f32>
// CHECK-LABEL: func.func @static_arrays
// CHECK: llvm.alloca %{{.*}} x i32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK: llvm.mlir.addressof @__pydev_shared_{{[0-9]+}} : !llvm.ptr<3>
// CHECK: llvm.mlir.constant(33 : i64) : i64
// CHECK: %[[S0:.*]] = llvm.mlir.constant(33 : i64) : i64
// CHECK-NEXT: llvm.insertvalue %[[S0]], %{{.*}}[2, 0]
// CHECK: %[[S1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: llvm.insertvalue %[[S1]], %{{.*}}[2, 1]
func.func @static_arrays(%i: i64) -> (f32, i32) {
  %s = pydev.shared_array shape [32, 33] order "C" align 16 : !pydev.array<f32, 2, shared, c>
  %x = pydev.array_load %s[%i, %i] : !pydev.array<f32, 2, shared, c>, i64, i64 -> f32
  %l = pydev.local_array shape [4] order "C" : !pydev.array<i32, 1, local, c>
  %y = pydev.array_load %l[%i] : !pydev.array<i32, 1, local, c>, i64 -> i32
  return %x, %y : f32, i32
}

// -----

// Dynamic shared memory: one external global; its size is the launch's.
// CHECK: llvm.mlir.global external @__pydev_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: func.func @dynamic
// CHECK: llvm.inline_asm has_side_effects "mov.u32 $0, %dynamic_smem_size;", "=r"
// CHECK: llvm.udiv
func.func @dynamic(%i: i64) -> f32 {
  %d = pydev.dynamic_shared_array : !pydev.array<i8, 1, shared, c>
  %e = pydev.array_view %d : !pydev.array<i8, 1, shared, c> -> !pydev.array<f32, 1, shared, c>
  %x = pydev.array_load %e[%i] : !pydev.array<f32, 1, shared, c>, i64 -> f32
  return %x : f32
}

// -----

// Arrays of structs: members are loaded at their CUDA C++ offsets (a float4
// at 0, 16-byte aligned; the float at 16), the element stride is sizeof(T) = 32.
// CHECK-LABEL: func.func @array_of_structs
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: llvm.mul %{{.*}}, %[[SIZE]] : i64
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: %[[O16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[P16:.*]] = llvm.getelementptr %{{.*}}[%[[O16]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: llvm.load %[[P16]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
func.func @array_of_structs(%a: !pydev.array<!pydev.struct<"P", {pos: !pydev.vector<4 x f32>, mass: f32}>, 1>, %i: i64) -> !pydev.struct<"P", {pos: !pydev.vector<4 x f32>, mass: f32}> {
  %p = pydev.array_load %a[%i] : !pydev.array<!pydev.struct<"P", {pos: !pydev.vector<4 x f32>, mass: f32}>, 1>, i64 -> !pydev.struct<"P", {pos: !pydev.vector<4 x f32>, mass: f32}>
  return %p : !pydev.struct<"P", {pos: !pydev.vector<4 x f32>, mass: f32}>
}

// -----

// Views: an index drops leading dimensions; a slice normalises its bounds
// like Python and multiplies the stride by the step; a reshape of a C array
// gets dense C strides.
// CHECK-LABEL: func.func @views
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: arith.divsi
// CHECK: llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[2, 0] : !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>
func.func @views(%a: !pydev.array<f32, 2, c>, %i: i64, %lo: i64, %hi: i64, %st: i64, %r: i64, %c: i64) -> (f32, f32, f32) {
  %row = pydev.array_index %a[%i] : !pydev.array<f32, 2, c>, i64 -> !pydev.array<f32, 1, c>
  %x = pydev.array_load %row[%i] : !pydev.array<f32, 1, c>, i64 -> f32
  %col = pydev.array_slice %a [1, 0] starts(%lo, %i : i64, i64) stops(%hi : i64) steps(%st : i64) : !pydev.array<f32, 2, c> -> !pydev.array<f32, 1>
  %y = pydev.array_load %col[%i] : !pydev.array<f32, 1>, i64 -> f32
  %m = pydev.array_reshape %a(%r, %c) : !pydev.array<f32, 2, c>, i64, i64 -> !pydev.array<f32, 2, c>
  %z = pydev.array_load %m[%i, %i] : !pydev.array<f32, 2, c>, i64, i64 -> f32
  return %x, %y, %z : f32, f32, f32
}

// -----

// Arrays passed to device functions travel as descriptors.
// CHECK-LABEL: func.func @callee(%{{.*}}: !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>)
// CHECK-LABEL: func.func @caller
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !pydev.array<f32, 1> to !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>
// CHECK: call @callee(%[[D]])
func.func @callee(%a: !pydev.array<f32, 1>) {
  return
}
func.func @caller(%a: !pydev.array<f32, 1>) {
  func.call @callee(%a) : (!pydev.array<f32, 1>) -> ()
  return
}

// -----

// A function returning an array returns its descriptor; the caller casts
// the result back.
// CHECK-LABEL: func.func @row
// CHECK-SAME: -> !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !pydev.array<f32, 1> to !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>
// CHECK: return %[[D]]
// CHECK-LABEL: func.func @caller
// CHECK: %[[R:.*]] = call @row(%{{.*}}) : (!llvm.struct<(ptr<1>, array<2 x i64>, array<2 x i64>)>) -> !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>
// CHECK: builtin.unrealized_conversion_cast %[[R]] : !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)> to !pydev.array<f32, 1>
func.func @row(%m: !pydev.array<f32, 2>) -> !pydev.array<f32, 1> {
  %c0 = arith.constant 0 : i64
  %r = pydev.array_index %m[%c0] : !pydev.array<f32, 2>, i64 -> !pydev.array<f32, 1>
  return %r : !pydev.array<f32, 1>
}
func.func @caller(%m: !pydev.array<f32, 2>) -> f32 {
  %r = func.call @row(%m) : (!pydev.array<f32, 2>) -> !pydev.array<f32, 1>
  %c1 = arith.constant 1 : i64
  %x = pydev.array_load %r[%c1] : !pydev.array<f32, 1>, i64 -> f32
  return %x : f32
}

// -----

// A declaration (an interop function linked code defines) takes the
// descriptor too: only its type changes, and calls pass descriptors.
// CHECK-LABEL: func.func private @row_sum(!llvm.struct<(ptr<1>, array<2 x i64>, array<2 x i64>)>, i32) -> f64
func.func private @row_sum(!pydev.array<f64, 2>, i32) -> f64
// CHECK-LABEL: func.func @calls_row_sum
// CHECK: call @row_sum({{.*}}) : (!llvm.struct<(ptr<1>, array<2 x i64>, array<2 x i64>)>, i32) -> f64
func.func @calls_row_sum(%a: !pydev.array<f64, 2>, %r: i32) -> f64 {
  %s = func.call @row_sum(%a, %r) : (!pydev.array<f64, 2>, i32) -> f64
  return %s : f64
}

// -----

// Constant memory: an internal constant global of the data's bytes in
// address space 4 (PTX .const), loads through ptr<4>.
// CHECK: llvm.mlir.global internal constant @__pydev_const_1(dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>) {addr_space = 4 : i32, alignment = 4 : i64} : !llvm.array<8 x i8>
// CHECK-LABEL: func.func @const_array
// CHECK: llvm.mlir.addressof @__pydev_const_1 : !llvm.ptr<4>
// CHECK: llvm.load %{{.*}} : !llvm.ptr<4> -> f32
func.func @const_array(%i: i64) -> f32 {
  %c = pydev.const_array shape [2] data dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8> : !pydev.array<f32, 1, constant, c, readonly>
  %x = pydev.array_load %c[%i] : !pydev.array<f32, 1, constant, c, readonly>, i64 -> f32
  return %x : f32
}

// -----

// Joins: an array block argument (a variable a branch rebinds) is the
// descriptor, and so are the successor operands that feed it.
// CHECK-LABEL: func.func @join_branch
// CHECK: cf.cond_br %{{.*}}, ^bb1(%{{.*}} : !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>), ^bb1(%{{.*}} : !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>)
// CHECK: ^bb1(%[[X:.*]]: !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>):
// CHECK: builtin.unrealized_conversion_cast %[[X]] : !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)> to !pydev.array<f32, 1>
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
func.func @join_branch(%a: !pydev.array<f32, 1>, %b: !pydev.array<f32, 1>, %c: i1, %i: i64) -> f32 {
  cf.cond_br %c, ^bb1(%a : !pydev.array<f32, 1>), ^bb1(%b : !pydev.array<f32, 1>)
^bb1(%x: !pydev.array<f32, 1>):
  %v = pydev.array_load %x[%i] : !pydev.array<f32, 1>, i64 -> f32
  return %v : f32
}

// -----

// A loop that swaps two buffers carries them as descriptors.
// CHECK-LABEL: func.func @join_loop
// CHECK: cf.br ^bb1(%{{.*}}, %{{.*}}, %{{.*}} : !llvm.struct<(ptr<3>, array<2 x i64>, array<2 x i64>)>, !llvm.struct<(ptr<3>, array<2 x i64>, array<2 x i64>)>, i64)
// CHECK: ^bb1(%[[U:.*]]: !llvm.struct<(ptr<3>, array<2 x i64>, array<2 x i64>)>, %[[V:.*]]: !llvm.struct<(ptr<3>, array<2 x i64>, array<2 x i64>)>, %{{.*}}: i64):
// CHECK: cf.cond_br %{{.*}}, ^bb1(%[[V]], %[[U]], %{{.*}} : !llvm.struct<(ptr<3>, array<2 x i64>, array<2 x i64>)>, !llvm.struct<(ptr<3>, array<2 x i64>, array<2 x i64>)>, i64), ^bb2
func.func @join_loop(%a: !pydev.array<f64, 2, shared>, %b: !pydev.array<f64, 2, shared>, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.br ^bb1(%a, %b, %c0 : !pydev.array<f64, 2, shared>, !pydev.array<f64, 2, shared>, i64)
^bb1(%u: !pydev.array<f64, 2, shared>, %v: !pydev.array<f64, 2, shared>, %k: i64):
  %x = pydev.array_load %u[%k, %k] : !pydev.array<f64, 2, shared>, i64, i64 -> f64
  pydev.array_store %x, %v[%k, %k] : f64, !pydev.array<f64, 2, shared>, i64, i64
  %next = arith.addi %k, %c1 : i64
  %more = arith.cmpi slt, %next, %n : i64
  cf.cond_br %more, ^bb1(%v, %u, %next : !pydev.array<f64, 2, shared>, !pydev.array<f64, 2, shared>, i64), ^bb2
^bb2:
  %r = pydev.array_load %u[%c0, %c0] : !pydev.array<f64, 2, shared>, i64, i64 -> f64
  return %r : f64
}

// -----

// Structured joins: scf.if results, scf.for iter_args and arith.select
// (canonicalize folds a two-way join into one) of arrays.
// CHECK-LABEL: func.func @join_structured
// CHECK: scf.if %{{.*}} -> (!llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>)
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>)
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : !llvm.struct<(ptr<1>, array<1 x i64>, array<1 x i64>)>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
func.func @join_structured(%a: !pydev.array<f32, 1>, %b: !pydev.array<f32, 1>, %c: i1, %i: i64, %p: f32) -> f32 {
  %x = scf.if %c -> !pydev.array<f32, 1> {
    scf.yield %a : !pydev.array<f32, 1>
  } else {
    scf.yield %b : !pydev.array<f32, 1>
  }
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %y = scf.for %k = %lb to %ub step %st iter_args(%u = %x) -> (!pydev.array<f32, 1>) {
    scf.yield %b : !pydev.array<f32, 1>
  }
  %z = arith.select %c, %y, %a : !pydev.array<f32, 1>
  %q = arith.select %c, %p, %p : f32
  %v = pydev.array_load %z[%i] : !pydev.array<f32, 1>, i64 -> f32
  %s = arith.addf %v, %q : f32
  return %s : f32
}

// -----

// Does not fire: joins of other types keep them.
// CHECK-LABEL: func.func @join_scalars
// CHECK: cf.cond_br %{{.*}}, ^bb1(%{{.*}} : f32), ^bb1(%{{.*}} : f32)
// CHECK: ^bb1(%{{.*}}: f32):
// CHECK: scf.if %{{.*}} -> (f32)
func.func @join_scalars(%c: i1, %p: f32, %q: f32) -> f32 {
  cf.cond_br %c, ^bb1(%p : f32), ^bb1(%q : f32)
^bb1(%x: f32):
  %y = scf.if %c -> f32 {
    scf.yield %x : f32
  } else {
    scf.yield %q : f32
  }
  return %y : f32
}
