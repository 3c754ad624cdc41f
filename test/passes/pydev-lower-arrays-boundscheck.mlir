// RUN: pydev-opt %s --verify-diagnostics --pydev-lower-arrays="target=host boundscheck=1" | FileCheck %s

// Each index is compared (unsigned, so negatives fail too) with its extent;
// a bad one is reported with its location and replaced by 0.
// CHECK: pydev.host_locations = ["{{.*}}pydev-lower-arrays-boundscheck.mlir:16:8"]
// CHECK-LABEL: func.func @checked
// CHECK: %[[E:.*]] = llvm.extractvalue %{{.*}}[1, 0] : !llvm.struct<(ptr, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[BAD:.*]] = arith.cmpi uge, %[[I:.*]], %[[E]] : i64
// CHECK: scf.if %[[BAD]] {
// CHECK:   func.call @pydev_rt_error(%{{.*}}, %{{.*}}, %{{.*}}, %[[I]], %[[E]])
// CHECK: arith.select %[[BAD]], %{{.*}}, %[[I]] : i64
// CHECK: llvm.extractvalue %{{.*}}[1, 1]
// CHECK: arith.cmpi uge
func.func private @pydev_rt_error(!llvm.ptr, i32, i32, i64, i64)
func.func @checked(%a: !pydev.array<f32, 2>, %i: i64, %j: i64, %ctx: !llvm.ptr) -> f32 attributes {pydev.host_ctx} {
  %x = pydev.array_load %a[%i, %j] : !pydev.array<f32, 2>, i64, i64 -> f32
  return %x : f32
}
