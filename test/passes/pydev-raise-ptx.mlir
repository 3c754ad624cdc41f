// RUN: pydev-opt %s --split-input-file --verify-diagnostics --pydev-raise-ptx | FileCheck %s

// A module marked by the lowering gets the PTX ISA it needs; the mark goes.
// CHECK-LABEL: gpu.module @needs_84
// CHECK-SAME: [#nvvm.target<chip = "sm_80", features = "+ptx84">]
// CHECK-NOT: pydev.min_ptx
gpu.module @needs_84 [#nvvm.target<chip = "sm_80", features = "+ptx80">] attributes {pydev.min_ptx = 84 : i64} {
}

// -----

// Does not fire: no mark, or a target that already asks for more.
// CHECK-LABEL: gpu.module @unmarked
// CHECK-SAME: features = "+ptx80"
gpu.module @unmarked [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
}
// CHECK-LABEL: gpu.module @newer
// CHECK-SAME: features = "+ptx86"
gpu.module @newer [#nvvm.target<chip = "sm_100", features = "+ptx86">] attributes {pydev.min_ptx = 83 : i64} {
}

// -----

// expected-error @+1 {{gpu.module needs PTX ISA 8.3 but has no nvvm target: run nvvm-attach-target first}}
gpu.module @no_target attributes {pydev.min_ptx = 83 : i64} {
}
