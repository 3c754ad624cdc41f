// RUN: pydev-opt %s --split-input-file --pydev-promote-types | FileCheck %s
// RUN: pydev-opt %s --split-input-file --pydev-promote-types=fastmath=fast | FileCheck %s --check-prefix=FAST
// FAST-LABEL: func.func @arith
// FAST: arith.addf %{{.*}}, %{{.*}} fastmath<fast> : f32

// Operands are converted to the result type; signedness picks the op.
// CHECK-LABEL: func.func @arith
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i8, %[[F:.*]]: f32) -> (f32, i32, i8)
// CHECK: %[[AF:.*]] = arith.sitofp %[[A]] : i32 to f32
// CHECK: %[[S:.*]] = arith.addf %[[AF]], %[[F]] fastmath<contract> : f32
// CHECK: %[[BW:.*]] = arith.extui %[[B]] : i8 to i32
// CHECK: arith.floordivsi %[[A]], %[[BW]] : i32
// CHECK: arith.divui %[[B]], %[[B]] : i8
// CHECK: return %[[S]], %{{.*}}, %{{.*}} : f32, i32, i8
func.func @arith(%a: si32, %b: ui8, %f: f32) -> (f32, si32, ui8) {
  %s = pydev.add %a, %f : si32, f32 -> f32
  %q = pydev.floordiv %a, %b : si32, ui8 -> si32
  %u = pydev.floordiv %b, %b : ui8, ui8 -> ui8
  return %s, %q, %u : f32, si32, ui8
}

// -----

// Python's % takes the sign of the divisor; comparisons of unsigned values
// are unsigned; min on floats keeps Python's order for NaN.
// int32/int64 + - * => arith ops with overflow<nsw> (overflow is UB, as in
// CUDA C++); unsigned and narrow integers wrap.
// CHECK-LABEL: func.func @signed_overflow
// CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: arith.subi %{{.*}}, %{{.*}} overflow<nsw> : i64
// CHECK: arith.muli %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NOT: overflow
// CHECK: arith.addi %{{.*}}, %{{.*}} : i8
func.func @signed_overflow(%a: si32, %b: si64, %u: ui32, %c: si8) -> (si32, si64, si32, ui32, si8) {
  %0 = pydev.add %a, %a : si32, si32 -> si32
  %1 = pydev.sub %b, %b : si64, si64 -> si64
  %2 = pydev.mul %a, %a : si32, si32 -> si32
  %3 = pydev.add %u, %u : ui32, ui32 -> ui32
  %4 = pydev.add %c, %c : si8, si8 -> si8
  return %0, %1, %2, %3, %4 : si32, si64, si32, ui32, si8
}

// -----

// CHECK-LABEL: func.func @python_semantics
// CHECK: %[[R:.*]] = arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.xori
// CHECK: arith.andi
// CHECK: %[[ADJ:.*]] = arith.addi %[[R]], %{{.*}} : i32
// CHECK: arith.select %{{.*}}, %[[ADJ]], %[[R]] : i32
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[Y:.*]], %[[X:.*]] : f32
// CHECK: arith.select %[[LT]], %[[Y]], %[[X]] : f32
func.func @python_semantics(%a: si32, %b: si32, %u: ui32, %v: ui32, %x: f32, %y: f32) -> (si32, i1, f32) {
  %m = pydev.mod %a, %b : si32, si32 -> si32
  %c = pydev.cmp lt, %u, %v : ui32, ui32
  %n = pydev.min %x, %y : f32, f32 -> f32
  return %m, %c, %n : si32, i1, f32
}

// -----

// Constants and casts become arith; signedness is erased inside pydev types.
// CHECK-LABEL: func.func @casts_and_types
// CHECK-SAME: !pydev.array<i16, 1>
// CHECK: arith.constant -3 : i16
// CHECK: arith.extsi %{{.*}} : i16 to i64
// CHECK: arith.fptoui %{{.*}} : f64 to i8
// CHECK: pydev.array_load %{{.*}}[%{{.*}}] : <i16, 1>, i64 -> i16
func.func @casts_and_types(%a: !pydev.array<si16, 1>, %d: f64) -> (si64, ui8, si16) {
  %c = pydev.constant -3 : si16
  %w = pydev.cast %c : si16 to si64
  %n = pydev.cast %d : f64 to ui8
  %x = pydev.array_load %a[%w] : !pydev.array<si16, 1>, si64 -> si16
  return %w, %n, %x : si64, ui8, si16
}

// -----

// Unsigned atomic max keeps its signedness as an attribute.
// CHECK-LABEL: func.func @unsigned_atomic
// CHECK: pydev.atomic_rmw max {{.*}} {pydev.unsigned} : <i32>, i32
func.func @unsigned_atomic(%r: !pydev.atomic_ref<ui32>, %v: ui32) {
  %o = pydev.atomic_rmw max %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<ui32>, ui32
  return
}

// -----

// Does not fire: machine types only; warp-mask casts are left alone.
// CHECK-LABEL: func.func @machine_only(%{{.*}}: i32) -> i32
// CHECK-NEXT: pydev.cast %{{.*}} : i32 to !pydev.warp_mask
// CHECK-NEXT: return
func.func @machine_only(%x: i32) -> i32 {
  %m = pydev.cast %x : i32 to !pydev.warp_mask
  return %x : i32
}

// -----

// fma on float16 is rounded once: exact f64 product and sum, rounded to odd
// at float32, then to float16. float32 fma is left to the lowering.
// CHECK-LABEL: func.func @half_fma
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: %[[S:.*]] = arith.addf %[[P]], %{{.*}} : f64
// CHECK: %[[N:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK: arith.cmpf one
// CHECK: arith.ori %{{.*}}, %{{.*}} : i32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
func.func @half_fma(%a: f16, %b: f16, %c: f16, %x: f32) -> (f16, f32) {
  %h = math.fma %a, %b, %c : f16
  %f = math.fma %x, %x, %x : f32
  return %h, %f : f16, f32
}

// -----

// add|sub|mul (fp) {pydev.contract = false} => the same without `contract`
// (pydev.ir's contract=False), beside an op that keeps it.
// CHECK-LABEL: func.func @no_contract
// CHECK: %[[M:.*]] = arith.mulf %arg0, %arg0 : f32
// CHECK: arith.addf %[[M]], %arg1 fastmath<contract> : f32
// FAST-LABEL: func.func @no_contract
// FAST: arith.mulf %arg0, %arg0 fastmath<reassoc,nnan,ninf,nsz,arcp,afn> : f32
func.func @no_contract(%x: f32, %y: f32) -> f32 {
  %m = pydev.mul %x, %x {pydev.contract = false} : f32, f32 -> f32
  %s = pydev.add %m, %y : f32, f32 -> f32
  return %s : f32
}
