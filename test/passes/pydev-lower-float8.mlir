// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-lower-float8 | FileCheck %s

// float8 values become their bits; conversions call software helpers that
// the pass adds (round to nearest even); constants are encoded here.
// CHECK-LABEL: func.func @convert
// CHECK-SAME: (%[[X:.*]]: f32, %[[A:.*]]: !pydev.array<i8, 1>, %{{.*}}: i64) -> f64
// CHECK: %[[B:.*]] = call @__pydev_f32_to_f8e4m3(%[[X]]) : (f32) -> i8
// CHECK: %[[F:.*]] = call @__pydev_f8e4m3_to_f32(%[[B]]) : (i8) -> f32
// CHECK: arith.extf %[[F]] : f32 to f64
// CHECK: llvm.mlir.constant(56 : i8) : i8
// CHECK: pydev.array_store %{{.*}}, %[[A]][%{{.*}}] : i8, <i8, 1>, i64
// CHECK: call @__pydev_f32_to_f8e5m2(
// CHECK-DAG: func.func private @__pydev_f32_to_f8e4m3(%{{.*}}: f32) -> i8
// CHECK-DAG: func.func private @__pydev_f8e4m3_to_f32(%{{.*}}: i8) -> f32
// CHECK-DAG: func.func private @__pydev_f32_to_f8e5m2(%{{.*}}: f32) -> i8
// CHECK-NOT: f8E4M3FN
func.func @convert(%x: f32, %a: !pydev.array<f8E4M3FN, 1>, %i: i64) -> f64 {
  %b = arith.truncf %x : f32 to f8E4M3FN
  %f = arith.extf %b : f8E4M3FN to f64
  %one = arith.constant 1.0 : f8E4M3FN
  pydev.array_store %one, %a[%i] : f8E4M3FN, !pydev.array<f8E4M3FN, 1>, i64
  %c = arith.truncf %x : f32 to f8E5M2
  return %f : f64
}

// -----

// Does not fire without float8.
// CHECK-LABEL: func.func @plain
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: __pydev_
func.func @plain(%x: f32) -> f16 {
  %h = arith.truncf %x : f32 to f16
  return %h : f16
}

// -----

// Vectors of float8 (arith on builtin vectors, as upstream float emulation
// leaves it): lane by lane through the same helpers; constants encoded per
// lane (1.0 = 0x38 = 56, -2.0 = 0xC0 = -64 in e4m3; 448 -> 0x7E = 126).
// CHECK-LABEL: func.func @vectors
// CHECK-SAME: (%[[X:.*]]: vector<2xf32>, %[[H:.*]]: vector<4xf16>) -> (vector<2xf64>, vector<4xi8>, vector<2xi8>)
// CHECK: %[[X0:.*]] = llvm.extractelement %[[X]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[B0:.*]] = call @__pydev_f32_to_f8e4m3(%[[X0]]) : (f32) -> i8
// CHECK: %[[V0:.*]] = llvm.insertelement %[[B0]], %{{.*}}[%{{.*}} : i32] : vector<2xi8>
// CHECK: %[[X1:.*]] = llvm.extractelement %[[X]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[B1:.*]] = call @__pydev_f32_to_f8e4m3(%[[X1]]) : (f32) -> i8
// CHECK: %[[V:.*]] = llvm.insertelement %[[B1]], %[[V0]][%{{.*}} : i32] : vector<2xi8>
// CHECK: %[[E0:.*]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<2xi8>
// CHECK: call @__pydev_f8e4m3_to_f32(%[[E0]]) : (i8) -> f32
// CHECK: %[[E1:.*]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<2xi8>
// CHECK: %[[F:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<2xf32>
// CHECK: arith.extf %[[F]] : vector<2xf32> to vector<2xf64>
// CHECK-COUNT-4: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.constant dense<[56, -64, 126, 0]> : vector<4xi8>
// CHECK: arith.constant dense<60> : vector<2xi8>
// CHECK-DAG: func.func private @__pydev_f32_to_f8e5m2(%{{.*}}: f32) -> i8
// CHECK-NOT: f8E4M3FN
// CHECK-NOT: f8E5M2
func.func @vectors(%x: vector<2xf32>, %h: vector<4xf16>) -> (vector<2xf64>, vector<4xf8E4M3FN>, vector<2xf8E5M2>) {
  %v = arith.truncf %x : vector<2xf32> to vector<2xf8E4M3FN>
  %w = arith.extf %v : vector<2xf8E4M3FN> to vector<2xf64>
  %e = arith.truncf %h : vector<4xf16> to vector<4xf8E5M2>
  %c = arith.constant dense<[1.0, -2.0, 448.0, 0.0]> : vector<4xf8E4M3FN>
  %s = arith.constant dense<1.0> : vector<2xf8E5M2>
  return %w, %c, %s : vector<2xf64>, vector<4xf8E4M3FN>, vector<2xf8E5M2>
}

