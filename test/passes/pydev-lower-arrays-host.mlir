// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-lower-arrays=target=host | FileCheck %s

// On the host every array is in address space 0.
// CHECK-LABEL: func.func @load_2d
// CHECK-SAME: !llvm.struct<(ptr, array<2 x i64>, array<2 x i64>)>
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
func.func @load_2d(%a: !pydev.array<f32, 2>, %i: i64, %j: i64) -> f32 {
  %x = pydev.array_load %a[%i, %j] : !pydev.array<f32, 2>, i64, i64 -> f32
  return %x : f32
}

// -----

// Local arrays are allocas on the host too.
// CHECK-LABEL: func.func @local
// CHECK: llvm.alloca %{{.*}} x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
func.func @local(%i: i64) -> f32 {
  %s = pydev.local_array shape [64] order "C" : !pydev.array<f32, 1, local, c>
  %x = pydev.array_load %s[%i] : !pydev.array<f32, 1, local, c>, i64 -> f32
  return %x : f32
}

// -----

func.func @shared_not_here() {
  // expected-error @+1 {{shared memory on the host comes from the host target's runtime, which is not built yet}}
  %s = pydev.shared_array shape [64] order "C" : !pydev.array<f32, 1, shared, c>
  return
}
