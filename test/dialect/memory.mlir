// RUN: pydev-opt %s | pydev-opt | FileCheck %s
// Round trip of local, shared and dynamic shared arrays (spec: Local, Shared,
// and Const Memory).

// CHECK-LABEL: func.func @local_arrays
func.func @local_arrays() {
  // CHECK: pydev.local_array shape [16] order "C" : <f32, 1, local, c>
  %0 = pydev.local_array shape [16] order "C" : !pydev.array<f32, 1, local, c>
  // A 1-d array is both C- and F-contiguous.
  // CHECK: pydev.local_array shape [16] order "C" : <f32, 1, local, f>
  %1 = pydev.local_array shape [16] order "C" : !pydev.array<f32, 1, local, f>
  // CHECK: pydev.local_array shape [4, 4] order "C" : <si64, 2, local, c>
  %2 = pydev.local_array shape [4, 4] order "C" : !pydev.array<si64, 2, local, c>
  // CHECK: pydev.local_array shape [2, 3, 4] order "F" : <ui8, 3, local, f>
  %3 = pydev.local_array shape [2, 3, 4] order "F" : !pydev.array<ui8, 3, local, f>
  // CHECK: pydev.local_array shape [8] order "C" align 16 : <!pydev.vector<4 x f32>, 1, local, c>
  %4 = pydev.local_array shape [8] order "C" align 16 : !pydev.array<!pydev.vector<4 x f32>, 1, local, c>
  // A rank-0 array.
  // CHECK: pydev.local_array shape [] order "C" : <f64, 0, local, c>
  %5 = pydev.local_array shape [] order "C" : !pydev.array<f64, 0, local, c>
  return
}

// CHECK-LABEL: func.func @shared_arrays
func.func @shared_arrays() {
  // CHECK: pydev.shared_array shape [32, 33] order "C" : <f32, 2, shared, c>
  %0 = pydev.shared_array shape [32, 33] order "C" : !pydev.array<f32, 2, shared, c>
  // CHECK: pydev.shared_array shape [32, 33] order "F" : <f32, 2, shared, f>
  %1 = pydev.shared_array shape [32, 33] order "F" : !pydev.array<f32, 2, shared, f>
  // CHECK: pydev.shared_array shape [256] order "C" align 128 : <f64, 1, shared, c>
  %2 = pydev.shared_array shape [256] order "C" align 128 : !pydev.array<f64, 1, shared, c>
  // CHECK: pydev.shared_array shape [1] order "F" align 1 : <!pydev.struct<"P", {x: si32, y: f32}>, 1, shared, f>
  %3 = pydev.shared_array shape [1] order "F" align 1 : !pydev.array<!pydev.struct<"P", {x: si32, y: f32}>, 1, shared, f>
  // `align 0` is the default: the element's natural alignment.
  // CHECK: pydev.shared_array shape [64] order "C" : <si32, 1, shared, c>
  %4 = pydev.shared_array shape [64] order "C" align 0 : !pydev.array<si32, 1, shared, c>
  return
}

// CHECK-LABEL: func.func @dynamic_shared
func.func @dynamic_shared() {
  // CHECK: pydev.dynamic_shared_array : <ui8, 1, shared, c>
  %0 = pydev.dynamic_shared_array : !pydev.array<ui8, 1, shared, c>
  // After pydev-promote-types the element is signless.
  // CHECK: pydev.dynamic_shared_array : <i8, 1, shared, c>
  %1 = pydev.dynamic_shared_array : !pydev.array<i8, 1, shared, c>
  return
}

// CHECK-LABEL: func.func @const_arrays
func.func @const_arrays() {
  // CHECK: pydev.const_array shape [2] data dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8> : <f32, 1, constant, c, readonly>
  %0 = pydev.const_array shape [2] data dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8> : !pydev.array<f32, 1, constant, c, readonly>
  // CHECK: pydev.const_array shape [0, 3] data dense<> : tensor<0xi8> align 16 : <si32, 2, constant, c, readonly>
  %1 = pydev.const_array shape [0, 3] data dense<> : tensor<0xi8> align 16 : !pydev.array<si32, 2, constant, c, readonly>
  return
}
