// RUN: pydev-opt %s --split-input-file --pydev-host-adapters=functions=clamp,odd.name | FileCheck %s
// RUN: pydev-opt %s --split-input-file --pydev-host-adapters | FileCheck %s --check-prefix=NONE

// Listed declarations and every call of them go to the C-ABI adapters;
// a defined function and an unlisted declaration keep their names.
// CHECK-LABEL: module
// CHECK: func.func private @__pydev_cabi_clamp(si32, si32) -> si32
// CHECK: func.func private @__pydev_cabi_odd.name(f32)
// CHECK: func.func private @keep(si32) -> si32
// CHECK: func.func @k(%[[A:.*]]: si32, %[[B:.*]]: f32)
// CHECK: call @__pydev_cabi_clamp(%[[A]], %[[A]]) : (si32, si32) -> si32
// CHECK: call @__pydev_cabi_odd.name(%[[B]]) : (f32) -> ()
// CHECK: call @keep(
// CHECK: call @__pydev_cabi_clamp(
// CHECK-NOT: @clamp
// NONE-NOT: __pydev_cabi_
module {
  func.func private @clamp(si32, si32) -> si32
  func.func private @"odd.name"(f32)
  func.func private @keep(si32) -> si32
  func.func @k(%a: si32, %b: f32) attributes {pydev.kernel} {
    %0 = call @clamp(%a, %a) : (si32, si32) -> si32
    call @"odd.name"(%b) : (f32) -> ()
    %1 = call @keep(%0) : (si32) -> si32
    %2 = call @clamp(%1, %0) : (si32, si32) -> si32
    return
  }
}

// -----

// Does not fire: `clamp` is defined here (a function with a body), not
// declared, so it and its calls keep their names.
// CHECK-LABEL: module
// CHECK: func.func private @clamp(%{{.*}}: si32, %{{.*}}: si32) -> si32
// CHECK: call @clamp(
// CHECK-NOT: __pydev_cabi_
module {
  func.func private @clamp(%x: si32, %y: si32) -> si32 {
    return %x : si32
  }
  func.func @k(%a: si32) attributes {pydev.kernel} {
    %0 = call @clamp(%a, %a) : (si32, si32) -> si32
    return
  }
}
