// RUN: pydev-opt %s --split-input-file --pydev-lower-aggregates | FileCheck %s

// Vectors become LLVM vectors; structs and tuples LLVM structs, everywhere:
// arguments, block arguments, results.
// CHECK-LABEL: func.func @registers
// CHECK-SAME: (%[[A:.*]]: f32, %[[I:.*]]: i32) -> !llvm.struct<(vector<2xf32>, f32)>
// CHECK: %[[U:.*]] = llvm.mlir.undef : vector<2xf32>
// CHECK: %[[V0:.*]] = llvm.insertelement %[[A]], %[[U]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[V:.*]] = llvm.insertelement %[[A]], %[[V0]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[E:.*]] = llvm.extractelement %[[V]][%[[I]] : i32] : vector<2xf32>
// CHECK: %[[S0:.*]] = llvm.mlir.undef : !llvm.struct<(vector<2xf32>, f32)>
// CHECK: %[[S1:.*]] = llvm.insertvalue %[[V]], %[[S0]][0]
// CHECK: %[[S:.*]] = llvm.insertvalue %[[E]], %[[S1]][1]
// CHECK: cf.br ^bb1(%[[S]] : !llvm.struct<(vector<2xf32>, f32)>)
// CHECK: ^bb1(%[[P:.*]]: !llvm.struct<(vector<2xf32>, f32)>):
// CHECK: llvm.extractvalue %[[P]][1]
// CHECK: llvm.insertvalue %{{.*}}, %[[P]][1]
func.func @registers(%a: f32, %i: i32) -> !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}> {
  %v = pydev.vector_create(%a, %a) : (f32, f32) -> !pydev.vector<2 x f32>
  %e = pydev.vector_extract %v[%i] : !pydev.vector<2 x f32>, i32 -> f32
  %s = pydev.struct_create(%v, %e) : (!pydev.vector<2 x f32>, f32) -> !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>
  cf.br ^next(%s : !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>)
^next(%p: !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>):
  %m = pydev.struct_extract %p["m"] : !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}> -> f32
  %q = pydev.struct_insert %m, %p["m"] : f32, !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>
  return %q : !pydev.struct<"P", {v: !pydev.vector<2 x f32>, m: f32}>
}

// -----

// CHECK-LABEL: func.func @tuples
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(i32, f64)>
// CHECK: llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i32, f64)>
func.func @tuples(%i: i32, %d: f64) -> f64 {
  %t = pydev.tuple_create(%i, %d) : (i32, f64) -> !pydev.tuple<i32, f64>
  %x = pydev.tuple_extract %t[1] : !pydev.tuple<i32, f64> -> f64
  return %x : f64
}

// -----

// Does not fire.
// CHECK-LABEL: func.func @scalars(%{{.*}}: f32) -> f32
// CHECK-NEXT: return
func.func @scalars(%x: f32) -> f32 {
  return %x : f32
}

// -----

// Kernel parameters take the CUDA C++ layout of their type: a float3 is 12
// bytes (LLVM's <3 x float> would be 16), an align=16 struct of two floats
// 16 bytes; the kernel rebuilds the register values at entry.
// The align=16 struct's parameter is marked for `.param .align 16`
// (pydev-align-params).
// CHECK-LABEL: gpu.func @abi_params
// CHECK-SAME: (%[[V:.*]]: !llvm.array<3 x f32>, %[[S:.*]]: !llvm.struct<(f32, f32, array<8 x i8>)>, %[[W:.*]]: vector<4xf32>) kernel attributes {pydev.param_aligns = array<i64: 0, 16, 0>}
// CHECK-DAG: %[[X0:.*]] = llvm.extractvalue %[[V]][0] : !llvm.array<3 x f32>
// CHECK-DAG: llvm.insertelement %[[X0]]
// CHECK-DAG: %[[RE:.*]] = llvm.extractvalue %[[S]][0] : !llvm.struct<(f32, f32, array<8 x i8>)>
// CHECK-DAG: llvm.insertvalue %[[RE]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
// Does not fire on a float4 (LLVM's layout is CUDA's) nor on device functions.
// CHECK-NOT: llvm.extractvalue %[[W]]
// CHECK-LABEL: func.func @not_a_kernel
// CHECK-SAME: (%{{.*}}: vector<3xf32>)
gpu.module @abi {
  gpu.func @abi_params(%v: !pydev.vector<3 x f32>, %s: !pydev.struct<"C", {re: f32, im: f32}, align 16>, %w: !pydev.vector<4 x f32>) kernel {
    %i = arith.constant 0 : i32
    %x = pydev.vector_extract %v[%i] : !pydev.vector<3 x f32>, i32 -> f32
    %re = pydev.struct_extract %s["re"] : !pydev.struct<"C", {re: f32, im: f32}, align 16> -> f32
    %y = pydev.vector_extract %w[%i] : !pydev.vector<4 x f32>, i32 -> f32
    gpu.return
  }
  func.func @not_a_kernel(%v: !pydev.vector<3 x f32>) {
    return
  }
}

