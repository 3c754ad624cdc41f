// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-host-barrier-fission | FileCheck %s

// A kernel with a barrier becomes a step function: the dispatch enters the
// old entry (state 0) or the code after barrier 1; the barrier adds its
// predicate to the block's count and returns 1; a value used after the
// barrier goes through the thread's frame, after its 40-byte head (state,
// readiness, warp request); constants are cloned.
// CHECK: module attributes {pydev.host_frames = {k = 48 : i64}}
// CHECK-LABEL: func.func @k
// CHECK-SAME: (%[[A:.*]]: !llvm.ptr, %[[CTX:.*]]: !llvm.ptr {llvm.noalias}, %[[STATE:.*]]: i32) -> i32
// CHECK: %[[SCRATCH_P:.*]] = llvm.getelementptr %[[CTX]][88]
// CHECK: %[[FRAME:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[STATE]], %{{.*}} : i32
// CHECK: cf.cond_br %[[IS1]], ^[[RESUME:.*]], ^[[START:.*]]
// CHECK: ^[[START]]:
// CHECK-NEXT: cf.br ^[[ENTRY:.*]]
// CHECK: ^[[ENTRY]]:
// CHECK: %[[V:.*]] = llvm.load %[[A]] : !llvm.ptr -> f32
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[FRAME]][40]
// CHECK: llvm.store %[[V]], %[[SLOT]] : f32, !llvm.ptr
// CHECK: %[[COUNT_P:.*]] = llvm.getelementptr %[[CTX]][96]
// CHECK: llvm.store %{{.*}}, %[[COUNT_P]]
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[STATE_P:.*]] = llvm.getelementptr %[[FRAME]][0]
// CHECK-NEXT: llvm.store %[[ONE]], %[[STATE_P]]
// CHECK-NEXT: return %[[ONE]] : i32
// CHECK: ^[[RESUME]]:
// CHECK: %[[TOTAL_P:.*]] = llvm.getelementptr %[[CTX]][100]
// CHECK: %[[TOTAL:.*]] = llvm.load %[[TOTAL_P]]
// CHECK: %[[RELOAD:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[TWO:.*]] = arith.constant 2.0
// CHECK: arith.mulf %[[RELOAD]], %[[TWO]]
// CHECK: llvm.store %[[TOTAL]], %[[A]] : i32, !llvm.ptr
// CHECK: %[[DONE:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: return %[[DONE]] : i32
// The block loop runs every thread from one loop-invariant state while they
// move together (else the live or the ready ones, each from the state the
// step left in its frame); when all wait at the same barrier it releases it
// itself (the count becomes the total), else the runtime releases what can
// complete. Threads that returned hold
// up barriers (no pydev.exited_skip_barriers: 0).
// CHECK-LABEL: func.func @__pydev_block_k
// CHECK: scf.while (%{{.*}} = %true, %{{.*}} = %true, %{{.*}} = %c0_i32{{.*}}, %{{.*}} = %false)
// CHECK: ^bb0(%{{.*}}: i1, %{{.*}}: i1, %[[ST:.*]]: i32, %{{.*}}: i1):
// CHECK: scf.if
// CHECK: func.call @k(%{{.*}}, %{{.*}}, %[[ST]]) : (!llvm.ptr, !llvm.ptr, i32) -> i32
// CHECK: } else {
// CHECK: %[[PF:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[OWN:.*]] = llvm.load %[[PF]] : !llvm.ptr -> i32
// CHECK: func.call @k(%{{.*}}, %{{.*}}, %[[OWN]]) : (!llvm.ptr, !llvm.ptr, i32) -> i32
// CHECK: scf.if
// CHECK: %[[COUNT:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK-NEXT: llvm.store %[[COUNT]], %{{.*}} : i32, !llvm.ptr
// CHECK: func.call @pydev_rt_block_release(%{{.*}}, %c48_i64, %c0_i32{{(_[0-9]+)?}}) : (!llvm.ptr, i64, i32) -> i32
func.func private @pydev_rt_barrier(!llvm.ptr, i32, i32) -> i32
func.func private @pydev_rt_error(!llvm.ptr, i32, i32, i64, i64)
func.func @k(%a: !llvm.ptr, %ctx: !llvm.ptr {llvm.noalias}) attributes {pydev.kernel, pydev.host_ctx} {
  %two = arith.constant 2.0 : f32
  %v = llvm.load %a : !llvm.ptr -> f32
  %kind = llvm.mlir.constant(1 : i32) : i32
  %p = llvm.mlir.constant(1 : i32) : i32
  %n = func.call @pydev_rt_barrier(%ctx, %kind, %p) : (!llvm.ptr, i32, i32) -> i32
  %w = arith.mulf %v, %two : f32
  llvm.store %w, %a : f32, !llvm.ptr
  llvm.store %n, %a : i32, !llvm.ptr
  return
}
func.func @__pydev_block_k(%a: !llvm.ptr, %ctx: !llvm.ptr {llvm.noalias}) attributes {pydev.host_ctx} {
  func.call @k(%a, %ctx) : (!llvm.ptr, !llvm.ptr) -> ()
  return
}

// -----

