//===- PipelineRegistry.cpp - the dialects the pipelines need ------------===//
//
// `mlirRegisterAllDialects` links every upstream dialect (and, through its
// extensions, backends such as AMDGPU's): right for pydev-opt, too heavy for
// the Python wheel (DESIGN.md "Size"). This registers only what the cuda and
// host pipelines create or convert, with the interfaces their passes use:
// the conversion-to-LLVM interfaces, the NVVM target of gpu-module-to-binary
// and the LLVM IR translations of the builtin, LLVM, GPU and NVVM dialects.
// Likewise for the textual pass registry: the C API's `mlirRegister<Group>*`
// functions live in one object per group that references every pass of the
// group (all conversions: SPIRV, EmitC, ROCDL, OpenMP ...), so the wheel
// registers each pass it uses through its own inline registration function.
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include <string>
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/PDLExtension/PDLExtension.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

using namespace mlir;

extern "C" void pydevRegisterPipelineDialects(MlirDialectRegistry raw) {
  DialectRegistry &registry = *unwrap(raw);
  registry.insert<arith::ArithDialect, complex::ComplexDialect, cf::ControlFlowDialect, func::FuncDialect,
                  gpu::GPUDialect, index::IndexDialect, LLVM::LLVMDialect, NVVM::NVVMDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect, ub::UBDialect>();

  arith::registerConvertArithToLLVMInterface(registry);
  registerConvertComplexToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  registerConvertToLLVMDependentDialectLoading(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

// Rewrites without compiling Rust (docs/research.md): PDL patterns
// (pydev-apply-pdl) and transform-dialect scripts (transform-interpreter,
// with the PDL extension's pdl_match). Appended after the pipeline's
// dialects are loaded, so that a context loads them only when IR or a
// pass uses them.
extern "C" void pydevRegisterResearchDialects(MlirDialectRegistry raw) {
  DialectRegistry &registry = *unwrap(raw);
  registry.insert<pdl::PDLDialect, pdl_interp::PDLInterpDialect, transform::TransformDialect>();
  transform::registerPDLExtension(registry);
}

// The upstream passes of the cuda and host pipelines (passes/src/pipeline.rs).
extern "C" void pydevRegisterPipelinePasses() {
  registerCanonicalizer();
  registerSymbolDCE();
  registerConvertMathToFuncs();
  registerGpuNVVMAttachTarget();
  registerConvertComplexToStandardPass();
  arith::registerArithExpandOpsPass();
  arith::registerArithEmulateUnsupportedFloats();
  registerConvertGpuOpsToNVVMOps();
  registerConvertMathToLLVMPass();
  registerReconcileUnrealizedCastsPass();
  LLVM::registerDIScopeForLLVMFuncOpPass();
  registerGpuModuleToBinaryPass();
  registerSCFToControlFlowPass();
  registerConvertMathToLibmPass();
  registerConvertToLLVMPass();
  // General-purpose transforms for extra passes at the pipelines' points
  // (`passes=`, docs/research.md), beside pydev's own.
  registerCSE();
  registerLoopInvariantCodeMotion();
  registerSCCP();
  registerControlFlowSink();
  registerRemoveDeadValues();
  registerTopologicalSort();
  registerStripDebugInfo();
  registerPrintIRPass();
  registerInliner();
  transform::registerInterpreterPass();
  transform::registerPreloadLibraryPass();
}

// The C API can create a pass (pydev's are Rust external passes) but not
// name one in MLIR's textual pipeline registry. This registers one as a
// pipeline of one pass whose builder calls `add` (Rust: it builds the pass
// from its options text), so that `--pass-pipeline`, `passes=` of the JIT
// and upstream mlir-opt (the plugin) all resolve `pydev-x{opt=1}`.
// `argument` and `summary` must outlive the registry (static strings).
typedef bool (*PydevAddPass)(MlirOpPassManager pm, MlirStringRef argument, MlirStringRef options,
                             MlirStringCallback error, void *userData);

extern "C" void pydevRegisterPassByName(MlirStringRef argument, MlirStringRef summary, PydevAddPass add) {
  StringRef arg = unwrap(argument);
  registerPassPipeline(
      arg, unwrap(summary),
      [arg, add](OpPassManager &pm, StringRef options,
                 function_ref<LogicalResult(const Twine &)> errorHandler) -> LogicalResult {
        std::string message;
        auto append = [](MlirStringRef text, void *data) {
          static_cast<std::string *>(data)->append(text.data, text.length);
        };
        if (add(wrap(&pm), wrap(arg), wrap(options), append, &message))
          return success();
        return errorHandler(message);
      },
      [](function_ref<void(const detail::PassOptions &)>) {});
}
