// RUN: pydev-opt %s --split-input-file --verify-diagnostics

func.func @and_on_float(%a: f32, %b: si32) {
  // expected-error @+1 {{'pydev.and' op operand #0 must be a bool or integer, but got 'f32'}}
  %0 = pydev.and %a, %b : f32, si32 -> si32
  return
}

// -----

func.func @xor_on_float(%a: si32, %b: f64) {
  // expected-error @+1 {{'pydev.xor' op operand #1 must be a bool or integer, but got 'f64'}}
  %0 = pydev.xor %a, %b : si32, f64 -> si32
  return
}

// -----

func.func @lshift_to_float(%a: si32) {
  // expected-error @+1 {{'pydev.lshift' op result #0 must be a bool or integer, but got 'f32'}}
  %0 = pydev.lshift %a, %a : si32, si32 -> f32
  return
}

// -----

func.func @invert_float(%a: f32) {
  // expected-error @+1 {{'pydev.invert' op operand #0 must be a bool or integer, but got 'f32'}}
  %0 = pydev.invert %a : f32 -> f32
  return
}

// -----

func.func @not_gives_bool(%a: si32) {
  // expected-error @+1 {{'pydev.not' op result #0 must be 1-bit signless integer, but got 'si32'}}
  %0 = pydev.not %a : si32 -> si32
  return
}

// -----

func.func @add_on_warp_mask(%a: !pydev.warp_mask, %b: si32) {
  // expected-error @+1 {{'pydev.add' op operand #0 must be a number (bool, integer, float or complex), but got '!pydev.warp_mask'}}
  %0 = pydev.add %a, %b : !pydev.warp_mask, si32 -> si32
  return
}

// -----

func.func @cmp_lt_complex(%a: complex<f32>, %b: f32) {
  // expected-error @+1 {{'pydev.cmp' op 'lt' is not defined for complex numbers}}
  %0 = pydev.cmp lt, %a, %b : complex<f32>, f32
  return
}

// -----

func.func @cmp_ge_complex(%a: si32, %b: complex<f64>) {
  // expected-error @+1 {{'pydev.cmp' op 'ge' is not defined for complex numbers}}
  %0 = pydev.cmp ge, %a, %b : si32, complex<f64>
  return
}

// -----

func.func @cmp_unknown_predicate(%a: si32, %b: si32) {
  // expected-error @+2 {{expected ::mlir::pydev::CmpPredicate to be one of: eq, ne, lt, le, gt, ge}}
  // expected-error @+1 {{failed to parse Pydev_CmpPredicateAttr parameter 'value'}}
  %0 = pydev.cmp is, %a, %b : si32, si32
  return
}

// -----

func.func @cast_warp_mask_to_float(%m: !pydev.warp_mask) {
  // expected-error @+1 {{'pydev.cast' op converts warp masks only to and from integers, not '!pydev.warp_mask' to 'f32'}}
  %0 = pydev.cast %m : !pydev.warp_mask to f32
  return
}

// -----

func.func @cast_float_to_warp_mask(%f: f64) {
  // expected-error @+1 {{'pydev.cast' op converts warp masks only to and from integers, not 'f64' to '!pydev.warp_mask'}}
  %0 = pydev.cast %f : f64 to !pydev.warp_mask
  return
}

// -----

func.func @cast_complex_to_real(%c: complex<f32>) {
  // expected-error @+1 {{'pydev.cast' op cannot convert complex 'complex<f32>' to real 'f32'}}
  %0 = pydev.cast %c : complex<f32> to f32
  return
}

// -----

func.func @cast_complex_to_int(%c: complex<f64>) {
  // expected-error @+1 {{'pydev.cast' op cannot convert complex 'complex<f64>' to real 'si64'}}
  %0 = pydev.cast %c : complex<f64> to si64
  return
}

// -----

func.func @cast_of_vector(%v: !pydev.vector<2 x f32>) {
  // expected-error @+1 {{'pydev.cast' op operand #0 must be a number (bool, integer, float or complex) or a warp mask, but got '!pydev.vector<2 x f32>'}}
  %0 = pydev.cast %v : !pydev.vector<2 x f32> to f32
  return
}

// -----

func.func @constant_type_mismatch() {
  // expected-error @+1 {{'pydev.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "pydev.constant"() {value = 1 : si32} : () -> si64
  return
}

// -----

func.func @constant_not_a_number() {
  // expected-error @+1 {{'pydev.constant' op result #0 must be a number (bool, integer, float or complex), but got 'index'}}
  %0 = pydev.constant 1 : index
  return
}

// -----

func.func @add_one_operand(%a: si32) {
  // expected-error @+1 {{'pydev.add' op expected 2 operands, but found 1}}
  %0 = "pydev.add"(%a) : (si32) -> si32
  return
}

// -----

func.func @cmp_three_operands(%a: si32) {
  // expected-error @+1 {{'pydev.cmp' op expected 2 operands, but found 3}}
  %0 = "pydev.cmp"(%a, %a, %a) {predicate = #pydev<cmp_predicate eq>} : (si32, si32, si32) -> i1
  return
}

// -----

func.func @neg_no_operand() {
  // expected-error @+1 {{'pydev.neg' op requires a single operand}}
  %0 = "pydev.neg"() : () -> si32
  return
}
