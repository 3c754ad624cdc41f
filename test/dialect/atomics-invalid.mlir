// RUN: pydev-opt %s --split-input-file --verify-diagnostics

func.func @unknown_memory_order(%r: !pydev.atomic_ref<si32>, %v: si32) {
  // expected-error @+2 {{expected ::mlir::pydev::MemoryOrder to be one of: relaxed, consume, acquire, release, acq_rel, seq_cst}}
  // expected-error @+1 {{failed to parse Pydev_MemoryOrderAttr parameter 'value'}}
  %0 = pydev.atomic_rmw add %r, %v memory <sequential> scope <device> : !pydev.atomic_ref<si32>, si32
  return
}

// -----

func.func @unknown_scope(%r: !pydev.atomic_ref<si32>) {
  // expected-error @+2 {{expected ::mlir::pydev::Scope to be one of: system, device, block, thread}}
  // expected-error @+1 {{failed to parse Pydev_ScopeAttr parameter 'value'}}
  %0 = pydev.atomic_load %r memory <relaxed> scope <grid> : !pydev.atomic_ref<si32> -> si32
  return
}

// -----

func.func @unknown_rmw_kind(%r: !pydev.atomic_ref<si32>, %v: si32) {
  // expected-error @+2 {{expected ::mlir::pydev::AtomicRMWKind to be one of: add, sub, and, or, xor, max, min, nanmax, nanmin, exch}}
  // expected-error @+1 {{failed to parse Pydev_AtomicRMWKindAttr parameter 'value'}}
  %0 = pydev.atomic_rmw inc %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<si32>, si32
  return
}

// -----

func.func @rmw_value_type(%r: !pydev.atomic_ref<si32>, %v: si64) {
  // expected-error @+1 {{'pydev.atomic_rmw' op value type 'si64' differs from the atomic's element type 'si32'}}
  %0 = pydev.atomic_rmw add %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<si32>, si64
  return
}

// -----

func.func @rmw_add_i16(%r: !pydev.atomic_ref<si16>, %v: si16) {
  // expected-error @+1 {{'pydev.atomic_rmw' op 'add' needs a 32- or 64-bit integer, float32 or float64, got 'si16'}}
  %0 = pydev.atomic_rmw add %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<si16>, si16
  return
}

// -----

func.func @rmw_max_f16(%r: !pydev.atomic_ref<f16>, %v: f16) {
  // expected-error @+1 {{'pydev.atomic_rmw' op 'max' needs a 32- or 64-bit integer, float32 or float64, got 'f16'}}
  %0 = pydev.atomic_rmw max %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<f16>, f16
  return
}

// -----

func.func @rmw_and_f32(%r: !pydev.atomic_ref<f32>, %v: f32) {
  // expected-error @+1 {{'pydev.atomic_rmw' op 'and' needs a 32- or 64-bit integer, got 'f32'}}
  %0 = pydev.atomic_rmw and %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
  return
}

// -----

func.func @rmw_xor_ui8(%r: !pydev.atomic_ref<ui8, shared>, %v: ui8) {
  // expected-error @+1 {{'pydev.atomic_rmw' op 'xor' needs a 32- or 64-bit integer, got 'ui8'}}
  %0 = pydev.atomic_rmw xor %r, %v memory <relaxed> scope <block> : !pydev.atomic_ref<ui8, shared>, ui8
  return
}

// -----

func.func @rmw_exch_16_bytes(%r: !pydev.atomic_ref<!pydev.vector<4 x f32>>, %v: !pydev.vector<4 x f32>) {
  // expected-error @+1 {{'pydev.atomic_rmw' op works on values of at most 8 bytes, got '!pydev.vector<4 x f32>' (16 bytes)}}
  %0 = pydev.atomic_rmw exch %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<!pydev.vector<4 x f32>>, !pydev.vector<4 x f32>
  return
}

// -----

func.func @cas_value_type(%r: !pydev.atomic_ref<si32>, %v: ui32) {
  // expected-error @+1 {{'pydev.atomic_cas' op value type 'ui32' differs from the atomic's element type 'si32'}}
  %0 = pydev.atomic_cas %r, %v, %v memory <seq_cst> scope <device> : !pydev.atomic_ref<si32>, ui32
  return
}

