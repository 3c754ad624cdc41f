// RUN: pydev-opt %s | pydev-opt | FileCheck %s
// Round trip of the array ops (spec: Arrays).

// CHECK-LABEL: func.func @load_store
func.func @load_store(%a: !pydev.array<f32, 2>, %b: !pydev.array<si32, 1, shared, c>,
                      %r: !pydev.array<f64, 3, readonly>, %z: !pydev.array<ui8, 0>,
                      %i: si32, %j: si64, %k: index, %u: ui32, %x: f32, %y: si32) {
  // CHECK: pydev.array_load %{{.*}}[%{{.*}}, %{{.*}}] : <f32, 2>, si32, si64 -> f32
  %0 = pydev.array_load %a[%i, %j] : !pydev.array<f32, 2>, si32, si64 -> f32
  // CHECK: pydev.array_load %{{.*}}[%{{.*}}] : <si32, 1, shared, c>, index -> si32
  %1 = pydev.array_load %b[%k] : !pydev.array<si32, 1, shared, c>, index -> si32
  // Reading a read-only array is fine.
  // CHECK: pydev.array_load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : <f64, 3, readonly>, ui32, si32, index -> f64
  %2 = pydev.array_load %r[%u, %i, %k] : !pydev.array<f64, 3, readonly>, ui32, si32, index -> f64
  // A rank-0 array takes no index.
  // CHECK: pydev.array_load %{{.*}}[] : <ui8, 0> -> ui8
  %3 = pydev.array_load %z[] : !pydev.array<ui8, 0> -> ui8
  // CHECK: pydev.array_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : f32, <f32, 2>, si32, si32
  pydev.array_store %x, %a[%i, %i] : f32, !pydev.array<f32, 2>, si32, si32
  // CHECK: pydev.array_store %{{.*}}, %{{.*}}[%{{.*}}] : si32, <si32, 1, shared, c>, si64
  pydev.array_store %y, %b[%j] : si32, !pydev.array<si32, 1, shared, c>, si64
  // CHECK: pydev.array_store %{{.*}}, %{{.*}}[] : ui8, <ui8, 0>
  pydev.array_store %3, %z[] : ui8, !pydev.array<ui8, 0>
  return
}

// CHECK-LABEL: func.func @aggregate_elements
func.func @aggregate_elements(%a: !pydev.array<!pydev.struct<"P", {x: si32, y: f32}>, 1>,
                              %v: !pydev.array<!pydev.vector<4 x f32>, 2, c>, %i: si32) {
  // CHECK: pydev.array_load %{{.*}}[%{{.*}}] : <!pydev.struct<"P", {x: si32, y: f32}>, 1>, si32 -> !pydev.struct<"P", {x: si32, y: f32}>
  %0 = pydev.array_load %a[%i] : !pydev.array<!pydev.struct<"P", {x: si32, y: f32}>, 1>, si32 -> !pydev.struct<"P", {x: si32, y: f32}>
  // CHECK: pydev.array_store %{{.*}}, %{{.*}}[%{{.*}}] : !pydev.struct<"P", {x: si32, y: f32}>, <!pydev.struct<"P", {x: si32, y: f32}>, 1>, si32
  pydev.array_store %0, %a[%i] : !pydev.struct<"P", {x: si32, y: f32}>, !pydev.array<!pydev.struct<"P", {x: si32, y: f32}>, 1>, si32
  // CHECK: pydev.array_load %{{.*}}[%{{.*}}, %{{.*}}] : <!pydev.vector<4 x f32>, 2, c>, si32, si32 -> !pydev.vector<4 x f32>
  %1 = pydev.array_load %v[%i, %i] : !pydev.array<!pydev.vector<4 x f32>, 2, c>, si32, si32 -> !pydev.vector<4 x f32>
  return
}

