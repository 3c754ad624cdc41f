// --pydev-pipeline=host: Python-level pydev IR to the LLVM dialect for the
// host target (the runtime JIT-compiles it): the kernel takes the thread
// context, nothing of pydev is left but the
// module attributes the runtime reads.
// RUN: pydev-opt %s --pydev-pipeline=host | FileCheck %s
// RUN: pydev-opt %s --pydev-pipeline="host{opt-level=2 fast-math=1 boundscheck=1}" | FileCheck %s --check-prefix=CHECKED
// CHECK: module attributes {{{.*}}pydev.host_kernels = {scale =
// CHECK: llvm.func @scale(%{{.*}}: !llvm.struct<(ptr, array<1 x i64>, array<1 x i64>)>, %{{.*}}: f32, %{{.*}}: !llvm.ptr {llvm.noalias}{{.*}} attributes {pydev.host_ctx, pydev.kernel}
// CHECK: llvm.fmul
// CHECK-NOT: pydev.array
// CHECK-NOT: gpu.
// CHECK-NOT: nvvm.
// CHECKED: llvm.func @scale(
// CHECKED: llvm.call @pydev_rt_error

func.func @scale(%a: !pydev.array<f32, 1>, %s: f32) attributes {pydev.kernel} {
  %i = gpu.thread_id x
  %v = pydev.array_load %a[%i] : !pydev.array<f32, 1>, index -> f32
  %w = arith.mulf %v, %s : f32
  pydev.array_store %w, %a[%i] : f32, !pydev.array<f32, 1>, index
  return
}