// -----

func.func @cas_16_bytes(%r: !pydev.atomic_ref<complex<f64>>, %v: complex<f64>) {
  // expected-error @+1 {{'pydev.atomic_cas' op works on values of at most 8 bytes, got 'complex<f64>' (16 bytes)}}
  %0 = pydev.atomic_cas %r, %v, %v memory <seq_cst> scope <device> : !pydev.atomic_ref<complex<f64>>, complex<f64>
  return
}

// -----

func.func @cas_operand_mismatch(%r: !pydev.atomic_ref<si32>, %a: si32, %b: si64) {
  // expected-error @+1 {{'pydev.atomic_cas' op failed to verify that all of {expected, desired, result} have same type}}
  %0 = "pydev.atomic_cas"(%r, %a, %b) {memory = #pydev.memory_order<seq_cst>, scope = #pydev.scope<device>} : (!pydev.atomic_ref<si32>, si32, si64) -> si32
  return
}

// -----

func.func @load_release(%r: !pydev.atomic_ref<si32>) {
  // expected-error @+1 {{'pydev.atomic_load' op memory order 'release' is not valid for a load}}
  %0 = pydev.atomic_load %r memory <release> scope <device> : !pydev.atomic_ref<si32> -> si32
  return
}

// -----

func.func @load_acq_rel(%r: !pydev.atomic_ref<si32>) {
  // expected-error @+1 {{'pydev.atomic_load' op memory order 'acq_rel' is not valid for a load}}
  %0 = pydev.atomic_load %r memory <acq_rel> scope <device> : !pydev.atomic_ref<si32> -> si32
  return
}

// -----

func.func @load_result_mismatch(%r: !pydev.atomic_ref<si32>) {
  // expected-error @+1 {{'pydev.atomic_load' op value type 'f32' differs from the atomic's element type 'si32'}}
  %0 = pydev.atomic_load %r memory <acquire> scope <device> : !pydev.atomic_ref<si32> -> f32
  return
}

// -----

func.func @store_acquire(%r: !pydev.atomic_ref<si32>, %v: si32) {
  // expected-error @+1 {{'pydev.atomic_store' op memory order 'acquire' is not valid for a store}}
  pydev.atomic_store %v, %r memory <acquire> scope <device> : si32, !pydev.atomic_ref<si32>
  return
}

// -----

func.func @store_consume(%r: !pydev.atomic_ref<si32>, %v: si32) {
  // expected-error @+1 {{'pydev.atomic_store' op memory order 'consume' is not valid for a store}}
  pydev.atomic_store %v, %r memory <consume> scope <device> : si32, !pydev.atomic_ref<si32>
  return
}

// -----

func.func @store_acq_rel(%r: !pydev.atomic_ref<si32>, %v: si32) {
  // expected-error @+1 {{'pydev.atomic_store' op memory order 'acq_rel' is not valid for a store}}
  pydev.atomic_store %v, %r memory <acq_rel> scope <device> : si32, !pydev.atomic_ref<si32>
  return
}

// -----

func.func @store_value_mismatch(%r: !pydev.atomic_ref<f64>, %v: f32) {
  // expected-error @+1 {{'pydev.atomic_store' op value type 'f32' differs from the atomic's element type 'f64'}}
  pydev.atomic_store %v, %r memory <release> scope <device> : f32, !pydev.atomic_ref<f64>
  return
}

// -----

func.func @wait_acq_rel(%r: !pydev.atomic_ref<si32>, %v: si32) {
  // expected-error @+1 {{'pydev.atomic_wait' op memory order 'acq_rel' is not valid for a wait}}
  pydev.atomic_wait %r, %v memory <acq_rel> scope <device> : !pydev.atomic_ref<si32>, si32
  return
}

// -----

func.func @wait_release(%r: !pydev.atomic_ref<si32>, %v: si32) {
  // expected-error @+1 {{'pydev.atomic_wait' op memory order 'release' is not valid for a wait}}
  pydev.atomic_wait %r, %v memory <release> scope <device> : !pydev.atomic_ref<si32>, si32
  return
}

// -----

func.func @wait_16_bytes(%r: !pydev.atomic_ref<!pydev.vector<2 x f64>>, %v: !pydev.vector<2 x f64>) {
  // expected-error @+1 {{'pydev.atomic_wait' op works on values of at most 8 bytes, got '!pydev.vector<2 x f64>' (16 bytes)}}
  pydev.atomic_wait %r, %v memory <acquire> scope <device> : !pydev.atomic_ref<!pydev.vector<2 x f64>>, !pydev.vector<2 x f64>
  return
}

// -----

func.func @wait_value_mismatch(%r: !pydev.atomic_ref<si32>, %v: ui32) {
  // expected-error @+1 {{'pydev.atomic_wait' op value type 'ui32' differs from the atomic's element type 'si32'}}
  pydev.atomic_wait %r, %v memory <acquire> scope <device> : !pydev.atomic_ref<si32>, ui32
  return
}

// -----

func.func @ref_into_readonly(%a: !pydev.array<si32, 1, readonly>, %i: si32) {
  // expected-error @+1 {{'pydev.atomic_ref' op cannot make an atomic reference into a read-only array}}
  %0 = pydev.atomic_ref %a[%i] : !pydev.array<si32, 1, readonly>, si32 -> !pydev.atomic_ref<si32>
  return
}

// -----

func.func @ref_index_count(%a: !pydev.array<si32, 2>, %i: si32) {
  // expected-error @+1 {{'pydev.atomic_ref' op takes one index per dimension: the array has rank 2 but 1 indices were given}}
  %0 = pydev.atomic_ref %a[%i] : !pydev.array<si32, 2>, si32 -> !pydev.atomic_ref<si32>
  return
}

// -----

func.func @ref_element_mismatch(%a: !pydev.array<si32, 1>, %i: si32) {
  // expected-error @+1 {{'pydev.atomic_ref' op result must be '!pydev.atomic_ref<si32>', got '!pydev.atomic_ref<ui32>'}}
  %0 = pydev.atomic_ref %a[%i] : !pydev.array<si32, 1>, si32 -> !pydev.atomic_ref<ui32>
  return
}

// -----

func.func @ref_space_mismatch(%a: !pydev.array<f32, 1, shared>, %i: si32) {
  // expected-error @+1 {{'pydev.atomic_ref' op result must be '!pydev.atomic_ref<f32, shared>', got '!pydev.atomic_ref<f32>'}}
  %0 = pydev.atomic_ref %a[%i] : !pydev.array<f32, 1, shared>, si32 -> !pydev.atomic_ref<f32>
  return
}

// -----

func.func @notify_not_a_ref(%v: si32) {
  // expected-error @+1 {{'pydev.atomic_notify' op operand #0 must be an atomic reference, but got 'si32'}}
  "pydev.atomic_notify"(%v) : (si32) -> ()
  return
}

// -----

func.func @field_path_unknown(%m: !pydev.array<!pydev.struct<"M", {line: si32}>, 1>, %i: si64) {
  // expected-error @+1 {{field path names 'current', which '!pydev.struct<"M", {line: si32}>' does not have}}
  %0 = pydev.atomic_ref %m[%i] field ["current"] : !pydev.array<!pydev.struct<"M", {line: si32}>, 1>, si64 -> !pydev.atomic_ref<si32>
  return
}

// -----

func.func @field_path_type(%m: !pydev.array<!pydev.struct<"M", {line: si32}>, 1>, %i: si64) {
  // expected-error @+1 {{result must be '!pydev.atomic_ref<si32>', got '!pydev.atomic_ref<f32>'}}
  %0 = pydev.atomic_ref %m[%i] field ["line"] : !pydev.array<!pydev.struct<"M", {line: si32}>, 1>, si64 -> !pydev.atomic_ref<f32>
  return
}

// -----

func.func @field_path_not_struct(%a: !pydev.array<si32, 1>, %i: si64) {
  // expected-error @+1 {{field path names 'value', which 'si32' does not have}}
  %0 = pydev.atomic_ref %a[%i] field ["value"] : !pydev.array<si32, 1>, si64 -> !pydev.atomic_ref<si32>
  return
}
