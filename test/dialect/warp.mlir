// RUN: pydev-opt %s | pydev-opt | FileCheck %s
// Round trip of warp votes, shuffles and matches (spec: Thread Warp
// Synchronization).

// CHECK-LABEL: func.func @votes
func.func @votes(%m: !pydev.warp_mask, %p: i1) {
  // CHECK: pydev.vote all %{{.*}}, %{{.*}} : i1
  %0 = pydev.vote all %m, %p : i1
  // CHECK: pydev.vote any %{{.*}}, %{{.*}} : i1
  %1 = pydev.vote any %m, %p : i1
  // CHECK: pydev.vote eq %{{.*}}, %{{.*}} : i1
  %2 = pydev.vote eq %m, %p : i1
  // CHECK: pydev.vote ballot %{{.*}}, %{{.*}} : !pydev.warp_mask
  %3 = pydev.vote ballot %m, %p : !pydev.warp_mask
  return
}

// CHECK-LABEL: func.func @shuffle_kinds
func.func @shuffle_kinds(%m: !pydev.warp_mask, %x: f32, %l: i32) {
  // CHECK: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : f32, i32
  %0 = pydev.shfl idx %m, %x, %l : f32, i32
  // CHECK: pydev.shfl up %{{.*}}, %{{.*}}, %{{.*}} : f32, i32
  %1 = pydev.shfl up %m, %x, %l : f32, i32
  // CHECK: pydev.shfl down %{{.*}}, %{{.*}}, %{{.*}} : f32, i32
  %2 = pydev.shfl down %m, %x, %l : f32, i32
  // CHECK: pydev.shfl xor %{{.*}}, %{{.*}}, %{{.*}} : f32, i32
  %3 = pydev.shfl xor %m, %x, %l : f32, i32
  return
}

// CHECK-LABEL: func.func @shuffle_types
func.func @shuffle_types(%m: !pydev.warp_mask, %l: i32, %lm: !pydev.warp_mask, %ls: si32,
                         %a: i32, %b: f32, %c: f64, %d: si64, %e: !pydev.vector<2 x f32>,
                         %f: !pydev.struct<"P", {x: si16, y: f32}>, %g: !pydev.tuple<ui8, ui8>,
                         %h: i1, %w: !pydev.warp_mask) {
  // CHECK: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : i32, i32
  %0 = pydev.shfl idx %m, %a, %l : i32, i32
  // CHECK: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : i32, !pydev.warp_mask
  %1 = pydev.shfl idx %m, %a, %lm : i32, !pydev.warp_mask
  // CHECK: pydev.shfl up %{{.*}}, %{{.*}}, %{{.*}} : f32, !pydev.warp_mask
  %2 = pydev.shfl up %m, %b, %lm : f32, !pydev.warp_mask
  // CHECK: pydev.shfl down %{{.*}}, %{{.*}}, %{{.*}} : f64, i32
  %3 = pydev.shfl down %m, %c, %l : f64, i32
  // CHECK: pydev.shfl xor %{{.*}}, %{{.*}}, %{{.*}} : f64, !pydev.warp_mask
  %4 = pydev.shfl xor %m, %c, %lm : f64, !pydev.warp_mask
  // CHECK: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : si64, i32
  %5 = pydev.shfl idx %m, %d, %l : si64, i32
  // CHECK: pydev.shfl down %{{.*}}, %{{.*}}, %{{.*}} : si64, !pydev.warp_mask
  %6 = pydev.shfl down %m, %d, %lm : si64, !pydev.warp_mask
  // CHECK: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : !pydev.vector<2 x f32>, i32
  %7 = pydev.shfl idx %m, %e, %l : !pydev.vector<2 x f32>, i32
  // CHECK: pydev.shfl xor %{{.*}}, %{{.*}}, %{{.*}} : !pydev.vector<2 x f32>, !pydev.warp_mask
  %8 = pydev.shfl xor %m, %e, %lm : !pydev.vector<2 x f32>, !pydev.warp_mask
  // Structs and tuples of at most 8 bytes, bools and warp masks, signed lanes.
  // CHECK: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : !pydev.struct<"P", {x: si16, y: f32}>, si32
  %9 = pydev.shfl idx %m, %f, %ls : !pydev.struct<"P", {x: si16, y: f32}>, si32
  // CHECK: pydev.shfl up %{{.*}}, %{{.*}}, %{{.*}} : !pydev.tuple<ui8, ui8>, i32
  %10 = pydev.shfl up %m, %g, %l : !pydev.tuple<ui8, ui8>, i32
  // CHECK: pydev.shfl down %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
  %11 = pydev.shfl down %m, %h, %l : i1, i32
  // CHECK: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : !pydev.warp_mask, i32
  %12 = pydev.shfl idx %m, %w, %l : !pydev.warp_mask, i32
  // Constant lanes inside the warp.
  %c0 = arith.constant 0 : i32
  %c31 = pydev.constant 31 : si32
  // CHECK: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : f32, i32
  %13 = pydev.shfl idx %m, %b, %c0 : f32, i32
  // CHECK: pydev.shfl down %{{.*}}, %{{.*}}, %{{.*}} : f32, si32
  %14 = pydev.shfl down %m, %b, %c31 : f32, si32
  %u16 = pydev.constant 16 : ui5
  // CHECK: pydev.shfl xor %{{.*}}, %{{.*}}, %{{.*}} : f32, ui5
  %15 = pydev.shfl xor %m, %b, %u16 : f32, ui5
  return
}

// CHECK-LABEL: func.func @matches
func.func @matches(%m: !pydev.warp_mask, %a: si32, %b: ui64, %c: f32, %d: f64) {
  // CHECK: pydev.match_any %{{.*}}, %{{.*}} : si32
  %0 = pydev.match_any %m, %a : si32
  // CHECK: pydev.match_any %{{.*}}, %{{.*}} : ui64
  %1 = pydev.match_any %m, %b : ui64
  // CHECK: pydev.match_any %{{.*}}, %{{.*}} : f64
  %2 = pydev.match_any %m, %d : f64
  // CHECK: %{{.*}}, %{{.*}} = pydev.match_all %{{.*}}, %{{.*}} : f32
  %3:2 = pydev.match_all %m, %c : f32
  // CHECK: %{{.*}}, %{{.*}} = pydev.match_all %{{.*}}, %{{.*}} : si32
  %4, %5 = pydev.match_all %m, %a : si32
  // CHECK: %{{.*}}, %{{.*}} = pydev.match_all %{{.*}}, %{{.*}} : ui64
  %6:2 = pydev.match_all %m, %b : ui64
  return
}
