// RUN: pydev-opt %s --split-input-file --pydev-lower-math-libm | FileCheck %s
// RUN: pydev-opt %s --split-input-file --pydev-lower-math-libm --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// math.expm1 x : f64 => func.call @expm1(x); math.log1p x : f64 => func.call @log1p(x)
// CHECK-DAG: func.func private @expm1(f64) -> f64 attributes {llvm.readnone}
// CHECK-DAG: func.func private @log1p(f64) -> f64 attributes {llvm.readnone}
// CHECK-LABEL: func.func @f64_ops
// CHECK: %[[E:.*]] = call @expm1(%arg0) : (f64) -> f64
// CHECK: %[[L:.*]] = call @log1p(%arg0) : (f64) -> f64
// CHECK: return %[[E]], %[[L]]
// CHECK-NOT: math.
func.func @f64_ops(%x: f64) -> (f64, f64) {
  %e = math.expm1 %x : f64
  %l = math.log1p %x : f64
  return %e, %l : f64, f64
}

// -----

// f32: the C functions with the f suffix, declared once for two uses; the
// calls keep the replaced ops' locations.
// CHECK-DAG: func.func private @expm1f(f32) -> f32
// CHECK-DAG: func.func private @log1pf(f32) -> f32
// CHECK-LABEL: func.func @f32_ops
// CHECK: call @expm1f(%arg0) : (f32) -> f32
// CHECK: call @log1pf(%arg0) : (f32) -> f32
// CHECK: call @log1pf(%arg1) : (f32) -> f32
// CHECK-NOT: func.func private @log1pf
// LOC: call @expm1f(%arg0) : (f32) -> f32 loc(#[[LOC_E:[a-z0-9]+]])
// LOC: #[[LOC_E]] = loc("k.py":3:7)
func.func @f32_ops(%x: f32, %y: f32) -> (f32, f32, f32) {
  %e = math.expm1 %x : f32 loc("k.py":3:7)
  %l = math.log1p %x : f32
  %m = math.log1p %y : f32
  return %e, %l, %m : f32, f32, f32
}

// -----

// f16 and bf16 through the f32 functions.
// CHECK-DAG: func.func private @log1pf(f32) -> f32
// CHECK-DAG: func.func private @expm1f(f32) -> f32
// CHECK-LABEL: func.func @narrow
// CHECK: %[[X:.*]] = arith.extf %arg0 : f16 to f32
// CHECK: %[[R:.*]] = call @log1pf(%[[X]]) : (f32) -> f32
// CHECK: arith.truncf %[[R]] : f32 to f16
// CHECK: %[[Y:.*]] = arith.extf %arg1 : bf16 to f32
// CHECK: %[[S:.*]] = call @expm1f(%[[Y]]) : (f32) -> f32
// CHECK: arith.truncf %[[S]] : f32 to bf16
func.func @narrow(%h: f16, %b: bf16) -> (f16, bf16) {
  %l = math.log1p %h : f16
  %e = math.expm1 %b : bf16
  return %l, %e : f16, bf16
}

// -----

// Does not fire: the other math ops (exact LLVM intrinsics or libm calls of
// convert-math-to-llvm) and vector operands stay as they are.
// CHECK-NOT: func.func private
// CHECK-LABEL: func.func @does_not_fire
// CHECK: math.exp %arg0 : f64
// CHECK: math.log %arg0 : f64
// CHECK: math.sqrt %arg0 : f64
// CHECK: math.fma %arg0, %arg0, %arg0 : f64
// CHECK: math.log1p %arg1 : vector<4xf32>
// CHECK: math.expm1 %arg1 : vector<4xf32>
// CHECK-NOT: call
func.func @does_not_fire(%x: f64, %v: vector<4xf32>) -> (f64, f64, f64, f64, vector<4xf32>, vector<4xf32>) {
  %0 = math.exp %x : f64
  %1 = math.log %x : f64
  %2 = math.sqrt %x : f64
  %3 = math.fma %x, %x, %x : f64
  %4 = math.log1p %v : vector<4xf32>
  %5 = math.expm1 %v : vector<4xf32>
  return %0, %1, %2, %3, %4, %5 : f64, f64, f64, f64, vector<4xf32>, vector<4xf32>
}
