// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-check-lowered | FileCheck %s

// Does not fire: nothing of pydev is left.
// CHECK-LABEL: func.func @lowered
func.func @lowered(%x: i32) -> i32 {
  return %x : i32
}

// -----

func.func @left_behind(%a: f32, %b: f32) -> !pydev.vector<2 x f32> {
  // expected-error @+1 {{'pydev.vector_create' is not lowered to this target yet}}
  %v = pydev.vector_create(%a, %b) : (f32, f32) -> !pydev.vector<2 x f32>
  return %v : !pydev.vector<2 x f32>
}
