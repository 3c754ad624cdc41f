//! Numeric promotion, defined once: the common type of two numbers (Python
//! Array API 2023.12, extended to float16/bfloat16/float8 and to mixed
//! integer/float operands; spec: Numeric Promotion) and the result type of
//! each promoting op of the dialect (`pydev.add` .. `pydev.rshift`).
//!
//! Every consumer reads this table: the dialect's verifier (`build.rs`
//! generates it into C++ for the ops' `verify()`), the cuda.device frontend
//! (`pydev_frontend_python::types::promote`, which adds Python's weak
//! scalars on top), `pydev-promote-types` (comparisons), and Python
//! (`PROMOTION` and `PROMOTING_OPS` of `pydev._pydev.facts()`, generated
//! into `pydev._facts`, read by `pydev.ir`'s operators;
//! pydev.numba types by Numba's rules and then casts its operands, so its
//! ops are `T, T -> T`). This file has no dependencies: `build.rs` includes it.

/// A float format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Float {
    F8E4M3,
    F8E5M2,
    F16,
    BF16,
    F32,
    F64,
}

/// A number type of the dialect, as promotion sees it (signless integers
/// other than `i1` count as signed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Number {
    Bool,
    Int {
        bits: u32,
        signed: bool,
    },
    Float(Float),
    /// `complex<f32>` (32) or `complex<f64>` (64).
    Complex(u32),
}

/// Every number type the table covers, in the order of the generated C++ table.
pub const NUMBERS: [Number; 17] = [
    Number::Bool,
    Number::Int { bits: 8, signed: true },
    Number::Int { bits: 16, signed: true },
    Number::Int { bits: 32, signed: true },
    Number::Int { bits: 64, signed: true },
    Number::Int { bits: 8, signed: false },
    Number::Int { bits: 16, signed: false },
    Number::Int { bits: 32, signed: false },
    Number::Int { bits: 64, signed: false },
    Number::Float(Float::F8E4M3),
    Number::Float(Float::F8E5M2),
    Number::Float(Float::F16),
    Number::Float(Float::BF16),
    Number::Float(Float::F32),
    Number::Float(Float::F64),
    Number::Complex(32),
    Number::Complex(64),
];

impl Number {
    /// The MLIR type text.
    pub fn mlir(self) -> String {
        match self {
            Number::Bool => "i1".into(),
            Number::Int { bits, signed } => format!("{}i{bits}", if signed { "s" } else { "u" }),
            Number::Float(f) => match f {
                Float::F8E4M3 => "f8E4M3FN",
                Float::F8E5M2 => "f8E5M2",
                Float::F16 => "f16",
                Float::BF16 => "bf16",
                Float::F32 => "f32",
                Float::F64 => "f64",
            }
            .into(),
            Number::Complex(b) => format!("complex<f{b}>"),
        }
    }

    /// The number of MLIR type text `text` (signless `iN` as signed), or
    /// None for a type the table does not cover.
    pub fn parse(text: &str) -> Option<Number> {
        if text == "i1" {
            return Some(Number::Bool);
        }
        let int = |rest: &str, signed| match rest.parse::<u32>() {
            Ok(bits @ (8 | 16 | 32 | 64)) => Some(Number::Int { bits, signed }),
            _ => None,
        };
        if let Some(rest) = text.strip_prefix("si").or_else(|| text.strip_prefix('i')) {
            return int(rest, true);
        }
        if let Some(rest) = text.strip_prefix("ui") {
            return int(rest, false);
        }
        NUMBERS.into_iter().find(|n| n.mlir() == text)
    }
}

fn float_rank(f: Float) -> u32 {
    match f {
        Float::F8E4M3 | Float::F8E5M2 => 0,
        Float::F16 | Float::BF16 => 1,
        Float::F32 => 2,
        Float::F64 => 3,
    }
}

