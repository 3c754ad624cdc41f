// A pass plugin built outside pydev (examples/pass-template, whose
// `example-mul-pow2-to-shift` turns an integer multiplication by a constant
// power of two into a shift) loads into upstream mlir-opt-22 (the plugin
// brings the pydev dialect and passes too), into pydev-opt (which runs it in
// the plugin's own MLIR and reads the result back, locations kept), and
// mixes with pydev's and upstream passes in one pipeline.
//
// RUN: mlir-opt --load-dialect-plugin=%pass_template --load-pass-plugin=%pass_template %s --pass-pipeline='builtin.module(example-mul-pow2-to-shift)' | FileCheck %s
// RUN: pydev-opt --load-pass-plugin=%pass_template %s --example-mul-pow2-to-shift | FileCheck %s
// RUN: pydev-opt --load-pass-plugin=%pass_template %s --pass-pipeline='builtin.module(example-mul-pow2-to-shift,pydev-promote-types,canonicalize)' --mlir-print-debuginfo | FileCheck %s --check-prefix=MIXED
// RUN: mlir-opt --load-pass-plugin=%pass_template --help | FileCheck %s --check-prefix=HELP
// RUN: not pydev-opt %s --pass-pipeline='builtin.module(example-mul-pow2-to-shift)' 2>&1 | FileCheck %s --check-prefix=UNLOADED
// RUN: not pydev-opt --load-pass-plugin=%t.missing.so %s 2>&1 | FileCheck %s --check-prefix=MISSING

// HELP: example-mul-pow2-to-shift
// UNLOADED: 'example-mul-pow2-to-shift' does not refer to a registered pass or pass pipeline
// MISSING: cannot load pass plugin '{{.*}}missing.so'

// CHECK-LABEL: func.func @pow2
// CHECK: %[[K:.*]] = pydev.constant 3 : si32
// CHECK: pydev.lshift %arg0, %[[K]] : si32, si32 -> si32
// CHECK-NOT: pydev.mul
// MIXED-LABEL: func.func @pow2
// MIXED: arith.shli %arg0, %{{.*}} : i32 loc(#[[LOC:loc[0-9]+]])
// MIXED: #[[LOC]] = loc("{{.*}}pass-plugin.mlir":28:
func.func @pow2(%x: si32) -> si32 {
  %c8 = pydev.constant 8 : si32
  %a = pydev.mul %x, %c8 : si32, si32 -> si32
  return %a : si32
}

// Does not fire: not a power of two, a float, mixed types.
// CHECK-LABEL: func.func @not_pow2
// CHECK: pydev.mul %arg0, %{{.*}} : si32, si32 -> si32
// CHECK: pydev.mul %arg1, %{{.*}} : f32, f32 -> f32
// CHECK: pydev.mul %arg2, %{{.*}} : si64, si32 -> si64
func.func @not_pow2(%x: si32, %y: f32, %z: si64) -> (si32, f32, si64) {
  %c6 = pydev.constant 6 : si32
  %a = pydev.mul %x, %c6 : si32, si32 -> si32
  %c2 = pydev.constant 2.0 : f32
  %b = pydev.mul %y, %c2 : f32, f32 -> f32
  %c4 = pydev.constant 4 : si32
  %c = pydev.mul %z, %c4 : si64, si32 -> si64
  return %a, %b, %c : si32, f32, si64
}
