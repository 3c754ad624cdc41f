// RUN: pydev-opt %s --split-input-file --verify-diagnostics

func.func @load_too_few_indices(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_load' op takes one index per dimension: the array has rank 2 but 1 indices were given}}
  %0 = pydev.array_load %a[%i] : !pydev.array<f32, 2>, si32 -> f32
  return
}

// -----

func.func @load_too_many_indices(%a: !pydev.array<f32, 1>, %i: si32) {
  // expected-error @+1 {{'pydev.array_load' op takes one index per dimension: the array has rank 1 but 3 indices were given}}
  %0 = pydev.array_load %a[%i, %i, %i] : !pydev.array<f32, 1>, si32, si32, si32 -> f32
  return
}

// -----

func.func @load_result_mismatch(%a: !pydev.array<f32, 1>, %i: si32) {
  // expected-error @+1 {{'pydev.array_load' op result type 'f64' differs from the array element type 'f32'}}
  %0 = pydev.array_load %a[%i] : !pydev.array<f32, 1>, si32 -> f64
  return
}

// -----

func.func @load_float_index(%a: !pydev.array<f32, 1>, %i: f32) {
  // expected-error @+1 {{'pydev.array_load' op operand #1 must be variadic of an integer index, but got 'f32'}}
  %0 = pydev.array_load %a[%i] : !pydev.array<f32, 1>, f32 -> f32
  return
}

// -----

func.func @store_to_readonly(%a: !pydev.array<f32, 1, readonly>, %i: si32, %x: f32) {
  // expected-error @+1 {{'pydev.array_store' op cannot store to a read-only array}}
  pydev.array_store %x, %a[%i] : f32, !pydev.array<f32, 1, readonly>, si32
  return
}

// -----

func.func @store_index_count(%a: !pydev.array<f32, 3, shared>, %i: si32, %x: f32) {
  // expected-error @+1 {{'pydev.array_store' op takes one index per dimension: the array has rank 3 but 2 indices were given}}
  pydev.array_store %x, %a[%i, %i] : f32, !pydev.array<f32, 3, shared>, si32, si32
  return
}

// -----

func.func @store_value_mismatch(%a: !pydev.array<f32, 1>, %i: si32, %x: si32) {
  // expected-error @+1 {{'pydev.array_store' op value type 'si32' differs from the array element type 'f32'}}
  pydev.array_store %x, %a[%i] : si32, !pydev.array<f32, 1>, si32
  return
}

// -----

func.func @index_no_index(%a: !pydev.array<f32, 2>) {
  // expected-error @+1 {{'pydev.array_index' op indexes 1 to 1 leading dimensions of a rank-2 array, got 0 indices}}
  %0 = pydev.array_index %a[] : !pydev.array<f32, 2> -> !pydev.array<f32, 2>
  return
}

// -----

func.func @index_every_dimension(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_index' op indexes 1 to 1 leading dimensions of a rank-2 array, got 2 indices}}
  %0 = pydev.array_index %a[%i, %i] : !pydev.array<f32, 2>, si32, si32 -> !pydev.array<f32, 0>
  return
}

// -----

func.func @index_rank_1(%a: !pydev.array<f32, 1>, %i: si32) {
  // expected-error @+1 {{'pydev.array_index' op indexes 1 to 0 leading dimensions of a rank-1 array, got 1 indices}}
  %0 = pydev.array_index %a[%i] : !pydev.array<f32, 1>, si32 -> !pydev.array<f32, 0>
  return
}

// -----

func.func @index_rank_0(%a: !pydev.array<f32, 0>, %i: si32) {
  // expected-error @+1 {{'pydev.array_index' op indexes 1 to -1 leading dimensions of a rank-0 array, got 1 indices}}
  %0 = pydev.array_index %a[%i] : !pydev.array<f32, 0>, si32 -> !pydev.array<f32, 0>
  return
}

// -----

func.func @index_result_rank(%a: !pydev.array<f32, 3>, %i: si32) {
  // expected-error @+1 {{'pydev.array_index' op result rank must be 2, got 1}}
  %0 = pydev.array_index %a[%i] : !pydev.array<f32, 3>, si32 -> !pydev.array<f32, 1>
  return
}

// -----

func.func @index_layout_from_strided(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_index' op result layout 'c' does not follow from the source's}}
  %0 = pydev.array_index %a[%i] : !pydev.array<f32, 2>, si32 -> !pydev.array<f32, 1, c>
  return
}

// -----

func.func @index_layout_f(%a: !pydev.array<f32, 3, f>, %i: si32) {
  // expected-error @+1 {{'pydev.array_index' op result layout 'f' does not follow from the source's}}
  %0 = pydev.array_index %a[%i] : !pydev.array<f32, 3, f>, si32 -> !pydev.array<f32, 2, f>
  return
}

// -----

func.func @index_element_mismatch(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_index' op result element type 'f64' differs from the source's 'f32'}}
  %0 = pydev.array_index %a[%i] : !pydev.array<f32, 2>, si32 -> !pydev.array<f64, 1>
  return
}