/// The common type of two numbers, None where there is none (uint64 with a
/// signed integer).
pub fn promote(a: Number, b: Number) -> Option<Number> {
    use Number::*;
    if a == b {
        return Some(a);
    }
    Some(match (a, b) {
        (Bool, other) | (other, Bool) => other,
        (Int { bits: x, signed: sx }, Int { bits: y, signed: sy }) => {
            if sx == sy {
                Int { bits: x.max(y), signed: sx }
            } else {
                let (s, u) = if sx { (x, y) } else { (y, x) };
                if u < s {
                    Int { bits: s, signed: true }
                } else if u < 64 {
                    Int { bits: u * 2, signed: true }
                } else {
                    return None;
                }
            }
        }
        (Int { .. }, f @ Float(_)) | (f @ Float(_), Int { .. }) => f,
        (Float(x), Float(y)) => {
            let (rx, ry) = (float_rank(x), float_rank(y));
            if rx > ry {
                a
            } else if ry > rx {
                b
            } else if rx == 0 {
                Float(self::Float::F16) // float8 with the other float8
            } else {
                Float(self::Float::F32) // float16 with bfloat16
            }
        }
        (Complex(x), Complex(y)) => Complex(x.max(y)),
        (Complex(c), Float(f)) | (Float(f), Complex(c)) => Complex(if f == self::Float::F64 { 64 } else { c }),
        (c @ Complex(_), Int { .. }) | (Int { .. }, c @ Complex(_)) => c,
    })
}

/// How a promoting op types its result from its operands' common type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// `+ - * // % **`: the common type (bools give int32).
    Arith,
    /// `min max`: the common type (one of the operands: bools stay bools).
    MinMax,
    /// `/`: floats and complex keep their type; integers give float32,
    /// 64-bit integers float64.
    TrueDiv,
    /// `& | ^`: the common integer type (bools stay bools).
    Bitwise,
    /// `<< >>`: the common integer type (bools give int32).
    Shift,
}

/// The promoting ops: (mnemonic, C++ class, kind).
pub const OPS: [(&str, &str, OpKind); 14] = [
    ("add", "AddOp", OpKind::Arith),
    ("sub", "SubOp", OpKind::Arith),
    ("mul", "MulOp", OpKind::Arith),
    ("truediv", "TrueDivOp", OpKind::TrueDiv),
    ("floordiv", "FloorDivOp", OpKind::Arith),
    ("mod", "ModOp", OpKind::Arith),
    ("pow", "PowOp", OpKind::Arith),
    ("min", "MinOp", OpKind::MinMax),
    ("max", "MaxOp", OpKind::MinMax),
    ("and", "AndOp", OpKind::Bitwise),
    ("or", "OrOp", OpKind::Bitwise),
    ("xor", "XorOp", OpKind::Bitwise),
    ("lshift", "LShiftOp", OpKind::Shift),
    ("rshift", "RShiftOp", OpKind::Shift),
];

/// The kind of promoting op `mnemonic` (`"add"`), None for other ops.
pub fn op_kind(mnemonic: &str) -> Option<OpKind> {
    OPS.iter().find(|(m, _, _)| *m == mnemonic).map(|(_, _, k)| *k)
}

/// The result type of an op of kind `kind` whose operands' common type is
/// `common`; None where the op is not defined for it (bitwise ops on
/// floats, `//` and `%` on complex numbers are the frontends' errors).
pub fn result_of(kind: OpKind, common: Number) -> Option<Number> {
    use Number::*;
    Some(match (kind, common) {
        (OpKind::TrueDiv, Int { bits: 64, .. }) => Float(self::Float::F64),
        (OpKind::TrueDiv, Int { .. } | Bool) => Float(self::Float::F32),
        (OpKind::Bitwise | OpKind::MinMax, Bool) => Bool,
        (OpKind::Bitwise | OpKind::Shift, Float(_) | Complex(_)) => return None,
        (_, Bool) => Int { bits: 32, signed: true },
        _ => common,
    })
}

/// The result type of a promoting op of kind `kind` on operands of types
/// `a` and `b`.
pub fn result(kind: OpKind, a: Number, b: Number) -> Option<Number> {
    promote(a, b).and_then(|c| result_of(kind, c))
}