// A warp operation is a rendezvous too: the lane leaves mask (at 4), value
// (8), argument (16) and operation (20) in its frame head and returns the
// warp state (1 << 16 | 1); where it resumes, it reads the result (24) that
// the runtime wrote when the lane's group completed. With
// pydev.exited_skip_barriers the block loop tells the runtime so (1).
// CHECK: pydev.host_frames = {warp = 48 : i64}
// CHECK-LABEL: func.func @warp
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: llvm.getelementptr %{{.*}}[4]
// CHECK: llvm.getelementptr %{{.*}}[8]
// CHECK: llvm.getelementptr %{{.*}}[16]
// CHECK: llvm.getelementptr %{{.*}}[20]
// CHECK: %[[STATE:.*]] = llvm.mlir.constant(65537 : i32) : i32
// CHECK-NEXT: llvm.getelementptr %{{.*}}[0]
// CHECK-NEXT: llvm.store %[[STATE]]
// CHECK-NEXT: return %[[STATE]] : i32
// CHECK: %[[OWN:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[RES_P:.*]] = llvm.getelementptr %[[OWN]][24]
// CHECK-NEXT: %[[RES:.*]] = llvm.load %[[RES_P]] : !llvm.ptr -> i64
// CHECK: llvm.store %[[RES]], %{{.*}} : i64, !llvm.ptr
// CHECK-LABEL: func.func @__pydev_block_warp
// CHECK: func.call @pydev_rt_block_release(%{{.*}}, %c48_i64, %c1_i32{{(_[0-9]+)?}})
func.func private @pydev_rt_warp(!llvm.ptr, i32, i32, i64, i32) -> i64
func.func @warp(%a: !llvm.ptr, %ctx: !llvm.ptr) attributes {pydev.kernel, pydev.host_ctx, pydev.exited_skip_barriers} {
  %z = llvm.mlir.constant(0 : i32) : i32
  %z64 = llvm.mlir.constant(7 : i64) : i64
  %m = llvm.mlir.constant(-1 : i32) : i32
  %op = llvm.mlir.constant(6 : i32) : i32
  %s = func.call @pydev_rt_warp(%ctx, %op, %m, %z64, %z) : (!llvm.ptr, i32, i32, i64, i32) -> i64
  llvm.store %s, %a : i64, !llvm.ptr
  return
}

// -----

// Atomic waits need the coroutines: the pass does not fire.
// CHECK-NOT: pydev.host_frames
// CHECK-LABEL: func.func @wait
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-NOT: return %
func.func private @pydev_rt_barrier(!llvm.ptr, i32, i32) -> i32
func.func private @pydev_rt_wait(!llvm.ptr, !llvm.ptr, i64, i32)
func.func @wait(%a: !llvm.ptr, %ctx: !llvm.ptr) attributes {pydev.kernel, pydev.host_ctx} {
  %z = llvm.mlir.constant(0 : i32) : i32
  %z64 = llvm.mlir.constant(0 : i64) : i64
  %n = func.call @pydev_rt_barrier(%ctx, %z, %z) : (!llvm.ptr, i32, i32) -> i32
  func.call @pydev_rt_wait(%ctx, %a, %z64, %z) : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
  return
}

// -----

// A grid barrier (kind 4): the grid's blocks run together as coroutines,
// so the pass does not fire.
// CHECK-NOT: pydev.host_frames
// CHECK-LABEL: func.func @grid
// CHECK-SAME: (%{{.*}}: !llvm.ptr)
// CHECK: call @pydev_rt_barrier
// CHECK-NOT: return %
func.func private @pydev_rt_barrier(!llvm.ptr, i32, i32) -> i32
func.func @grid(%ctx: !llvm.ptr) attributes {pydev.kernel, pydev.host_ctx} {
  %z = llvm.mlir.constant(0 : i32) : i32
  %g = llvm.mlir.constant(4 : i32) : i32
  %n = func.call @pydev_rt_barrier(%ctx, %z, %z) : (!llvm.ptr, i32, i32) -> i32
  %m = func.call @pydev_rt_barrier(%ctx, %g, %z) : (!llvm.ptr, i32, i32) -> i32
  return
}

// -----

// Nor does it without barriers.
// CHECK-NOT: pydev.host_frames
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%{{.*}}: !llvm.ptr)
func.func @plain(%ctx: !llvm.ptr) attributes {pydev.kernel, pydev.host_ctx} {
  return
}

// -----

// An `index` value live across a barrier (upstream passes such as cse can
// leave one there) goes through the frame as its i64.
// CHECK-LABEL: func.func @idx
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: llvm.store %[[W]], %{{.*}} : i64, !llvm.ptr
// CHECK: %[[R:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[BACK:.*]] = arith.index_cast %[[R]] : i64 to index
// CHECK: arith.index_cast %[[BACK]] : index to i32
func.func private @pydev_rt_barrier(!llvm.ptr, i32, i32) -> i32
func.func @idx(%a: !llvm.ptr, %ctx: !llvm.ptr {llvm.noalias}) attributes {pydev.kernel, pydev.host_ctx} {
  %v = llvm.load %a : !llvm.ptr -> i64
  %i = arith.index_cast %v : i64 to index
  %kind = llvm.mlir.constant(1 : i32) : i32
  %p = llvm.mlir.constant(1 : i32) : i32
  %n = func.call @pydev_rt_barrier(%ctx, %kind, %p) : (!llvm.ptr, i32, i32) -> i32
  %w = arith.index_cast %i : index to i32
  llvm.store %w, %a : i32, !llvm.ptr
  return
}
func.func @__pydev_block_idx(%a: !llvm.ptr, %ctx: !llvm.ptr {llvm.noalias}) attributes {pydev.host_ctx} {
  func.call @idx(%a, %ctx) : (!llvm.ptr, !llvm.ptr) -> ()
  return
}
