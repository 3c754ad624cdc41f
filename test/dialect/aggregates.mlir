// RUN: pydev-opt %s | pydev-opt | FileCheck %s
// Round trip of structs, vectors and tuples (spec: User-Defined Types,
// Vectors, Tuples).

// CHECK-LABEL: func.func @structs
func.func @structs(%x: si32, %y: f32, %p: !pydev.struct<"P", {x: si32, y: f32}>) {
  // CHECK: pydev.struct_create(%{{.*}}, %{{.*}}) : (si32, f32) -> !pydev.struct<"P", {x: si32, y: f32}>
  %0 = pydev.struct_create(%x, %y) : (si32, f32) -> !pydev.struct<"P", {x: si32, y: f32}>
  // CHECK: pydev.struct_extract %{{.*}}["x"] : <"P", {x: si32, y: f32}> -> si32
  %1 = pydev.struct_extract %p["x"] : !pydev.struct<"P", {x: si32, y: f32}> -> si32
  // CHECK: pydev.struct_extract %{{.*}}["y"] : <"P", {x: si32, y: f32}> -> f32
  %2 = pydev.struct_extract %0["y"] : !pydev.struct<"P", {x: si32, y: f32}> -> f32
  // CHECK: pydev.struct_insert %{{.*}}, %{{.*}}["y"] : f32, <"P", {x: si32, y: f32}>
  %3 = pydev.struct_insert %y, %p["y"] : f32, !pydev.struct<"P", {x: si32, y: f32}>
  return
}

// CHECK-LABEL: func.func @struct_members
func.func @struct_members(%v: !pydev.vector<2 x f32>, %t: !pydev.tuple<si32, f64>,
                          %q: !pydev.struct<"Q", {a: f64}, align 16>) {
  // CHECK: pydev.struct_create(%{{.*}}, %{{.*}}, %{{.*}}) : (!pydev.vector<2 x f32>, !pydev.tuple<si32, f64>, !pydev.struct<"Q", {a: f64}, align 16>) -> !pydev.struct<"Outer", {"the vector": !pydev.vector<2 x f32>, t: !pydev.tuple<si32, f64>, q: !pydev.struct<"Q", {a: f64}, align 16>}, align 32>
  %0 = pydev.struct_create(%v, %t, %q) : (!pydev.vector<2 x f32>, !pydev.tuple<si32, f64>, !pydev.struct<"Q", {a: f64}, align 16>)
      -> !pydev.struct<"Outer", {"the vector": !pydev.vector<2 x f32>, t: !pydev.tuple<si32, f64>, q: !pydev.struct<"Q", {a: f64}, align 16>}, align 32>
  // CHECK: pydev.struct_extract %{{.*}}["the vector"] : <"Outer", {{.*}}> -> !pydev.vector<2 x f32>
  %1 = pydev.struct_extract %0["the vector"] : !pydev.struct<"Outer", {"the vector": !pydev.vector<2 x f32>, t: !pydev.tuple<si32, f64>, q: !pydev.struct<"Q", {a: f64}, align 16>}, align 32> -> !pydev.vector<2 x f32>
  // CHECK: pydev.struct_insert %{{.*}}, %{{.*}}["q"] : !pydev.struct<"Q", {a: f64}, align 16>, <"Outer", {{.*}}>
  %2 = pydev.struct_insert %q, %0["q"] : !pydev.struct<"Q", {a: f64}, align 16>, !pydev.struct<"Outer", {"the vector": !pydev.vector<2 x f32>, t: !pydev.tuple<si32, f64>, q: !pydev.struct<"Q", {a: f64}, align 16>}, align 32>
  // CHECK: pydev.struct_create() : () -> !pydev.struct<"Empty", {}>
  %3 = pydev.struct_create() : () -> !pydev.struct<"Empty", {}>
  return
}