/// The C++ of the table for the dialect's verifier (`build.rs`):
/// `kPromotionNumbers` (MLIR type texts), `kPromotionResult[kind][a][b]`
/// (an index into them, -1: none) and each promoting op's `verify()`.
pub fn cpp() -> String {
    let all = NUMBERS;
    let kinds = [OpKind::Arith, OpKind::MinMax, OpKind::TrueDiv, OpKind::Bitwise, OpKind::Shift];
    let mut out = String::from("// Generated from dialect/src/promotion.rs by build.rs: do not edit.\n");
    out += &format!(
        "static const char *const kPromotionNumbers[{}] = {{{}}};\n",
        all.len(),
        all.iter().map(|n| format!("\"{}\"", n.mlir())).collect::<Vec<_>>().join(", ")
    );
    out += &format!("static const signed char kPromotionResult[{}][{n}][{n}] = {{\n", kinds.len(), n = all.len());
    for kind in kinds {
        out += "  {\n";
        for a in &all {
            let row: Vec<String> = all
                .iter()
                .map(|b| result(kind, *a, *b).and_then(|r| all.iter().position(|n| *n == r)).map_or(-1, |i| i as i64))
                .map(|i| i.to_string())
                .collect();
            out += &format!("    {{{}}},\n", row.join(", "));
        }
        out += "  },\n";
    }
    out += "};\n";
    for (mnemonic, class, kind) in OPS {
        out += &format!(
            "LogicalResult {class}::verify() {{ return verifyPromotion(*this, {}, \"{mnemonic}\"); }}\n",
            kinds.iter().position(|k| *k == kind).unwrap_or(0)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_parses_back() {
        for n in NUMBERS {
            assert_eq!(Number::parse(&n.mlir()), Some(n));
        }
        assert_eq!(Number::parse("i32"), Some(Number::Int { bits: 32, signed: true }));
        assert_eq!(Number::parse("f80"), None);
        assert_eq!(Number::parse("si128"), None);
    }

    #[test]
    fn the_tables() {
        let p = |a: &str, b: &str| promote(Number::parse(a).unwrap(), Number::parse(b).unwrap()).map(Number::mlir);
        let r = |k, a: &str, b: &str| result(k, Number::parse(a).unwrap(), Number::parse(b).unwrap()).map(Number::mlir);
        assert_eq!(p("si8", "si32").as_deref(), Some("si32"));
        assert_eq!(p("si8", "ui8").as_deref(), Some("si16"));
        assert_eq!(p("si8", "ui32").as_deref(), Some("si64"));
        assert_eq!(p("ui64", "si8"), None);
        assert_eq!(p("f16", "bf16").as_deref(), Some("f32"));
        assert_eq!(p("f8E4M3FN", "f8E5M2").as_deref(), Some("f16"));
        assert_eq!(p("complex<f32>", "f64").as_deref(), Some("complex<f64>"));
        assert_eq!(p("si16", "f16").as_deref(), Some("f16"));
        assert_eq!(r(OpKind::TrueDiv, "si64", "si64").as_deref(), Some("f64"));
        assert_eq!(r(OpKind::TrueDiv, "si32", "si8").as_deref(), Some("f32"));
        assert_eq!(r(OpKind::TrueDiv, "ui32", "si32").as_deref(), Some("f64"));
        assert_eq!(r(OpKind::Arith, "i1", "i1").as_deref(), Some("si32"));
        assert_eq!(r(OpKind::Bitwise, "i1", "i1").as_deref(), Some("i1"));
        assert_eq!(r(OpKind::MinMax, "i1", "i1").as_deref(), Some("i1"));
        assert_eq!(r(OpKind::Shift, "i1", "i1").as_deref(), Some("si32"));
        assert_eq!(r(OpKind::Bitwise, "f32", "si32"), None);
        // Symmetric.
        for k in [OpKind::Arith, OpKind::MinMax, OpKind::TrueDiv, OpKind::Bitwise, OpKind::Shift] {
            for a in NUMBERS {
                for b in NUMBERS {
                    assert_eq!(result(k, a, b), result(k, b, a), "{k:?} {a:?} {b:?}");
                }
            }
        }
    }
}
