//===- CAPI.cpp - the C API the Rust crate binds (dialect/src/capi.rs) ----===//
//
// Registration of the dialect with an MLIR context and the layout queries;
// constructors and accessors of pydev types and attributes are generated
// (defs.cpp.inc). Enum values cross the boundary as the integers pydev.td
// assigns.
//
//===----------------------------------------------------------------------===//

#include "PydevDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::pydev;

extern "C" {
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Pydev, pydev);
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Pydev, pydev, mlir::pydev::PydevDialect)

extern "C" {

bool pydevTypeGetLayout(MlirType type, uint64_t *size, uint64_t *align) {
  auto layout = getTypeLayout(unwrap(type));
  if (!layout)
    return false;
  *size = layout->size;
  *align = layout->align;
  return true;
}

bool pydevTypeGetStorageLayout(MlirType type, uint64_t *size, uint64_t *align) {
  auto layout = getStorageLayout(unwrap(type));
  if (!layout)
    return false;
  *size = layout->size;
  *align = layout->align;
  return true;
}

bool pydevTypeGetFieldOffset(MlirType type, unsigned index, uint64_t *offset) {
  auto result = getFieldOffset(unwrap(type), index);
  if (result)
    *offset = *result;
  return result.has_value();
}

} // extern "C"

// Constructors, kind tests and parameter accessors of every pydev type and
// attribute, generated from pydev.td by dialect/build/defs.rs.
#include "defs.cpp.inc"
