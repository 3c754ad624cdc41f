//===- PydevDialect.h - the pydev dialect's C++ declarations --------------===//
//
// Everything here is generated from dialect/pydev.td except the layout
// helpers, which compute CUDA C++ sizes and alignments (one implementation,
// used by the verifiers and, through the C API, by the Rust passes).
//
//===----------------------------------------------------------------------===//

#ifndef PYDEV_DIALECT_H
#define PYDEV_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

#include "PydevEnums.h.inc"
#include "PydevDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "PydevAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "PydevTypes.h.inc"

#define GET_OP_CLASSES
#include "PydevOps.h.inc"

namespace mlir::pydev {

/// Size and alignment in bytes of a value of a type in device memory, as
/// CUDA C++ lays it out.
struct TypeLayout {
  uint64_t size;
  uint64_t align;
};

/// The CUDA C++ layout of `type`, or nothing when it has none (a function
/// type, say).
std::optional<TypeLayout> getTypeLayout(Type type);

/// Byte offset of field `index` of a struct or element `index` of a tuple.
std::optional<uint64_t> getFieldOffset(Type aggregate, unsigned index);

/// The layout of a value of an LLVM-storable type in host memory (what
/// `pydev-host-barrier-fission` spills to a thread's frame): integers (in
/// LLVM's power-of-two bytes), index, f16/bf16/f32/f64, `!llvm.ptr`,
/// `!llvm.array` and literal unpacked `!llvm.struct` of those, with the
/// same member rule as getTypeLayout (C's, which `pydev-lower-aggregates`
/// makes the LLVM struct of a pydev aggregate follow). Nothing for any
/// other type.
std::optional<TypeLayout> getStorageLayout(Type type);

} // namespace mlir::pydev

#endif // PYDEV_DIALECT_H
