// RUN: pydev-opt %s --pydev-apply-pdl=patterns=%S/../../examples/pdl/mul_pow2.mlir | FileCheck %s
// RUN: pydev-opt %s --pass-pipeline='builtin.module(pydev-apply-pdl{patterns=%S/../../examples/pdl/mul_pow2.mlir},pydev-promote-types)' | FileCheck %s --check-prefix=LOWERED
// RUN: not pydev-opt %s --pydev-apply-pdl 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not pydev-opt %s --pydev-apply-pdl=patterns=%t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo 'module { pdl.pattern : benefit(1) {' > %t.bad.mlir
// RUN: not pydev-opt %s --pydev-apply-pdl=patterns=%t.bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD

// NOFILE: pydev-apply-pdl: patterns=PATH (an MLIR file of pdl.pattern ops) is required
// MISSING: pydev-apply-pdl: cannot read the patterns '{{.*}}missing.mlir'
// BAD: pydev-apply-pdl: '{{.*}}bad.mlir': the patterns do not parse

// The pattern fires: pydev.mul x, 8 : si32 => pydev.lshift x, 3.
// CHECK-LABEL: func.func @fires
// CHECK: %[[K:.*]] = pydev.constant 3 : si32
// CHECK: %[[R:.*]] = pydev.lshift %arg0, %[[K]] : si32, si32 -> si32
// CHECK: return %[[R]]
// LOWERED-LABEL: func.func @fires
// LOWERED: arith.shli
func.func @fires(%x: si32) -> si32 {
  %c8 = pydev.constant 8 : si32
  %a = pydev.mul %x, %c8 : si32, si32 -> si32
  return %a : si32
}

// Does not fire: another constant, another type.
// CHECK-LABEL: func.func @does_not_fire
// CHECK: pydev.mul %arg0, %{{.*}} : si32, si32 -> si32
// CHECK: pydev.mul %arg1, %{{.*}} : si64, si64 -> si64
// CHECK-NOT: pydev.lshift
func.func @does_not_fire(%x: si32, %y: si64) -> (si32, si64) {
  %c6 = pydev.constant 6 : si32
  %a = pydev.mul %x, %c6 : si32, si32 -> si32
  %c8 = pydev.constant 8 : si64
  %b = pydev.mul %y, %c8 : si64, si64 -> si64
  return %a, %b : si32, si64
}
