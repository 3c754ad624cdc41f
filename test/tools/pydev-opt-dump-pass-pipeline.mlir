// --dump-pass-pipeline: the pipeline about to run (standard error), laid
// out as mlir-opt lays it out; the pass manager of pydev-opt is op-agnostic
// (`any`). Pass flags, --pass-pipeline and whole pydev pipelines.
// RUN: pydev-opt %s --pydev-lower-atomics --cse --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLAGS
// RUN: pydev-opt %s --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' --pydev-promote-types{fastmath=fast} --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: pydev-opt %s --pydev-pipeline=cuda{chip=sm_80} --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: pydev-opt %s --pydev-pipeline=host --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST

// FLAGS: Pass Manager with 2 passes:
// FLAGS-NEXT: any(
// FLAGS-NEXT:   pydev-lower-atomics,
// FLAGS-NEXT:   cse
// FLAGS-NEXT: )

// NESTED: Pass Manager with 3 passes:
// NESTED-NEXT: any(
// NESTED-NEXT:   func.func(
// NESTED-NEXT:     cse
// NESTED-NEXT:   ),
// NESTED-NEXT:   symbol-dce,
// NESTED-NEXT:   pydev-promote-types
// NESTED-NEXT: )

// CUDA: Pass Manager with {{[0-9]+}} passes:
// CUDA-NEXT: any(
// CUDA-NEXT:   pydev-select-kernel,
// CUDA-NEXT:   symbol-dce,
// CUDA-NEXT:   pydev-specialize-target,
// CUDA: pydev-expand-fp-class,
// CUDA: pydev-lower-sync-nvvm,
// CUDA: nvvm-attach-target{{.*}}chip=sm_80
// CUDA: gpu.module(
// CUDA: convert-gpu-to-nvvm
// CUDA: gpu-module-to-binary{format=isa

// HOST: Pass Manager with {{[0-9]+}} passes:
// HOST-NEXT: any(
// HOST-NEXT:   pydev-select-kernel,
// HOST-NEXT:   symbol-dce,
// HOST-NEXT:   pydev-specialize-target,
// HOST: pydev-expand-fp-class,
// HOST: pydev-lower-simt-host,
// HOST: pydev-host-barrier-fission,
// HOST: pydev-lower-math-libm,
// HOST: convert-math-to-llvm
// HOST: convert-to-llvm
// HOST-NOT: nvvm
// HOST: )

func.func @f(%a: i32) -> i32 {
  return %a : i32
}
