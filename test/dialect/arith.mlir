// RUN: pydev-opt %s | pydev-opt | FileCheck %s
// Round trip of Python arithmetic before promotion (spec: Numeric Promotion,
// Constant Expressions, Fixed-Format Numbers).

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK: pydev.constant 3 : si32
  %0 = pydev.constant 3 : si32
  // CHECK: pydev.constant -7 : si64
  %1 = pydev.constant -7 : si64
  // CHECK: pydev.constant 255 : ui8
  %2 = pydev.constant 255 : ui8
  // CHECK: pydev.constant true
  %3 = pydev.constant true
  // CHECK: pydev.constant false
  %4 = pydev.constant false
  // CHECK: pydev.constant 42 : i32
  %5 = pydev.constant 42 : i32
  // CHECK: pydev.constant 1.500000e+00 : f32
  %6 = pydev.constant 1.5 : f32
  // CHECK: pydev.constant -2.500000e-01 : f64
  %7 = pydev.constant -0.25 : f64
  // CHECK: pydev.constant 1.000000e+00 : f16
  %8 = pydev.constant 1.0 : f16
  // CHECK: pydev.constant #complex.number<:f64 1.000000e+00, -2.000000e+00> : complex<f64>
  %9 = pydev.constant #complex.number<:f64 1.0, -2.0> : complex<f64>
  // CHECK: pydev.constant #complex.number<:f32 0.000000e+00, 1.000000e+00> : complex<f32>
  %10 = pydev.constant #complex.number<:f32 0.0, 1.0> : complex<f32>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%i: si32, %l: si64, %u: ui8, %f: f32, %d: f64, %b: i1, %c: complex<f64>) {
  // CHECK: pydev.add %{{.*}}, %{{.*}} : si32, si64 -> si64
  %0 = pydev.add %i, %l : si32, si64 -> si64
  // CHECK: pydev.sub %{{.*}}, %{{.*}} : ui8, si32 -> si32
  %1 = pydev.sub %u, %i : ui8, si32 -> si32
  // CHECK: pydev.mul %{{.*}}, %{{.*}} : f32, si64 -> f32
  %2 = pydev.mul %f, %l : f32, si64 -> f32
  // CHECK: pydev.truediv %{{.*}}, %{{.*}} : si32, si32 -> f32
  %3 = pydev.truediv %i, %i : si32, si32 -> f32
  // CHECK: pydev.floordiv %{{.*}}, %{{.*}} : f64, si32 -> f64
  %4 = pydev.floordiv %d, %i : f64, si32 -> f64
  // CHECK: pydev.mod %{{.*}}, %{{.*}} : si64, ui8 -> si64
  %5 = pydev.mod %l, %u : si64, ui8 -> si64
  // CHECK: pydev.pow %{{.*}}, %{{.*}} : f32, f64 -> f64
  %6 = pydev.pow %f, %d : f32, f64 -> f64
  // CHECK: pydev.min %{{.*}}, %{{.*}} : i1, si32 -> si32
  %7 = pydev.min %b, %i : i1, si32 -> si32
  // CHECK: pydev.max %{{.*}}, %{{.*}} : ui8, f32 -> f32
  %8 = pydev.max %u, %f : ui8, f32 -> f32
  // CHECK: pydev.add %{{.*}}, %{{.*}} : complex<f64>, f32 -> complex<f64>
  %9 = pydev.add %c, %f : complex<f64>, f32 -> complex<f64>
  // CHECK: pydev.pow %{{.*}}, %{{.*}} : complex<f64>, si32 -> complex<f64>
  %10 = pydev.pow %c, %i : complex<f64>, si32 -> complex<f64>
  return
}

// CHECK-LABEL: func.func @bitwise
func.func @bitwise(%i: si32, %l: si64, %u: ui8, %b: i1, %s: i16) {
  // CHECK: pydev.and %{{.*}}, %{{.*}} : si32, si64 -> si64
  %0 = pydev.and %i, %l : si32, si64 -> si64
  // CHECK: pydev.or %{{.*}}, %{{.*}} : ui8, si32 -> si32
  %1 = pydev.or %u, %i : ui8, si32 -> si32
  // CHECK: pydev.xor %{{.*}}, %{{.*}} : i1, i1 -> i1
  %2 = pydev.xor %b, %b : i1, i1 -> i1
  // CHECK: pydev.lshift %{{.*}}, %{{.*}} : si64, ui8 -> si64
  %3 = pydev.lshift %l, %u : si64, ui8 -> si64
  // CHECK: pydev.rshift %{{.*}}, %{{.*}} : i16, si32 -> si32
  %4 = pydev.rshift %s, %i : i16, si32 -> si32
  return
}

