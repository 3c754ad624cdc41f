//===- Plugin.cpp - pydev passes in MLIR's pass registry ------------------===//
//
// The C API can create a pass (mlirCreateExternalPass: pydev's passes are
// Rust external passes) but not name one in MLIR's textual pipeline
// registry. This registers each pydev pass as a pipeline of one pass, whose
// builder calls back into Rust with the options text, so that upstream
// mlir-opt resolves `--pydev-lower-atomics`, `pydev-specialize-target{target=
// sm_80}` in --pass-pipeline, and lists them in --help. The plugin entry
// points (mlirGetDialectPluginInfo, mlirGetPassPluginInfo) are in Rust
// (src/lib.rs), since a cdylib exports only Rust symbols.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/Pass.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/PassRegistry.h"

#include <string>

using namespace mlir;

extern "C" {
/// Rust (src/lib.rs): adds the pydev pass `argument` with `options` to `pm`;
/// on failure, hands the message to `error` and returns false.
bool pydevPluginAddPass(MlirOpPassManager pm, MlirStringRef argument, MlirStringRef options,
                        MlirStringCallback error, void *userData);

/// Registers the pydev pass `argument` (static strings: they must outlive
/// the registry) under its name.
void pydevPluginRegisterPass(MlirStringRef argument, MlirStringRef summary) {
  StringRef arg = unwrap(argument);
  registerPassPipeline(
      arg, unwrap(summary),
      [arg](OpPassManager &pm, StringRef options,
            function_ref<LogicalResult(const Twine &)> errorHandler) -> LogicalResult {
        std::string message;
        auto append = [](MlirStringRef text, void *data) {
          static_cast<std::string *>(data)->append(text.data, text.length);
        };
        if (pydevPluginAddPass(wrap(&pm), wrap(arg), wrap(options), append, &message))
          return success();
        return errorHandler(message);
      },
      [](function_ref<void(const detail::PassOptions &)>) {});
}
}
