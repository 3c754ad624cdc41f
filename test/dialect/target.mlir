// RUN: pydev-opt %s | pydev-opt | FileCheck %s
// Round trip of #pydev.target and pydev.target (spec: Target Specialization).

// CHECK-LABEL: func.func @leaves
func.func @leaves() {
  // CHECK: pydev.target <is_host>
  %0 = pydev.target #pydev.target<is_host>
  // CHECK: pydev.target <is_device>
  %1 = pydev.target #pydev.target<is_device>
  // CHECK: pydev.target <any_target>
  %2 = pydev.target #pydev.target<any_target>
  // CHECK: pydev.target <no_target>
  %3 = pydev.target #pydev.target<no_target>
  // CHECK: pydev.target <is_exactly(sm_90)>
  %4 = pydev.target #pydev.target<is_exactly(sm_90)>
  // CHECK: pydev.target <provides(sm_80)>
  %5 = pydev.target #pydev.target<provides(sm_80)>
  return
}

// CHECK-LABEL: func.func @nodes
func.func @nodes() {
  // CHECK: pydev.target <or(is_host, and(provides(sm_80), not(is_exactly(sm_90))))>
  %0 = pydev.target #pydev.target<or(is_host, and(provides(sm_80), not(is_exactly(sm_90))))>
  return
}
