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
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
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

namespace {
// arith.select of two values of a converted type (canonicalize folds a
// two-way join of arrays into one): the select of their converted values.
struct SelectConversion : OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, type, adaptor.getCondition(), adaptor.getTrueValue(),
                                                 adaptor.getFalseValue());
    return success();
  }
};
} // namespace

extern "C" {

// pydev-lower-arrays (passes/src/lower_arrays.rs): the block arguments of
// cf successors, the results, iter_args and region arguments of scf ops and
// the operands and result of arith.select whose type is a key of `from`
// take the type at the same index of `to` (an array's ABI descriptor, which
// the Rust pass computes), by upstream's structural type conversions; values
// cross the two types through unrealized_conversion_cast, as the rest of the
// pass does. Other types are left as they are, and so is every other op.
bool pydevConvertStructuralTypes(MlirOperation root, intptr_t count, const MlirType *from, const MlirType *to) {
  Operation *op = unwrap(root);
  MLIRContext *context = op->getContext();
  llvm::DenseMap<Type, Type> map;
  for (intptr_t i = 0; i < count; ++i)
    map[unwrap(from[i])] = unwrap(to[i]);
  TypeConverter converter;
  // Conversions are tried last-added first: the map, then the identity.
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([map](Type type) -> std::optional<Type> {
    auto it = map.find(type);
    if (it == map.end())
      return std::nullopt;
    return it->second;
  });
  auto cast = [](OpBuilder &builder, Type type, ValueRange inputs, Location loc) -> Value {
    return UnrealizedConversionCastOp::create(builder, loc, type, inputs).getResult(0);
  };
  converter.addSourceMaterialization(cast);
  converter.addTargetMaterialization(cast);
  RewritePatternSet patterns(context);
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  cf::populateCFStructuralTypeConversionsAndLegality(converter, patterns, target);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
  patterns.add<SelectConversion>(converter, context);
  target.addDynamicallyLegalOp<arith::SelectOp>(
      [&](arith::SelectOp select) { return converter.isLegal(select.getOperation()); });
  return succeeded(applyPartialConversion(op, target, std::move(patterns)));
}

} // extern "C"

// Constructors, kind tests and parameter accessors of every pydev type and
// attribute, generated from pydev.td by dialect/build/defs.rs.
#include "defs.cpp.inc"
