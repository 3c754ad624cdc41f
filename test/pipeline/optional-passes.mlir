// The optional optimizations of the cuda and host pipelines,
// `aggregate-atomics=1` (pydev-aggregate-atomics) and `vectorize-access=1`
// (pydev-vectorize-access), from pydev IR to PTX that ptxas assembles.
// REQUIRES: ptxas
// RUN: pydev-opt %s --pydev-pipeline="cuda{aggregate-atomics=1 vectorize-access=1}" --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: pydev-opt %s --pydev-pipeline="cuda{chip=sm_70 aggregate-atomics=1 vectorize-access=1}" --emit=ptx -o %t70.ptx
// RUN: ptxas -arch=sm_70 %t70.ptx -o %t70.cubin
// RUN: pydev-opt %s --pydev-pipeline=cuda --emit=ptx | FileCheck %s --check-prefix=OFF
// RUN: pydev-opt %s --pydev-pipeline="cuda{vectorize-access=1 boundscheck=1}" --emit=ptx | FileCheck %s --check-prefix=CHECKED
// RUN: pydev-opt %s --pydev-pipeline="host{aggregate-atomics=1 vectorize-access=1}" | FileCheck %s --check-prefix=HOST
// RUN: not pydev-opt %s --pydev-pipeline="cuda{aggregate-atomics=2}" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not pydev-opt %s --pydev-pipeline="host{vectorize-access=yes}" 2>&1 | FileCheck %s --check-prefix=BADHOST

// The lanes sharing a bin: one red per group, of popc(group).
// CHECK-LABEL: .visible .entry histogram(
// CHECK: activemask.b32
// CHECK: match.any.sync.b32
// CHECK: %lanemask_lt
// CHECK: popc.b32
// CHECK: red.global.add.u32
// OFF-LABEL: .visible .entry histogram(
// OFF-NOT: match.any
// OFF: red.global.add.u32
// The host runtime runs the warp operations.
// HOST: llvm.call @pydev_rt_warp(
func.func @histogram(%bins: !pydev.array<i32, 1, c>, %data: !pydev.array<i32, 1, c, readonly>, %n: i64) attributes {pydev.kernel} {
  %c1 = arith.constant 1 : i32
  %tx = gpu.thread_id x
  %bx = gpu.block_id x
  %bd = gpu.block_dim x
  %base = arith.muli %bx, %bd : index
  %i = arith.addi %base, %tx : index
  %i64 = arith.index_cast %i : index to i64
  %in = arith.cmpi slt, %i64, %n : i64
  cf.cond_br %in, ^bb1, ^bb2
^bb1:
  %v = pydev.array_load %data[%i] : !pydev.array<i32, 1, c, readonly>, index -> i32
  %r = pydev.atomic_ref %bins[%v] : !pydev.array<i32, 1, c>, i32 -> !pydev.atomic_ref<i32>
  %old = pydev.atomic_rmw add %r, %c1 memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  cf.br ^bb2
^bb2:
  return
}

// A block sum at a uniform address: five xor shuffles and one atomic in
// a full warp; an atomic per lane in a partial one.
// CHECK-LABEL: .visible .entry block_sum(
// CHECK: activemask.b32
// CHECK: red.global.add.u32
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: red.global.add.u32
func.func @block_sum(%out: !pydev.array<i32, 1, c>, %x: !pydev.array<i32, 1, c, readonly>) attributes {pydev.kernel} {
  %tx = gpu.thread_id x
  %bx = gpu.block_id x
  %bd = gpu.block_dim x
  %base = arith.muli %bx, %bd : index
  %i = arith.addi %base, %tx : index
  %v = pydev.array_load %x[%i] : !pydev.array<i32, 1, c, readonly>, index -> i32
  %r = pydev.atomic_ref %out[%bx] : !pydev.array<i32, 1, c>, index -> !pydev.atomic_ref<i32>
  %old = pydev.atomic_rmw add %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  return
}

// out[2t], out[2t + 1] = x[2t + 1], x[2t]: a v2 load and a v2 store when
// both arrays start 8-byte aligned, scalars otherwise.
// CHECK-LABEL: .visible .entry swap_pairs(
// CHECK: ld.global.v2.b32
// CHECK: st.global.v2.b32
// OFF-LABEL: .visible .entry swap_pairs(
// OFF-NOT: .v2.
// OFF: ret;
// CHECKED-LABEL: .visible .entry swap_pairs(
// CHECKED-NOT: .v2.
// CHECKED: ret;
// HOST: llvm.func @swap_pairs(
// HOST: llvm.load {{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<2xf32>
// HOST: llvm.store {{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr
func.func @swap_pairs(%out: !pydev.array<f32, 1, c>, %x: !pydev.array<f32, 1, c, readonly>) attributes {pydev.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %tx = gpu.thread_id x
  %i = arith.muli %tx, %c2 : index
  %i1 = arith.addi %i, %c1 : index
  %a = pydev.array_load %x[%i] : !pydev.array<f32, 1, c, readonly>, index -> f32
  %b = pydev.array_load %x[%i1] : !pydev.array<f32, 1, c, readonly>, index -> f32
  pydev.array_store %b, %out[%i] : f32, !pydev.array<f32, 1, c>, index
  pydev.array_store %a, %out[%i1] : f32, !pydev.array<f32, 1, c>, index
  return
}


// BAD: aggregate-atomics must be 0 or 1, got '2'
// BADHOST: vectorize-access must be 0 or 1, got 'yes'
