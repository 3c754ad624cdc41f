// RUN: not pydev-opt %s 2>&1 | FileCheck %s
// A malformed op is rejected with its file, line and column.

func.func @wrong_operand_count(%a: si32) -> si32 {
  // CHECK: malformed.mlir:[[@LINE+2]]:8: error: 'pydev.add' op expected 2 operands, but found 1
  // CHECK-NEXT: "pydev.add"(%a) : (si32) -> si32
  %0 = "pydev.add"(%a) : (si32) -> si32
  return %0 : si32
}
