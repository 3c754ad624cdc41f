// RUN: pydev-opt %s --split-input-file --pydev-outline-kernels | FileCheck %s

// A kernel becomes a gpu.func in gpu.module @pydev; a device function moves
// along unchanged.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @pydev
// CHECK: func.func @helper(%{{.*}}: f32) -> f32
// CHECK: return
// CHECK: gpu.func @saxpy(%{{.*}}: f32, %{{.*}}: !pydev.array<f32, 1>) kernel
// CHECK-NOT: pydev.kernel
// CHECK: gpu.return
// CHECK-NOT: func.return
func.func @helper(%x: f32) -> f32 {
  return %x : f32
}
func.func @saxpy(%a: f32, %y: !pydev.array<f32, 1>) attributes {pydev.kernel} {
  %r = func.call @helper(%a) : (f32) -> f32
  return
}

// -----

// Device functions without a kernel move too: their PTX defines them
// (an interop function compiled alone, for CUDA C++ to link).
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @pydev
// CHECK: func.func @only_device() attributes {pydev.interop}
func.func @only_device() attributes {pydev.interop} {
  return
}

// -----

// Does not fire: no function in the module.
// CHECK-LABEL: module {
// CHECK-NOT: gpu.module
// CHECK: llvm.mlir.global
llvm.mlir.global internal constant @table(dense<[1, 2]> : tensor<2xi32>) : !llvm.array<2 x i32>

// -----

// The interop flag survives outlining (spec: Interoperable Functions).
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.func @interop_kernel() kernel attributes {pydev.interop}
func.func @interop_kernel() attributes {pydev.kernel, pydev.interop} {
  return
}

// -----

// Launch bounds (the NVVM dialect's kernel attributes) move to the gpu.func,
// where convert-gpu-to-nvvm keeps them; pydev's own attributes do not.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.func @bounded() kernel attributes {nvvm.cluster_max_blocks = 4 : i32, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32}
// CHECK-NOT: pydev.exited_skip_barriers
// CHECK: gpu.return
func.func @bounded() attributes {pydev.kernel, pydev.exited_skip_barriers, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32, nvvm.cluster_max_blocks = 4 : i32} {
  return
}
