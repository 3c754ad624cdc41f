// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-expand-fp-class | FileCheck %s

// math.isinf x => arith.cmpf oeq, |x|, inf
// CHECK-LABEL: func.func @isinf_f32
// CHECK: %[[A:.*]] = math.absf %arg0 : f32
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[R:.*]] = arith.cmpf oeq, %[[A]], %[[INF]] : f32
// CHECK: return %[[R]]
// CHECK-NOT: math.isinf
func.func @isinf_f32(%x: f32) -> i1 {
  %r = math.isinf %x : f32
  return %r : i1
}

// -----

// math.isnormal x => (|x| >= smallest normal) and (|x| < inf)
// CHECK-LABEL: func.func @isnormal_f64
// CHECK: %[[A:.*]] = math.absf %arg0 : f64
// CHECK: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK: %[[MIN:.*]] = arith.constant 2.2250738585072014E-308 : f64
// CHECK: %[[GE:.*]] = arith.cmpf oge, %[[A]], %[[MIN]] : f64
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[A]], %[[INF]] : f64
// CHECK: %[[R:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: return %[[R]]
func.func @isnormal_f64(%x: f64) -> i1 {
  %r = math.isnormal %x : f64
  return %r : i1
}

// -----

// Half and bfloat16, and vectors (the constants splatted).
// CHECK-LABEL: func.func @small_and_vector
// CHECK: arith.constant 0x7C00 : f16
// CHECK: arith.constant 0x7F80 : bf16
// CHECK: arith.constant dense<0x7F800000> : vector<4xf32>
// CHECK: arith.cmpf oeq, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT: math.is
func.func @small_and_vector(%h: f16, %b: bf16, %v: vector<4xf32>) -> (i1, i1, vector<4xi1>) {
  %0 = math.isinf %h : f16
  %1 = math.isnormal %b : bf16
  %2 = math.isinf %v : vector<4xf32>
  return %0, %1, %2 : i1, i1, vector<4xi1>
}

// -----

// Does not fire: the class tests upstream lowers, and other math ops.
// CHECK-LABEL: func.func @others
// CHECK: math.isnan
// CHECK: math.isfinite
// CHECK: math.sin
func.func @others(%x: f32) -> (i1, i1, f32) {
  %0 = math.isnan %x : f32
  %1 = math.isfinite %x : f32
  %2 = math.sin %x : f32
  return %0, %1, %2 : i1, i1, f32
}

// -----

// Formats without an infinity of this form are refused, naming the type.
func.func @float8(%x: f8E5M2) -> i1 {
  // expected-error @+1 {{a floating-point class test of f8E5M2 (supported: f16, bf16, f32, f64)}}
  %0 = math.isinf %x : f8E5M2
  return %0 : i1
}
