// RUN: pydev-opt %s | pydev-opt | FileCheck %s
// Round trip of every pydev type and attribute (spec: User-Defined Types,
// Vectors, Tuples, Arrays, Thread Warp Synchronization, Atomics,
// Synchronization / Memory Orderings and Thread Scopes).

// CHECK-LABEL: func.func @structs
// CHECK-SAME: !pydev.struct<"Point", {x: si32, y: f32}>
// CHECK-SAME: !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>
// CHECK-SAME: !pydev.struct<"Nested", {p: !pydev.struct<"Point", {x: si32, y: f32}>, v: !pydev.vector<4 x f32>, t: !pydev.tuple<i1, ui8>}>
// CHECK-SAME: !pydev.struct<"Quoted", {"field name": f64, "0": ui16}, align 1>
// CHECK-SAME: !pydev.struct<"Empty", {}>
func.func @structs(
    %a: !pydev.struct<"Point", {x: si32, y: f32}>,
    %b: !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>,
    %c: !pydev.struct<"Nested", {p: !pydev.struct<"Point", {x: si32, y: f32}>, v: !pydev.vector<4 x f32>, t: !pydev.tuple<i1, ui8>}>,
    %d: !pydev.struct<"Quoted", {"field name": f64, "0": ui16}, align 1>,
    %e: !pydev.struct<"Empty", {}>) {
  return
}

// Struct names and field names that are not identifiers are escaped.
// CHECK-LABEL: func.func @struct_names
// CHECK-SAME: !pydev.struct<"a\22b", {x: si32}>, %{{.*}}: !pydev.struct<"my struct", {"a\22b": si32, "\\": f32}>
func.func @struct_names(%a: !pydev.struct<"a\"b", {x: si32}>,
                        %b: !pydev.struct<"my struct", {"a\"b": si32, "\\": f32}>) {
  return
}

// CHECK-LABEL: func.func @vector_lanes
// CHECK-SAME: !pydev.vector<1 x f32>, %{{.*}}: !pydev.vector<2 x f32>, %{{.*}}: !pydev.vector<3 x f32>, %{{.*}}: !pydev.vector<4 x f32>
func.func @vector_lanes(%a: !pydev.vector<1 x f32>, %b: !pydev.vector<2 x f32>,
                        %c: !pydev.vector<3 x f32>, %d: !pydev.vector<4 x f32>) {
  return
}

// CHECK-LABEL: func.func @vector_ints
// CHECK-SAME: !pydev.vector<4 x i8>, %{{.*}}: !pydev.vector<4 x si8>, %{{.*}}: !pydev.vector<4 x ui8>
// CHECK-SAME: !pydev.vector<2 x si16>, %{{.*}}: !pydev.vector<3 x ui16>
// CHECK-SAME: !pydev.vector<4 x si32>, %{{.*}}: !pydev.vector<2 x ui32>, %{{.*}}: !pydev.vector<1 x i32>
// CHECK-SAME: !pydev.vector<2 x si64>, %{{.*}}: !pydev.vector<3 x ui64>, %{{.*}}: !pydev.vector<1 x i64>
func.func @vector_ints(%a: !pydev.vector<4 x i8>, %b: !pydev.vector<4 x si8>, %c: !pydev.vector<4 x ui8>,
                       %d: !pydev.vector<2 x si16>, %e: !pydev.vector<3 x ui16>,
                       %f: !pydev.vector<4 x si32>, %g: !pydev.vector<2 x ui32>, %h: !pydev.vector<1 x i32>,
                       %i: !pydev.vector<2 x si64>, %j: !pydev.vector<3 x ui64>, %k: !pydev.vector<1 x i64>) {
  return
}

// CHECK-LABEL: func.func @vector_floats
// CHECK-SAME: !pydev.vector<4 x f8E4M3FN>, %{{.*}}: !pydev.vector<2 x f8E5M2>
// CHECK-SAME: !pydev.vector<2 x f16>, %{{.*}}: !pydev.vector<4 x bf16>
// CHECK-SAME: !pydev.vector<3 x f32>, %{{.*}}: !pydev.vector<2 x f64>, %{{.*}}: !pydev.vector<4 x f64>
func.func @vector_floats(%a: !pydev.vector<4 x f8E4M3FN>, %b: !pydev.vector<2 x f8E5M2>,
                         %c: !pydev.vector<2 x f16>, %d: !pydev.vector<4 x bf16>,
                         %e: !pydev.vector<3 x f32>, %f: !pydev.vector<2 x f64>, %g: !pydev.vector<4 x f64>) {
  return
}