// CHECK-LABEL: func.func @index
func.func @index(%a: !pydev.array<f32, 3, c>, %s: !pydev.array<si64, 2, shared, readonly>,
                 %f: !pydev.array<f32, 2, f>, %i: si32, %k: index) {
  // CHECK: pydev.array_index %{{.*}}[%{{.*}}] : <f32, 3, c>, si32 -> <f32, 2, c>
  %0 = pydev.array_index %a[%i] : !pydev.array<f32, 3, c>, si32 -> !pydev.array<f32, 2, c>
  // CHECK: pydev.array_index %{{.*}}[%{{.*}}, %{{.*}}] : <f32, 3, c>, si32, index -> <f32, 1, c>
  %1 = pydev.array_index %a[%i, %k] : !pydev.array<f32, 3, c>, si32, index -> !pydev.array<f32, 1, c>
  // Forgetting the contiguity is allowed.
  // CHECK: pydev.array_index %{{.*}}[%{{.*}}] : <f32, 3, c>, si32 -> <f32, 2>
  %2 = pydev.array_index %a[%i] : !pydev.array<f32, 3, c>, si32 -> !pydev.array<f32, 2>
  // The view keeps the space and the read-only flag.
  // CHECK: pydev.array_index %{{.*}}[%{{.*}}] : <si64, 2, shared, readonly>, index -> <si64, 1, shared, readonly>
  %3 = pydev.array_index %s[%k] : !pydev.array<si64, 2, shared, readonly>, index -> !pydev.array<si64, 1, shared, readonly>
  // A row of an F-contiguous array is strided.
  // CHECK: pydev.array_index %{{.*}}[%{{.*}}] : <f32, 2, f>, si32 -> <f32, 1>
  %4 = pydev.array_index %f[%i] : !pydev.array<f32, 2, f>, si32 -> !pydev.array<f32, 1>
  return
}

// CHECK-LABEL: func.func @slice
func.func @slice(%a: !pydev.array<f32, 2>, %c: !pydev.array<ui16, 3, local, c, readonly>,
                 %i: si32, %lo: si32, %hi: si64, %st: index) {
  // a[i, lo:hi:st]
  // CHECK: pydev.array_slice %{{.*}} [0, 1] starts(%{{.*}}, %{{.*}} : si32, si32) stops(%{{.*}} : si64) steps(%{{.*}} : index) : <f32, 2> -> <f32, 1>
  %0 = pydev.array_slice %a [0, 1] starts(%i, %lo : si32, si32) stops(%hi : si64) steps(%st : index)
      : !pydev.array<f32, 2> -> !pydev.array<f32, 1>
  // a[lo:hi:st, lo:hi:st]
  // CHECK: pydev.array_slice %{{.*}} [1, 1] starts(%{{.*}}, %{{.*}} : si32, si32) stops(%{{.*}}, %{{.*}} : si64, si64) steps(%{{.*}}, %{{.*}} : index, index) : <f32, 2> -> <f32, 2>
  %1 = pydev.array_slice %a [1, 1] starts(%lo, %lo : si32, si32) stops(%hi, %hi : si64, si64) steps(%st, %st : index, index)
      : !pydev.array<f32, 2> -> !pydev.array<f32, 2>
  // a[i, i]: no slice, a rank-0 view.
  // CHECK: pydev.array_slice %{{.*}} [0, 0] starts(%{{.*}}, %{{.*}} : si32, si32) stops() steps() : <f32, 2> -> <f32, 0>
  %2 = pydev.array_slice %a [0, 0] starts(%i, %i : si32, si32) stops() steps() : !pydev.array<f32, 2> -> !pydev.array<f32, 0>
  // Negative constant steps walk backwards; the space and read-only flag are kept.
  %m1 = pydev.constant -1 : si32
  // CHECK: pydev.array_slice %{{.*}} [1, 0, 1] starts(%{{.*}}, %{{.*}}, %{{.*}} : si32, si32, si32) stops(%{{.*}}, %{{.*}} : si64, si64) steps(%{{.*}}, %{{.*}} : si32, si32) : <ui16, 3, local, c, readonly> -> <ui16, 2, local, readonly>
  %3 = pydev.array_slice %c [1, 0, 1] starts(%lo, %i, %lo : si32, si32, si32) stops(%hi, %hi : si64, si64) steps(%m1, %m1 : si32, si32)
      : !pydev.array<ui16, 3, local, c, readonly> -> !pydev.array<ui16, 2, local, readonly>
  // c[i, j, lo:hi] with unit steps stays contiguous: the layout is kept.
  %one = pydev.constant 1 : si64
  // CHECK: pydev.array_slice %{{.*}} [0, 0, 1] starts(%{{.*}}, %{{.*}}, %{{.*}} : si32, si32, si32) stops(%{{.*}} : si64) steps(%{{.*}} : si64) : <ui16, 3, local, c, readonly> -> <ui16, 1, local, c, readonly>
  %4 = pydev.array_slice %c [0, 0, 1] starts(%i, %i, %lo : si32, si32, si32) stops(%hi : si64) steps(%one : si64)
      : !pydev.array<ui16, 3, local, c, readonly> -> !pydev.array<ui16, 1, local, c, readonly>
  return
}