// -----

// The spec's float8xN vectors (pydev vectors of float8, in arrays too):
// their lanes are bits; building and reading them converts each lane.
// CHECK-LABEL: func.func @pydev_vectors
// CHECK-SAME: (%[[A:.*]]: !pydev.array<!pydev.vector<2 x i8>, 1>, %[[X:.*]]: f32, %{{.*}}: i64) -> f32
// CHECK: %[[B:.*]] = call @__pydev_f32_to_f8e5m2(%[[X]]) : (f32) -> i8
// CHECK: %[[V:.*]] = pydev.vector_create(%[[B]], %[[B]]) : (i8, i8) -> !pydev.vector<2 x i8>
// CHECK: pydev.array_store %[[V]], %[[A]][%{{.*}}] : !pydev.vector<2 x i8>, <!pydev.vector<2 x i8>, 1>, i64
// CHECK: %[[L:.*]] = pydev.array_load %[[A]][%{{.*}}] : <!pydev.vector<2 x i8>, 1>, i64 -> !pydev.vector<2 x i8>
// CHECK: %[[Y:.*]] = pydev.vector_extract %[[L]][%{{.*}}] : <2 x i8>, i32 -> i8
// CHECK: call @__pydev_f8e5m2_to_f32(%[[Y]]) : (i8) -> f32
// CHECK-NOT: f8E5M2
func.func @pydev_vectors(%a: !pydev.array<!pydev.vector<2 x f8E5M2>, 1>, %x: f32, %i: i64) -> f32 {
  %b = arith.truncf %x : f32 to f8E5M2
  %v = pydev.vector_create(%b, %b) : (f8E5M2, f8E5M2) -> !pydev.vector<2 x f8E5M2>
  pydev.array_store %v, %a[%i] : !pydev.vector<2 x f8E5M2>, !pydev.array<!pydev.vector<2 x f8E5M2>, 1>, i64
  %l = pydev.array_load %a[%i] : !pydev.array<!pydev.vector<2 x f8E5M2>, 1>, i64 -> !pydev.vector<2 x f8E5M2>
  %k = arith.constant 1 : i32
  %y = pydev.vector_extract %l[%k] : !pydev.vector<2 x f8E5M2>, i32 -> f8E5M2
  %f = arith.extf %y : f8E5M2 to f32
  return %f : f32
}

// -----

// Does not fire on vectors of other floats.
// CHECK-LABEL: func.func @plain_vectors
// CHECK-NEXT: arith.truncf %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK-NEXT: arith.extf %{{.*}} : vector<2xf16> to vector<2xf32>
// CHECK-NOT: __pydev_
// CHECK-NOT: llvm.extractelement
func.func @plain_vectors(%x: vector<2xf32>) -> vector<2xf32> {
  %h = arith.truncf %x : vector<2xf32> to vector<2xf16>
  %f = arith.extf %h : vector<2xf16> to vector<2xf32>
  return %f : vector<2xf32>
}