// CHECK-LABEL: func.func @tuples
// CHECK-SAME: !pydev.tuple<>, %{{.*}}: !pydev.tuple<si32>, %{{.*}}: !pydev.tuple<si32, f32>
// CHECK-SAME: !pydev.tuple<!pydev.tuple<>, !pydev.tuple<i1, f64>, !pydev.vector<2 x f32>, !pydev.struct<"P", {x: si32}>, complex<f32>>
// CHECK-SAME: !pydev.tuple<!pydev.array<f32, 2>, !pydev.warp_mask, !pydev.atomic_ref<si32>>
func.func @tuples(%a: !pydev.tuple<>, %b: !pydev.tuple<si32>, %c: !pydev.tuple<si32, f32>,
                  %d: !pydev.tuple<!pydev.tuple<>, !pydev.tuple<i1, f64>, !pydev.vector<2 x f32>, !pydev.struct<"P", {x: si32}>, complex<f32>>,
                  %e: !pydev.tuple<!pydev.array<f32, 2>, !pydev.warp_mask, !pydev.atomic_ref<si32>>) {
  return
}

// The defaults (global, strided, writable) are not printed.
// CHECK-LABEL: func.func @array_defaults
// CHECK-SAME: !pydev.array<f32, 2>, %{{.*}}: !pydev.array<f32, 2>, %{{.*}}: !pydev.array<f32, 2>, %{{.*}}: !pydev.array<si32, 0>
func.func @array_defaults(%a: !pydev.array<f32, 2>, %b: !pydev.array<f32, 2, global>,
                          %c: !pydev.array<f32, 2, global, strided>, %d: !pydev.array<si32, 0>) {
  return
}

// CHECK-LABEL: func.func @array_global
// CHECK-SAME: !pydev.array<f32, 1>, %{{.*}}: !pydev.array<f32, 1, c>, %{{.*}}: !pydev.array<f32, 1, f>
// CHECK-SAME: !pydev.array<f32, 1, readonly>, %{{.*}}: !pydev.array<f32, 1, c, readonly>, %{{.*}}: !pydev.array<f32, 1, f, readonly>
func.func @array_global(%a: !pydev.array<f32, 1, global, strided>, %b: !pydev.array<f32, 1, global, c>,
                        %c: !pydev.array<f32, 1, global, f>, %d: !pydev.array<f32, 1, global, strided, readonly>,
                        %e: !pydev.array<f32, 1, global, c, readonly>, %f: !pydev.array<f32, 1, global, f, readonly>) {
  return
}

// CHECK-LABEL: func.func @array_shared
// CHECK-SAME: !pydev.array<f64, 2, shared>, %{{.*}}: !pydev.array<f64, 2, shared, c>, %{{.*}}: !pydev.array<f64, 2, shared, f>
// CHECK-SAME: !pydev.array<f64, 2, shared, readonly>, %{{.*}}: !pydev.array<f64, 2, shared, c, readonly>, %{{.*}}: !pydev.array<f64, 2, shared, f, readonly>
func.func @array_shared(%a: !pydev.array<f64, 2, shared, strided>, %b: !pydev.array<f64, 2, shared, c>,
                        %c: !pydev.array<f64, 2, shared, f>, %d: !pydev.array<f64, 2, shared, strided, readonly>,
                        %e: !pydev.array<f64, 2, shared, c, readonly>, %f: !pydev.array<f64, 2, shared, f, readonly>) {
  return
}

// CHECK-LABEL: func.func @array_local
// CHECK-SAME: !pydev.array<ui8, 3, local>, %{{.*}}: !pydev.array<ui8, 3, local, c>, %{{.*}}: !pydev.array<ui8, 3, local, f>
// CHECK-SAME: !pydev.array<ui8, 3, local, readonly>, %{{.*}}: !pydev.array<ui8, 3, local, c, readonly>, %{{.*}}: !pydev.array<ui8, 3, local, f, readonly>
func.func @array_local(%a: !pydev.array<ui8, 3, local, strided>, %b: !pydev.array<ui8, 3, local, c>,
                       %c: !pydev.array<ui8, 3, local, f>, %d: !pydev.array<ui8, 3, local, strided, readonly>,
                       %e: !pydev.array<ui8, 3, local, c, readonly>, %f: !pydev.array<ui8, 3, local, f, readonly>) {
  return
}

// Properties may come in any order; the printer normalises it.
// CHECK-LABEL: func.func @array_property_order
// CHECK-SAME: !pydev.array<si64, 1, shared, c, readonly>, %{{.*}}: !pydev.array<si64, 1, local, f>
func.func @array_property_order(%a: !pydev.array<si64, 1, readonly, c, shared>,
                                %b: !pydev.array<si64, 1, f, local>) {
  return
}

