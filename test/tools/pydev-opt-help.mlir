// `pydev-opt --help` lists every pydev pass and the pipelines.
// RUN: pydev-opt --help | FileCheck %s
// CHECK: --pass-pipeline
// CHECK: --split-input-file
// CHECK: --verify-diagnostics
// CHECK: --mlir-print-ir-before-all
// CHECK: --mlir-print-ir-after-all
// CHECK: --mlir-print-ir-after-change
// CHECK: --mlir-timing
// CHECK: --mlir-pass-statistics
// CHECK: --dump-pass-pipeline
// CHECK: --print-plugin-path
// CHECK: pydev passes
// CHECK: --pydev-outline-kernels
// CHECK: --pydev-lower-arrays
// CHECK: {target=...}
// CHECK: --pydev-lower-atomics
// CHECK: --pydev-lower-sync-nvvm
// CHECK: --pydev-pipeline=cuda
