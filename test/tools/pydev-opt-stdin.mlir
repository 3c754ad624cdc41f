// A malformed pydev op piped into pydev-opt: a diagnostic with its location,
// the source line and a caret, and a non-zero exit.
// RUN: cat %S/Inputs/malformed-vote.mlir | not pydev-opt 2>&1 | FileCheck %s
// CHECK: <stdin>:2:8: error: 'pydev.vote' op expected 2 operands, but found 1
// CHECK-NEXT: {{^}}  %0 = "pydev.vote"
// CHECK-NEXT: {{^}}       ^
