//===- PydevDialect.cpp - parsers, printers, verifiers, layouts -----------===//
//
// The hand-written parts of the pydev dialect: what ODS cannot say
// declaratively. Verifier messages are lower-case and name the entity at
// fault, like upstream MLIR's.
//
//===----------------------------------------------------------------------===//

#include "PydevDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::pydev;

#include "PydevDialect.cpp.inc"
#include "PydevEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "PydevAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "PydevTypes.cpp.inc"

#define GET_OP_CLASSES
#include "PydevOps.cpp.inc"

void PydevDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "PydevAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "PydevTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "PydevOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

namespace {
/// Lays out members one after another as a C compiler does.
struct StructLayoutBuilder {
  uint64_t size = 0, align = 1;
  SmallVector<uint64_t> offsets;
  bool add(Type member) { return add(getTypeLayout(member)); }
  bool add(std::optional<TypeLayout> layout) {
    if (!layout)
      return false;
    size = llvm::alignTo(size, layout->align);
    offsets.push_back(size);
    size += layout->size;
    align = std::max(align, layout->align);
    return true;
  }
  TypeLayout finish(uint64_t minAlign) {
    align = std::max(align, minAlign);
    return {llvm::alignTo(size, align), align};
  }
};
} // namespace

static bool isVectorElement(Type type) {
  if (auto i = dyn_cast<IntegerType>(type))
    return llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth());
  return isa<Float8E4M3FNType, Float8E5M2Type, Float16Type, BFloat16Type, Float32Type,
             Float64Type>(type);
}

std::optional<TypeLayout> mlir::pydev::getTypeLayout(Type type) {
  if (auto i = dyn_cast<IntegerType>(type)) {
    if (i.getWidth() == 1)
      return TypeLayout{1, 1};
    if (i.getWidth() % 8 != 0 || i.getWidth() > 128)
      return std::nullopt;
    return TypeLayout{i.getWidth() / 8u, i.getWidth() / 8u};
  }
  if (auto f = dyn_cast<FloatType>(type)) {
    if (f.getWidth() % 8 != 0)
      return std::nullopt;
    return TypeLayout{f.getWidth() / 8u, f.getWidth() / 8u};
  }
  if (isa<IndexType>(type))
    return TypeLayout{8, 8};
  if (auto c = dyn_cast<ComplexType>(type)) {
    auto e = getTypeLayout(c.getElementType());
    if (!e)
      return std::nullopt;
    return TypeLayout{2 * e->size, e->align};
  }
  if (auto v = dyn_cast<pydev::VectorType>(type)) {
    auto e = getTypeLayout(v.getElementType());
    if (!e)
      return std::nullopt;
    uint64_t size = v.getLanes() * e->size;
    uint64_t align = v.getLanes() == 3 ? e->size : std::min<uint64_t>(size, 16);
    return TypeLayout{size, align};
  }
  if (auto s = dyn_cast<StructType>(type)) {
    StructLayoutBuilder b;
    for (Type t : s.getFieldTypes())
      if (!b.add(t))
        return std::nullopt;
    return b.finish(s.getAlign());
  }
  if (auto t = dyn_cast<pydev::TupleType>(type)) {
    StructLayoutBuilder b;
    for (Type e : t.getTypes())
      if (!b.add(e))
        return std::nullopt;
    return b.finish(1);
  }
  if (auto a = dyn_cast<ArrayType>(type))
    return TypeLayout{8 + 16 * uint64_t(a.getRank()), 8};
  if (isa<WarpMaskType>(type))
    return TypeLayout{4, 4};
  if (isa<AtomicRefType>(type))
    return TypeLayout{8, 8};
  return std::nullopt;
}

std::optional<TypeLayout> mlir::pydev::getStorageLayout(Type type) {
  if (auto i = dyn_cast<IntegerType>(type)) {
    uint64_t bytes = llvm::PowerOf2Ceil(llvm::divideCeil(i.getWidth(), 8));
    return TypeLayout{bytes, bytes};
  }
  if (isa<IndexType, LLVM::LLVMPointerType>(type))
    return TypeLayout{8, 8};
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return getTypeLayout(type);
  if (auto a = dyn_cast<LLVM::LLVMArrayType>(type)) {
    auto e = getStorageLayout(a.getElementType());
    if (!e)
      return std::nullopt;
    return TypeLayout{e->size * a.getNumElements(), e->align};
  }
  if (auto s = dyn_cast<LLVM::LLVMStructType>(type)) {
    if (s.isPacked() || s.isIdentified())
      return std::nullopt;
    StructLayoutBuilder b;
    for (Type t : s.getBody())
      if (!b.add(getStorageLayout(t)))
        return std::nullopt;
    return b.finish(1);
  }
  return std::nullopt;
}

