//===- CAPI.cpp - the C API the Rust crate binds (dialect/src/capi.rs) ----===//
//
// Registration of the dialect with an MLIR context, plus constructors and
// accessors for pydev types and attributes that the generic C API lacks.
// Enum values cross the boundary as the integers pydev.td assigns.
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

// Arrays.
bool pydevTypeIsArray(MlirType type) { return isa<ArrayType>(unwrap(type)); }
MlirType pydevArrayTypeGet(MlirContext ctx, MlirType element, unsigned rank, int space,
                           int layout, bool readonly) {
  return wrap(ArrayType::get(unwrap(ctx), unwrap(element), rank,
                             static_cast<MemorySpace>(space), static_cast<Layout>(layout),
                             readonly));
}
MlirType pydevArrayTypeGetElementType(MlirType type) {
  return wrap(cast<ArrayType>(unwrap(type)).getElementType());
}
unsigned pydevArrayTypeGetRank(MlirType type) { return cast<ArrayType>(unwrap(type)).getRank(); }
int pydevArrayTypeGetSpace(MlirType type) {
  return static_cast<int>(cast<ArrayType>(unwrap(type)).getSpace());
}
int pydevArrayTypeGetLayout(MlirType type) {
  return static_cast<int>(cast<ArrayType>(unwrap(type)).getLayout());
}
bool pydevArrayTypeIsReadonly(MlirType type) {
  return cast<ArrayType>(unwrap(type)).getReadonly();
}

// Vectors.
bool pydevTypeIsVector(MlirType type) { return isa<pydev::VectorType>(unwrap(type)); }
MlirType pydevVectorTypeGet(MlirContext ctx, unsigned lanes, MlirType element) {
  return wrap(pydev::VectorType::get(unwrap(ctx), lanes, unwrap(element)));
}
unsigned pydevVectorTypeGetLanes(MlirType type) {
  return cast<pydev::VectorType>(unwrap(type)).getLanes();
}
MlirType pydevVectorTypeGetElementType(MlirType type) {
  return wrap(cast<pydev::VectorType>(unwrap(type)).getElementType());
}

// Structs.
bool pydevTypeIsStruct(MlirType type) { return isa<StructType>(unwrap(type)); }
MlirType pydevStructTypeGet(MlirContext ctx, MlirStringRef name, intptr_t n,
                            const MlirStringRef *fieldNames, const MlirType *fieldTypes,
                            uint64_t align) {
  SmallVector<StringAttr> names;
  SmallVector<Type> types;
  for (intptr_t i = 0; i < n; ++i) {
    names.push_back(StringAttr::get(unwrap(ctx), unwrap(fieldNames[i])));
    types.push_back(unwrap(fieldTypes[i]));
  }
  return wrap(StructType::get(unwrap(ctx), unwrap(name), names, types, align));
}
MlirStringRef pydevStructTypeGetName(MlirType type) {
  return wrap(cast<StructType>(unwrap(type)).getName());
}
intptr_t pydevStructTypeGetNumFields(MlirType type) {
  return cast<StructType>(unwrap(type)).getFieldTypes().size();
}
MlirStringRef pydevStructTypeGetFieldName(MlirType type, intptr_t i) {
  return wrap(cast<StructType>(unwrap(type)).getFieldNames()[i].getValue());
}
MlirType pydevStructTypeGetFieldType(MlirType type, intptr_t i) {
  return wrap(cast<StructType>(unwrap(type)).getFieldTypes()[i]);
}
uint64_t pydevStructTypeGetAlign(MlirType type) {
  return cast<StructType>(unwrap(type)).getAlign();
}

// Tuples.
bool pydevTypeIsTuple(MlirType type) { return isa<pydev::TupleType>(unwrap(type)); }
MlirType pydevTupleTypeGet(MlirContext ctx, intptr_t n, const MlirType *types) {
  SmallVector<Type> elements;
  for (intptr_t i = 0; i < n; ++i)
    elements.push_back(unwrap(types[i]));
  return wrap(pydev::TupleType::get(unwrap(ctx), elements));
}
intptr_t pydevTupleTypeGetNumTypes(MlirType type) {
  return cast<pydev::TupleType>(unwrap(type)).getTypes().size();
}
MlirType pydevTupleTypeGetType(MlirType type, intptr_t i) {
  return wrap(cast<pydev::TupleType>(unwrap(type)).getTypes()[i]);
}

// Warp masks and atomic references.
bool pydevTypeIsWarpMask(MlirType type) { return isa<WarpMaskType>(unwrap(type)); }
MlirType pydevWarpMaskTypeGet(MlirContext ctx) { return wrap(WarpMaskType::get(unwrap(ctx))); }
bool pydevTypeIsAtomicRef(MlirType type) { return isa<AtomicRefType>(unwrap(type)); }
MlirType pydevAtomicRefTypeGet(MlirContext ctx, MlirType element, int space) {
  return wrap(AtomicRefType::get(unwrap(ctx), unwrap(element), static_cast<MemorySpace>(space)));
}
MlirType pydevAtomicRefTypeGetElementType(MlirType type) {
  return wrap(cast<AtomicRefType>(unwrap(type)).getElementType());
}
int pydevAtomicRefTypeGetSpace(MlirType type) {
  return static_cast<int>(cast<AtomicRefType>(unwrap(type)).getSpace());
}

// Enum attributes: the integer value of any pydev enum attribute, or -1.
int64_t pydevEnumAttrGetValue(MlirAttribute attr) {
  Attribute a = unwrap(attr);
  if (auto e = dyn_cast<MemoryOrderAttr>(a))
    return static_cast<int64_t>(e.getValue());
  if (auto e = dyn_cast<ScopeAttr>(a))
    return static_cast<int64_t>(e.getValue());
  if (auto e = dyn_cast<AtomicRMWKindAttr>(a))
    return static_cast<int64_t>(e.getValue());
  if (auto e = dyn_cast<CmpPredicateAttr>(a))
    return static_cast<int64_t>(e.getValue());
  if (auto e = dyn_cast<VoteKindAttr>(a))
    return static_cast<int64_t>(e.getValue());
  if (auto e = dyn_cast<ShuffleKindAttr>(a))
    return static_cast<int64_t>(e.getValue());
  if (auto e = dyn_cast<LayoutAttr>(a))
    return static_cast<int64_t>(e.getValue());
  return -1;
}

// Target descriptions.
bool pydevAttributeIsTarget(MlirAttribute attr) { return isa<TargetAttr>(unwrap(attr)); }
int pydevTargetAttrGetKind(MlirAttribute attr) {
  return static_cast<int>(cast<TargetAttr>(unwrap(attr)).getKind());
}
unsigned pydevTargetAttrGetSm(MlirAttribute attr) { return cast<TargetAttr>(unwrap(attr)).getSm(); }
intptr_t pydevTargetAttrGetNumOperands(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getOperands().size();
}
MlirAttribute pydevTargetAttrGetOperand(MlirAttribute attr, intptr_t i) {
  return wrap(cast<TargetAttr>(unwrap(attr)).getOperands()[i]);
}

} // extern "C"