// -----

// Host kernels take the same layout (the runtime packs CUDA's): a struct
// holding an align=16 struct has it at offset 16; the block loop passes the
// parameter on unchanged. No .param alignment mark on the host.
// CHECK-LABEL: func.func @host_kernel
// CHECK-SAME: (%[[H:.*]]: !llvm.struct<(i8, array<15 x i8>, struct<(f32, f32, array<8 x i8>)>)>, %{{.*}}: !llvm.ptr)
// CHECK-NOT: pydev.param_aligns
// CHECK: %[[C:.*]] = llvm.extractvalue %[[H]][2] : !llvm.struct<(i8, array<15 x i8>, struct<(f32, f32, array<8 x i8>)>)>
// CHECK: llvm.extractvalue %[[C]][0] : !llvm.struct<(f32, f32, array<8 x i8>)>
// CHECK-LABEL: func.func @__pydev_block_host_kernel
// CHECK-SAME: (%[[B:.*]]: !llvm.struct<(i8, array<15 x i8>, struct<(f32, f32, array<8 x i8>)>)>, %[[CTX:.*]]: !llvm.ptr)
// CHECK-NEXT: call @host_kernel(%[[B]], %[[CTX]])
// Does not fire on a plain struct parameter (LLVM's layout is CUDA's).
// CHECK-LABEL: func.func @host_plain
// CHECK-SAME: (%{{.*}}: !llvm.struct<(f32, f32)>, %{{.*}}: !llvm.ptr)
func.func @host_kernel(%s: !pydev.struct<"H", {tag: i8, c: !pydev.struct<"C", {re: f32, im: f32}, align 16>}>, %ctx: !llvm.ptr) attributes {pydev.kernel, pydev.host_ctx} {
  %c = pydev.struct_extract %s["c"] : !pydev.struct<"H", {tag: i8, c: !pydev.struct<"C", {re: f32, im: f32}, align 16>}> -> !pydev.struct<"C", {re: f32, im: f32}, align 16>
  %re = pydev.struct_extract %c["re"] : !pydev.struct<"C", {re: f32, im: f32}, align 16> -> f32
  return
}
func.func @__pydev_block_host_kernel(%s: !pydev.struct<"H", {tag: i8, c: !pydev.struct<"C", {re: f32, im: f32}, align 16>}>, %ctx: !llvm.ptr) attributes {pydev.host_ctx} {
  func.call @host_kernel(%s, %ctx) : (!pydev.struct<"H", {tag: i8, c: !pydev.struct<"C", {re: f32, im: f32}, align 16>}>, !llvm.ptr) -> ()
  return
}
func.func @host_plain(%s: !pydev.struct<"P", {re: f32, im: f32}>, %ctx: !llvm.ptr) attributes {pydev.kernel, pydev.host_ctx} {
  return
}

// -----

