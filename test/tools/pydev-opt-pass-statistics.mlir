// --mlir-pass-statistics: mlir-opt's statistics report (standard error),
// per pipeline or as a list. Debian's LLVM 22 is built without
// LLVM_ENABLE_STATS, so upstream mlir-opt-22 prints the header and no
// counters either; the two reports agree.
// RUN: pydev-opt %s --cse --pydev-specialize-target --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s
// RUN: pydev-opt %s --cse --mlir-pass-statistics --mlir-pass-statistics-display=list -o /dev/null 2>&1 | FileCheck %s
// RUN: pydev-opt %s --cse --mlir-pass-statistics -o /dev/null 2> %t.pydev
// RUN: mlir-opt %s --cse --mlir-pass-statistics -o /dev/null 2> %t.upstream
// RUN: diff %t.pydev %t.upstream
// CHECK: ===-------------------------------------------------------------------------===
// CHECK-NEXT: ... Pass statistics report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
