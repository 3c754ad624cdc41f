// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-lower-arrays=target=host | FileCheck %s

// On the host every array is in address space 0.
// CHECK-LABEL: func.func @load_2d
// CHECK-SAME: !llvm.struct<(ptr, array<2 x i64>, array<2 x i64>)>
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
func.func @load_2d(%a: !pydev.array<f32, 2>, %i: i64, %j: i64) -> f32 {
  %x = pydev.array_load %a[%i, %j] : !pydev.array<f32, 2>, i64, i64 -> f32
  return %x : f32
}

// -----

// Local arrays are allocas on the host too.
// CHECK-LABEL: func.func @local
// CHECK: llvm.alloca %{{.*}} x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
func.func @local(%i: i64) -> f32 {
  %s = pydev.local_array shape [64] order "C" : !pydev.array<f32, 1, local, c>
  %x = pydev.array_load %s[%i] : !pydev.array<f32, 1, local, c>, i64 -> f32
  return %x : f32
}

// -----

// Shared memory is per block: the runtime's buffer, at the thread context's
// offset 48; static arrays get aligned offsets in it and the module records
// the total (dynamic shared memory, at offset 56, is tested from Python
// source in runtime/src/tests.rs: it exists only after promotion).
// CHECK: module attributes {pydev.host_shared_bytes = 384 : i64}
// CHECK-LABEL: func.func @shared
// CHECK: %[[P:.*]] = llvm.getelementptr %[[CTX:.*]][48] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[BASE:.*]] = llvm.load %[[P]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.getelementptr %[[BASE]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.getelementptr %{{.*}}[256] : (!llvm.ptr) -> !llvm.ptr, i8
func.func @shared(%i: i64, %ctx: !llvm.ptr) -> f32 attributes {pydev.host_ctx} {
  %s = pydev.shared_array shape [64] order "C" : !pydev.array<f32, 1, shared, c>
  %t = pydev.shared_array shape [16] order "C" : !pydev.array<f64, 1, shared, c>
  %x = pydev.array_load %s[%i] : !pydev.array<f32, 1, shared, c>, i64 -> f32
  %y = pydev.array_load %t[%i] : !pydev.array<f64, 1, shared, c>, i64 -> f64
  return %x : f32
}

// -----

func.func @shared_without_context() {
  // expected-error @+1 {{shared memory on the host needs pydev-lower-simt-host first}}
  %s = pydev.shared_array shape [64] order "C" : !pydev.array<f32, 1, shared, c>
  return
}

// -----

// Constant memory on the host: a read-only global in address space 0.
// CHECK: llvm.mlir.global internal constant @__pydev_const_1(dense<[1, 0, 2, 0]> : tensor<4xi8>) {addr_space = 0 : i32, alignment = 2 : i64} : !llvm.array<4 x i8>
// CHECK-LABEL: func.func @const_array
// CHECK: llvm.mlir.addressof @__pydev_const_1 : !llvm.ptr
func.func @const_array(%i: i64) -> i16 {
  %c = pydev.const_array shape [2] data dense<[1, 0, 2, 0]> : tensor<4xi8> : !pydev.array<i16, 1, constant, c, readonly>
  %x = pydev.array_load %c[%i] : !pydev.array<i16, 1, constant, c, readonly>, i64 -> i16
  return %x : i16
}
