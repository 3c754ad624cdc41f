// --mlir-timing: mlir-opt's execution time report (standard error), one
// line per pass, pydev passes by name.
// RUN: pydev-opt %s --pydev-pipeline=host --mlir-timing -o /dev/null 2>&1 | FileCheck %s
// CHECK: ... Execution time report ...
// CHECK: Total Execution Time:
// CHECK: ----Wall Time----  ----Name----
// CHECK: pydev-specialize-target
// CHECK: pydev-lower-simt-host
// CHECK: ConvertToLLVMPass
// CHECK: Total

func.func @k(%a: !pydev.array<f32, 1>) attributes {pydev.kernel} {
  %i = gpu.thread_id x
  %v = pydev.array_load %a[%i] : !pydev.array<f32, 1>, index -> f32
  %w = arith.addf %v, %v : f32
  pydev.array_store %w, %a[%i] : f32, !pydev.array<f32, 1>, index
  return
}
