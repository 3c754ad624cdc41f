// RUN: pydev-opt %s --split-input-file --verify-diagnostics

func.func @struct_too_few_members(%x: si32) {
  // expected-error @+1 {{'pydev.struct_create' op struct 'P' has 2 members but 1 values were given}}
  %0 = pydev.struct_create(%x) : (si32) -> !pydev.struct<"P", {x: si32, y: f32}>
  return
}

// -----

func.func @struct_too_many_members(%x: si32, %y: f32) {
  // expected-error @+1 {{'pydev.struct_create' op struct 'P' has 1 members but 2 values were given}}
  %0 = pydev.struct_create(%x, %y) : (si32, f32) -> !pydev.struct<"P", {x: si32}>
  return
}

// -----

func.func @struct_wrong_member_type(%x: si32, %y: f64) {
  // expected-error @+1 {{'pydev.struct_create' op value #1 has type 'f64' but struct 'P' member #1 is 'f32'}}
  %0 = pydev.struct_create(%x, %y) : (si32, f64) -> !pydev.struct<"P", {x: si32, y: f32}>
  return
}

// -----

func.func @struct_create_not_a_struct(%x: si32) {
  // expected-error @+1 {{'pydev.struct_create' op result #0 must be a pydev struct, but got '!pydev.tuple<si32>'}}
  %0 = pydev.struct_create(%x) : (si32) -> !pydev.tuple<si32>
  return
}

// -----

func.func @struct_extract_unknown_field(%p: !pydev.struct<"P", {x: si32, y: f32}>) {
  // expected-error @+1 {{'pydev.struct_extract' op struct 'P' has no field named 'z'}}
  %0 = pydev.struct_extract %p["z"] : !pydev.struct<"P", {x: si32, y: f32}> -> si32
  return
}

// -----

func.func @struct_extract_type_mismatch(%p: !pydev.struct<"P", {x: si32, y: f32}>) {
  // expected-error @+1 {{'pydev.struct_extract' op field 'x' has type 'si32' but the result is 'ui32'}}
  %0 = pydev.struct_extract %p["x"] : !pydev.struct<"P", {x: si32, y: f32}> -> ui32
  return
}

// -----

func.func @struct_insert_unknown_field(%p: !pydev.struct<"P", {x: si32, y: f32}>, %v: f32) {
  // expected-error @+1 {{'pydev.struct_insert' op struct 'P' has no field named 'Y'}}
  %0 = pydev.struct_insert %v, %p["Y"] : f32, !pydev.struct<"P", {x: si32, y: f32}>
  return
}

// -----

func.func @struct_insert_type_mismatch(%p: !pydev.struct<"P", {x: si32, y: f32}>, %v: f64) {
  // expected-error @+1 {{'pydev.struct_insert' op field 'y' has type 'f32' but the value is 'f64'}}
  %0 = pydev.struct_insert %v, %p["y"] : f64, !pydev.struct<"P", {x: si32, y: f32}>
  return
}

// -----

func.func @struct_insert_result_mismatch(%p: !pydev.struct<"P", {x: si32}>, %v: si32) {
  // expected-error @+1 {{'pydev.struct_insert' op failed to verify that all of {input, result} have same type}}
  %0 = "pydev.struct_insert"(%v, %p) {field = "x"} : (si32, !pydev.struct<"P", {x: si32}>) -> !pydev.struct<"Q", {x: si32}>
  return
}

// -----

func.func @vector_too_few_lanes(%a: f32) {
  // expected-error @+1 {{'pydev.vector_create' op the vector has 4 members but 3 values were given}}
  %0 = pydev.vector_create(%a, %a, %a) : (f32, f32, f32) -> !pydev.vector<4 x f32>
  return
}

// -----

func.func @vector_wrong_element(%a: f32, %b: f64) {
  // expected-error @+1 {{'pydev.vector_create' op value #1 has type 'f64' but the vector member #1 is 'f32'}}
  %0 = pydev.vector_create(%a, %b) : (f32, f64) -> !pydev.vector<2 x f32>
  return
}

// -----

func.func @vector_extract_type_mismatch(%v: !pydev.vector<4 x f32>, %i: si32) {
  // expected-error @+1 {{'pydev.vector_extract' op result type 'f64' differs from the vector element type 'f32'}}
  %0 = pydev.vector_extract %v[%i] : !pydev.vector<4 x f32>, si32 -> f64
  return
}

// -----

func.func @vector_extract_lane_out_of_range(%v: !pydev.vector<4 x f32>) {
  %c4 = arith.constant 4 : i32
  // expected-error @+1 {{'pydev.vector_extract' op lane 4 is out of range for a vector of 4 lanes}}
  %0 = pydev.vector_extract %v[%c4] : !pydev.vector<4 x f32>, i32 -> f32
  return
}