// CHECK-LABEL: func.func @view
func.func @view(%a: !pydev.array<f32, 1, c>, %b: !pydev.array<f32, 2>, %r: !pydev.array<si64, 2, shared, f, readonly>) {
  // CHECK: pydev.array_view %{{.*}} : <f32, 1, c> -> <ui32, 1, c>
  %0 = pydev.array_view %a : !pydev.array<f32, 1, c> -> !pydev.array<ui32, 1, c>
  // A size change needs a C-contiguous source.
  // CHECK: pydev.array_view %{{.*}} : <f32, 1, c> -> <ui8, 1, c>
  %1 = pydev.array_view %a : !pydev.array<f32, 1, c> -> !pydev.array<ui8, 1, c>
  // CHECK: pydev.array_view %{{.*}} : <f32, 1, c> -> <!pydev.vector<2 x f32>, 1, c>
  %2 = pydev.array_view %a : !pydev.array<f32, 1, c> -> !pydev.array<!pydev.vector<2 x f32>, 1, c>
  // Same-size views of strided arrays.
  // CHECK: pydev.array_view %{{.*}} : <f32, 2> -> <si32, 2>
  %3 = pydev.array_view %b : !pydev.array<f32, 2> -> !pydev.array<si32, 2>
  // CHECK: pydev.array_view %{{.*}} : <si64, 2, shared, f, readonly> -> <f64, 2, shared, f, readonly>
  %4 = pydev.array_view %r : !pydev.array<si64, 2, shared, f, readonly> -> !pydev.array<f64, 2, shared, f, readonly>
  return
}

// CHECK-LABEL: func.func @reshape
func.func @reshape(%a: !pydev.array<f32, 1, c>, %f: !pydev.array<si32, 3, local, f, readonly>,
                   %r: si64, %c: si64, %k: index) {
  // CHECK: pydev.array_reshape %{{.*}}(%{{.*}}, %{{.*}}) : <f32, 1, c>, si64, si64 -> <f32, 2, c>
  %0 = pydev.array_reshape %a(%r, %c) : !pydev.array<f32, 1, c>, si64, si64 -> !pydev.array<f32, 2, c>
  // CHECK: pydev.array_reshape %{{.*}}(%{{.*}}) : <si32, 3, local, f, readonly>, index -> <si32, 1, local, f, readonly>
  %1 = pydev.array_reshape %f(%k) : !pydev.array<si32, 3, local, f, readonly>, index -> !pydev.array<si32, 1, local, f, readonly>
  // To a rank-0 array.
  // CHECK: pydev.array_reshape %{{.*}}() : <f32, 1, c> -> <f32, 0, c>
  %2 = pydev.array_reshape %a() : !pydev.array<f32, 1, c> -> !pydev.array<f32, 0, c>
  return
}

// CHECK-LABEL: func.func @shape_strides_size
func.func @shape_strides_size(%a: !pydev.array<f32, 2>, %z: !pydev.array<f32, 0>,
                              %r: !pydev.array<ui8, 3, shared, c, readonly>) {
  // CHECK: pydev.array_shape %{{.*}} : <f32, 2> -> <si64, si64>
  %0 = pydev.array_shape %a : !pydev.array<f32, 2> -> !pydev.tuple<si64, si64>
  // CHECK: pydev.array_shape %{{.*}} : <ui8, 3, shared, c, readonly> -> <i64, ui64, si64>
  %1 = pydev.array_shape %r : !pydev.array<ui8, 3, shared, c, readonly> -> !pydev.tuple<i64, ui64, si64>
  // CHECK: pydev.array_shape %{{.*}} : <f32, 0> -> <>
  %2 = pydev.array_shape %z : !pydev.array<f32, 0> -> !pydev.tuple<>
  // CHECK: pydev.array_strides %{{.*}} : <f32, 2> -> <si64, si64>
  %3 = pydev.array_strides %a : !pydev.array<f32, 2> -> !pydev.tuple<si64, si64>
  // CHECK: pydev.array_strides %{{.*}} : <f32, 0> -> <>
  %4 = pydev.array_strides %z : !pydev.array<f32, 0> -> !pydev.tuple<>
  // CHECK: pydev.array_size %{{.*}} : <f32, 2> -> si64
  %5 = pydev.array_size %a : !pydev.array<f32, 2> -> si64
  // CHECK: pydev.array_size %{{.*}} : <ui8, 3, shared, c, readonly> -> i64
  %6 = pydev.array_size %r : !pydev.array<ui8, 3, shared, c, readonly> -> i64
  return
}
