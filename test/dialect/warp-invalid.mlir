// RUN: pydev-opt %s --split-input-file --verify-diagnostics

func.func @ballot_i1(%m: !pydev.warp_mask, %p: i1) {
  // expected-error @+1 {{'pydev.vote' op 'ballot' gives a !pydev.warp_mask, not 'i1'}}
  %0 = pydev.vote ballot %m, %p : i1
  return
}

// -----

func.func @all_warp_mask(%m: !pydev.warp_mask, %p: i1) {
  // expected-error @+1 {{'pydev.vote' op 'all' gives an i1, not '!pydev.warp_mask'}}
  %0 = pydev.vote all %m, %p : !pydev.warp_mask
  return
}

// -----

func.func @eq_warp_mask(%m: !pydev.warp_mask, %p: i1) {
  // expected-error @+1 {{'pydev.vote' op 'eq' gives an i1, not '!pydev.warp_mask'}}
  %0 = pydev.vote eq %m, %p : !pydev.warp_mask
  return
}

// -----

func.func @vote_si32(%m: !pydev.warp_mask, %p: i1) {
  // expected-error @+1 {{'pydev.vote' op result #0 must be 1-bit signless integer or a warp mask, but got 'si32'}}
  %0 = pydev.vote any %m, %p : si32
  return
}

// -----

func.func @unknown_vote_kind(%m: !pydev.warp_mask, %p: i1) {
  // expected-error @+2 {{expected ::mlir::pydev::VoteKind to be one of: all, any, eq, ballot}}
  // expected-error @+1 {{failed to parse Pydev_VoteKindAttr parameter 'value'}}
  %0 = pydev.vote none %m, %p : i1
  return
}

// -----

func.func @shuffle_16_bytes(%m: !pydev.warp_mask, %v: !pydev.vector<4 x f32>, %l: i32) {
  // expected-error @+1 {{'pydev.shfl' op shuffles values of at most 8 bytes, got '!pydev.vector<4 x f32>' (16 bytes)}}
  %0 = pydev.shfl idx %m, %v, %l : !pydev.vector<4 x f32>, i32
  return
}

// -----

func.func @shuffle_12_byte_struct(%m: !pydev.warp_mask, %v: !pydev.struct<"S", {a: f32, b: f32, c: f32}>, %l: i32) {
  // expected-error @+1 {{'pydev.shfl' op shuffles values of at most 8 bytes, got '!pydev.struct<"S", {a: f32, b: f32, c: f32}>' (12 bytes)}}
  %0 = pydev.shfl down %m, %v, %l : !pydev.struct<"S", {a: f32, b: f32, c: f32}>, i32
  return
}

// -----

func.func @shuffle_lane_32(%m: !pydev.warp_mask, %x: f32) {
  %c32 = arith.constant 32 : i32
  // expected-error @+1 {{'pydev.shfl' op lane operand 32 is outside the warp [0, 32)}}
  %0 = pydev.shfl idx %m, %x, %c32 : f32, i32
  return
}

// -----

func.func @shuffle_negative_lane(%m: !pydev.warp_mask, %x: si32) {
  %c = pydev.constant -1 : si32
  // expected-error @+1 {{'pydev.shfl' op lane operand -1 is outside the warp [0, 32)}}
  %0 = pydev.shfl up %m, %x, %c : si32, si32
  return
}

// -----

func.func @shuffle_unsigned_lane(%m: !pydev.warp_mask, %x: si32) {
  %c = pydev.constant 255 : ui8
  // expected-error @+1 {{'pydev.shfl' op lane operand 255 is outside the warp [0, 32)}}
  %0 = pydev.shfl idx %m, %x, %c : si32, ui8
  return
}

// -----

func.func @shuffle_lane_beyond_int64(%m: !pydev.warp_mask, %x: si32) {
  %c = arith.constant -36893488147419103232 : i128
  // expected-error @+1 {{is outside the warp [0, 32)}}
  %0 = pydev.shfl idx %m, %x, %c : si32, i128
  return
}

// -----

func.func @shuffle_float_lane(%m: !pydev.warp_mask, %x: f32) {
  // expected-error @+1 {{'pydev.shfl' op operand #2 must be integer or a warp mask, but got 'f32'}}
  %0 = pydev.shfl idx %m, %x, %x : f32, f32
  return
}

// -----

func.func @unknown_shuffle_kind(%m: !pydev.warp_mask, %x: f32, %l: i32) {
  // expected-error @+2 {{expected ::mlir::pydev::ShuffleKind to be one of: idx, up, down, xor}}
  // expected-error @+1 {{failed to parse Pydev_ShuffleKindAttr parameter 'value'}}
  %0 = pydev.shfl bfly %m, %x, %l : f32, i32
  return
}

// -----

func.func @match_any_i16(%m: !pydev.warp_mask, %x: i16) {
  // expected-error @+1 {{'pydev.match_any' op matches 32- or 64-bit integers and floats, got 'i16'}}
  %0 = pydev.match_any %m, %x : i16
  return
}

// -----

func.func @match_all_i16(%m: !pydev.warp_mask, %x: si16) {
  // expected-error @+1 {{'pydev.match_all' op matches 32- or 64-bit integers and floats, got 'si16'}}
  %0:2 = pydev.match_all %m, %x : si16
  return
}

// -----

func.func @match_any_vector(%m: !pydev.warp_mask, %x: !pydev.vector<2 x f32>) {
  // expected-error @+1 {{'pydev.match_any' op matches 32- or 64-bit integers and floats, got '!pydev.vector<2 x f32>'}}
  %0 = pydev.match_any %m, %x : !pydev.vector<2 x f32>
  return
}

// -----

func.func @match_all_vector(%m: !pydev.warp_mask, %x: !pydev.vector<2 x si32>) {
  // expected-error @+1 {{'pydev.match_all' op matches 32- or 64-bit integers and floats, got '!pydev.vector<2 x si32>'}}
  %0:2 = pydev.match_all %m, %x : !pydev.vector<2 x si32>
  return
}

// -----

func.func @match_any_f16(%m: !pydev.warp_mask, %x: f16) {
  // expected-error @+1 {{'pydev.match_any' op matches 32- or 64-bit integers and floats, got 'f16'}}
  %0 = pydev.match_any %m, %x : f16
  return
}
