// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-select-kernel | FileCheck %s
// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-select-kernel="kernel=k1" --symbol-dce | FileCheck %s --check-prefix=ONE
// RUN: not pydev-opt %s --split-input-file --pydev-select-kernel="kernel=nope" 2>&1 | FileCheck %s --check-prefix=ERR

// An unknown kernel= is an error naming the module's kernels.
// ERR: error: the module has no kernel 'nope' (its kernels: k0, k1)

// Device functions become private; kernels, interop functions and
// declarations keep their visibility.
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK: func.func @exported
// CHECK-SAME: pydev.interop
// CHECK: func.func private @puts
// CHECK: func.func @k0
// CHECK: func.func @k1
// With kernel=k1, k0 and what only it reaches are dropped.
// ONE-NOT: @k0
// ONE-NOT: @only_k0
// ONE: func.func private @helper
// ONE-SAME: llvm.linkage = #llvm.linkage<internal>
// ONE: func.func @exported
// ONE: func.func @k1
func.func @helper(%x: f32) -> f32 {
  return %x : f32
}
func.func @only_k0(%x: f32) -> f32 {
  return %x : f32
}
func.func @exported(%x: f32) -> f32 attributes {pydev.interop} {
  return %x : f32
}
func.func private @puts(%x: f32) -> f32
func.func @k0(%a: f32) attributes {pydev.kernel} {
  %0 = func.call @only_k0(%a) : (f32) -> f32
  return
}
func.func @k1(%a: f32) attributes {pydev.kernel} {
  %0 = func.call @helper(%a) : (f32) -> f32
  %1 = func.call @puts(%0) : (f32) -> f32
  return
}

// -----

// Does not fire: a module without kernels (a device function compiled alone).
// CHECK-LABEL: func.func @alone
// ONE-LABEL: func.func @alone
func.func @alone(%x: f32) -> f32 {
  return %x : f32
}
