// pydev-opt runs transform-dialect scripts on pydev IR (docs/research.md):
// examples/transform/annotate_muls.mlir matches every pydev.mul with core
// transform ops and marks it; the same script runs in the JIT
// (python/tests/test_passes.py).
// RUN: pydev-opt %s --transform-preload-library=transform-library-paths=%S/../../examples/transform/annotate_muls.mlir --transform-interpreter | FileCheck %s

// CHECK-LABEL: func.func @k
// CHECK: pydev.mul %arg0, %{{.*}} {example.seen} : si32, si32 -> si32
// CHECK: pydev.mul %arg1, %{{.*}} {example.seen} : f32, f32 -> f32
// CHECK: pydev.add %{{.*}}, %{{.*}} : si32, si32 -> si32
func.func @k(%x: si32, %y: f32) -> (si32, f32) {
  %c3 = pydev.constant 3 : si32
  %a = pydev.mul %x, %c3 : si32, si32 -> si32
  %c2 = pydev.constant 2.0 : f32
  %b = pydev.mul %y, %c2 : f32, f32 -> f32
  %s = pydev.add %a, %c3 : si32, si32 -> si32
  return %s, %b : si32, f32
}
