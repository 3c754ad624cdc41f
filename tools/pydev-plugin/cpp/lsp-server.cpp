//===- lsp-server.cpp - pydev-lsp-server: mlir-lsp-server with pydev -------===//
//
// Upstream mlir-lsp-server takes no --load-dialect-plugin, so this is
// mlir-lsp-server's own main (every upstream dialect and extension) plus the
// pydev dialect from libpydev_plugin.so. Linked to the shared libMLIR.so, it
// is a few hundred KB (docs/ARCHITECTURE.md, "Tools").
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlirGetDialectPluginInfo().registerDialectRegistryCallbacks(&registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