// -----

func.func @vector_extract_negative_lane(%v: !pydev.vector<2 x si64>) {
  %m1 = pydev.constant -1 : si32
  // expected-error @+1 {{'pydev.vector_extract' op lane -1 is out of range for a vector of 2 lanes}}
  %0 = pydev.vector_extract %v[%m1] : !pydev.vector<2 x si64>, si32 -> si64
  return
}

// -----

func.func @vector_extract_lane_true(%v: !pydev.vector<1 x f32>) {
  %true = arith.constant true
  // expected-error @+1 {{'pydev.vector_extract' op lane 1 is out of range for a vector of 1 lanes}}
  %0 = pydev.vector_extract %v[%true] : !pydev.vector<1 x f32>, i1 -> f32
  return
}

// -----

func.func @vector_extract_lane_beyond_int64(%v: !pydev.vector<4 x f32>) {
  %c = arith.constant 18446744073709551616 : i128
  // expected-error @+1 {{is out of range for a vector of 4 lanes}}
  %0 = pydev.vector_extract %v[%c] : !pydev.vector<4 x f32>, i128 -> f32
  return
}

// -----

func.func @vector_insert_type_mismatch(%v: !pydev.vector<4 x f32>, %x: f16, %i: si32) {
  // expected-error @+1 {{'pydev.vector_insert' op value type 'f16' differs from the vector element type 'f32'}}
  %0 = pydev.vector_insert %x, %v[%i] : f16, !pydev.vector<4 x f32>, si32
  return
}

// -----

func.func @vector_insert_lane_out_of_range(%v: !pydev.vector<3 x ui16>, %x: ui16) {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'pydev.vector_insert' op lane 3 is out of range for a vector of 3 lanes}}
  %0 = pydev.vector_insert %x, %v[%c3] : ui16, !pydev.vector<3 x ui16>, index
  return
}

// -----

func.func @tuple_too_many_members(%a: si32) {
  // expected-error @+1 {{'pydev.tuple_create' op the tuple has 1 members but 2 values were given}}
  %0 = pydev.tuple_create(%a, %a) : (si32, si32) -> !pydev.tuple<si32>
  return
}

// -----

func.func @tuple_wrong_member_type(%a: si32, %b: f32) {
  // expected-error @+1 {{'pydev.tuple_create' op value #0 has type 'si32' but the tuple member #0 is 'si64'}}
  %0 = pydev.tuple_create(%a, %b) : (si32, f32) -> !pydev.tuple<si64, f32>
  return
}

// -----

func.func @tuple_extract_out_of_range(%t: !pydev.tuple<si32, f32>) {
  // expected-error @+1 {{'pydev.tuple_extract' op index 2 is out of range for a tuple of 2 elements}}
  %0 = pydev.tuple_extract %t[2] : !pydev.tuple<si32, f32> -> f32
  return
}

// -----

func.func @tuple_extract_negative(%t: !pydev.tuple<si32, f32>) {
  // expected-error @+1 {{'pydev.tuple_extract' op index -1 is out of range for a tuple of 2 elements}}
  %0 = pydev.tuple_extract %t[-1] : !pydev.tuple<si32, f32> -> f32
  return
}

// -----

func.func @tuple_extract_empty(%t: !pydev.tuple<>) {
  // expected-error @+1 {{'pydev.tuple_extract' op index 0 is out of range for a tuple of 0 elements}}
  %0 = pydev.tuple_extract %t[0] : !pydev.tuple<> -> si32
  return
}

// -----

func.func @tuple_extract_type_mismatch(%t: !pydev.tuple<si32, f32>) {
  // expected-error @+1 {{'pydev.tuple_extract' op element 1 has type 'f32' but the result is 'f64'}}
  %0 = pydev.tuple_extract %t[1] : !pydev.tuple<si32, f32> -> f64
  return
}

// -----

func.func @tuple_insert_out_of_range(%t: !pydev.tuple<si32, f32>, %x: si32) {
  // expected-error @+1 {{'pydev.tuple_insert' op index 5 is out of range for a tuple of 2 elements}}
  %0 = pydev.tuple_insert %x, %t[5] : si32, !pydev.tuple<si32, f32>
  return
}

// -----

func.func @tuple_insert_type_mismatch(%t: !pydev.tuple<si32, f32>, %x: si32) {
  // expected-error @+1 {{'pydev.tuple_insert' op element 1 has type 'f32' but the value is 'si32'}}
  %0 = pydev.tuple_insert %x, %t[1] : si32, !pydev.tuple<si32, f32>
  return
}
