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
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

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

// pydev-lower-math-libm (passes/src/lower_math_libm.rs): upstream's
// MathToLibm patterns, with only scalar math.expm1 and math.log1p illegal, so
// that no other op changes. Vectors stay legal: unrolling them would create
// vector-dialect ops, which the pipelines do not load.
bool pydevLowerMathLibm(MlirOperation root) {
  Operation *op = unwrap(root);
  MLIRContext *context = op->getContext();
  RewritePatternSet patterns(context);
  populateMathToLibmConversionPatterns(patterns);
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  auto vector = [](Operation *op) { return isa<mlir::VectorType>(op->getResult(0).getType()); };
  target.addDynamicallyLegalOp<math::ExpM1Op>(vector);
  target.addDynamicallyLegalOp<math::Log1pOp>(vector);
  return succeeded(applyPartialConversion(op, target, std::move(patterns)));
}

} // extern "C"

// Constructors, kind tests and parameter accessors of every pydev type and
// attribute, generated from pydev.td by dialect/build/defs.rs.
#include "defs.cpp.inc"
