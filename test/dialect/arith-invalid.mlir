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

// -----

func.func @add_wrong_result(%a: si32, %b: si32) {
  // the issue's example: 100 + 100 would wrap to -56
  // expected-error @+1 {{'pydev.add' op result type 'si8' is not 'si32', the type pydev.add gives for 'si32' and 'si32' (Numeric Promotion)}}
  %0 = pydev.add %a, %b : si32, si32 -> si8
  return
}

// -----

func.func @sub_wrong_result(%a: ui8, %b: si32) {
  // expected-error @+1 {{'pydev.sub' op result type 'ui8' is not 'si32', the type pydev.sub gives for 'ui8' and 'si32' (Numeric Promotion)}}
  %0 = pydev.sub %a, %b : ui8, si32 -> ui8
  return
}

// -----

func.func @mul_wrong_result(%a: f32, %b: si64) {
  // expected-error @+1 {{'pydev.mul' op result type 'f64' is not 'f32', the type pydev.mul gives for 'f32' and 'si64' (Numeric Promotion)}}
  %0 = pydev.mul %a, %b : f32, si64 -> f64
  return
}

// -----

func.func @truediv_wrong_result(%a: si64, %b: si64) {
  // 64-bit integers divide to float64
  // expected-error @+1 {{'pydev.truediv' op result type 'f32' is not 'f64', the type pydev.truediv gives for 'si64' and 'si64' (Numeric Promotion)}}
  %0 = pydev.truediv %a, %b : si64, si64 -> f32
  return
}

// -----

func.func @floordiv_wrong_result(%a: f64, %b: si32) {
  // expected-error @+1 {{'pydev.floordiv' op result type 'f32' is not 'f64', the type pydev.floordiv gives for 'f64' and 'si32' (Numeric Promotion)}}
  %0 = pydev.floordiv %a, %b : f64, si32 -> f32
  return
}

// -----

func.func @mod_wrong_result(%a: si64, %b: ui8) {
  // expected-error @+1 {{'pydev.mod' op result type 'ui8' is not 'si64', the type pydev.mod gives for 'si64' and 'ui8' (Numeric Promotion)}}
  %0 = pydev.mod %a, %b : si64, ui8 -> ui8
  return
}

// -----

func.func @pow_wrong_result(%a: f16, %b: bf16) {
  // expected-error @+1 {{'pydev.pow' op result type 'f16' is not 'f32', the type pydev.pow gives for 'f16' and 'bf16' (Numeric Promotion)}}
  %0 = pydev.pow %a, %b : f16, bf16 -> f16
  return
}

// -----

func.func @min_wrong_result(%a: i1, %b: si8) {
  // min and max give one of their operands: the common type (bools stay bools)
  // expected-error @+1 {{'pydev.min' op result type 'i1' is not 'si8', the type pydev.min gives for 'i1' and 'si8' (Numeric Promotion)}}
  %0 = pydev.min %a, %b : i1, si8 -> i1
  return
}

// -----

func.func @max_wrong_result(%a: complex<f32>, %b: f64) {
  // expected-error @+1 {{'pydev.max' op result type 'complex<f32>' is not 'complex<f64>', the type pydev.max gives for 'complex<f32>' and 'f64' (Numeric Promotion)}}
  %0 = pydev.max %a, %b : complex<f32>, f64 -> complex<f32>
  return
}

// -----

func.func @and_wrong_result(%a: si8, %b: ui8) {
  // expected-error @+1 {{'pydev.and' op result type 'si8' is not 'si16', the type pydev.and gives for 'si8' and 'ui8' (Numeric Promotion)}}
  %0 = pydev.and %a, %b : si8, ui8 -> si8
  return
}

// -----

func.func @or_wrong_result(%a: si32, %b: si64) {
  // expected-error @+1 {{'pydev.or' op result type 'si32' is not 'si64', the type pydev.or gives for 'si32' and 'si64' (Numeric Promotion)}}
  %0 = pydev.or %a, %b : si32, si64 -> si32
  return
}

// -----

func.func @xor_wrong_result(%a: i1, %b: i1) {
  // bitwise ops keep bools
  // expected-error @+1 {{'pydev.xor' op result type 'si32' is not 'i1', the type pydev.xor gives for 'i1' and 'i1' (Numeric Promotion)}}
  %0 = pydev.xor %a, %b : i1, i1 -> si32
  return
}

// -----

func.func @lshift_wrong_result(%a: i1, %b: si8) {
  // expected-error @+1 {{'pydev.lshift' op result type 'i1' is not 'si8', the type pydev.lshift gives for 'i1' and 'si8' (Numeric Promotion)}}
  %0 = pydev.lshift %a, %b : i1, si8 -> i1
  return
}

// -----

func.func @rshift_wrong_result(%a: i16, %b: si32) {
  // signless integers count as signed
  // expected-error @+1 {{'pydev.rshift' op result type 'i16' is not 'si32', the type pydev.rshift gives for 'i16' and 'si32' (Numeric Promotion)}}
  %0 = pydev.rshift %a, %b : i16, si32 -> i16
  return
}

// -----

func.func @add_without_a_common_type(%a: ui64, %b: si8) {
  // expected-error @+1 {{'pydev.add' op is not defined for 'ui64' and 'si8' (Numeric Promotion): convert an operand with pydev.cast}}
  %0 = pydev.add %a, %b : ui64, si8 -> si64
  return
}
