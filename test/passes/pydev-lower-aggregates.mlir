// RUN: pydev-opt %s --split-input-file --pydev-lower-aggregates | FileCheck %s

// Vectors become LLVM vectors; structs and tuples LLVM structs, everywhere:
// arguments, block arguments, results.
// CHECK-LABEL: func.func @registers
// CHECK-SAME: (%[[A:.*]]: f32, %[[I:.*]]: i32) -> !llvm.struct<(vector<2xf32>, f32)>
// CHECK: %[[U:.*]] = llvm.mlir.undef : vector<2xf32>
// CHECK: %[[V0:.*]] = llvm.insertelement %[[A]], %[[U]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[V:.*]] = llvm.insertelement %[[A]], %[[V0]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[E:.*]] = llvm.extractelement %[[V]][%[[I]] : i32] : vector<2xf32>
// CHECK: %[[S0:.*]] = llvm.mlir.undef : !llvm.struct<(vector<2xf32>, f32)>
// CHECK: %[[S1:.*]] = llvm.insertvalue %[[V]], %[[S0]][0]
// CHECK: %[[S:.*]] = llvm.insertvalue %[[E]], %[[S1]][1]
// CHECK: cf.br ^bb1(%[[S]] : !llvm.struct<(vector<2xf32>, f32)>)
// CHECK: ^bb1(%[[P:.*]]: !llvm.struct<(vector<2xf32>, f32)>):
// CHECK: llvm.extractvalue %[[P]][1]
// CHECK: llvm.insertvalue %{{.*}}, %[[P]][1]
func.func @registers(%a: f32, %i: i32) -> !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}> {
  %v = pydev.vector_create(%a, %a) : (f32, f32) -> !pydev.vector<2 x f32>
  %e = pydev.vector_extract %v[%i] : !pydev.vector<2 x f32>, i32 -> f32
  %s = pydev.struct_create(%v, %e) : (!pydev.vector<2 x f32>, f32) -> !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>
  cf.br ^next(%s : !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>)
^next(%p: !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>):
  %m = pydev.struct_extract %p["m"] : !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}> -> f32
  %q = pydev.struct_insert %m, %p["m"] : f32, !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>
  return %q : !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>
}

// -----

// CHECK-LABEL: func.func @tuples
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(i32, f64)>
// CHECK: llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i32, f64)>
func.func @tuples(%i: i32, %d: f64) -> f64 {
  %t = pydev.tuple_create(%i, %d) : (i32, f64) -> !pydev.tuple<i32, f64>
  %x = pydev.tuple_extract %t[1] : !pydev.tuple<i32, f64> -> f64
  return %x : f64
}

// -----

// Does not fire.
// CHECK-LABEL: func.func @scalars(%{{.*}}: f32) -> f32
// CHECK-NEXT: return
func.func @scalars(%x: f32) -> f32 {
  return %x : f32
}
