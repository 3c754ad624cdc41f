// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-align-params | FileCheck %s

// A kernel marked by pydev-lower-aggregates: the marked parameters get
// llvm.alignstack (NVPTX: `.param .align N`), other argument attributes stay,
// the mark goes.
// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{.*}}: i8 {llvm.noundef},
// CHECK-SAME: %{{.*}}: !llvm.struct<(f32, f32, array<8 x i8>)> {llvm.alignstack = 16 : i64},
// CHECK-SAME: %{{.*}}: !llvm.struct<(i8, array<31 x i8>, f32, array<28 x i8>)> {llvm.alignstack = 32 : i64, llvm.noundef})
// CHECK-NOT: pydev.param_aligns
llvm.func @k(%t: i8 {llvm.noundef}, %c: !llvm.struct<(f32, f32, array<8 x i8>)>, %p: !llvm.struct<(i8, array<31 x i8>, f32, array<28 x i8>)> {llvm.noundef}) attributes {nvvm.kernel, pydev.param_aligns = array<i64: 0, 16, 32>} {
  llvm.return
}

// -----

// Does not fire without the mark.
// CHECK-LABEL: llvm.func @plain(
// CHECK-SAME: %{{.*}}: !llvm.struct<(f32, f32)>)
// CHECK-NOT: alignstack
llvm.func @plain(%c: !llvm.struct<(f32, f32)>) attributes {nvvm.kernel} {
  llvm.return
}

// -----

// expected-error @+1 {{pydev.param_aligns is not an i64 array}}
llvm.func @bad(%c: f32) attributes {pydev.param_aligns = 16 : i64} {
  llvm.return
}
