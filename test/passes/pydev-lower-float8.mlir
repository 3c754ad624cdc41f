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