std::optional<uint64_t> mlir::pydev::getFieldOffset(Type aggregate, unsigned index) {
  ArrayRef<Type> members;
  if (auto s = dyn_cast<StructType>(aggregate))
    members = s.getFieldTypes();
  else if (auto t = dyn_cast<pydev::TupleType>(aggregate))
    members = t.getTypes();
  if (index >= members.size())
    return std::nullopt;
  StructLayoutBuilder b;
  for (Type t : members.take_front(index + 1))
    if (!b.add(t))
      return std::nullopt;
  return b.offsets.back();
}

static uint64_t sizeOf(Type type) {
  auto layout = getTypeLayout(type);
  return layout ? layout->size : ~uint64_t(0);
}

//===----------------------------------------------------------------------===//
// Target attribute
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 TargetKind kind, unsigned sm,
                                 ArrayRef<Attribute> operands) {
  bool hasSm = kind == TargetKind::is_exactly || kind == TargetKind::provides;
  if (hasSm && !symbolizeSmArch(sm))
    return emitError() << "target '" << stringifyTargetKind(kind)
                       << "' names an unknown architecture sm_" << sm;
  if (!hasSm && sm != 0)
    return emitError() << "target '" << stringifyTargetKind(kind)
                       << "' takes no architecture";
  bool isNode = kind == TargetKind::and_ || kind == TargetKind::or_ || kind == TargetKind::not_;
  if (!isNode && !operands.empty())
    return emitError() << "target '" << stringifyTargetKind(kind) << "' takes no operands";
  if (kind == TargetKind::not_ && operands.size() != 1)
    return emitError() << "target 'not' takes exactly one operand";
  if (isNode && operands.empty())
    return emitError() << "target '" << stringifyTargetKind(kind)
                       << "' takes at least one operand";
  for (Attribute operand : operands)
    if (!isa<TargetAttr>(operand))
      return emitError() << "target operands must be target descriptions, got " << operand;
  return success();
}

static Attribute parseTarget(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseKeyword(&word))
    return {};
  std::optional<TargetKind> kind = symbolizeTargetKind(word);
  if (!kind) {
    parser.emitError(loc) << "unknown target description '" << word
                          << "', expected one of is_host, is_device, any_target, no_target, "
                             "is_exactly, provides, and, or, not";
    return {};
  }
  unsigned sm = 0;
  SmallVector<Attribute> operands;
  if (*kind == TargetKind::is_exactly || *kind == TargetKind::provides) {
    SMLoc smLoc;
    StringRef arch;
    if (parser.parseLParen() || (smLoc = parser.getCurrentLocation(), parser.parseKeyword(&arch)))
      return {};
    std::optional<SmArch> parsed = symbolizeSmArch(arch);
    if (!parsed) {
      parser.emitError(smLoc) << "unknown architecture '" << arch << "'";
      return {};
    }
    sm = static_cast<unsigned>(*parsed);
    if (parser.parseRParen())
      return {};
  } else if (*kind == TargetKind::and_ || *kind == TargetKind::or_ ||
             *kind == TargetKind::not_) {
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&]() -> ParseResult {
          Attribute operand = parseTarget(parser);
          if (!operand)
            return failure();
          operands.push_back(operand);
          return success();
        }))
      return {};
  }
  return TargetAttr::getChecked([&] { return parser.emitError(loc); }, ctx, *kind, sm,
                                operands);
}

Attribute TargetAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  Attribute result = parseTarget(parser);
  if (!result || parser.parseGreater())
    return {};
  return result;
}

static void printTarget(AsmPrinter &printer, TargetAttr attr) {
  printer << stringifyTargetKind(attr.getKind());
  if (attr.getKind() == TargetKind::is_exactly || attr.getKind() == TargetKind::provides)
    printer << "(" << stringifySmArch(static_cast<SmArch>(attr.getSm())) << ")";
  if (!attr.getOperands().empty()) {
    printer << "(";
    llvm::interleaveComma(attr.getOperands(), printer,
                          [&](Attribute a) { printTarget(printer, cast<TargetAttr>(a)); });
    printer << ")";
  }
}

void TargetAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printTarget(printer, *this);
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

int64_t StructType::getFieldIndex(StringRef name) const {
  for (auto [i, field] : llvm::enumerate(getFieldNames()))
    if (field.getValue() == name)
      return i;
  return -1;
}

LogicalResult StructType::verify(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                                 ArrayRef<StringAttr> fieldNames, ArrayRef<Type> fieldTypes,
                                 uint64_t align) {
  if (name.empty())
    return emitError() << "struct needs a name";
  if (fieldNames.size() != fieldTypes.size())
    return emitError() << "struct '" << name << "' has " << fieldNames.size()
                       << " field names but " << fieldTypes.size() << " field types";
  llvm::SmallSet<StringRef, 8> seen;
  for (auto [field, type] : llvm::zip(fieldNames, fieldTypes)) {
    if (!seen.insert(field.getValue()).second)
      return emitError() << "struct '" << name << "' has two fields named '"
                         << field.getValue() << "'";
    if (!getTypeLayout(type) || isa<AtomicRefType>(type))
      return emitError() << "field '" << field.getValue() << "' of struct '" << name
                         << "' has type " << type << ", which has no device layout";
  }
  if (align != 0 && !llvm::isPowerOf2_64(align))
    return emitError() << "alignment of struct '" << name << "' must be a power of two, got "
                       << align;
  return success();
}

