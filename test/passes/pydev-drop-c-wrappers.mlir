// RUN: pydev-opt %s --split-input-file --pydev-drop-c-wrappers | FileCheck %s

// convert-gpu-to-nvvm gives each device function a C wrapper; unused ones go.
// CHECK-LABEL: gpu.module @device
// CHECK: llvm.func @diff
// CHECK-NOT: _mlir_ciface_diff
// Does not fire on a wrapper something calls.
// CHECK: llvm.func @_mlir_ciface_used
gpu.module @device {
  llvm.func @diff(%a: f32, %b: f32) -> f32 {
    %d = llvm.fsub %a, %b : f32
    llvm.return %d : f32
  }
  llvm.func @_mlir_ciface_diff(%a: f32, %b: f32) -> f32 {
    %r = llvm.call @diff(%a, %b) : (f32, f32) -> f32
    llvm.return %r : f32
  }
  llvm.func @_mlir_ciface_used(%a: f32) -> f32 {
    llvm.return %a : f32
  }
  llvm.func @caller(%a: f32) -> f32 {
    %r = llvm.call @_mlir_ciface_used(%a) : (f32) -> f32
    llvm.return %r : f32
  }
}

// -----

// Does not fire outside gpu.modules (the host JIT calls its wrappers).
// CHECK-LABEL: llvm.func @_mlir_ciface_host
llvm.func @_mlir_ciface_host(%a: f32) -> f32 {
  llvm.return %a : f32
}