// CHECK-LABEL: func.func @array_elements
// CHECK-SAME: !pydev.array<i1, 1>, %{{.*}}: !pydev.array<complex<f64>, 1>, %{{.*}}: !pydev.array<!pydev.vector<4 x f32>, 2, c>
// CHECK-SAME: !pydev.array<!pydev.struct<"P", {x: si32, y: f32}, align 8>, 1>, %{{.*}}: !pydev.array<!pydev.tuple<si32, f32>, 1>
// CHECK-SAME: !pydev.array<bf16, 32>
func.func @array_elements(%a: !pydev.array<i1, 1>, %b: !pydev.array<complex<f64>, 1>,
                          %c: !pydev.array<!pydev.vector<4 x f32>, 2, c>,
                          %d: !pydev.array<!pydev.struct<"P", {x: si32, y: f32}, align 8>, 1>,
                          %e: !pydev.array<!pydev.tuple<si32, f32>, 1>, %f: !pydev.array<bf16, 32>) {
  return
}

// CHECK-LABEL: func.func @warp_mask
// CHECK-SAME: !pydev.warp_mask
func.func @warp_mask(%m: !pydev.warp_mask) {
  return
}

// CHECK-LABEL: func.func @atomic_refs
// CHECK-SAME: !pydev.atomic_ref<f32>, %{{.*}}: !pydev.atomic_ref<f32>, %{{.*}}: !pydev.atomic_ref<ui32, shared>, %{{.*}}: !pydev.atomic_ref<si64, local>
// CHECK-SAME: !pydev.atomic_ref<!pydev.vector<4 x f32>>, %{{.*}}: !pydev.atomic_ref<!pydev.struct<"P", {x: si32, y: f32}>, shared>
// CHECK-SAME: !pydev.atomic_ref<!pydev.tuple<f64, f64>>
func.func @atomic_refs(%a: !pydev.atomic_ref<f32>, %b: !pydev.atomic_ref<f32, global>,
                       %c: !pydev.atomic_ref<ui32, shared>, %d: !pydev.atomic_ref<si64, local>,
                       %e: !pydev.atomic_ref<!pydev.vector<4 x f32>>,
                       %f: !pydev.atomic_ref<!pydev.struct<"P", {x: si32, y: f32}>, shared>,
                       %g: !pydev.atomic_ref<!pydev.tuple<f64, f64>>) {
  return
}

// The attributes in their full form, as discardable attributes.
// CHECK-LABEL: func.func @attributes
// CHECK-SAME: orders = [#pydev.memory_order<relaxed>, #pydev.memory_order<consume>, #pydev.memory_order<acquire>, #pydev.memory_order<release>, #pydev.memory_order<acq_rel>, #pydev.memory_order<seq_cst>]
// CHECK-SAME: scopes = [#pydev.scope<system>, #pydev.scope<device>, #pydev.scope<block>, #pydev.scope<thread>]
func.func @attributes() attributes {
    orders = [#pydev.memory_order<relaxed>, #pydev.memory_order<consume>, #pydev.memory_order<acquire>,
              #pydev.memory_order<release>, #pydev.memory_order<acq_rel>, #pydev.memory_order<seq_cst>],
    scopes = [#pydev.scope<system>, #pydev.scope<device>, #pydev.scope<block>, #pydev.scope<thread>]} {
  return
}

// The attributes inside a pydev op, whose format elides the `#pydev.` prefix.
// CHECK-LABEL: func.func @memory_orders
func.func @memory_orders() {
  // CHECK: pydev.threadfence memory <relaxed> scope <device>
  pydev.threadfence memory #pydev.memory_order<relaxed> scope #pydev.scope<device>
  // CHECK: pydev.threadfence memory <consume> scope <device>
  pydev.threadfence memory <consume> scope <device>
  // CHECK: pydev.threadfence memory <acquire> scope <device>
  pydev.threadfence memory <acquire> scope <device>
  // CHECK: pydev.threadfence memory <release> scope <device>
  pydev.threadfence memory <release> scope <device>
  // CHECK: pydev.threadfence memory <acq_rel> scope <device>
  pydev.threadfence memory <acq_rel> scope <device>
  // CHECK: pydev.threadfence memory <seq_cst> scope <device>
  pydev.threadfence memory <seq_cst> scope <device>
  return
}

// CHECK-LABEL: func.func @scopes
func.func @scopes() {
  // CHECK: pydev.threadfence memory <seq_cst> scope <system>
  pydev.threadfence memory <seq_cst> scope <system>
  // CHECK: pydev.threadfence memory <seq_cst> scope <device>
  pydev.threadfence memory <seq_cst> scope <device>
  // CHECK: pydev.threadfence memory <seq_cst> scope <block>
  pydev.threadfence memory <seq_cst> scope <block>
  // CHECK: pydev.threadfence memory <seq_cst> scope <thread>
  pydev.threadfence memory <seq_cst> scope <thread>
  return
}
