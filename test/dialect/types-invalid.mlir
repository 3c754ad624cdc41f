// RUN: pydev-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{vector must have 1 to 4 lanes, got 0}}
func.func @vector_zero_lanes(%a: !pydev.vector<0 x f32>)

// -----

// expected-error @+1 {{vector must have 1 to 4 lanes, got 5}}
func.func @vector_five_lanes(%a: !pydev.vector<5 x f32>)

// -----

// expected-error @+1 {{vector element must be an 8- to 64-bit integer or a float8, float16, bfloat16, float32 or float64, got 'i1'}}
func.func @vector_of_bool(%a: !pydev.vector<2 x i1>)

// -----

// expected-error @+1 {{vector element must be an 8- to 64-bit integer or a float8, float16, bfloat16, float32 or float64, got 'index'}}
func.func @vector_of_index(%a: !pydev.vector<2 x index>)

// -----

// expected-error @+1 {{vector element must be an 8- to 64-bit integer or a float8, float16, bfloat16, float32 or float64, got '!pydev.struct<"P", {x: si32}>'}}
func.func @vector_of_struct(%a: !pydev.vector<2 x !pydev.struct<"P", {x: si32}>>)

// -----

// expected-error @+1 {{vector element must be an 8- to 64-bit integer or a float8, float16, bfloat16, float32 or float64, got 'i128'}}
func.func @vector_of_i128(%a: !pydev.vector<2 x i128>)

// -----

// expected-error @+1 {{struct 'P' has two fields named 'x'}}
func.func @struct_duplicate_field(%a: !pydev.struct<"P", {x: si32, x: f32}>)

// -----

// The textual syntax pairs every field name with a type, so a struct with
// fewer types than names ("struct 'P' has 2 field names but 1 field types")
// cannot be written; a field without a type is a syntax error.
// expected-error @+1 {{expected ':'}}
func.func @struct_field_without_type(%a: !pydev.struct<"P", {x: si32, y}>)

// -----

// expected-error @+1 {{struct needs a name}}
func.func @struct_without_name(%a: !pydev.struct<"", {x: si32}>)

// -----

// expected-error @+1 {{alignment of struct 'P' must be a power of two, got 12}}
func.func @struct_align_not_power_of_two(%a: !pydev.struct<"P", {x: si32}, align 12>)

// -----

// expected-error @+1 {{field 'r' of struct 'P' has type '!pydev.atomic_ref<si32>', which has no device layout}}
func.func @struct_field_atomic_ref(%a: !pydev.struct<"P", {r: !pydev.atomic_ref<si32>}>)

// -----

// expected-error @+1 {{field 'i' of struct 'P' has type 'i7', which has no device layout}}
func.func @struct_field_no_layout(%a: !pydev.struct<"P", {i: i7}>)

// -----

// expected-error @+1 {{array element type '!pydev.atomic_ref<si32>' must be a number, vector, struct or tuple}}
func.func @array_of_atomic_ref(%a: !pydev.array<!pydev.atomic_ref<si32>, 1>)

// -----

// expected-error @+1 {{array element type '!pydev.warp_mask' must be a number, vector, struct or tuple}}
func.func @array_of_warp_mask(%a: !pydev.array<!pydev.warp_mask, 1>)

// -----

// expected-error @+1 {{array element type '!pydev.array<f32, 1>' must be a number, vector, struct or tuple}}
func.func @array_of_array(%a: !pydev.array<!pydev.array<f32, 1>, 1>)

// -----

// expected-error @+1 {{array element type 'index' must be a number, vector, struct or tuple}}
func.func @array_of_index(%a: !pydev.array<index, 1>)

// -----

// expected-error @+1 {{array rank must be at most 32, got 33}}
func.func @array_rank_33(%a: !pydev.array<f32, 33>)

// -----

// expected-error @+1 {{unknown array property 'contiguous', expected global, shared, local, constant, strided, c, f or readonly}}
func.func @array_unknown_property(%a: !pydev.array<f32, 1, contiguous>)

// -----

// expected-error @+1 {{an array in the constant space must be readonly}}
func.func @array_constant_writable(%a: !pydev.array<f32, 1, constant>)

// -----

// expected-error @+1 {{atomic_ref element type '!pydev.struct<"Big", {a: f64, b: f64, c: f64, d: f64}>' must be at most 16 bytes, got 32}}
func.func @atomic_ref_32_byte_struct(%a: !pydev.atomic_ref<!pydev.struct<"Big", {a: f64, b: f64, c: f64, d: f64}>>)

// -----

// expected-error @+1 {{atomic_ref element type '!pydev.warp_mask' must be a number, vector, struct or tuple}}
func.func @atomic_ref_of_warp_mask(%a: !pydev.atomic_ref<!pydev.warp_mask>)

// -----

// expected-error @+1 {{atomic_ref cannot refer to constant memory (it is read-only)}}
func.func @atomic_ref_constant_space(%a: !pydev.atomic_ref<si32, constant>)

// -----

// expected-error @+1 {{unknown memory space 'c', expected global, shared, local or constant}}
func.func @atomic_ref_layout_is_not_a_space(%a: !pydev.atomic_ref<si32, c>)

// -----

func.func @unknown_memory_order() {
  // expected-error @+2 {{expected ::mlir::pydev::MemoryOrder to be one of: relaxed, consume, acquire, release, acq_rel, seq_cst}}
  // expected-error @+1 {{failed to parse Pydev_MemoryOrderAttr parameter 'value'}}
  pydev.threadfence memory <sequential> scope <device>
  return
}

// -----

func.func @unknown_scope() {
  // expected-error @+2 {{expected ::mlir::pydev::Scope to be one of: system, device, block, thread}}
  // expected-error @+1 {{failed to parse Pydev_ScopeAttr parameter 'value'}}
  pydev.threadfence memory <seq_cst> scope <grid>
  return
}

// -----

// expected-error @+2 {{expected ::mlir::pydev::MemoryOrder to be one of}}
// expected-error @+1 {{failed to parse Pydev_MemoryOrderAttr parameter 'value'}}
func.func @unknown_memory_order_attr() attributes {order = #pydev.memory_order<strong>}

// -----

// expected-error @+2 {{expected ::mlir::pydev::Scope to be one of}}
// expected-error @+1 {{failed to parse Pydev_ScopeAttr parameter 'value'}}
func.func @unknown_scope_attr() attributes {scope = #pydev.scope<grid>}

// -----

// expected-error @+1 {{array property 'local' conflicts with or repeats an earlier one}}
func.func @conflicting_spaces(%a: !pydev.array<f32, 1, shared, local>) {
  return
}