Type StructType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  SmallVector<StringAttr> names;
  SmallVector<Type> types;
  uint64_t align = 0;
  if (parser.parseLess() || parser.parseString(&name) || parser.parseComma() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&]() -> ParseResult {
        std::string field;
        Type type;
        if (parser.parseKeywordOrString(&field) || parser.parseColon() ||
            parser.parseType(type))
          return failure();
        names.push_back(StringAttr::get(parser.getContext(), field));
        types.push_back(type);
        return success();
      }))
    return {};
  if (succeeded(parser.parseOptionalComma()))
    if (parser.parseKeyword("align") || parser.parseInteger(align))
      return {};
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), name, names,
                    types, align);
}

void StructType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getName());
  printer << ", {";
  llvm::interleaveComma(llvm::zip(getFieldNames(), getFieldTypes()), printer, [&](auto field) {
    printer.printKeywordOrString(std::get<0>(field).getValue());
    printer << ": " << std::get<1>(field);
  });
  printer << "}";
  if (getAlign())
    printer << ", align " << getAlign();
  printer << ">";
}

LogicalResult pydev::VectorType::verify(function_ref<InFlightDiagnostic()> emitError, unsigned lanes,
                                 Type elementType) {
  if (lanes < 1 || lanes > 4)
    return emitError() << "vector must have 1 to 4 lanes, got " << lanes;
  if (!isVectorElement(elementType))
    return emitError() << "vector element must be an 8- to 64-bit integer or a float8, "
                          "float16, bfloat16, float32 or float64, got "
                       << elementType;
  return success();
}

static bool isArrayElement(Type type) {
  return getTypeLayout(type) && !isa<ArrayType, AtomicRefType, WarpMaskType, IndexType>(type);
}

LogicalResult ArrayType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                                unsigned rank, MemorySpace space, Layout, bool readonly) {
  if (space == MemorySpace::constant && !readonly)
    return emitError() << "an array in the constant space must be readonly";
  if (!isArrayElement(elementType))
    return emitError() << "array element type " << elementType
                       << " must be a number, vector, struct or tuple";
  if (rank > 32)
    return emitError() << "array rank must be at most 32, got " << rank;
  return success();
}

Type ArrayType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  Type element;
  unsigned rank;
  MemorySpace space = MemorySpace::global;
  pydev::Layout layout = pydev::Layout::strided;
  bool readonly = false;
  if (parser.parseLess() || parser.parseType(element) || parser.parseComma() ||
      parser.parseInteger(rank))
    return {};
  bool seenSpace = false, seenLayout = false;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc wordLoc = parser.getCurrentLocation();
    StringRef word;
    if (parser.parseKeyword(&word))
      return {};
    bool repeated = false;
    if (auto s = symbolizeMemorySpace(word)) {
      repeated = std::exchange(seenSpace, true);
      space = *s;
    } else if (auto l = symbolizeLayout(word)) {
      repeated = std::exchange(seenLayout, true);
      layout = *l;
    } else if (word == "readonly") {
      repeated = std::exchange(readonly, true);
    } else {
      parser.emitError(wordLoc) << "unknown array property '" << word
                                << "', expected global, shared, local, constant, strided, c, f or readonly";
      return {};
    }
    if (repeated) {
      parser.emitError(wordLoc) << "array property '" << word
                                << "' conflicts with or repeats an earlier one";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), element, rank,
                    space, layout, readonly);
}

void ArrayType::print(AsmPrinter &printer) const {
  printer << "<" << getElementType() << ", " << getRank();
  if (getSpace() != MemorySpace::global)
    printer << ", " << stringifyMemorySpace(getSpace());
  if (getLayout() != pydev::Layout::strided)
    printer << ", " << stringifyLayout(getLayout());
  if (getReadonly())
    printer << ", readonly";
  printer << ">";
}

LogicalResult AtomicRefType::verify(function_ref<InFlightDiagnostic()> emitError,
                                    Type elementType, MemorySpace space) {
  if (space == MemorySpace::constant)
    return emitError() << "atomic_ref cannot refer to constant memory (it is read-only)";
  if (!isArrayElement(elementType))
    return emitError() << "atomic_ref element type " << elementType
                       << " must be a number, vector, struct or tuple";
  if (sizeOf(elementType) > 16)
    return emitError() << "atomic_ref element type " << elementType
                       << " must be at most 16 bytes, got " << sizeOf(elementType);
  return success();
}

