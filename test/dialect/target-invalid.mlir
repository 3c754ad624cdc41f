// RUN: pydev-opt %s --split-input-file --verify-diagnostics

func.func @unknown_leaf() {
  // expected-error @+1 {{unknown target description 'is_gpu'}}
  %0 = pydev.target #pydev.target<is_gpu>
  return
}

// -----

func.func @unknown_arch() {
  // expected-error @+1 {{unknown architecture 'sm_99'}}
  %0 = pydev.target #pydev.target<provides(sm_99)>
  return
}

// -----

func.func @not_two_operands() {
  // expected-error @+1 {{target 'not' takes exactly one operand}}
  %0 = pydev.target #pydev.target<not(is_host, is_device)>
  return
}
