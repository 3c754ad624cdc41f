// `pydev-opt --help` lists every pydev pass and the pipelines.
// RUN: pydev-opt --help | FileCheck %s
// CHECK: --pass-pipeline
// CHECK: --split-input-file
// CHECK: --verify-diagnostics
// CHECK: pydev passes
// CHECK: --pydev-outline-kernels
// CHECK: --pydev-lower-arrays
// CHECK: {target=...}
// CHECK: --pydev-lower-atomics
// CHECK: --pydev-lower-sync-nvvm
// CHECK: --pydev-pipeline=cuda