// Interop functions of a gpu.module take and return the CUDA C++ layout
// (CUDA C++ calls them by their symbol): a 3-lane vector as an array, an
// align=16 struct padded and marked for `.param .align 16`, and the result
// over-aligned by a leading zero-length array. The function converts at
// entry and before its return; a call in the module converts the other way.
// CHECK-LABEL: func.func @iv3
// CHECK-SAME: (%[[A:.*]]: !llvm.array<3 x f32>, %[[C:.*]]: !llvm.struct<(f32, f32, array<8 x i8>)>) -> !llvm.struct<(array<0 x vector<16xi8>>, f32, f32, array<8 x i8>)>
// CHECK-SAME: pydev.param_aligns = array<i64: 0, 16>
// CHECK-DAG: llvm.extractvalue %[[A]][0] : !llvm.array<3 x f32>
// CHECK-DAG: llvm.extractvalue %[[C]][0] : !llvm.struct<(f32, f32, array<8 x i8>)>
// CHECK: %[[R:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[2] : !llvm.struct<(array<0 x vector<16xi8>>, f32, f32, array<8 x i8>)>
// CHECK: return %[[R]] : !llvm.struct<(array<0 x vector<16xi8>>, f32, f32, array<8 x i8>)>
// CHECK-LABEL: gpu.func @calls_iv3
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[2] : !llvm.array<3 x f32>
// CHECK: %[[RES:.*]] = func.call @iv3(%{{.*}}, %{{.*}}) : (!llvm.array<3 x f32>, !llvm.struct<(f32, f32, array<8 x i8>)>) -> !llvm.struct<(array<0 x vector<16xi8>>, f32, f32, array<8 x i8>)>
// CHECK: llvm.extractvalue %[[RES]][1] : !llvm.struct<(array<0 x vector<16xi8>>, f32, f32, array<8 x i8>)>
// Does not fire on a device function that is not interop, nor on an interop
// function whose types LLVM lays out as CUDA does.
// CHECK-LABEL: func.func @internal
// CHECK-SAME: (%{{.*}}: vector<3xf32>) -> vector<3xf32>
// CHECK-LABEL: func.func @plain_interop
// CHECK-SAME: (%{{.*}}: vector<2xf32>, %{{.*}}: !llvm.struct<(f32, f32)>) -> f32
// CHECK-NOT: pydev.param_aligns
gpu.module @m {
  func.func @iv3(%a: !pydev.vector<3 x f32>, %c: !pydev.struct<"C", {re: f32, im: f32}, align 16>) -> !pydev.struct<"C", {re: f32, im: f32}, align 16> attributes {pydev.interop} {
    %i0 = arith.constant 0 : i32
    %x = pydev.vector_extract %a[%i0] : <3 x f32>, i32 -> f32
    %re = pydev.struct_extract %c["re"] : <"C", {re: f32, im: f32}, align 16> -> f32
    %s = pydev.struct_create(%x, %re) : (f32, f32) -> !pydev.struct<"C", {re: f32, im: f32}, align 16>
    return %s : !pydev.struct<"C", {re: f32, im: f32}, align 16>
  }
  gpu.func @calls_iv3(%x: f32) kernel {
    %v = pydev.vector_create(%x, %x, %x) : (f32, f32, f32) -> !pydev.vector<3 x f32>
    %c = pydev.struct_create(%x, %x) : (f32, f32) -> !pydev.struct<"C", {re: f32, im: f32}, align 16>
    %r = func.call @iv3(%v, %c) : (!pydev.vector<3 x f32>, !pydev.struct<"C", {re: f32, im: f32}, align 16>) -> !pydev.struct<"C", {re: f32, im: f32}, align 16>
    %re = pydev.struct_extract %r["re"] : <"C", {re: f32, im: f32}, align 16> -> f32
    gpu.return
  }
  func.func @internal(%a: !pydev.vector<3 x f32>) -> !pydev.vector<3 x f32> {
    return %a : !pydev.vector<3 x f32>
  }
  func.func @plain_interop(%a: !pydev.vector<2 x f32>, %p: !pydev.struct<"P", {re: f32, im: f32}>) -> f32 attributes {pydev.interop} {
    %re = pydev.struct_extract %p["re"] : <"P", {re: f32, im: f32}> -> f32
    return %re : f32
  }
}

// -----

// A declared interop function (CUDA C++ defines it) is declared, and called,
// in the CUDA C++ layout too.
// CHECK-LABEL: func.func private @decl3
// CHECK-SAME: (!llvm.array<3 x f32>) -> !llvm.array<3 x f32>
// CHECK-LABEL: gpu.func @calls_decl3
// CHECK: %[[D:.*]] = func.call @decl3(%{{.*}}) : (!llvm.array<3 x f32>) -> !llvm.array<3 x f32>
// CHECK: llvm.extractvalue %[[D]][0] : !llvm.array<3 x f32>
gpu.module @d {
  func.func private @decl3(!pydev.vector<3 x f32>) -> !pydev.vector<3 x f32> attributes {pydev.interop}
  gpu.func @calls_decl3(%x: f32) kernel {
    %v = pydev.vector_create(%x, %x, %x) : (f32, f32, f32) -> !pydev.vector<3 x f32>
    %r = func.call @decl3(%v) : (!pydev.vector<3 x f32>) -> !pydev.vector<3 x f32>
    gpu.return
  }
}

// -----

// Host interop functions keep their register form: the C adapters of
// pydev._interop call them.
// CHECK-LABEL: func.func @host_interop
// CHECK-SAME: (%{{.*}}: vector<3xf32>) -> vector<3xf32>
func.func @host_interop(%a: !pydev.vector<3 x f32>) -> !pydev.vector<3 x f32> attributes {pydev.interop} {
  return %a : !pydev.vector<3 x f32>
}