Type AtomicRefType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  Type element;
  MemorySpace space = MemorySpace::global;
  if (parser.parseLess() || parser.parseType(element))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    SMLoc wordLoc = parser.getCurrentLocation();
    StringRef word;
    if (parser.parseKeyword(&word))
      return {};
    auto s = symbolizeMemorySpace(word);
    if (!s) {
      parser.emitError(wordLoc) << "unknown memory space '" << word
                                << "', expected global, shared, local or constant";
      return {};
    }
    space = *s;
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), element, space);
}

void AtomicRefType::print(AsmPrinter &printer) const {
  printer << "<" << getElementType();
  if (getSpace() != MemorySpace::global)
    printer << ", " << stringifyMemorySpace(getSpace());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Helpers for op verifiers
//===----------------------------------------------------------------------===//

/// The value of a constant integer operand, if it is one. Bools and unsigned
/// integers are zero-extended; values beyond int64_t saturate (they are out of
/// every range the verifiers check).
static std::optional<int64_t> constantIndex(Value value) {
  APInt v;
  if (!matchPattern(value, m_ConstantInt(&v)))
    return std::nullopt;
  auto type = dyn_cast<IntegerType>(value.getType());
  if (type && (type.isUnsigned() || type.getWidth() == 1))
    return v.getActiveBits() > 63 ? INT64_MAX : int64_t(v.getZExtValue());
  if (v.getSignificantBits() > 64)
    return v.isNegative() ? INT64_MIN : INT64_MAX;
  return v.getSExtValue();
}

static bool isInt64(Type type) {
  auto i = dyn_cast<IntegerType>(type);
  return i && i.getWidth() == 64;
}

static LogicalResult checkIndexCount(Operation *op, ArrayType array, size_t count) {
  if (count != array.getRank())
    return op->emitOpError() << "takes one index per dimension: the array has rank "
                             << array.getRank() << " but " << count << " indices were given";
  return success();
}

/// A view keeps the element type, space and read-only flag of its source.
static LogicalResult checkView(Operation *op, ArrayType source, ArrayType result,
                               bool sameElement = true) {
  if (sameElement && source.getElementType() != result.getElementType())
    return op->emitOpError() << "result element type " << result.getElementType()
                             << " differs from the source's " << source.getElementType();
  if (source.getSpace() != result.getSpace())
    return op->emitOpError() << "result memory space '" << stringifyMemorySpace(result.getSpace())
                             << "' differs from the source's '"
                             << stringifyMemorySpace(source.getSpace()) << "'";
  if (source.getReadonly() != result.getReadonly())
    return op->emitOpError() << "result must be read-only exactly when the source is";
  return success();
}

static LogicalResult checkTupleOfInt64(Operation *op, ArrayType array, pydev::TupleType result) {
  if (result.getTypes().size() != array.getRank() || !llvm::all_of(result.getTypes(), isInt64))
    return op->emitOpError() << "result must be a tuple of " << array.getRank()
                             << " 64-bit integers, got " << Type(result);
  return success();
}

static bool isIntOrFloat(Type type, ArrayRef<unsigned> widths, bool floats) {
  if (auto i = dyn_cast<IntegerType>(type))
    return llvm::is_contained(widths, i.getWidth());
  return floats && isa<Float32Type, Float64Type>(type);
}

//===----------------------------------------------------------------------===//
// Arithmetic and casts
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult CmpOp::verify() {
  bool ordering = getPredicate() != CmpPredicate::eq && getPredicate() != CmpPredicate::ne;
  if (ordering && (isa<ComplexType>(getLhs().getType()) || isa<ComplexType>(getRhs().getType())))
    return emitOpError() << "'" << stringifyCmpPredicate(getPredicate())
                         << "' is not defined for complex numbers";
  return success();
}

//===----------------------------------------------------------------------===//
// Numeric promotion: the table is dialect/src/promotion.rs's, generated by
// build.rs (promotion.cpp.inc), so the verifier, the frontends and
// pydev-promote-types agree on one definition.
//===----------------------------------------------------------------------===//

static LogicalResult verifyPromotion(Operation *op, int kind, const char *mnemonic);
#include "promotion.cpp.inc"

/// The index of `type` in kPromotionNumbers (signless integers other than
/// i1 count as signed), -1 for a type the table does not cover.
static int promotionIndex(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto i = dyn_cast<IntegerType>(type); i && i.isSignless() && i.getWidth() != 1)
    os << "s";
  type.print(os);
  for (auto [k, name] : llvm::enumerate(kPromotionNumbers))
    if (text == name)
      return static_cast<int>(k);
  return -1;
}

