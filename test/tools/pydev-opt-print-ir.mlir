// mlir-opt's IR dumps (to standard error): before every pass, after every
// pass, after the passes that changed the IR, after a failed pass, and of
// the whole module.
// RUN: pydev-opt %s --pydev-lower-atomics --cse --mlir-print-ir-before-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: pydev-opt %s --pydev-lower-atomics --cse --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: pydev-opt %s --pydev-lower-atomics --cse --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// RUN: not pydev-opt %s --pydev-check-lowered --mlir-print-ir-after-failure -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAILURE
// RUN: pydev-opt %s --pydev-lower-atomics --mlir-print-ir-after-all --mlir-print-ir-module-scope -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCOPE

// BEFORE: // -----// IR Dump Before pydev-lower-atomics (pydev-lower-atomics) //----- //
// BEFORE-NEXT: module {
// BEFORE: pydev.atomic_rmw add
// BEFORE: // -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NOT: pydev.atomic_rmw
// BEFORE: red.global.add.u32
// BEFORE-NOT: IR Dump After

// AFTER-NOT: IR Dump Before
// AFTER: // -----// IR Dump After pydev-lower-atomics (pydev-lower-atomics) //----- //
// AFTER-NOT: pydev.atomic_rmw
// AFTER: // -----// IR Dump After CSE (cse) //----- //

// The cse after lower-atomics finds nothing to do: no dump after it.
// CHANGE: // -----// IR Dump After pydev-lower-atomics (pydev-lower-atomics) //----- //
// CHANGE-NOT: IR Dump After CSE

// FAILURE-NOT: IR Dump After pydev-check-lowered (
// FAILURE: // -----// IR Dump After pydev-check-lowered Failed (pydev-check-lowered) //----- //
// FAILURE: pydev.activemask

// SCOPE: // -----// IR Dump After pydev-lower-atomics (pydev-lower-atomics) ('builtin.module' operation) //----- //

func.func @histogram(%bins: !pydev.array<i32, 1>, %data: !pydev.array<i32, 1, readonly>) attributes {pydev.kernel} {
  %tx = gpu.thread_id x
  %v = pydev.array_load %data[%tx] : !pydev.array<i32, 1, readonly>, index -> i32
  %mask = pydev.activemask
  %one = arith.constant 1 : i32
  %moved = pydev.shfl down %mask, %v, %one : i32, i32
  %bin = pydev.atomic_ref %bins[%moved] : !pydev.array<i32, 1>, i32 -> !pydev.atomic_ref<i32>
  %old = pydev.atomic_rmw add %bin, %one memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
  return
}