// -----

func.func @index_space_mismatch(%a: !pydev.array<f32, 2, shared>, %i: si32) {
  // expected-error @+1 {{'pydev.array_index' op result memory space 'global' differs from the source's 'shared'}}
  %0 = pydev.array_index %a[%i] : !pydev.array<f32, 2, shared>, si32 -> !pydev.array<f32, 1>
  return
}

// -----

func.func @index_drops_readonly(%a: !pydev.array<f32, 2, readonly>, %i: si32) {
  // expected-error @+1 {{'pydev.array_index' op result must be read-only exactly when the source is}}
  %0 = pydev.array_index %a[%i] : !pydev.array<f32, 2, readonly>, si32 -> !pydev.array<f32, 1>
  return
}

// -----

func.func @slice_kind_count(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_slice' op needs one kind per source dimension (2), got 1}}
  %0 = pydev.array_slice %a [1] starts(%i, %i : si32, si32) stops(%i : si32) steps(%i : si32) : !pydev.array<f32, 2> -> !pydev.array<f32, 1>
  return
}

// -----

func.func @slice_bad_kind(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_slice' op kinds must be 0 (index) or 1 (slice)}}
  %0 = pydev.array_slice %a [0, 2] starts(%i, %i : si32, si32) stops(%i : si32) steps(%i : si32) : !pydev.array<f32, 2> -> !pydev.array<f32, 1>
  return
}

// -----

func.func @slice_start_count(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_slice' op needs one start per source dimension (2), got 1}}
  %0 = pydev.array_slice %a [0, 1] starts(%i : si32) stops(%i : si32) steps(%i : si32) : !pydev.array<f32, 2> -> !pydev.array<f32, 1>
  return
}

// -----

func.func @slice_stop_count(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_slice' op needs one stop and one step per slice (1), got 2 stops and 1 steps}}
  %0 = pydev.array_slice %a [0, 1] starts(%i, %i : si32, si32) stops(%i, %i : si32, si32) steps(%i : si32) : !pydev.array<f32, 2> -> !pydev.array<f32, 1>
  return
}

// -----

func.func @slice_step_count(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_slice' op needs one stop and one step per slice (2), got 2 stops and 0 steps}}
  %0 = pydev.array_slice %a [1, 1] starts(%i, %i : si32, si32) stops(%i, %i : si32, si32) steps() : !pydev.array<f32, 2> -> !pydev.array<f32, 2>
  return
}

// -----

func.func @slice_result_rank(%a: !pydev.array<f32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.array_slice' op result rank must be the number of slices (1), got 2}}
  %0 = pydev.array_slice %a [0, 1] starts(%i, %i : si32, si32) stops(%i : si32) steps(%i : si32) : !pydev.array<f32, 2> -> !pydev.array<f32, 2>
  return
}

// -----

func.func @slice_contiguous_result(%a: !pydev.array<f32, 1, c>, %i: si32) {
  // expected-error @+1 {{'pydev.array_slice' op result of a slice must have the 'strided' layout}}
  %0 = pydev.array_slice %a [1] starts(%i : si32) stops(%i : si32) steps(%i : si32) : !pydev.array<f32, 1, c> -> !pydev.array<f32, 1, c>
  return
}

// -----

func.func @slice_contiguous_step_two(%a: !pydev.array<f32, 1, c>, %i: si32) {
  %two = pydev.constant 2 : si32
  // expected-error @+1 {{'pydev.array_slice' op result of a slice must have the 'strided' layout (or the source's layout when every step is the constant 1)}}
  %0 = pydev.array_slice %a [1] starts(%i : si32) stops(%i : si32) steps(%two : si32) : !pydev.array<f32, 1, c> -> !pydev.array<f32, 1, c>
  return
}

// -----

func.func @slice_zero_step(%a: !pydev.array<f32, 1>, %i: si32) {
  %zero = arith.constant 0 : i32
  // expected-error @+1 {{'pydev.array_slice' op slice step cannot be zero}}
  %0 = pydev.array_slice %a [1] starts(%i : si32) stops(%i : si32) steps(%zero : i32) : !pydev.array<f32, 1> -> !pydev.array<f32, 1>
  return
}

// -----

func.func @slice_zero_pydev_step(%a: !pydev.array<f32, 2>, %i: si32) {
  %zero = pydev.constant 0 : si64
  // expected-error @+1 {{'pydev.array_slice' op slice step cannot be zero}}
  %0 = pydev.array_slice %a [1, 1] starts(%i, %i : si32, si32) stops(%i, %i : si32, si32) steps(%i, %zero : si32, si64) : !pydev.array<f32, 2> -> !pydev.array<f32, 2>
  return
}

// -----

func.func @slice_readonly_mismatch(%a: !pydev.array<f32, 1>, %i: si32) {
  // expected-error @+1 {{'pydev.array_slice' op result must be read-only exactly when the source is}}
  %0 = pydev.array_slice %a [1] starts(%i : si32) stops(%i : si32) steps(%i : si32) : !pydev.array<f32, 1> -> !pydev.array<f32, 1, readonly>
  return
}

