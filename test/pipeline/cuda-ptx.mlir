// The first cut of the cuda pipeline: thread positioning, a device-scope
// atomic add and a shfl down, from pydev IR to PTX that ptxas assembles.
// REQUIRES: ptxas
// RUN: pydev-opt %s --pydev-pipeline=cuda --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: pydev-opt %s --pydev-pipeline="cuda{chip=sm_80}" --emit=ptx | FileCheck %s --check-prefix=SM80

// CHECK: .version 8.0
// CHECK: .target sm_90
// CHECK-LABEL: .visible .entry warp_sum(
// CHECK-NEXT: .param .align 8 .b8 warp_sum_param_0[24],
// CHECK-NEXT: .param .align 8 .b8 warp_sum_param_1[24]
// CHECK-DAG: mov.u32 {{.*}}%tid.x
// CHECK-DAG: mov.u32 {{.*}}%ctaid.x
// CHECK-DAG: mov.u32 {{.*}}%ntid.x
// CHECK: ld.global.b32
// CHECK: shfl.sync.down.b32 {{.*}}, 16, 31, -1;
// CHECK: red.global.add.f32
// CHECK: ret;
// SM80: .target sm_80
func.func @warp_sum(%out: !pydev.array<f32, 1>, %x: !pydev.array<f32, 1, readonly>) attributes {pydev.kernel} {
  %tx = gpu.thread_id x
  %bx = gpu.block_id x
  %bd = gpu.block_dim x
  %base = arith.muli %bx, %bd : index
  %i = arith.addi %base, %tx : index
  %v = pydev.array_load %x[%i] : !pydev.array<f32, 1, readonly>, index -> f32
  %full = arith.constant -1 : i32
  %mask = pydev.cast %full : i32 to !pydev.warp_mask
  %delta = arith.constant 16 : i32
  %w = pydev.shfl down %mask, %v, %delta : f32, i32
  %s = arith.addf %v, %w : f32
  %zero = arith.constant 0 : index
  %r = pydev.atomic_ref %out[%zero] : !pydev.array<f32, 1>, index -> !pydev.atomic_ref<f32>
  %old = pydev.atomic_rmw add %r, %s memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
  return
}
