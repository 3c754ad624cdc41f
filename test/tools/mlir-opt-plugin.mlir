// Upstream mlir-opt-22 (Debian's, linked to libMLIR.so) with the pydev plugin
// (%pydev_plugin, from `pydev-opt --print-plugin-path`): the dialect parses,
// prints and verifies, and every pydev pass runs by name in --pass-pipeline,
// with its options, giving what pydev-opt gives (its output read back by
// mlir-opt, which ends the file with a newline); the cuda pipeline written
// out reaches PTX.
//
// The dialect: round trip, and the verifier's error.
// RUN: mlir-opt --load-dialect-plugin=%pydev_plugin %s | FileCheck %s --check-prefix=ROUND
// RUN: not mlir-opt --load-dialect-plugin=%pydev_plugin %S/Inputs/malformed-vote.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
//
// The passes, listed and run.
// RUN: mlir-opt --load-pass-plugin=%pydev_plugin --help | FileCheck %s --check-prefix=HELP
// RUN: mlir-opt --load-dialect-plugin=%pydev_plugin --load-pass-plugin=%pydev_plugin %s --pass-pipeline='builtin.module(pydev-lower-atomics)' | FileCheck %s --check-prefix=ATOMICS
// RUN: mlir-opt --load-dialect-plugin=%pydev_plugin --load-pass-plugin=%pydev_plugin %s --pass-pipeline='builtin.module(pydev-specialize-target{target=sm_80},pydev-promote-types,canonicalize,pydev-outline-kernels,pydev-lower-arrays,pydev-lower-atomics,pydev-lower-sync-nvvm,pydev-lower-aggregates,pydev-check-lowered)' -o %t.upstream
// RUN: pydev-opt %s --pydev-specialize-target=target=sm_80 --pydev-promote-types --canonicalize --pydev-outline-kernels --pydev-lower-arrays --pydev-lower-atomics --pydev-lower-sync-nvvm --pydev-lower-aggregates --pydev-check-lowered | mlir-opt --load-dialect-plugin=%pydev_plugin -o %t.pydev
// RUN: diff %t.pydev %t.upstream
//
// Bad options are errors with pydev's message.
// RUN: not mlir-opt --load-dialect-plugin=%pydev_plugin --load-pass-plugin=%pydev_plugin %s --pass-pipeline='builtin.module(pydev-specialize-target{target=sm_42})' 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: not mlir-opt --load-dialect-plugin=%pydev_plugin --load-pass-plugin=%pydev_plugin %s --pass-pipeline='builtin.module(pydev-lower-atomics{nope=1})' 2>&1 | FileCheck %s --check-prefix=BADOPTION
//
// The cuda pipeline (pydev-opt --pydev-pipeline=cuda --dump-pass-pipeline,
// abridged) to PTX, and mlir-opt's own IR printing around pydev passes.
// (Plugin passes are names for --pass-pipeline only: mlir-opt builds its
// per-pass flags, `--pydev-lower-atomics`, `--mlir-print-ir-after=<pass>`,
// before it loads plugins, so those flags do not know them.)
// RUN: mlir-opt --load-dialect-plugin=%pydev_plugin --load-pass-plugin=%pydev_plugin %s --pass-pipeline='builtin.module(pydev-specialize-target{target=sm_90},pydev-promote-types,canonicalize,pydev-lower-float8,pydev-outline-kernels,pydev-lower-arrays,pydev-lower-atomics,pydev-lower-sync-nvvm,pydev-lower-aggregates,pydev-check-lowered,nvvm-attach-target{chip=sm_90 features=+ptx80 O=3},gpu.module(convert-gpu-to-nvvm),reconcile-unrealized-casts,pydev-align-params,pydev-drop-c-wrappers,pydev-raise-ptx,gpu-module-to-binary{format=isa})' --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=PTX

// ROUND-LABEL: func.func @histogram(%arg0: !pydev.array<i32, 1>, %arg1: !pydev.array<i32, 1, readonly>) attributes {pydev.kernel}
// ROUND: pydev.shfl  down
// ROUND: pydev.atomic_rmw add %{{.*}}, %{{.*}} memory <relaxed> scope <device>

// VERIFY: malformed-vote.mlir:2:8: error: 'pydev.vote' op expected 2 operands, but found 1

// HELP: --pydev-lower-atomics {{ *}}- lower atomics and fences
// HELP: --pydev-specialize-target

// ATOMICS-NOT: pydev.atomic_rmw
// ATOMICS: llvm.inline_asm has_side_effects "red.global.add.u32

// BADTARGET: error: pydev-specialize-target: unknown target 'sm_42'
// BADOPTION: error: unknown option 'nope' of pass 'pydev-lower-atomics'

// PTX: // -----// IR Dump After pydev-lower-sync-nvvm (pydev-lower-sync-nvvm) //----- //
// PTX: nvvm.shfl.sync down
// PTX: .entry histogram
// PTX: shfl.sync.down.b32
// PTX: red.global.add.u32

func.func @histogram(%bins: !pydev.array<i32, 1>, %data: !pydev.array<i32, 1, readonly>) attributes {pydev.kernel} {
  %tx = gpu.thread_id x
  %bx = gpu.block_id x
  %bd = gpu.block_dim x
  %base = arith.muli %bx, %bd : index
  %i = arith.addi %base, %tx : index
  %v = pydev.array_load %data[%i] : !pydev.array<i32, 1, readonly>, index -> i32
  %mask = pydev.activemask
  %one = arith.constant 1 : i32
  %moved = pydev.shfl down %mask, %v, %one : i32, i32
  %bin = pydev.atomic_ref %bins[%moved] : !pydev.array<i32, 1>, i32 -> !pydev.atomic_ref<i32>
  %old = pydev.atomic_rmw add %bin, %one memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  return
}