/// The result type of promoting op `op` (of the table's kind `kind`) is the
/// one the table gives for its operands.
static LogicalResult verifyPromotion(Operation *op, int kind, const char *mnemonic) {
  Type lhs = op->getOperand(0).getType(), rhs = op->getOperand(1).getType();
  Type result = op->getResult(0).getType();
  int a = promotionIndex(lhs), b = promotionIndex(rhs), r = promotionIndex(result);
  if (a < 0 || b < 0 || r < 0)
    return success(); // number types outside the table (f80, i128, ...) are not promoted
  int want = kPromotionResult[kind][a][b];
  if (want < 0)
    return op->emitOpError() << "is not defined for " << lhs << " and " << rhs
                             << " (Numeric Promotion): convert an operand with pydev.cast";
  if (want != r)
    return op->emitOpError() << "result type " << result << " is not '"
                             << kPromotionNumbers[want] << "', the type pydev." << mnemonic
                             << " gives for " << lhs << " and " << rhs << " (Numeric Promotion)";
  return success();
}

LogicalResult CastOp::verify() {
  Type from = getInput().getType(), to = getResult().getType();
  if ((isa<WarpMaskType>(from) && !isa<IntegerType, WarpMaskType>(to)) ||
      (isa<WarpMaskType>(to) && !isa<IntegerType, WarpMaskType>(from)))
    return emitOpError() << "converts warp masks only to and from integers, not " << from
                         << " to " << to;
  if (isa<ComplexType>(from) && !isa<ComplexType>(to))
    return emitOpError() << "cannot convert complex " << from << " to real " << to;
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Structs, vectors, tuples
//===----------------------------------------------------------------------===//

static LogicalResult checkMembers(Operation *op, StringRef what, ValueRange values,
                                  ArrayRef<Type> expected) {
  if (values.size() != expected.size())
    return op->emitOpError() << what << " has " << expected.size() << " members but "
                             << values.size() << " values were given";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(values, expected)))
    if (std::get<0>(pair).getType() != std::get<1>(pair))
      return op->emitOpError() << "value #" << i << " has type " << std::get<0>(pair).getType()
                               << " but " << what << " member #" << i << " is "
                               << std::get<1>(pair);
  return success();
}

LogicalResult StructCreateOp::verify() {
  return checkMembers(*this, "struct '" + getType().getName().str() + "'", getFields(),
                      getType().getFieldTypes());
}

static FailureOr<Type> structField(Operation *op, StructType type, StringRef field) {
  int64_t index = type.getFieldIndex(field);
  if (index < 0)
    return op->emitOpError() << "struct '" << type.getName() << "' has no field named '"
                             << field << "'";
  return type.getFieldTypes()[index];
}

LogicalResult StructExtractOp::verify() {
  auto field = structField(*this, getInput().getType(), getField());
  if (failed(field))
    return failure();
  if (*field != getResult().getType())
    return emitOpError() << "field '" << getField() << "' has type " << *field
                         << " but the result is " << getResult().getType();
  return success();
}

LogicalResult StructInsertOp::verify() {
  auto field = structField(*this, getInput().getType(), getField());
  if (failed(field))
    return failure();
  if (*field != getValue().getType())
    return emitOpError() << "field '" << getField() << "' has type " << *field
                         << " but the value is " << getValue().getType();
  return success();
}

LogicalResult VectorCreateOp::verify() {
  SmallVector<Type> lanes(getType().getLanes(), getType().getElementType());
  return checkMembers(*this, "the vector", getElements(), lanes);
}

static LogicalResult checkLane(Operation *op, pydev::VectorType type, Value index) {
  if (auto i = constantIndex(index); i && (*i < 0 || *i >= type.getLanes()))
    return op->emitOpError() << "lane " << *i << " is out of range for a vector of "
                             << type.getLanes() << " lanes";
  return success();
}

LogicalResult VectorExtractOp::verify() {
  if (getResult().getType() != getInput().getType().getElementType())
    return emitOpError() << "result type " << getResult().getType()
                         << " differs from the vector element type "
                         << getInput().getType().getElementType();
  return checkLane(*this, getInput().getType(), getIndex());
}

LogicalResult VectorInsertOp::verify() {
  if (getValue().getType() != getInput().getType().getElementType())
    return emitOpError() << "value type " << getValue().getType()
                         << " differs from the vector element type "
                         << getInput().getType().getElementType();
  return checkLane(*this, getInput().getType(), getIndex());
}

LogicalResult TupleCreateOp::verify() {
  return checkMembers(*this, "the tuple", getElements(), getType().getTypes());
}

static FailureOr<Type> tupleElement(Operation *op, pydev::TupleType type, int64_t index) {
  if (index < 0 || index >= int64_t(type.getTypes().size()))
    return op->emitOpError() << "index " << index << " is out of range for a tuple of "
                             << type.getTypes().size() << " elements";
  return type.getTypes()[index];
}

LogicalResult TupleExtractOp::verify() {
  auto element = tupleElement(*this, getInput().getType(), getIndex());
  if (failed(element))
    return failure();
  if (*element != getResult().getType())
    return emitOpError() << "element " << getIndex() << " has type " << *element
                         << " but the result is " << getResult().getType();
  return success();
}

