// RUN: pydev-opt %s --split-input-file --pydev-specialize-target | FileCheck %s --check-prefix=SM90
// RUN: pydev-opt %s --split-input-file --pydev-specialize-target=target=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: pydev-opt %s --split-input-file --pydev-specialize-target=target=host | FileCheck %s --check-prefix=HOST
// RUN: pydev-opt %s --split-input-file --pydev-specialize-target --canonicalize | FileCheck %s --check-prefix=DEAD
// RUN: not pydev-opt %s --pydev-specialize-target=target=sm_42 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: unknown target 'sm_42', expected host or sm_XX

// SM90-LABEL: func.func @descriptions
// SM90-NEXT: arith.constant false
// SM90-NEXT: arith.constant true
// SM90-NEXT: arith.constant true
// SM90-NEXT: arith.constant true
// SM90-NEXT: arith.constant true
// SM90-NEXT: arith.constant true
// SM90-NOT: pydev.target
// SM80-LABEL: func.func @descriptions
// SM80-NEXT: arith.constant false
// SM80-NEXT: arith.constant true
// SM80-NEXT: arith.constant false
// SM80-NEXT: arith.constant false
// SM80-NEXT: arith.constant false
// SM80-NEXT: arith.constant true
// HOST-LABEL: func.func @descriptions
// HOST-NEXT: arith.constant true
// HOST-NEXT: arith.constant false
// HOST-NEXT: arith.constant false
// HOST-NEXT: arith.constant false
// HOST-NEXT: arith.constant true
// HOST-NEXT: arith.constant true
func.func @descriptions() -> (i1, i1, i1, i1, i1, i1) {
  %0 = pydev.target #pydev.target<is_host>
  %1 = pydev.target #pydev.target<is_device>
  %2 = pydev.target #pydev.target<is_exactly(sm_90)>
  // sm_90 > sm_80 but not sm_80 itself; for sm_80 neither.
  %3 = pydev.target #pydev.target<and(provides(sm_80), not(is_exactly(sm_80)))>
  %4 = pydev.target #pydev.target<or(is_host, provides(sm_90))>
  %5 = pydev.target #pydev.target<or(any_target, no_target)>
  return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, i1
}

// -----

// With canonicalize, the branch a false target guards is gone, device-only
// ops and all.
// DEAD-LABEL: func.func @dead_branch
// DEAD-NOT: pydev.syncthreads
// DEAD: pydev.constant 1 : si32
// DEAD-NOT: cf.cond_br
func.func @dead_branch() -> si32 {
  %t = pydev.target #pydev.target<is_host>
  cf.cond_br %t, ^host, ^device
^host:
  pydev.syncthreads
  %a = pydev.constant 0 : si32
  cf.br ^end(%a : si32)
^device:
  %b = pydev.constant 1 : si32
  cf.br ^end(%b : si32)
^end(%r: si32):
  return %r : si32
}

// -----

// Does not fire.
// SM90-LABEL: func.func @no_target
// SM90-NEXT: return
func.func @no_target() {
  return
}
