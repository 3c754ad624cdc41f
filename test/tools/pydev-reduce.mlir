// pydev-reduce: mlir-reduce with the pydev dialect and passes (upstream
// mlir-reduce-22 takes no plugins; this is its main plus libpydev_plugin.so).
// It reduces a module to the function that keeps a pydev.shfl.
// RUN: pydev-reduce %s -reduction-tree='traversal-mode=0 test=%S/Inputs/reduce-keeps-shfl.sh' -o %t 2>/dev/null
// RUN: FileCheck %s < %t
// RUN: pydev-reduce --help | FileCheck %s --check-prefix=HELP
// CHECK-NOT: @unrelated
// CHECK: func.func @shuffle(%arg0: !pydev.warp_mask, %arg1: i32, %arg2: i32) -> i32
// CHECK-NEXT: pydev.shfl  down %arg0, %arg1, %arg2 : i32, i32
// CHECK-NOT: @also_unrelated
// HELP: --reduction-tree
// HELP: --pydev-lower-atomics

func.func @unrelated(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
func.func @shuffle(%m: !pydev.warp_mask, %v: i32, %d: i32) -> i32 {
  %0 = pydev.shfl down %m, %v, %d : i32, i32
  return %0 : i32
}
func.func @also_unrelated(%a: !pydev.array<f32, 1>, %i: index) -> f32 {
  %0 = pydev.array_load %a[%i] : !pydev.array<f32, 1>, index -> f32
  return %0 : f32
}