// CHECK-LABEL: func.func @vectors
func.func @vectors(%a: f32, %b: f32, %i: si32, %j: index, %v: !pydev.vector<4 x f32>, %h: si8) {
  // CHECK: pydev.vector_create(%{{.*}}, %{{.*}}) : (f32, f32) -> !pydev.vector<2 x f32>
  %0 = pydev.vector_create(%a, %b) : (f32, f32) -> !pydev.vector<2 x f32>
  // CHECK: pydev.vector_create(%{{.*}}) : (f32) -> !pydev.vector<1 x f32>
  %1 = pydev.vector_create(%a) : (f32) -> !pydev.vector<1 x f32>
  // CHECK: pydev.vector_create(%{{.*}}, %{{.*}}, %{{.*}}) : (si8, si8, si8) -> !pydev.vector<3 x si8>
  %2 = pydev.vector_create(%h, %h, %h) : (si8, si8, si8) -> !pydev.vector<3 x si8>
  // CHECK: pydev.vector_extract %{{.*}}[%{{.*}}] : <4 x f32>, si32 -> f32
  %3 = pydev.vector_extract %v[%i] : !pydev.vector<4 x f32>, si32 -> f32
  // CHECK: pydev.vector_extract %{{.*}}[%{{.*}}] : <2 x f32>, index -> f32
  %4 = pydev.vector_extract %0[%j] : !pydev.vector<2 x f32>, index -> f32
  // A constant lane in range.
  %c3 = arith.constant 3 : i32
  // CHECK: pydev.vector_extract %{{.*}}[%{{.*}}] : <4 x f32>, i32 -> f32
  %5 = pydev.vector_extract %v[%c3] : !pydev.vector<4 x f32>, i32 -> f32
  // A bool lane: True is lane 1.
  %true = arith.constant true
  // CHECK: pydev.vector_extract %{{.*}}[%{{.*}}] : <2 x f32>, i1 -> f32
  %t = pydev.vector_extract %0[%true] : !pydev.vector<2 x f32>, i1 -> f32
  // CHECK: pydev.vector_insert %{{.*}}, %{{.*}}[%{{.*}}] : f32, <4 x f32>, si32
  %6 = pydev.vector_insert %a, %v[%i] : f32, !pydev.vector<4 x f32>, si32
  %c0 = pydev.constant 0 : si64
  // CHECK: pydev.vector_insert %{{.*}}, %{{.*}}[%{{.*}}] : si8, <3 x si8>, si64
  %7 = pydev.vector_insert %h, %2[%c0] : si8, !pydev.vector<3 x si8>, si64
  return
}

// CHECK-LABEL: func.func @tuples
func.func @tuples(%a: si32, %b: f32, %t: !pydev.tuple<si32, f32>, %arr: !pydev.array<f32, 1>) {
  // CHECK: pydev.tuple_create(%{{.*}}, %{{.*}}) : (si32, f32) -> !pydev.tuple<si32, f32>
  %0 = pydev.tuple_create(%a, %b) : (si32, f32) -> !pydev.tuple<si32, f32>
  // CHECK: pydev.tuple_create() : () -> !pydev.tuple<>
  %1 = pydev.tuple_create() : () -> !pydev.tuple<>
  // Tuples may hold arrays and other tuples.
  // CHECK: pydev.tuple_create(%{{.*}}, %{{.*}}, %{{.*}}) : (!pydev.array<f32, 1>, !pydev.tuple<>, !pydev.tuple<si32, f32>) -> !pydev.tuple<!pydev.array<f32, 1>, !pydev.tuple<>, !pydev.tuple<si32, f32>>
  %2 = pydev.tuple_create(%arr, %1, %t) : (!pydev.array<f32, 1>, !pydev.tuple<>, !pydev.tuple<si32, f32>) -> !pydev.tuple<!pydev.array<f32, 1>, !pydev.tuple<>, !pydev.tuple<si32, f32>>
  // CHECK: pydev.tuple_extract %{{.*}}[0] : <si32, f32> -> si32
  %3 = pydev.tuple_extract %t[0] : !pydev.tuple<si32, f32> -> si32
  // CHECK: pydev.tuple_extract %{{.*}}[1] : <si32, f32> -> f32
  %4 = pydev.tuple_extract %0[1] : !pydev.tuple<si32, f32> -> f32
  // CHECK: pydev.tuple_extract %{{.*}}[0] : <!pydev.array<f32, 1>, !pydev.tuple<>, !pydev.tuple<si32, f32>> -> !pydev.array<f32, 1>
  %5 = pydev.tuple_extract %2[0] : !pydev.tuple<!pydev.array<f32, 1>, !pydev.tuple<>, !pydev.tuple<si32, f32>> -> !pydev.array<f32, 1>
  // CHECK: pydev.tuple_insert %{{.*}}, %{{.*}}[0] : si32, <si32, f32>
  %6 = pydev.tuple_insert %a, %t[0] : si32, !pydev.tuple<si32, f32>
  // CHECK: pydev.tuple_insert %{{.*}}, %{{.*}}[1] : f32, <si32, f32>
  %7 = pydev.tuple_insert %b, %t[1] : f32, !pydev.tuple<si32, f32>
  return
}
