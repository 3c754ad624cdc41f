// RUN: pydev-opt %s --split-input-file --pydev-prune-libdevice | FileCheck %s

// A module that calls no CUDA math function does not link libdevice.
// CHECK-LABEL: gpu.module @plain
// CHECK-SAME: [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
gpu.module @plain [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", link = ["/opt/nvvm/libdevice/libdevice.10.bc"]>] {
  llvm.func @add(%a: f32, %b: f32) -> f32 {
    %s = llvm.fadd %a, %b : f32
    llvm.return %s : f32
  }
}

// -----

// Other link files stay, in order.
// CHECK-LABEL: gpu.module @others
// CHECK-SAME: link = ["/x/first.bc", "/x/second.bc"]
gpu.module @others [#nvvm.target<chip = "sm_80", link = ["/x/first.bc", "/y/libdevice.10.bc", "/x/second.bc"]>] {
}

// -----

// Does not fire on a module that declares a libdevice function.
// CHECK-LABEL: gpu.module @math
// CHECK-SAME: link = ["/opt/nvvm/libdevice/libdevice.10.bc"]
gpu.module @math [#nvvm.target<chip = "sm_90", link = ["/opt/nvvm/libdevice/libdevice.10.bc"]>] {
  llvm.func @__nv_sinf(f32) -> f32
  llvm.func @f(%a: f32) -> f32 {
    %s = llvm.call @__nv_sinf(%a) : (f32) -> f32
    llvm.return %s : f32
  }
}

// -----

// Does not fire on a module with no link list.
// CHECK-LABEL: gpu.module @bare
// CHECK-SAME: [#nvvm.target<chip = "sm_70">]
gpu.module @bare [#nvvm.target<chip = "sm_70">] {
}
