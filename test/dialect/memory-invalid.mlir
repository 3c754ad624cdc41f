// RUN: pydev-opt %s --split-input-file --verify-diagnostics

func.func @local_in_shared() {
  // expected-error @+1 {{'pydev.local_array' op result must be in 'local' memory, got 'shared'}}
  %0 = pydev.local_array shape [16] order "C" : !pydev.array<f32, 1, shared, c>
  return
}

// -----

func.func @shared_in_global() {
  // expected-error @+1 {{'pydev.shared_array' op result must be in 'shared' memory, got 'global'}}
  %0 = pydev.shared_array shape [16] order "C" : !pydev.array<f32, 1, c>
  return
}

// -----

func.func @shape_rank_mismatch() {
  // expected-error @+1 {{'pydev.shared_array' op shape has 2 extents but the result has rank 1}}
  %0 = pydev.shared_array shape [4, 4] order "C" : !pydev.array<f32, 1, shared, c>
  return
}

// -----

func.func @zero_extent() {
  // expected-error @+1 {{'pydev.local_array' op extents must be positive, got 0}}
  %0 = pydev.local_array shape [4, 0] order "C" : !pydev.array<f32, 2, local, c>
  return
}

// -----

func.func @negative_extent() {
  // expected-error @+1 {{'pydev.shared_array' op extents must be positive, got -3}}
  %0 = pydev.shared_array shape [-3] order "C" : !pydev.array<f32, 1, shared, c>
  return
}

// -----

func.func @order_x() {
  // expected-error @+1 {{'pydev.local_array' op order must be "C" or "F", got "X"}}
  %0 = pydev.local_array shape [4, 4] order "X" : !pydev.array<f32, 2, local, c>
  return
}

// -----

func.func @layout_not_c() {
  // expected-error @+1 {{'pydev.shared_array' op order "C" gives layout 'c', but the result has 'f'}}
  %0 = pydev.shared_array shape [32, 33] order "C" : !pydev.array<f32, 2, shared, f>
  return
}

// -----

func.func @layout_not_f() {
  // expected-error @+1 {{'pydev.local_array' op order "F" gives layout 'f', but the result has 'strided'}}
  %0 = pydev.local_array shape [2, 2] order "F" : !pydev.array<f32, 2, local>
  return
}

// -----

func.func @one_d_strided() {
  // expected-error @+1 {{'pydev.shared_array' op result is contiguous: its layout must be 'c' or 'f'}}
  %0 = pydev.shared_array shape [16] order "C" : !pydev.array<f32, 1, shared>
  return
}

// -----

func.func @align_not_power_of_two() {
  // expected-error @+1 {{'pydev.shared_array' op alignment must be a power of two, got 24}}
  %0 = pydev.shared_array shape [16] order "C" align 24 : !pydev.array<f32, 1, shared, c>
  return
}

// -----

func.func @align_negative() {
  // expected-error @+1 {{'pydev.local_array' op alignment must be a power of two, got -8}}
  %0 = pydev.local_array shape [16] order "C" align -8 : !pydev.array<f32, 1, local, c>
  return
}

// -----

func.func @align_int64_min() {
  // expected-error @+1 {{'pydev.shared_array' op alignment must be a power of two, got -9223372036854775808}}
  %0 = pydev.shared_array shape [16] order "C" align -9223372036854775808 : !pydev.array<f32, 1, shared, c>
  return
}

// -----

func.func @readonly_result() {
  // expected-error @+1 {{'pydev.local_array' op result cannot be read-only}}
  %0 = pydev.local_array shape [16] order "C" : !pydev.array<f32, 1, local, c, readonly>
  return
}

// -----

func.func @dynamic_shared_f32() {
  // expected-error @+1 {{'pydev.dynamic_shared_array' op result must be !pydev.array<ui8, 1, shared, c>, got '!pydev.array<f32, 1, shared, c>'}}
  %0 = pydev.dynamic_shared_array : !pydev.array<f32, 1, shared, c>
  return
}

// -----

func.func @dynamic_shared_si8() {
  // expected-error @+1 {{'pydev.dynamic_shared_array' op result must be !pydev.array<ui8, 1, shared, c>, got '!pydev.array<si8, 1, shared, c>'}}
  %0 = pydev.dynamic_shared_array : !pydev.array<si8, 1, shared, c>
  return
}

// -----

func.func @dynamic_shared_rank_2() {
  // expected-error @+1 {{'pydev.dynamic_shared_array' op result must be !pydev.array<ui8, 1, shared, c>, got '!pydev.array<ui8, 2, shared, c>'}}
  %0 = pydev.dynamic_shared_array : !pydev.array<ui8, 2, shared, c>
  return
}

// -----

func.func @dynamic_shared_global() {
  // expected-error @+1 {{'pydev.dynamic_shared_array' op result must be !pydev.array<ui8, 1, shared, c>, got '!pydev.array<ui8, 1, c>'}}
  %0 = pydev.dynamic_shared_array : !pydev.array<ui8, 1, c>
  return
}

// -----

func.func @dynamic_shared_readonly() {
  // expected-error @+1 {{'pydev.dynamic_shared_array' op result must be !pydev.array<ui8, 1, shared, c>, got '!pydev.array<ui8, 1, shared, c, readonly>'}}
  %0 = pydev.dynamic_shared_array : !pydev.array<ui8, 1, shared, c, readonly>
  return
}

// -----

func.func @const_not_readonly() {
  // expected-error @+1 {{an array in the constant space must be readonly}}
  %0 = pydev.const_array shape [1] data dense<[1, 2, 3, 4]> : tensor<4xi8> : !pydev.array<f32, 1, constant, c>
  return
}

// -----

func.func @const_in_global() {
  // expected-error @+1 {{'pydev.const_array' op result must be a readonly c-contiguous array in the constant space}}
  %0 = pydev.const_array shape [1] data dense<[1, 2, 3, 4]> : tensor<4xi8> : !pydev.array<f32, 1, c, readonly>
  return
}

// -----

func.func @const_wrong_size() {
  // expected-error @+1 {{'pydev.const_array' op data has 3 bytes, the shape needs 4}}
  %0 = pydev.const_array shape [2] data dense<[1, 2, 3]> : tensor<3xi8> : !pydev.array<si16, 1, constant, c, readonly>
  return
}

// -----

func.func @const_not_bytes() {
  // expected-error @+1 {{'pydev.const_array' op data must be a tensor of i8 (the elements' bytes), got 'tensor<1xi32>'}}
  %0 = pydev.const_array shape [1] data dense<[1]> : tensor<1xi32> : !pydev.array<si32, 1, constant, c, readonly>
  return
}
