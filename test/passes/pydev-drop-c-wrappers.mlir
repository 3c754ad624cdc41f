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

// -----

// A function linked code defines (an interop declaration): upstream made it
// a private wrapper of a declared @_mlir_ciface_; it becomes an external
// declaration again, which the caller calls by value.
// CHECK-LABEL: gpu.module @declared
// CHECK: llvm.func @vmul(!llvm.struct<(f32, f32, f32)>, f32) -> !llvm.struct<(f32, f32, f32)>
// CHECK-NOT: _mlir_ciface_vmul
// CHECK: llvm.call @vmul(
gpu.module @declared {
  llvm.func private @vmul(%arg0: !llvm.struct<(f32, f32, f32)>, %arg1: f32) -> !llvm.struct<(f32, f32, f32)> attributes {llvm.emit_c_interface, sym_visibility = "private"} {
    %0 = llvm.mlir.constant(1 : index) : i64
    %1 = llvm.alloca %0 x !llvm.struct<(f32, f32, f32)> : (i64) -> !llvm.ptr
    llvm.call @_mlir_ciface_vmul(%1, %arg0, %arg1) : (!llvm.ptr, !llvm.struct<(f32, f32, f32)>, f32) -> ()
    %2 = llvm.load %1 : !llvm.ptr -> !llvm.struct<(f32, f32, f32)>
    llvm.return %2 : !llvm.struct<(f32, f32, f32)>
  }
  llvm.func @_mlir_ciface_vmul(!llvm.ptr, !llvm.struct<(f32, f32, f32)>, f32) attributes {llvm.emit_c_interface, sym_visibility = "private"}
  llvm.func @k(%v: !llvm.struct<(f32, f32, f32)>, %s: f32) -> !llvm.struct<(f32, f32, f32)> {
    %r = llvm.call @vmul(%v, %s) : (!llvm.struct<(f32, f32, f32)>, f32) -> !llvm.struct<(f32, f32, f32)>
    llvm.return %r : !llvm.struct<(f32, f32, f32)>
  }
}

// -----

// Does not fire on a defined @_mlir_ciface_ function (a wrapper, above).
// CHECK-LABEL: gpu.module @defined
// CHECK: llvm.func @f(
// CHECK: llvm.call @g
gpu.module @defined {
  llvm.func @g(%a: f32) -> f32 {
    llvm.return %a : f32
  }
  llvm.func @f(%a: f32) -> f32 {
    %r = llvm.call @g(%a) : (f32) -> f32
    llvm.return %r : f32
  }
}

// -----

// The declaration keeps pydev-lower-aggregates' mark of the CUDA alignment
// of its parameters (pydev-align-params runs next).
// CHECK-LABEL: gpu.module @aligned
// CHECK: llvm.func @cmul(!llvm.struct<(f32, f32, array<8 x i8>)>) -> f32 attributes {pydev.param_aligns = array<i64: 16>}
// CHECK-NOT: _mlir_ciface_cmul
gpu.module @aligned {
  llvm.func private @cmul(%arg0: !llvm.struct<(f32, f32, array<8 x i8>)>) -> f32 attributes {llvm.emit_c_interface, pydev.interop, pydev.param_aligns = array<i64: 16>, sym_visibility = "private"} {
    %0 = llvm.call @_mlir_ciface_cmul(%arg0) : (!llvm.struct<(f32, f32, array<8 x i8>)>) -> f32
    llvm.return %0 : f32
  }
  llvm.func @_mlir_ciface_cmul(!llvm.struct<(f32, f32, array<8 x i8>)>) -> f32 attributes {llvm.emit_c_interface, pydev.interop, pydev.param_aligns = array<i64: 16>, sym_visibility = "private"}
  llvm.func @k(%c: !llvm.struct<(f32, f32, array<8 x i8>)>) -> f32 {
    %r = llvm.call @cmul(%c) : (!llvm.struct<(f32, f32, array<8 x i8>)>) -> f32
    llvm.return %r : f32
  }
}