// CHECK-LABEL: func.func @compare
func.func @compare(%i: si32, %l: si64, %f: f32, %c: complex<f32>) {
  // CHECK: pydev.cmp eq, %{{.*}}, %{{.*}} : si32, si64
  %0 = pydev.cmp eq, %i, %l : si32, si64
  // CHECK: pydev.cmp ne, %{{.*}}, %{{.*}} : f32, si32
  %1 = pydev.cmp ne, %f, %i : f32, si32
  // CHECK: pydev.cmp lt, %{{.*}}, %{{.*}} : si32, si64
  %2 = pydev.cmp lt, %i, %l : si32, si64
  // CHECK: pydev.cmp le, %{{.*}}, %{{.*}} : si64, f32
  %3 = pydev.cmp le, %l, %f : si64, f32
  // CHECK: pydev.cmp gt, %{{.*}}, %{{.*}} : f32, f32
  %4 = pydev.cmp gt, %f, %f : f32, f32
  // CHECK: pydev.cmp ge, %{{.*}}, %{{.*}} : si32, si32
  %5 = pydev.cmp ge, %i, %i : si32, si32
  // Equality is defined on complex numbers.
  // CHECK: pydev.cmp eq, %{{.*}}, %{{.*}} : complex<f32>, f32
  %6 = pydev.cmp eq, %c, %f : complex<f32>, f32
  // CHECK: pydev.cmp ne, %{{.*}}, %{{.*}} : complex<f32>, complex<f32>
  %7 = pydev.cmp ne, %c, %c : complex<f32>, complex<f32>
  return
}

// CHECK-LABEL: func.func @unary
func.func @unary(%i: si32, %u: ui8, %f: f64, %b: i1, %c: complex<f32>) {
  // CHECK: pydev.neg %{{.*}} : si32 -> si32
  %0 = pydev.neg %i : si32 -> si32
  // CHECK: pydev.neg %{{.*}} : i1 -> si64
  %1 = pydev.neg %b : i1 -> si64
  // CHECK: pydev.pos %{{.*}} : f64 -> f64
  %2 = pydev.pos %f : f64 -> f64
  // CHECK: pydev.invert %{{.*}} : ui8 -> ui8
  %3 = pydev.invert %u : ui8 -> ui8
  // CHECK: pydev.invert %{{.*}} : i1 -> si64
  %4 = pydev.invert %b : i1 -> si64
  // CHECK: pydev.not %{{.*}} : si32 -> i1
  %5 = pydev.not %i : si32 -> i1
  // CHECK: pydev.not %{{.*}} : complex<f32> -> i1
  %6 = pydev.not %c : complex<f32> -> i1
  // CHECK: pydev.abs %{{.*}} : f64 -> f64
  %7 = pydev.abs %f : f64 -> f64
  // CHECK: pydev.abs %{{.*}} : complex<f32> -> f32
  %8 = pydev.abs %c : complex<f32> -> f32
  return
}

// CHECK-LABEL: func.func @casts
func.func @casts(%i: si32, %u: ui32, %l: si64, %f: f32, %d: f64, %b: i1, %m: !pydev.warp_mask,
                 %c: complex<f32>) {
  // CHECK: pydev.cast %{{.*}} : si32 to f32
  %0 = pydev.cast %i : si32 to f32
  // CHECK: pydev.cast %{{.*}} : ui32 to f64
  %1 = pydev.cast %u : ui32 to f64
  // CHECK: pydev.cast %{{.*}} : f64 to si32
  %2 = pydev.cast %d : f64 to si32
  // CHECK: pydev.cast %{{.*}} : f32 to ui8
  %3 = pydev.cast %f : f32 to ui8
  // CHECK: pydev.cast %{{.*}} : si32 to ui32
  %4 = pydev.cast %i : si32 to ui32
  // CHECK: pydev.cast %{{.*}} : si64 to ui8
  %5 = pydev.cast %l : si64 to ui8
  // CHECK: pydev.cast %{{.*}} : i1 to si32
  %6 = pydev.cast %b : i1 to si32
  // CHECK: pydev.cast %{{.*}} : f32 to f64
  %7 = pydev.cast %f : f32 to f64
  // CHECK: pydev.cast %{{.*}} : f64 to complex<f64>
  %8 = pydev.cast %d : f64 to complex<f64>
  // CHECK: pydev.cast %{{.*}} : complex<f32> to complex<f64>
  %9 = pydev.cast %c : complex<f32> to complex<f64>
  // CHECK: pydev.cast %{{.*}} : si32 to !pydev.warp_mask
  %10 = pydev.cast %i : si32 to !pydev.warp_mask
  // CHECK: pydev.cast %{{.*}} : !pydev.warp_mask to ui32
  %11 = pydev.cast %m : !pydev.warp_mask to ui32
  // CHECK: pydev.cast %{{.*}} : !pydev.warp_mask to si64
  %12 = pydev.cast %m : !pydev.warp_mask to si64
  // CHECK: pydev.cast %{{.*}} : !pydev.warp_mask to !pydev.warp_mask
  %13 = pydev.cast %m : !pydev.warp_mask to !pydev.warp_mask
  return
}

// The generic form parses to the same ops.
// CHECK-LABEL: func.func @generic
func.func @generic(%i: si32, %f: f32) -> (f32, i1) {
  // CHECK: pydev.add %{{.*}}, %{{.*}} : si32, f32 -> f32
  %0 = "pydev.add"(%i, %f) : (si32, f32) -> f32
  // CHECK: pydev.cmp lt, %{{.*}}, %{{.*}} : si32, f32
  %1 = "pydev.cmp"(%i, %f) {predicate = #pydev<cmp_predicate lt>} : (si32, f32) -> i1
  return %0, %1 : f32, i1
}