LogicalResult TupleInsertOp::verify() {
  auto element = tupleElement(*this, getInput().getType(), getIndex());
  if (failed(element))
    return failure();
  if (*element != getValue().getType())
    return emitOpError() << "element " << getIndex() << " has type " << *element
                         << " but the value is " << getValue().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

LogicalResult ArrayLoadOp::verify() {
  if (failed(checkIndexCount(*this, getArray().getType(), getIndices().size())))
    return failure();
  if (getResult().getType() != getArray().getType().getElementType())
    return emitOpError() << "result type " << getResult().getType()
                         << " differs from the array element type "
                         << getArray().getType().getElementType();
  return success();
}

LogicalResult ArrayStoreOp::verify() {
  if (getArray().getType().getReadonly())
    return emitOpError() << "cannot store to a read-only array";
  if (failed(checkIndexCount(*this, getArray().getType(), getIndices().size())))
    return failure();
  if (getValue().getType() != getArray().getType().getElementType())
    return emitOpError() << "value type " << getValue().getType()
                         << " differs from the array element type "
                         << getArray().getType().getElementType();
  return success();
}

LogicalResult ArrayIndexOp::verify() {
  ArrayType source = getArray().getType(), result = getResult().getType();
  size_t n = getIndices().size();
  if (n == 0 || n >= source.getRank())
    return emitOpError() << "indexes 1 to " << int64_t(source.getRank()) - 1
                         << " leading dimensions of a rank-" << source.getRank()
                         << " array, got " << n << " indices";
  if (result.getRank() != source.getRank() - n)
    return emitOpError() << "result rank must be " << source.getRank() - n << ", got "
                         << result.getRank();
  if (result.getLayout() != pydev::Layout::strided &&
      !(result.getLayout() == pydev::Layout::c && source.getLayout() == pydev::Layout::c))
    return emitOpError() << "result layout '" << stringifyLayout(result.getLayout())
                         << "' does not follow from the source's";
  return checkView(*this, source, result);
}

LogicalResult ArraySliceOp::verify() {
  ArrayType source = getArray().getType(), result = getResult().getType();
  ArrayRef<int32_t> kinds = getKinds();
  if (kinds.size() != source.getRank())
    return emitOpError() << "needs one kind per source dimension (" << source.getRank()
                         << "), got " << kinds.size();
  if (!llvm::all_of(kinds, [](int32_t k) { return k == 0 || k == 1; }))
    return emitOpError() << "kinds must be 0 (index) or 1 (slice)";
  size_t slices = llvm::count(kinds, 1);
  if (getStarts().size() != source.getRank())
    return emitOpError() << "needs one start per source dimension (" << source.getRank()
                         << "), got " << getStarts().size();
  if (getStops().size() != slices || getSteps().size() != slices)
    return emitOpError() << "needs one stop and one step per slice (" << slices << "), got "
                         << getStops().size() << " stops and " << getSteps().size()
                         << " steps";
  if (result.getRank() != slices)
    return emitOpError() << "result rank must be the number of slices (" << slices
                         << "), got " << result.getRank();
  // A view that stays contiguous (unit steps; the frontend knows which
  // subscripts keep a 'c' or 'f' array contiguous) may keep the layout.
  bool unitSteps = llvm::all_of(getSteps(), [](Value step) {
    auto s = constantIndex(step);
    return s && *s == 1;
  });
  if (result.getLayout() != pydev::Layout::strided &&
      (result.getLayout() != source.getLayout() || !unitSteps))
    return emitOpError() << "result of a slice must have the 'strided' layout (or the source's "
                            "layout when every step is the constant 1)";
  for (Value step : getSteps())
    if (auto s = constantIndex(step); s && *s == 0)
      return emitOpError() << "slice step cannot be zero";
  return checkView(*this, source, result);
}

LogicalResult ArrayViewOp::verify() {
  ArrayType source = getArray().getType(), result = getResult().getType();
  if (source.getRank() != result.getRank())
    return emitOpError() << "keeps the rank (" << source.getRank() << "), got "
                         << result.getRank();
  if (source.getLayout() != result.getLayout())
    return emitOpError() << "keeps the layout of the source";
  if (sizeOf(source.getElementType()) != sizeOf(result.getElementType()) &&
      source.getLayout() != pydev::Layout::c)
    return emitOpError() << "viewing " << source.getElementType() << " as "
                         << result.getElementType()
                         << " changes the element size and needs a 'c'-contiguous array";
  return checkView(*this, source, result, /*sameElement=*/false);
}

LogicalResult ArrayReshapeOp::verify() {
  ArrayType source = getArray().getType(), result = getResult().getType();
  if (getShape().size() != result.getRank())
    return emitOpError() << "needs one extent per result dimension (" << result.getRank()
                         << "), got " << getShape().size();
  if (source.getLayout() == pydev::Layout::strided)
    return emitOpError() << "reshape without a copy needs a 'c'- or 'f'-contiguous array";
  if (source.getLayout() != result.getLayout())
    return emitOpError() << "keeps the layout of the source";
  return checkView(*this, source, result);
}

LogicalResult ArrayShapeOp::verify() {
  return checkTupleOfInt64(*this, getArray().getType(), getResult().getType());
}

LogicalResult ArrayStridesOp::verify() {
  return checkTupleOfInt64(*this, getArray().getType(), getResult().getType());
}

LogicalResult ArraySizeOp::verify() {
  if (!isInt64(getResult().getType()))
    return emitOpError() << "result must be a 64-bit integer, got " << getResult().getType();
  return success();
}

template <typename OpT>
static LogicalResult verifyStaticArray(OpT op, MemorySpace space) {
  ArrayType type = op.getResult().getType();
  if (type.getSpace() != space)
    return op.emitOpError() << "result must be in '" << stringifyMemorySpace(space)
                            << "' memory, got '" << stringifyMemorySpace(type.getSpace())
                            << "'";
  if (op.getShape().size() != type.getRank())
    return op.emitOpError() << "shape has " << op.getShape().size()
                            << " extents but the result has rank " << type.getRank();
  for (int64_t extent : op.getShape())
    if (extent <= 0)
      return op.emitOpError() << "extents must be positive, got " << extent;
  if (op.getOrder() != "C" && op.getOrder() != "F")
    return op.emitOpError() << "order must be \"C\" or \"F\", got \"" << op.getOrder() << "\"";
  pydev::Layout expected = op.getOrder() == "C" ? pydev::Layout::c : pydev::Layout::f;
  if (type.getRank() > 1 && type.getLayout() != expected)
    return op.emitOpError() << "order \"" << op.getOrder() << "\" gives layout '"
                            << stringifyLayout(expected) << "', but the result has '"
                            << stringifyLayout(type.getLayout()) << "'";
  if (type.getRank() <= 1 && type.getLayout() == pydev::Layout::strided)
    return op.emitOpError() << "result is contiguous: its layout must be 'c' or 'f'";
  int64_t alignment = op.getAlignmentAttr().getInt();
  if (alignment < 0 || (alignment != 0 && !llvm::isPowerOf2_64(alignment)))
    return op.emitOpError() << "alignment must be a power of two, got " << alignment;
  if (type.getReadonly())
    return op.emitOpError() << "result cannot be read-only";
  return success();
}

LogicalResult LocalArrayOp::verify() { return verifyStaticArray(*this, MemorySpace::local); }
LogicalResult SharedArrayOp::verify() { return verifyStaticArray(*this, MemorySpace::shared); }

LogicalResult ConstArrayOp::verify() {
  ArrayType type = getResult().getType();
  if (type.getSpace() != MemorySpace::constant || type.getLayout() != pydev::Layout::c ||
      !type.getReadonly())
    return emitOpError() << "result must be a readonly c-contiguous array in the constant space, got "
                         << Type(type);
  if (getShape().size() != type.getRank())
    return emitOpError() << "shape has " << getShape().size()
                         << " extents but the result has rank " << type.getRank();
  int64_t count = 1;
  for (int64_t extent : getShape()) {
    if (extent < 0)
      return emitOpError() << "extents must not be negative, got " << extent;
    count *= extent;
  }
  auto data = getData();
  auto byte = dyn_cast<IntegerType>(data.getElementType());
  if (!byte || byte.getWidth() != 8 || data.getShapedType().getRank() != 1)
    return emitOpError() << "data must be a tensor of i8 (the elements' bytes), got "
                         << data.getShapedType();
  int64_t expected = count * sizeOf(type.getElementType());
  if (data.getNumElements() != expected)
    return emitOpError() << "data has " << data.getNumElements() << " bytes, the shape needs "
                         << expected;
  int64_t alignment = getAlignmentAttr().getInt();
  if (alignment < 0 || (alignment != 0 && !llvm::isPowerOf2_64(alignment)))
    return emitOpError() << "alignment must be a power of two, got " << alignment;
  return success();
}

LogicalResult DynamicSharedArrayOp::verify() {
  ArrayType type = getResult().getType();
  auto element = dyn_cast<IntegerType>(type.getElementType());
  // ui8, or i8 once pydev-promote-types has erased signedness.
  if (!element || element.isSigned() || element.getWidth() != 8 || type.getRank() != 1 ||
      type.getSpace() != MemorySpace::shared || type.getLayout() != pydev::Layout::c ||
      type.getReadonly())
    return emitOpError() << "result must be !pydev.array<ui8, 1, shared, c>, got "
                         << Type(type);
  return success();
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

LogicalResult AtomicRefOp::verify() {
  ArrayType array = getArray().getType();
  AtomicRefType ref = getResult().getType();
  if (failed(checkIndexCount(*this, array, getIndices().size())))
    return failure();
  if (array.getReadonly())
    return emitOpError() << "cannot make an atomic reference into a read-only array";
  // The referenced object: the element, or the member that `field` names.
  Type object = array.getElementType();
  if (std::optional<ArrayAttr> path = getField()) {
    for (Attribute name : *path) {
      auto s = dyn_cast<StructType>(object);
      StringRef field = cast<StringAttr>(name).getValue();
      int64_t index = s ? s.getFieldIndex(field) : -1;
      if (index < 0)
        return emitOpError() << "field path names '" << field << "', which " << object
                             << " does not have";
      object = s.getFieldTypes()[index];
    }
  }
  if (ref.getElementType() != object || ref.getSpace() != array.getSpace())
    return emitOpError() << "result must be "
                         << Type(AtomicRefType::get(getContext(), object, array.getSpace()))
                         << ", got " << Type(ref);
  return success();
}

static LogicalResult checkAtomicValue(Operation *op, AtomicRefType ref, Type value,
                                      uint64_t maxSize) {
  if (value != ref.getElementType())
    return op->emitOpError() << "value type " << value
                             << " differs from the atomic's element type "
                             << ref.getElementType();
  if (sizeOf(value) > maxSize)
    return op->emitOpError() << "works on values of at most " << maxSize << " bytes, got "
                             << value << " (" << sizeOf(value) << " bytes)";
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  Type type = getValue().getType();
  if (failed(checkAtomicValue(*this, getRef().getType(), type, 8)))
    return failure();
  switch (getKind()) {
  case AtomicRMWKind::add:
  case AtomicRMWKind::sub:
  case AtomicRMWKind::max:
  case AtomicRMWKind::min:
  case AtomicRMWKind::nanmax:
  case AtomicRMWKind::nanmin:
    if (!isIntOrFloat(type, {32, 64}, /*floats=*/true))
      return emitOpError() << "'" << stringifyAtomicRMWKind(getKind())
                           << "' needs a 32- or 64-bit integer, float32 or float64, got "
                           << type;
    break;
  case AtomicRMWKind::and_:
  case AtomicRMWKind::or_:
  case AtomicRMWKind::xor_:
    if (!isIntOrFloat(type, {32, 64}, /*floats=*/false))
      return emitOpError() << "'" << stringifyAtomicRMWKind(getKind())
                           << "' needs a 32- or 64-bit integer, got " << type;
    break;
  case AtomicRMWKind::exch:
    break;
  }
  return success();
}

LogicalResult AtomicCASOp::verify() {
  return checkAtomicValue(*this, getRef().getType(), getExpected().getType(), 8);
}

LogicalResult AtomicLoadOp::verify() {
  if (getMemory() == MemoryOrder::release || getMemory() == MemoryOrder::acq_rel)
    return emitOpError() << "memory order '" << stringifyMemoryOrder(getMemory())
                         << "' is not valid for a load";
  return checkAtomicValue(*this, getRef().getType(), getResult().getType(), 16);
}

LogicalResult AtomicStoreOp::verify() {
  if (getMemory() == MemoryOrder::consume || getMemory() == MemoryOrder::acquire ||
      getMemory() == MemoryOrder::acq_rel)
    return emitOpError() << "memory order '" << stringifyMemoryOrder(getMemory())
                         << "' is not valid for a store";
  return checkAtomicValue(*this, getRef().getType(), getValue().getType(), 16);
}

LogicalResult AtomicWaitOp::verify() {
  if (getMemory() == MemoryOrder::release || getMemory() == MemoryOrder::acq_rel)
    return emitOpError() << "memory order '" << stringifyMemoryOrder(getMemory())
                         << "' is not valid for a wait";
  return checkAtomicValue(*this, getRef().getType(), getOld().getType(), 8);
}

//===----------------------------------------------------------------------===//
// Warps
//===----------------------------------------------------------------------===//

LogicalResult VoteOp::verify() {
  bool ballot = getKind() == VoteKind::ballot;
  Type result = getResult().getType();
  if (ballot && !isa<WarpMaskType>(result))
    return emitOpError() << "'ballot' gives a !pydev.warp_mask, not " << result;
  if (!ballot && isa<WarpMaskType>(result))
    return emitOpError() << "'" << stringifyVoteKind(getKind()) << "' gives an i1, not "
                         << result;
  return success();
}

LogicalResult ShuffleOp::verify() {
  uint64_t size = sizeOf(getValue().getType());
  if (size > 8)
    return emitOpError() << "shuffles values of at most 8 bytes, got " << getValue().getType()
                         << " (" << size << " bytes)";
  if (auto lane = constantIndex(getLane()); lane && (*lane < 0 || *lane > 31))
    return emitOpError() << "lane operand " << *lane << " is outside the warp [0, 32)";
  return success();
}

static LogicalResult checkMatchValue(Operation *op, Type value) {
  if (!isIntOrFloat(value, {32, 64}, /*floats=*/true))
    return op->emitOpError() << "matches 32- or 64-bit integers and floats, got " << value;
  return success();
}

LogicalResult MatchAnyOp::verify() { return checkMatchValue(*this, getValue().getType()); }
LogicalResult MatchAllOp::verify() { return checkMatchValue(*this, getValue().getType()); }
