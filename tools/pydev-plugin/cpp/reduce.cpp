//===- reduce.cpp - pydev-reduce: mlir-reduce with pydev ------------------===//
//
// Upstream mlir-reduce takes no plugins, so this is mlir-reduce's own main
// (every upstream dialect and pass) plus the pydev dialect and passes from
// libpydev_plugin.so. Linked to the shared libMLIR.so, it is a few hundred
// KB (docs/ARCHITECTURE.md, "Tools").
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlirGetPassPluginInfo().registerPassRegistryCallbacks();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlirGetDialectPluginInfo().registerDialectRegistryCallbacks(&registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context));
}
