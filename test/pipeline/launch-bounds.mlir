// Launch bounds: the NVVM dialect's kernel attributes on a kernel func.func
// (as pydev.numba's cuda.jit(launch_bounds=...) emits them) become the PTX
// directives that ptxas's register allocation honours, and on the host the
// bound the runtime checks at launch (pydev.host_max_threads).
// REQUIRES: ptxas
// RUN: pydev-opt %s --pydev-pipeline=cuda --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: pydev-opt %s --pydev-pipeline=host | FileCheck %s --check-prefix=HOST

// CHECK: .target sm_90
// CHECK-LABEL: .visible .entry bounded(
// CHECK: .maxntid 128, 1, 1
// CHECK-NEXT: .minnctapersm 2
// CHECK-NEXT: .maxclusterrank 4
// CHECK-LABEL: .visible .entry threads_only(
// CHECK: .maxntid 256, 1, 1
// CHECK-NOT: .minnctapersm
// CHECK-NOT: .maxclusterrank
// CHECK-LABEL: .visible .entry unbounded(
// CHECK-NOT: .maxntid
// CHECK: ret;

// HOST: pydev.host_max_threads = {bounded = 128 : i64, threads_only = 256 : i64}
func.func @bounded(%out: !pydev.array<f32, 1>) attributes {pydev.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32, nvvm.cluster_max_blocks = 4 : i32} {
  %tx = gpu.thread_id x
  %v = arith.constant 1.0 : f32
  pydev.array_store %v, %out[%tx] : f32, !pydev.array<f32, 1>, index
  return
}
func.func @threads_only(%out: !pydev.array<f32, 1>) attributes {pydev.kernel, nvvm.maxntid = array<i32: 256, 1, 1>} {
  %tx = gpu.thread_id x
  %v = arith.constant 2.0 : f32
  pydev.array_store %v, %out[%tx] : f32, !pydev.array<f32, 1>, index
  return
}
func.func @unbounded(%out: !pydev.array<f32, 1>) attributes {pydev.kernel} {
  %tx = gpu.thread_id x
  %v = arith.constant 3.0 : f32
  pydev.array_store %v, %out[%tx] : f32, !pydev.array<f32, 1>, index
  return
}
