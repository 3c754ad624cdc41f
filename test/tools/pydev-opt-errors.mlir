// Errors of the tool itself name what is wrong.
// RUN: not pydev-opt %s --pydev-no-such-pass 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: pydev-opt: error: unknown pydev pass 'pydev-no-such-pass'
// RUN: not pydev-opt %s --pydev-lower-arrays=colour=red 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: unknown option 'colour' of pass 'pydev-lower-arrays' (known: target, boundscheck)
// RUN: not pydev-opt %s --pydev-pipeline="cuda{chip=sm_42}" 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: unsupported chip 'sm_42': expected one of sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_101, sm_103, sm_110, sm_120, sm_121
// RUN: not pydev-opt %s --pydev-pipeline="host{boundscheck=2}" 2>&1 | FileCheck %s --check-prefix=HOSTOPT
// HOSTOPT: boundscheck must be 0 or 1, got '2'
// RUN: not pydev-opt %s --no-such-upstream-pass 2>&1 | FileCheck %s --check-prefix=UP
// UP: unknown pass or option '--no-such-upstream-pass'
// RUN: pydev-opt %s --canonicalize --cse | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: func.func @f
func.func @f() {
  return
}