// -----

func.func @view_rank(%a: !pydev.array<f32, 2, c>) {
  // expected-error @+1 {{'pydev.array_view' op keeps the rank (2), got 1}}
  %0 = pydev.array_view %a : !pydev.array<f32, 2, c> -> !pydev.array<si32, 1, c>
  return
}

// -----

func.func @view_layout(%a: !pydev.array<f32, 1, c>) {
  // expected-error @+1 {{'pydev.array_view' op keeps the layout of the source}}
  %0 = pydev.array_view %a : !pydev.array<f32, 1, c> -> !pydev.array<si32, 1>
  return
}

// -----

func.func @view_size_change_strided(%a: !pydev.array<f32, 1>) {
  // expected-error @+1 {{'pydev.array_view' op viewing 'f32' as 'f64' changes the element size and needs a 'c'-contiguous array}}
  %0 = pydev.array_view %a : !pydev.array<f32, 1> -> !pydev.array<f64, 1>
  return
}

// -----

func.func @view_size_change_f(%a: !pydev.array<f32, 2, f>) {
  // expected-error @+1 {{'pydev.array_view' op viewing 'f32' as 'ui8' changes the element size and needs a 'c'-contiguous array}}
  %0 = pydev.array_view %a : !pydev.array<f32, 2, f> -> !pydev.array<ui8, 2, f>
  return
}

// -----

func.func @view_space(%a: !pydev.array<f32, 1, shared, c>) {
  // expected-error @+1 {{'pydev.array_view' op result memory space 'local' differs from the source's 'shared'}}
  %0 = pydev.array_view %a : !pydev.array<f32, 1, shared, c> -> !pydev.array<si32, 1, local, c>
  return
}

// -----

func.func @reshape_extent_count(%a: !pydev.array<f32, 1, c>, %n: si64) {
  // expected-error @+1 {{'pydev.array_reshape' op needs one extent per result dimension (2), got 1}}
  %0 = pydev.array_reshape %a(%n) : !pydev.array<f32, 1, c>, si64 -> !pydev.array<f32, 2, c>
  return
}

// -----

func.func @reshape_strided(%a: !pydev.array<f32, 2>, %n: si64) {
  // expected-error @+1 {{'pydev.array_reshape' op reshape without a copy needs a 'c'- or 'f'-contiguous array}}
  %0 = pydev.array_reshape %a(%n) : !pydev.array<f32, 2>, si64 -> !pydev.array<f32, 1>
  return
}

// -----

func.func @reshape_layout(%a: !pydev.array<f32, 2, c>, %n: si64) {
  // expected-error @+1 {{'pydev.array_reshape' op keeps the layout of the source}}
  %0 = pydev.array_reshape %a(%n) : !pydev.array<f32, 2, c>, si64 -> !pydev.array<f32, 1, f>
  return
}

// -----

func.func @reshape_element(%a: !pydev.array<f32, 2, c>, %n: si64) {
  // expected-error @+1 {{'pydev.array_reshape' op result element type 'si32' differs from the source's 'f32'}}
  %0 = pydev.array_reshape %a(%n) : !pydev.array<f32, 2, c>, si64 -> !pydev.array<si32, 1, c>
  return
}

// -----

func.func @shape_arity(%a: !pydev.array<f32, 2>) {
  // expected-error @+1 {{'pydev.array_shape' op result must be a tuple of 2 64-bit integers, got '!pydev.tuple<si64>'}}
  %0 = pydev.array_shape %a : !pydev.array<f32, 2> -> !pydev.tuple<si64>
  return
}

// -----

func.func @shape_element(%a: !pydev.array<f32, 2>) {
  // expected-error @+1 {{'pydev.array_shape' op result must be a tuple of 2 64-bit integers, got '!pydev.tuple<si64, si32>'}}
  %0 = pydev.array_shape %a : !pydev.array<f32, 2> -> !pydev.tuple<si64, si32>
  return
}

// -----

func.func @strides_arity(%a: !pydev.array<f32, 1>) {
  // expected-error @+1 {{'pydev.array_strides' op result must be a tuple of 1 64-bit integers, got '!pydev.tuple<si64, si64>'}}
  %0 = pydev.array_strides %a : !pydev.array<f32, 1> -> !pydev.tuple<si64, si64>
  return
}

// -----

func.func @strides_element(%a: !pydev.array<f32, 1>) {
  // expected-error @+1 {{'pydev.array_strides' op result must be a tuple of 1 64-bit integers, got '!pydev.tuple<f64>'}}
  %0 = pydev.array_strides %a : !pydev.array<f32, 1> -> !pydev.tuple<f64>
  return
}

// -----

func.func @size_not_64_bit(%a: !pydev.array<f32, 2>) {
  // expected-error @+1 {{'pydev.array_size' op result must be a 64-bit integer, got 'si32'}}
  %0 = pydev.array_size %a : !pydev.array<f32, 2> -> si32
  return
}
