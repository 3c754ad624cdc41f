// RUN: pydev-opt %s --split-input-file --verify-diagnostics

func.func @count_f32(%p: i1) {
  // expected-error @+1 {{'pydev.syncthreads_count' op result #0 must be 32-bit integer, but got 'f32'}}
  %0 = pydev.syncthreads_count %p : f32
  return
}

// -----

func.func @count_si64(%p: i1) {
  // expected-error @+1 {{'pydev.syncthreads_count' op result #0 must be 32-bit integer, but got 'si64'}}
  %0 = pydev.syncthreads_count %p : si64
  return
}

// -----

func.func @and_si32(%p: i1) {
  // expected-error @+1 {{'pydev.syncthreads_and' op result #0 must be 1-bit signless integer, but got 'si32'}}
  %0 = pydev.syncthreads_and %p : si32
  return
}

// -----

func.func @or_predicate_si32(%p: si32) {
  // expected-error @+1 {{'pydev.syncthreads_or' op operand #0 must be 1-bit signless integer, but got 'si32'}}
  %0 = "pydev.syncthreads_or"(%p) : (si32) -> i1
  return
}

// -----

func.func @count_predicate_i8(%p: i8) {
  // expected-error @+1 {{'pydev.syncthreads_count' op operand #0 must be 1-bit signless integer, but got 'i8'}}
  %0 = "pydev.syncthreads_count"(%p) : (i8) -> si32
  return
}

// -----

func.func @syncwarp_i32(%m: i32) {
  // expected-error @+1 {{'pydev.syncwarp' op operand #0 must be a warp mask, but got 'i32'}}
  "pydev.syncwarp"(%m) : (i32) -> ()
  return
}

// -----

// The custom form knows the operand is a warp mask.
func.func @syncwarp_custom_i32(%m: i32) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: '!pydev.warp_mask' vs 'i32'}}
  pydev.syncwarp %m
  return
}

// -----

func.func @activemask_i32() {
  // expected-error @+1 {{'pydev.activemask' op result #0 must be a warp mask, but got 'i32'}}
  %0 = "pydev.activemask"() : () -> i32
  return
}

// -----

func.func @lanemask_lt_operand(%m: !pydev.warp_mask) {
  // expected-error @+1 {{'pydev.lanemask_lt' op requires zero operands}}
  %0 = "pydev.lanemask_lt"(%m) : (!pydev.warp_mask) -> !pydev.warp_mask
  return
}

// -----

func.func @syncthreads_result() {
  // expected-error @+1 {{'pydev.syncthreads' op requires zero results}}
  %0 = "pydev.syncthreads"() : () -> i1
  return
}
