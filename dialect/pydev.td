//===- pydev.td - the pydev dialect: the single source of truth -----------===//
//
// Every type, attribute and operation of the `pydev` dialect is defined here.
// build.rs runs mlir-tblgen on this file to produce the C++ registration
// (dialect/cpp/), and docs/dialect.md (`make docs`). Each definition names
// the section of spec/cuda-device-spec.md it serves in its description.
//
// Integer signedness: pydev ops accept signed (`si32`), unsigned (`ui32`) and
// signless (`i32`, read as signed) integers, because Python-level operations
// need to know it before type promotion; `i1` is Python's `bool`. Upstream
// dialects (arith, llvm) take over after the pydev passes lower to signless.
//
//===----------------------------------------------------------------------===//

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def Pydev_Dialect : Dialect {
  let name = "pydev";
  let cppNamespace = "::mlir::pydev";
  let summary = "Python device code (cuda.device) before lowering";
  let description = [{
    The `pydev` dialect models the constructs of the `cuda.device` specification
    that upstream MLIR dialects lack: Python-level arithmetic before Array-API
    type promotion, heterogeneous structs, vectors and tuples with CUDA C++
    layouts, array descriptors, target conditions, atomics with memory order
    and thread scope, block and warp synchronization, warp votes, shuffles and
    matches. Thread positioning uses `gpu` ops and numeric intrinsics `math`
    ops; control flow is `scf`/`cf`, functions are `func`.

    Function attributes (discardable, on `func.func`):
    `pydev.kernel` (unit: a `@device.kernel`), `pydev.interop` (unit: the
    function keeps its Python name and the CUDA C++ ABI, spec "Interoperable
    Functions").
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class Pydev_Op<string mnemonic, list<Trait> traits = []>
    : Op<Pydev_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Enums and attributes
//===----------------------------------------------------------------------===//

def Pydev_MemoryOrder : I32EnumAttr<"MemoryOrder",
    "memory order (spec: Synchronization / Memory Orderings)", [
      I32EnumAttrCase<"relaxed", 0>, I32EnumAttrCase<"consume", 1>,
      I32EnumAttrCase<"acquire", 2>, I32EnumAttrCase<"release", 3>,
      I32EnumAttrCase<"acq_rel", 4>, I32EnumAttrCase<"seq_cst", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}
def Pydev_MemoryOrderAttr : EnumAttr<Pydev_Dialect, Pydev_MemoryOrder, "memory_order"> {
  let assemblyFormat = "`<` $value `>`";
  let description = [{
    A Standard C++ memory order: `relaxed`, `consume`, `acquire`, `release`,
    `acq_rel` or `seq_cst`. Spec: Synchronization / Memory Orderings.
  }];
}

def Pydev_Scope : I32EnumAttr<"Scope",
    "thread scope (spec: Synchronization / Thread Scopes)", [
      I32EnumAttrCase<"system", 0>, I32EnumAttrCase<"device", 1>,
      I32EnumAttrCase<"block", 2>, I32EnumAttrCase<"thread", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}
def Pydev_ScopeAttr : EnumAttr<Pydev_Dialect, Pydev_Scope, "scope"> {
  let assemblyFormat = "`<` $value `>`";
  let description = [{
    A libcu++ thread scope: `system`, `device`, `block` or `thread`.
    Spec: Synchronization / Thread Scopes.
  }];
}

def Pydev_AtomicRMWKind : I32EnumAttr<"AtomicRMWKind", "atomic read-modify-write", [
      I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"sub", 1>,
      I32EnumAttrCase<"and_", 2, "and">, I32EnumAttrCase<"or_", 3, "or">,
      I32EnumAttrCase<"xor_", 4, "xor">, I32EnumAttrCase<"max", 5>,
      I32EnumAttrCase<"min", 6>, I32EnumAttrCase<"nanmax", 7>,
      I32EnumAttrCase<"nanmin", 8>, I32EnumAttrCase<"exch", 9>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}
def Pydev_AtomicRMWKindAttr : EnumAttr<Pydev_Dialect, Pydev_AtomicRMWKind, "atomic_rmw_kind">;

def Pydev_CmpPredicate : I32EnumAttr<"CmpPredicate", "Python comparison", [
      I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>, I32EnumAttrCase<"lt", 2>,
      I32EnumAttrCase<"le", 3>, I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}
def Pydev_CmpPredicateAttr : EnumAttr<Pydev_Dialect, Pydev_CmpPredicate, "cmp_predicate">;

def Pydev_VoteKind : I32EnumAttr<"VoteKind", "warp vote", [
      I32EnumAttrCase<"all", 0>, I32EnumAttrCase<"any", 1>,
      I32EnumAttrCase<"eq", 2>, I32EnumAttrCase<"ballot", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}
def Pydev_VoteKindAttr : EnumAttr<Pydev_Dialect, Pydev_VoteKind, "vote_kind">;

def Pydev_ShuffleKind : I32EnumAttr<"ShuffleKind", "warp shuffle", [
      I32EnumAttrCase<"idx", 0>, I32EnumAttrCase<"up", 1>,
      I32EnumAttrCase<"down", 2>, I32EnumAttrCase<"xor_", 3, "xor">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}
def Pydev_ShuffleKindAttr : EnumAttr<Pydev_Dialect, Pydev_ShuffleKind, "shuffle_kind">;

def Pydev_MemorySpace : I32EnumAttr<"MemorySpace", "where an array lives", [
      I32EnumAttrCase<"global", 0>, I32EnumAttrCase<"shared", 1>,
      I32EnumAttrCase<"local", 2>, I32EnumAttrCase<"constant", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}

def Pydev_Layout : I32EnumAttr<"Layout", "what is known of an array's strides", [
      I32EnumAttrCase<"strided", 0>, I32EnumAttrCase<"c", 1>, I32EnumAttrCase<"f", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}
def Pydev_LayoutAttr : EnumAttr<Pydev_Dialect, Pydev_Layout, "layout">;

// The CUDA architectures of `smXX` selectors, in capability order: the order
// of the cases is the order `provides` uses (spec: Target Specialization).
def Pydev_SmArch : I32EnumAttr<"SmArch", "CUDA architecture (SMSelector)", [
      I32EnumAttrCase<"sm_50", 50>, I32EnumAttrCase<"sm_52", 52>,
      I32EnumAttrCase<"sm_53", 53>, I32EnumAttrCase<"sm_60", 60>,
      I32EnumAttrCase<"sm_61", 61>, I32EnumAttrCase<"sm_62", 62>,
      I32EnumAttrCase<"sm_70", 70>, I32EnumAttrCase<"sm_72", 72>,
      I32EnumAttrCase<"sm_75", 75>, I32EnumAttrCase<"sm_80", 80>,
      I32EnumAttrCase<"sm_86", 86>, I32EnumAttrCase<"sm_87", 87>,
      I32EnumAttrCase<"sm_89", 89>, I32EnumAttrCase<"sm_90", 90>,
      I32EnumAttrCase<"sm_100", 100>, I32EnumAttrCase<"sm_101", 101>,
      I32EnumAttrCase<"sm_103", 103>, I32EnumAttrCase<"sm_110", 110>,
      I32EnumAttrCase<"sm_120", 120>, I32EnumAttrCase<"sm_121", 121>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}

def Pydev_TargetKind : I32EnumAttr<"TargetKind", "target description node", [
      I32EnumAttrCase<"is_host", 0>, I32EnumAttrCase<"is_device", 1>,
      I32EnumAttrCase<"is_exactly", 2>, I32EnumAttrCase<"provides", 3>,
      I32EnumAttrCase<"and_", 4, "and">, I32EnumAttrCase<"or_", 5, "or">,
      I32EnumAttrCase<"not_", 6, "not">, I32EnumAttrCase<"any_target", 7>,
      I32EnumAttrCase<"no_target", 8>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::pydev";
}

def Pydev_TargetAttr : AttrDef<Pydev_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "a target description (spec: Target Specialization)";
  let description = [{
    A `TargetDescription` as a tree: leaves `is_host`, `is_device`,
    `any_target`, `no_target`, `is_exactly(sm_XX)`, `provides(sm_XX)`; nodes
    `and(a, b, ...)`, `or(a, b, ...)`, `not(a)`. `sm` is the architecture
    number of `is_exactly`/`provides` (e.g. 90), 0 for other nodes. Python's `a & b`, `a | b` and
    `~a` build `and`, `or` and `not`.

    ```mlir
    #pydev.target<or(is_host, and(provides(sm_80), not(is_exactly(sm_90))))>
    ```
  }];
  let parameters = (ins
    EnumParameter<Pydev_TargetKind>:$kind,
    "unsigned":$sm,
    OptionalArrayRefParameter<"::mlir::Attribute">:$operands);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class Pydev_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Pydev_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Pydev_StructType : Pydev_Type<"Struct", "struct"> {
  let summary = "a heterogeneous struct (spec: User-Defined Types)";
  let description = [{
    A `@device.struct` class: a name, ordered named fields with their types,
    and a minimum alignment (`align=`, 0 for the natural one). Its layout is the
    CUDA C++ standard-layout struct with the fields in lexical order.

    ```mlir
    !pydev.struct<"Point", {x: si32, y: f32}>
    !pydev.struct<"Complex", {real: f32, imag: f32}, align 16>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"struct name">:$name,
    ArrayRefParameter<"::mlir::StringAttr", "field names">:$fieldNames,
    ArrayRefParameter<"::mlir::Type", "field types">:$fieldTypes,
    "uint64_t":$align);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Index of the field called `name`, or -1.
    int64_t getFieldIndex(::llvm::StringRef name) const;
  }];
}

def Pydev_VectorType : Pydev_Type<"Vector", "vector"> {
  let summary = "a CUDA vector type (spec: Vectors)";
  let description = [{
    1 to 4 lanes of one numeric element type, e.g. `float32x4` is
    `!pydev.vector<4 x f32>`. Layout: CUDA's `floatN`, `intN`...: size
    `lanes * sizeof(T)`; alignment `lanes * sizeof(T)` (at most 16) for 1, 2
    and 4 lanes and `sizeof(T)` for 3 lanes.
  }];
  let parameters = (ins "unsigned":$lanes, "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $lanes `x` $elementType `>`";
  let genVerifyDecl = 1;
}

def Pydev_TupleType : Pydev_Type<"Tuple", "tuple"> {
  let summary = "a heterogeneous tuple (spec: Tuples)";
  let description = [{
    An immutable tuple of heterogeneous elements; its layout is a C struct with
    one member per element, in order.

    ```mlir
    !pydev.tuple<si32, f32>
    ```
  }];
  let parameters = (ins OptionalArrayRefParameter<"::mlir::Type">:$types);
  let assemblyFormat = "`<` (`>`) : ($types^ `>`)?";
}

def Pydev_ArrayType : Pydev_Type<"Array", "array"> {
  let summary = "an array descriptor (spec: Arrays)";
  let description = [{
    A view of a strided array: element type, rank, memory space (`global`,
    `shared`, `local`, `constant`: read-only), what is known of its strides (`strided`, `c`
    contiguous, `f` contiguous) and whether it is read-only. Its ABI is
    `struct { T* data; uint64_t shape[rank]; uint64_t strides[rank]; }` with
    strides in elements (spec: `interoperable_array_descriptor`).

    ```mlir
    !pydev.array<f32, 2>
    !pydev.array<si32, 1, shared, c>
    !pydev.array<f64, 3, readonly>
    ```
  }];
  let parameters = (ins
    "::mlir::Type":$elementType,
    "unsigned":$rank,
    EnumParameter<Pydev_MemorySpace>:$space,
    EnumParameter<Pydev_Layout>:$layout,
    "bool":$readonly);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Pydev_WarpMaskType : Pydev_Type<"WarpMask", "warp_mask"> {
  let summary = "a warp mask (spec: Thread Warp Synchronization / WarpMask)";
  let description = [{
    A set of lanes of a warp; an int32 (bit i is lane i). Converts to and from
    integers with `pydev.cast`.
  }];
}

def Pydev_AtomicRefType : Pydev_Type<"AtomicRef", "atomic_ref"> {
  let summary = "a reference to an object accessed atomically (spec: Atomics)";
  let description = [{
    An `AtomicInterface`: a reference to one scalar of `elementType` in the
    given memory space, made by `pydev.atomic_ref` from an array element.

    ```mlir
    !pydev.atomic_ref<f32>
    !pydev.atomic_ref<ui32, shared>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType,
                        EnumParameter<Pydev_MemorySpace>:$space);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Pydev_Number : AnyTypeOf<[AnyInteger, AnyFloat, AnyComplex],
    "a number (bool, integer, float or complex)">;
def Pydev_Integer : AnyTypeOf<[AnyInteger], "a bool or integer">;
def Pydev_Array : Type<CPred<"::llvm::isa<::mlir::pydev::ArrayType>($_self)">,
    "a pydev array", "::mlir::pydev::ArrayType">;
def Pydev_Struct : Type<CPred<"::llvm::isa<::mlir::pydev::StructType>($_self)">,
    "a pydev struct", "::mlir::pydev::StructType">;
def Pydev_Vector : Type<CPred<"::llvm::isa<::mlir::pydev::VectorType>($_self)">,
    "a pydev vector", "::mlir::pydev::VectorType">;
def Pydev_Tuple : Type<CPred<"::llvm::isa<::mlir::pydev::TupleType>($_self)">,
    "a pydev tuple", "::mlir::pydev::TupleType">;
def Pydev_WarpMask : Type<CPred<"::llvm::isa<::mlir::pydev::WarpMaskType>($_self)">,
    "a warp mask", "::mlir::pydev::WarpMaskType">,
    BuildableType<"::mlir::pydev::WarpMaskType::get($_builder.getContext())">;
def Pydev_AtomicRef : Type<CPred<"::llvm::isa<::mlir::pydev::AtomicRefType>($_self)">,
    "an atomic reference", "::mlir::pydev::AtomicRefType">;
// A value a shuffle, match, or atomic can carry: a number, vector, struct,
// tuple or warp mask (sizes are checked by the verifiers).
def Pydev_Value : AnyTypeOf<[Pydev_Number, Pydev_Vector, Pydev_Struct, Pydev_Tuple,
                             Pydev_WarpMask], "a number, vector, struct, tuple or warp mask">;
def Pydev_Index : AnyTypeOf<[AnyInteger, Index], "an integer index">;

//===----------------------------------------------------------------------===//
// Python arithmetic before promotion (spec: Numeric Promotion)
//===----------------------------------------------------------------------===//

def Pydev_ConstantOp : Pydev_Op<"constant", [ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "a constant number of any signedness";
  let description = [{
    A literal or constant expression (spec: Constant Expressions). Unlike
    `arith.constant` it accepts signed and unsigned integers.

    ```mlir
    %c = pydev.constant 3 : si32
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs Pydev_Number:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

class Pydev_BinaryOp<string mnemonic, string pyop, string extra = "">
    : Pydev_Op<mnemonic, [Pure]> {
  let summary = "Python `" # pyop # "` before type promotion";
  let description = [{
    The Python operator `}] # pyop # [{` on two numbers of possibly different
    types; the result type is the promoted type (dialect/src/promotion.rs:
    the operands' common type; `/` of integers gives f32, of 64-bit
    integers f64; bools give si32 but to `& | ^`), which the verifier checks.
    `pydev-promote-types` materialises the conversions and lowers it with
    Python semantics.}] # extra # [{ Spec: Numeric Promotion.
  }];
  let arguments = (ins Pydev_Number:$lhs, Pydev_Number:$rhs);
  let results = (outs Pydev_Number:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  // The result type is the one the promotion table gives for the operands
  // (dialect/src/promotion.rs, one definition for the frontends, the
  // verifier and pydev-promote-types).
  let hasVerifier = 1;
}

def Pydev_AddOp : Pydev_BinaryOp<"add", "+">;
def Pydev_SubOp : Pydev_BinaryOp<"sub", "-">;
def Pydev_MulOp : Pydev_BinaryOp<"mul", "*">;
def Pydev_TrueDivOp : Pydev_BinaryOp<"truediv", "/", " Integer operands give a float.">;
def Pydev_FloorDivOp : Pydev_BinaryOp<"floordiv", "//", " Rounds toward minus infinity.">;
def Pydev_ModOp : Pydev_BinaryOp<"mod", "%", " The result has the sign of the divisor.">;
def Pydev_PowOp : Pydev_BinaryOp<"pow", "**">;
def Pydev_MinOp : Pydev_BinaryOp<"min", "min(a, b)">;
def Pydev_MaxOp : Pydev_BinaryOp<"max", "max(a, b)">;

class Pydev_BitOp<string mnemonic, string pyop> : Pydev_BinaryOp<mnemonic, pyop> {
  let arguments = (ins Pydev_Integer:$lhs, Pydev_Integer:$rhs);
  let results = (outs Pydev_Integer:$result);
}
def Pydev_AndOp : Pydev_BitOp<"and", "&">;
def Pydev_OrOp : Pydev_BitOp<"or", "|">;
def Pydev_XorOp : Pydev_BitOp<"xor", "^">;
def Pydev_LShiftOp : Pydev_BitOp<"lshift", "<<">;
def Pydev_RShiftOp : Pydev_BitOp<"rshift", ">>">;

def Pydev_CmpOp : Pydev_Op<"cmp", [Pure]> {
  let summary = "a Python comparison before type promotion";
  let description = [{
    `==`, `!=`, `<`, `<=`, `>`, `>=` on two numbers; the operands are promoted
    to a common type first. Chained comparisons are conjunctions of these.
    Spec: Numeric Promotion.

    ```mlir
    %b = pydev.cmp lt, %i, %n : si32, si64
    ```
  }];
  let arguments = (ins Pydev_CmpPredicateAttr:$predicate, Pydev_Number:$lhs,
                       Pydev_Number:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)
  }];
  let hasVerifier = 1;
}

class Pydev_UnaryOp<string mnemonic, string pyop, Type operandType = Pydev_Number,
                    Type resultType = Pydev_Number>
    : Pydev_Op<mnemonic, [Pure]> {
  let summary = "Python `" # pyop # "`";
  let description = [{
    The Python operation `}] # pyop # [{` on a number. Spec: Numeric Promotion.
  }];
  let arguments = (ins operandType:$operand);
  let results = (outs resultType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}
def Pydev_NegOp : Pydev_UnaryOp<"neg", "-x">;
def Pydev_PosOp : Pydev_UnaryOp<"pos", "+x">;
def Pydev_InvertOp : Pydev_UnaryOp<"invert", "~x", Pydev_Integer, Pydev_Integer>;
def Pydev_NotOp : Pydev_UnaryOp<"not", "not x", Pydev_Number, I1>;
def Pydev_AbsOp : Pydev_UnaryOp<"abs", "abs(x)">;

def Pydev_CastOp : Pydev_Op<"cast", [Pure]> {
  let summary = "an explicit conversion between numbers";
  let description = [{
    `device.float32(x)`, `device.int8(x)`, ... and the conversions type
    promotion materialises: integer to integer (truncation, sign or zero
    extension by the source's signedness), integer to float, float to
    integer (toward zero), float to float, real to complex, and integers to
    and from `!pydev.warp_mask`. Spec: Fixed-Format Numbers.

    ```mlir
    %f = pydev.cast %i : si32 to f32
    ```
  }];
  let arguments = (ins AnyTypeOf<[Pydev_Number, Pydev_WarpMask]>:$input);
  let results = (outs AnyTypeOf<[Pydev_Number, Pydev_WarpMask]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Structs, vectors, tuples (spec: Vectors, Tuples, User-Defined Types)
//===----------------------------------------------------------------------===//

def Pydev_StructCreateOp : Pydev_Op<"struct_create", [Pure]> {
  let summary = "construct a heterogeneous struct";
  let description = [{
    Builds a struct from one value per field, in field order.
    Spec: User-Defined Types.

    ```mlir
    %p = pydev.struct_create(%x, %y) : (si32, f32) -> !pydev.struct<"P", {x: si32, y: f32}>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$fields);
  let results = (outs Pydev_Struct:$result);
  let assemblyFormat = "`(` $fields `)` attr-dict `:` functional-type($fields, $result)";
  let hasVerifier = 1;
}

def Pydev_StructExtractOp : Pydev_Op<"struct_extract", [Pure]> {
  let summary = "read a field of a struct";
  let description = [{
    `s.field`. Spec: User-Defined Types.

    ```mlir
    %x = pydev.struct_extract %p["x"] : !pydev.struct<"P", {x: si32, y: f32}> -> si32
    ```
  }];
  let arguments = (ins Pydev_Struct:$input, StrAttr:$field);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input `[` $field `]` attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Pydev_StructInsertOp : Pydev_Op<"struct_insert", [Pure,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "a copy of a struct with one field replaced";
  let description = [{
    Structs are immutable values: this returns a new struct.
    Spec: User-Defined Types.

    ```mlir
    %q = pydev.struct_insert %v, %p["y"] : f32, !pydev.struct<"P", {x: si32, y: f32}>
    ```
  }];
  let arguments = (ins AnyType:$value, Pydev_Struct:$input, StrAttr:$field);
  let results = (outs Pydev_Struct:$result);
  let assemblyFormat = "$value `,` $input `[` $field `]` attr-dict `:` type($value) `,` type($input)";
  let hasVerifier = 1;
}

def Pydev_VectorCreateOp : Pydev_Op<"vector_create", [Pure]> {
  let summary = "construct a vector";
  let description = [{
    `float32x4(a, b, c, d)`: one operand of the element type per lane.
    Spec: Vectors.

    ```mlir
    %v = pydev.vector_create(%a, %b) : (f32, f32) -> !pydev.vector<2 x f32>
    ```
  }];
  let arguments = (ins Variadic<Pydev_Number>:$elements);
  let results = (outs Pydev_Vector:$result);
  let assemblyFormat = "`(` $elements `)` attr-dict `:` functional-type($elements, $result)";
  let hasVerifier = 1;
}

def Pydev_VectorExtractOp : Pydev_Op<"vector_extract", [Pure]> {
  let summary = "read one lane of a vector";
  let description = [{
    `v[i]`, `v.x`, `v.y`, `v.z`, `v.w`. The index must be in `[0, lanes)`.
    Spec: Vectors.

    ```mlir
    %e = pydev.vector_extract %v[%i] : !pydev.vector<4 x f32>, si32 -> f32
    ```
  }];
  let arguments = (ins Pydev_Vector:$input, Pydev_Index:$index);
  let results = (outs Pydev_Number:$result);
  let assemblyFormat = [{
    $input `[` $index `]` attr-dict `:` type($input) `,` type($index) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pydev_VectorInsertOp : Pydev_Op<"vector_insert", [Pure,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "a copy of a vector with one lane replaced";
  let description = [{
    `v[i] = x` rebinds `v` to the result. Spec: Vectors.

    ```mlir
    %w = pydev.vector_insert %x, %v[%i] : f32, !pydev.vector<4 x f32>, si32
    ```
  }];
  let arguments = (ins Pydev_Number:$value, Pydev_Vector:$input, Pydev_Index:$index);
  let results = (outs Pydev_Vector:$result);
  let assemblyFormat = [{
    $value `,` $input `[` $index `]` attr-dict `:` type($value) `,` type($input) `,` type($index)
  }];
  let hasVerifier = 1;
}

def Pydev_TupleCreateOp : Pydev_Op<"tuple_create", [Pure]> {
  let summary = "construct a tuple";
  let description = [{
    Tuple packing `(a, b)`. Spec: Tuples.

    ```mlir
    %t = pydev.tuple_create(%a, %b) : (si32, f32) -> !pydev.tuple<si32, f32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$elements);
  let results = (outs Pydev_Tuple:$result);
  let assemblyFormat = "`(` $elements `)` attr-dict `:` functional-type($elements, $result)";
  let hasVerifier = 1;
}

def Pydev_TupleExtractOp : Pydev_Op<"tuple_extract", [Pure]> {
  let summary = "read one element of a tuple";
  let description = [{
    `t[k]` with a constant `k` (tuples are heterogeneous), and unpacking.
    Spec: Tuples.

    ```mlir
    %b = pydev.tuple_extract %t[1] : !pydev.tuple<si32, f32> -> f32
    ```
  }];
  let arguments = (ins Pydev_Tuple:$input, I64Attr:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$input `[` $index `]` attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Pydev_TupleInsertOp : Pydev_Op<"tuple_insert", [Pure,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "a copy of a tuple with one element replaced";
  let description = [{
    For frontends whose tuples are value aggregates that they update (Python
    tuples themselves are never updated in place). Spec: Tuples.

    ```mlir
    %u = pydev.tuple_insert %x, %t[0] : si32, !pydev.tuple<si32, f32>
    ```
  }];
  let arguments = (ins AnyType:$value, Pydev_Tuple:$input, I64Attr:$index);
  let results = (outs Pydev_Tuple:$result);
  let assemblyFormat = "$value `,` $input `[` $index `]` attr-dict `:` type($value) `,` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Arrays (spec: Arrays)
//===----------------------------------------------------------------------===//

def Pydev_ArrayLoadOp : Pydev_Op<"array_load", [MemoryEffects<[MemRead]>]> {
  let summary = "read one element of an array";
  let description = [{
    `a[i, j]` with one integer index per dimension. Indices are already
    non-negative (the frontend adds the extent to negative constants and
    wraps others with `pydev-` index normalisation); with bounds checking on,
    they are checked against the shape. Spec: Arrays.

    ```mlir
    %x = pydev.array_load %a[%i, %j] : !pydev.array<f32, 2>, si32, si64 -> f32
    ```
  }];
  let arguments = (ins Pydev_Array:$array, Variadic<Pydev_Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` attr-dict `:` type($array) (`,` type($indices)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pydev_ArrayStoreOp : Pydev_Op<"array_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "write one element of an array";
  let description = [{
    `a[i, j] = v`. Writing to a read-only array is an error. Spec: Arrays.

    ```mlir
    pydev.array_store %v, %a[%i, %j] : f32, !pydev.array<f32, 2>, si32, si32
    ```
  }];
  let arguments = (ins AnyType:$value, Pydev_Array:$array, Variadic<Pydev_Index>:$indices);
  let assemblyFormat = [{
    $value `,` $array `[` $indices `]` attr-dict `:` type($value) `,` type($array) (`,` type($indices)^)?
  }];
  let hasVerifier = 1;
}

def Pydev_ArrayIndexOp : Pydev_Op<"array_index", [Pure]> {
  let summary = "index the leading dimensions of an array, giving a view";
  let description = [{
    `a[i]` on a 2-d array is the 1-d view of row `i`: the result has the
    rank of the source minus the number of indices (at least one dimension
    stays; indexing every dimension is `pydev.array_load`). Spec: Arrays.

    ```mlir
    %row = pydev.array_index %a[%i] : !pydev.array<f32, 2>, si32 -> !pydev.array<f32, 1>
    ```
  }];
  let arguments = (ins Pydev_Array:$array, Variadic<Pydev_Index>:$indices);
  let results = (outs Pydev_Array:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` attr-dict `:` type($array) (`,` type($indices)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pydev_ArraySliceOp : Pydev_Op<"array_slice", [Pure, AttrSizedOperandSegments]> {
  let summary = "a strided view of an array";
  let description = [{
    `a[i, lo:hi:step, ...]`: `kinds` has one entry per source dimension,
    0 for an integer index (the dimension is dropped) and 1 for a slice.
    `starts` has one value per source dimension; `stops` and `steps` one per
    slice. The values are Python slice bounds, normalised by the lowering with
    Python's rules (negative bounds count from the end, bounds are clamped,
    negative steps walk backwards). Spec: Arrays (slicing, striding).
    The result is `strided`, or keeps a `c`/`f` source's layout when every
    step is the constant 1 and the view is contiguous (the producer's
    promise: for `c`, integer indices, then one run, then whole dimensions,
    as in `a[i, lo:hi]` or `a[lo:hi, :]`).

    ```mlir
    %v = pydev.array_slice %a [0, 1] starts(%i, %lo : si32, si32) stops(%hi : si32) steps(%st : si32)
       : !pydev.array<f32, 2> -> !pydev.array<f32, 1>
    ```
  }];
  let arguments = (ins Pydev_Array:$array, DenseI32ArrayAttr:$kinds,
                       Variadic<Pydev_Index>:$starts, Variadic<Pydev_Index>:$stops,
                       Variadic<Pydev_Index>:$steps);
  let results = (outs Pydev_Array:$result);
  let assemblyFormat = [{
    $array $kinds `starts` `(` ($starts^ `:` type($starts))? `)` `stops` `(` ($stops^ `:` type($stops))? `)`
    `steps` `(` ($steps^ `:` type($steps))? `)` attr-dict `:` type($array) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pydev_ArrayViewOp : Pydev_Op<"array_view", [Pure]> {
  let summary = "reinterpret an array's elements as another dtype";
  let description = [{
    `a.view(dtype)` (and `a.astype(dtype, copy=False)` when no copy is
    needed): the last dimension is rescaled by the ratio of element sizes; it
    must be contiguous when the sizes differ. Spec: Arrays.

    ```mlir
    %w = pydev.array_view %a : !pydev.array<f32, 1> -> !pydev.array<ui32, 1>
    ```
  }];
  let arguments = (ins Pydev_Array:$array);
  let results = (outs Pydev_Array:$result);
  let assemblyFormat = "$array attr-dict `:` type($array) `->` type($result)";
  let hasVerifier = 1;
}

def Pydev_ArrayReshapeOp : Pydev_Op<"array_reshape", [Pure]> {
  let summary = "a view of an array with another shape, without allocating";
  let description = [{
    `a.reshape(shape)`: one extent per result dimension; the source must be
    contiguous in the requested order. Spec: Arrays.

    ```mlir
    %m = pydev.array_reshape %a(%r, %c) : !pydev.array<f32, 1, c>, si64, si64 -> !pydev.array<f32, 2, c>
    ```
  }];
  let arguments = (ins Pydev_Array:$array, Variadic<Pydev_Index>:$shape);
  let results = (outs Pydev_Array:$result);
  let assemblyFormat = [{
    $array `(` $shape `)` attr-dict `:` type($array) (`,` type($shape)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pydev_ArrayShapeOp : Pydev_Op<"array_shape", [Pure]> {
  let summary = "the shape of an array as a tuple of int64";
  let description = [{
    `a.shape`. Spec: Arrays.

    ```mlir
    %s = pydev.array_shape %a : !pydev.array<f32, 2> -> !pydev.tuple<si64, si64>
    ```
  }];
  let arguments = (ins Pydev_Array:$array);
  let results = (outs Pydev_Tuple:$result);
  let assemblyFormat = "$array attr-dict `:` type($array) `->` type($result)";
  let hasVerifier = 1;
}

def Pydev_ArrayStridesOp : Pydev_Op<"array_strides", [Pure]> {
  let summary = "the strides of an array in bytes, as a tuple of int64";
  let description = [{
    `a.strides`, in bytes like NumPy (the descriptor holds element strides).
    Spec: Arrays.

    ```mlir
    %s = pydev.array_strides %a : !pydev.array<f32, 2> -> !pydev.tuple<si64, si64>
    ```
  }];
  let arguments = (ins Pydev_Array:$array);
  let results = (outs Pydev_Tuple:$result);
  let assemblyFormat = "$array attr-dict `:` type($array) `->` type($result)";
  let hasVerifier = 1;
}

def Pydev_ArraySizeOp : Pydev_Op<"array_size", [Pure]> {
  let summary = "the number of elements of an array";
  let description = [{
    `a.size`, the product of the shape, as int64. Spec: Arrays.

    ```mlir
    %n = pydev.array_size %a : !pydev.array<f32, 2> -> si64
    ```
  }];
  let arguments = (ins Pydev_Array:$array);
  let results = (outs AnyInteger:$result);
  let assemblyFormat = "$array attr-dict `:` type($array) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Target specialization (spec: Target Specialization)
//===----------------------------------------------------------------------===//

def Pydev_TargetOp : Pydev_Op<"target", [Pure]> {
  let summary = "`target(desc)`: whether the compile target matches";
  let description = [{
    True when the target being compiled for matches the description.
    `pydev-specialize-target` folds it to a constant and erases dead
    branches, so device-only constructs in host-only branches are never
    required. Spec: Target Specialization.

    ```mlir
    %t = pydev.target #pydev.target<provides(sm_80)>
    ```
  }];
  let arguments = (ins Pydev_TargetAttr:$desc);
  let results = (outs I1:$result);
  let assemblyFormat = "$desc attr-dict";
}

//===----------------------------------------------------------------------===//
// Local and shared memory (spec: Local, Shared, and Const Memory)
//===----------------------------------------------------------------------===//

class Pydev_StaticArrayOp<string mnemonic, string space, string what>
    : Pydev_Op<mnemonic, [MemoryEffects<[MemAlloc]>]> {
  let summary = what;
  let description = [{
    `}] # mnemonic # [{(shape, dtype, order, align)`: an array of constant
    `shape` in }] # space # [{ memory; `order` is `"C"` or `"F"`; `alignment`
    is in bytes (0: the element's natural alignment), a power of two. The
    result type carries the space, the rank and the contiguity.
    Spec: Local, Shared, and Const Memory.

    ```mlir
    %t = pydev.}] # mnemonic # [{ shape [32, 33] order "C" : !pydev.array<f32, 2, }] # space # [{, c>
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$shape, DefaultValuedStrAttr<StrAttr, "C">:$order,
                       DefaultValuedAttr<I64Attr, "0">:$alignment);
  let results = (outs Pydev_Array:$result);
  let assemblyFormat = "`shape` $shape `order` $order (`align` $alignment^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}
def Pydev_LocalArrayOp : Pydev_StaticArrayOp<"local_array", "local",
    "an array private to each thread">;
def Pydev_SharedArrayOp : Pydev_StaticArrayOp<"shared_array", "shared",
    "an array shared by the threads of a block">;

def Pydev_ConstArrayOp : Pydev_Op<"const_array", [Pure]> {
  let summary = "an array of constant data in constant memory";
  let description = [{
    `const_array(data, shape)`: an array of constant `shape` in the constant
    memory space (CUDA's `__constant__`: PTX `.const`, read with `ld.const`;
    a read-only global on the host), C order, holding `data`: the elements'
    bytes, little-endian in the element type's layout (records and vectors
    included), as a `tensor<N x i8>`. `alignment` in bytes (0: the
    element's natural alignment), a power of two.
    Spec: Local, Shared, and Const Memory.

    ```mlir
    %c = pydev.const_array shape [2] data dense<[0, 0, 128, 63, 0, 0, 0, 64]> : tensor<8xi8>
         : !pydev.array<f32, 1, constant, c, readonly>
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$shape, ElementsAttr:$data,
                       DefaultValuedAttr<I64Attr, "0">:$alignment);
  let results = (outs Pydev_Array:$result);
  let assemblyFormat = "`shape` $shape `data` $data (`align` $alignment^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Pydev_DynamicSharedArrayOp : Pydev_Op<"dynamic_shared_array", [Pure]> {
  let summary = "the block's dynamic shared memory as a 1-d uint8 array";
  let description = [{
    `dynamic_shared_array()`: its size is the launch's `shared` bytes. The
    element is `ui8` (`i8` after `pydev-promote-types`).
    Spec: Local, Shared, and Const Memory.

    ```mlir
    %d = pydev.dynamic_shared_array : !pydev.array<ui8, 1, shared, c>
    ```
  }];
  let results = (outs Pydev_Array:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Atomics (spec: Synchronization / Atomics)
//===----------------------------------------------------------------------===//

def Pydev_AtomicRefOp : Pydev_Op<"atomic_ref", [Pure]> {
  let summary = "`atomic_ref(array, index)`";
  let description = [{
    A reference to the element `array[index]` for atomic access; one index
    per dimension. The reference's space is the array's. With `field`, a
    path of struct field names, it refers to that member of the element: a
    `device.Atomic` field of a struct held in memory (the spec's
    `ticket_mutex`), whose member type is the result's element type.
    Spec: Atomics / atomic_ref, Atomic; User-Defined Types.

    ```mlir
    %r = pydev.atomic_ref %a[%i] : !pydev.array<ui32, 1>, si32 -> !pydev.atomic_ref<ui32>
    %l = pydev.atomic_ref %m[%i] field ["line", "value"] : !pydev.array<!pydev.struct<"M", {line: !pydev.struct<"atomic_int32_16", {value: si32}, align 16>}>, 1>, si32 -> !pydev.atomic_ref<si32>
    ```
  }];
  let arguments = (ins Pydev_Array:$array, Variadic<Pydev_Index>:$indices, OptionalAttr<StrArrayAttr>:$field);
  let results = (outs Pydev_AtomicRef:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` (`field` $field^)? attr-dict `:` type($array) (`,` type($indices)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pydev_AtomicRMWOp : Pydev_Op<"atomic_rmw", [AllTypesMatch<["value", "result"]>]> {
  let summary = "an atomic read-modify-write";
  let description = [{
    `ref.add(val, memory, scope)` and `sub`, `and_`, `or_`, `xor`, `max`,
    `min`, `nanmax`, `nanmin`, `exch`: returns the old value. Allowed element
    types: `add`, `sub`, `max`, `min`, `nanmax`, `nanmin` take 32- and 64-bit
    integers and float32/float64; `and`, `or`, `xor` 32- and 64-bit integers;
    `exch` any value of at most 8 bytes. Spec: Atomics / AtomicInterface.

    ```mlir
    %old = pydev.atomic_rmw add %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<f32>, f32
    ```
  }];
  let arguments = (ins Pydev_AtomicRMWKindAttr:$kind, Pydev_AtomicRef:$ref, Pydev_Value:$value,
                       Pydev_MemoryOrderAttr:$memory, Pydev_ScopeAttr:$scope);
  let results = (outs Pydev_Value:$result);
  let assemblyFormat = [{
    $kind $ref `,` $value `memory` $memory `scope` $scope attr-dict `:` type($ref) `,` type($value)
  }];
  let hasVerifier = 1;
}

def Pydev_AtomicCASOp : Pydev_Op<"atomic_cas",
    [AllTypesMatch<["expected", "desired", "result"]>]> {
  let summary = "an atomic compare-and-swap";
  let description = [{
    `ref.cas(old, val, memory, scope)`: if the object equals `old`, store
    `val`; returns the previous value. At most 8 bytes.
    Spec: Atomics / AtomicInterface.cas.

    ```mlir
    %prev = pydev.atomic_cas %r, %old, %new memory <seq_cst> scope <system> : !pydev.atomic_ref<si32>, si32
    ```
  }];
  let arguments = (ins Pydev_AtomicRef:$ref, Pydev_Value:$expected, Pydev_Value:$desired,
                       Pydev_MemoryOrderAttr:$memory, Pydev_ScopeAttr:$scope);
  let results = (outs Pydev_Value:$result);
  let assemblyFormat = [{
    $ref `,` $expected `,` $desired `memory` $memory `scope` $scope attr-dict `:` type($ref) `,` type($result)
  }];
  let hasVerifier = 1;
}

def Pydev_AtomicLoadOp : Pydev_Op<"atomic_load"> {
  let summary = "an atomic load";
  let description = [{
    `ref.load(memory, scope)`: at most 16 bytes; `release` and `acq_rel` are
    not load orders. Spec: Atomics / AtomicInterface.load.

    ```mlir
    %v = pydev.atomic_load %r memory <acquire> scope <device> : !pydev.atomic_ref<si64> -> si64
    ```
  }];
  let arguments = (ins Pydev_AtomicRef:$ref, Pydev_MemoryOrderAttr:$memory, Pydev_ScopeAttr:$scope);
  let results = (outs Pydev_Value:$result);
  let assemblyFormat = [{
    $ref `memory` $memory `scope` $scope attr-dict `:` type($ref) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Pydev_AtomicStoreOp : Pydev_Op<"atomic_store"> {
  let summary = "an atomic store";
  let description = [{
    `ref.store(val, memory, scope)`: at most 16 bytes; `consume`, `acquire`
    and `acq_rel` are not store orders. Spec: Atomics / AtomicInterface.store.

    ```mlir
    pydev.atomic_store %v, %r memory <release> scope <block> : si32, !pydev.atomic_ref<si32>
    ```
  }];
  let arguments = (ins Pydev_Value:$value, Pydev_AtomicRef:$ref, Pydev_MemoryOrderAttr:$memory,
                       Pydev_ScopeAttr:$scope);
  let assemblyFormat = [{
    $value `,` $ref `memory` $memory `scope` $scope attr-dict `:` type($value) `,` type($ref)
  }];
  let hasVerifier = 1;
}

def Pydev_AtomicWaitOp : Pydev_Op<"atomic_wait"> {
  let summary = "block until an atomic's value differs from `old`";
  let description = [{
    `ref.wait(old, memory, scope)` (C++ `atomic::wait`): returns once the
    object's value is observed to be different from `old`.
    Spec: Atomics (ticket_mutex example).

    ```mlir
    pydev.atomic_wait %r, %old memory <acquire> scope <device> : !pydev.atomic_ref<si32>, si32
    ```
  }];
  let arguments = (ins Pydev_AtomicRef:$ref, Pydev_Value:$old, Pydev_MemoryOrderAttr:$memory,
                       Pydev_ScopeAttr:$scope);
  let assemblyFormat = [{
    $ref `,` $old `memory` $memory `scope` $scope attr-dict `:` type($ref) `,` type($old)
  }];
  let hasVerifier = 1;
}

def Pydev_AtomicNotifyOp : Pydev_Op<"atomic_notify"> {
  let summary = "wake threads waiting on an atomic";
  let description = [{
    `ref.notify_one()` / `ref.notify_all()` (the `all` flag).
    Spec: Atomics (ticket_mutex example).

    ```mlir
    pydev.atomic_notify %r all : !pydev.atomic_ref<si32>
    ```
  }];
  let arguments = (ins Pydev_AtomicRef:$ref, UnitAttr:$all);
  let assemblyFormat = "$ref (`all` $all^)? attr-dict `:` type($ref)";
}

def Pydev_ThreadFenceOp : Pydev_Op<"threadfence"> {
  let summary = "`threadfence(memory, scope)`";
  let description = [{
    Orders non-atomic and relaxed accesses (CUDA's `__threadfence`,
    `__threadfence_block`, `__threadfence_system`).
    Spec: Atomics / threadfence.

    ```mlir
    pydev.threadfence memory <seq_cst> scope <device>
    ```
  }];
  let arguments = (ins Pydev_MemoryOrderAttr:$memory, Pydev_ScopeAttr:$scope);
  let assemblyFormat = "`memory` $memory `scope` $scope attr-dict";
}

//===----------------------------------------------------------------------===//
// Block synchronization (spec: Thread Block Synchronization)
//===----------------------------------------------------------------------===//

def Pydev_SyncThreadsOp : Pydev_Op<"syncthreads"> {
  let summary = "`syncthreads()`: a block-wide barrier";
  let description = [{
    Every thread of the block must reach it. Spec: Thread Block Synchronization.

    ```mlir
    pydev.syncthreads
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Pydev_GridSyncOp : Pydev_Op<"grid_sync"> {
  let summary = "`this_grid().sync()`: a grid-wide barrier";
  let description = [{
    Every thread of every block of the grid waits until all have reached
    it; writes made before it are visible to every thread after it
    (Numba-CUDA's `cuda.cg.this_grid().sync()`, CUDA's cooperative groups
    `grid.sync()`). It is also a block barrier. The kernel must be launched
    cooperatively (every block of the grid resident at once): on cuda the
    runtime launches a kernel whose PTX synchronizes its grid with
    `cuLaunchCooperativeKernel`; the host target runs all the grid's blocks
    together.

    ```mlir
    pydev.grid_sync
    ```
  }];
  let assemblyFormat = "attr-dict";
}

class Pydev_SyncThreadsReduceOp<string mnemonic, string what, Type resultType>
    : Pydev_Op<mnemonic> {
  let summary = "`" # mnemonic # "(pred)`: a barrier that " # what;
  let description = [{
    A block-wide barrier that also }] # what # [{; the frontend evaluates
    the predicate callable and passes its value. Spec: Thread Block
    Synchronization.

    ```mlir
    %r = pydev.}] # mnemonic # [{ %p : }] # !if(!eq(mnemonic, "syncthreads_count"), "si32", "i1") # [{
    ```
  }];
  let arguments = (ins I1:$predicate);
  let results = (outs resultType:$result);
  let assemblyFormat = "$predicate attr-dict `:` type($result)";
}
def Pydev_SyncThreadsCountOp : Pydev_SyncThreadsReduceOp<"syncthreads_count",
    "counts the threads whose predicate is true", AnyI32>;
def Pydev_SyncThreadsAndOp : Pydev_SyncThreadsReduceOp<"syncthreads_and",
    "tells whether every thread's predicate is true", I1>;
def Pydev_SyncThreadsOrOp : Pydev_SyncThreadsReduceOp<"syncthreads_or",
    "tells whether any thread's predicate is true", I1>;

//===----------------------------------------------------------------------===//
// Warp synchronization (spec: Thread Warp Synchronization)
//===----------------------------------------------------------------------===//

def Pydev_SyncWarpOp : Pydev_Op<"syncwarp"> {
  let summary = "`syncwarp(mask)`";
  let description = [{
    Synchronizes the lanes of `mask`. Spec: Thread Warp Synchronization.

    ```mlir
    pydev.syncwarp %m
    ```
  }];
  let arguments = (ins Pydev_WarpMask:$mask);
  let assemblyFormat = "$mask attr-dict";
}

def Pydev_ActiveMaskOp : Pydev_Op<"activemask"> {
  let summary = "`activemask()`: the active lanes of the warp";
  let description = [{
    Spec: Thread Warp Synchronization / activemask.

    ```mlir
    %m = pydev.activemask
    ```
  }];
  let results = (outs Pydev_WarpMask:$result);
  let assemblyFormat = "attr-dict";
}

def Pydev_LaneMaskLtOp : Pydev_Op<"lanemask_lt", [Pure]> {
  let summary = "`lanemask_lt()`: the lanes below the calling lane";
  let description = [{
    Spec: Thread Warp Synchronization / lanemask_lt.

    ```mlir
    %m = pydev.lanemask_lt
    ```
  }];
  let results = (outs Pydev_WarpMask:$result);
  let assemblyFormat = "attr-dict";
}

def Pydev_VoteOp : Pydev_Op<"vote"> {
  let summary = "a warp vote: `all_sync`, `any_sync`, `eq_sync`, `ballot_sync`";
  let description = [{
    `all`, `any` and `eq` give `i1`; `ballot` gives the mask of lanes whose
    predicate is true. Spec: Thread Warp Synchronization.

    ```mlir
    %b = pydev.vote ballot %m, %p : !pydev.warp_mask
    %a = pydev.vote all %m, %p : i1
    ```
  }];
  let arguments = (ins Pydev_VoteKindAttr:$kind, Pydev_WarpMask:$mask, I1:$predicate);
  let results = (outs AnyTypeOf<[I1, Pydev_WarpMask]>:$result);
  let assemblyFormat = "$kind $mask `,` $predicate attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Pydev_ShuffleOp : Pydev_Op<"shfl", [AllTypesMatch<["value", "result"]>]> {
  let summary = "a warp shuffle: `shfl_sync`, `shfl_up_sync`, `shfl_down_sync`, `shfl_xor_sync`";
  let description = [{
    Reads `value` from another lane: `idx` from lane `lane`, `up` from
    `lane_id - lane`, `down` from `lane_id + lane`, `xor` from
    `lane_id ^ lane`. A source outside the warp gives the caller's own value
    (as CUDA does). The value is at most 8 bytes (numbers, vectors, structs,
    tuples). Spec: Thread Warp Synchronization.

    ```mlir
    %v = pydev.shfl down %m, %x, %d : f32, si32
    ```
  }];
  let arguments = (ins Pydev_ShuffleKindAttr:$kind, Pydev_WarpMask:$mask, Pydev_Value:$value,
                       AnyTypeOf<[AnyInteger, Pydev_WarpMask]>:$lane);
  let results = (outs Pydev_Value:$result);
  let assemblyFormat = [{
    $kind $mask `,` $value `,` $lane attr-dict `:` type($value) `,` type($lane)
  }];
  let hasVerifier = 1;
}

def Pydev_MatchAnyOp : Pydev_Op<"match_any"> {
  let summary = "`match_any_sync(mask, value)`";
  let description = [{
    The lanes of `mask` holding the same value as the caller (sm_70+).
    The value is a 32- or 64-bit number. Spec: Thread Warp Synchronization.

    ```mlir
    %eq = pydev.match_any %m, %x : si32
    ```
  }];
  let arguments = (ins Pydev_WarpMask:$mask, Pydev_Value:$value);
  let results = (outs Pydev_WarpMask:$result);
  let assemblyFormat = "$mask `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Pydev_MatchAllOp : Pydev_Op<"match_all"> {
  let summary = "`match_all_sync(mask, value)`";
  let description = [{
    `(mask, true)` when every lane of `mask` holds the same value, else
    `(0, false)` (sm_70+). The value is a 32- or 64-bit number.
    Spec: Thread Warp Synchronization.

    ```mlir
    %eq, %pred = pydev.match_all %m, %x : f32
    ```
  }];
  let arguments = (ins Pydev_WarpMask:$mask, Pydev_Value:$value);
  let results = (outs Pydev_WarpMask:$result, I1:$pred);
  let assemblyFormat = "$mask `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}
