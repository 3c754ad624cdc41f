//! The frontend's types: the heterogeneous types of the spec, their Python
//! spelling (for messages) and their pydev IR spelling, and Array-API type
//! promotion (which the frontend needs to type the rest of the program; the
//! promotion pass materialises the conversions).

use std::{fmt, rc::Rc};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatKind {
    F8E4M3,
    F8E5M2,
    F16,
    BF16,
    F32,
    F64,
}

impl FloatKind {
    pub fn bits(self) -> u32 {
        match self {
            FloatKind::F8E4M3 | FloatKind::F8E5M2 => 8,
            FloatKind::F16 | FloatKind::BF16 => 16,
            FloatKind::F32 => 32,
            FloatKind::F64 => 64,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    Local,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayLayout {
    Strided,
    C,
    F,
}

/// A `@device.struct` class.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct StructDef {
    /// Its key in [`crate::module::Module::structs`]: the class's name for
    /// a class of the file's top level, `qualname@line` for one defined
    /// elsewhere (in a function, a class body, a block), so that two
    /// classes of one name stay apart; [`StructDef::short_name`] is the
    /// class's own name, for messages and the IR's struct type.
    pub name: String,
    pub fields: Vec<(String, Ty)>,
    pub align: u64,
}

impl StructDef {
    /// The class's name as Python spells it (`P` of `make.<locals>.P@12`).
    pub fn short_name(&self) -> &str {
        let n = self.name.rsplit_once('@').map_or(self.name.as_str(), |(q, _)| q);
        n.rsplit('.').next().unwrap_or(n)
    }

    /// Whether a field is a `device.Atomic`: such structs live in memory.
    pub fn holds_atomics(&self) -> bool {
        self.fields.iter().any(|(_, t)| t.atomic_cell_value().is_some())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    Int {
        bits: u32,
        signed: bool,
    },
    Float(FloatKind),
    /// complex64 (32) or complex128 (64): the bits of each part.
    Complex(u32),
    Vector {
        elem: Box<Ty>,
        lanes: u32,
    },
    Tuple(Vec<Ty>),
    Struct(Rc<StructDef>),
    Array {
        dtype: Box<Ty>,
        ndim: u32,
        layout: ArrayLayout,
        readonly: bool,
        space: Space,
    },
    WarpMask,
    AtomicRef {
        dtype: Box<Ty>,
        space: Space,
    },
    /// An element of an array of a struct that holds `device.Atomic` fields
    /// (`m = mutexes[i]`): a reference to memory, since atomics have an
    /// address; in IR a one-element view of the array.
    StructRef {
        def: Rc<StructDef>,
        space: Space,
    },
    None,
    /// A machine-level value (`index`, `i32`) between upstream ops; never a
    /// Python value.
    Raw(&'static str),
    /// A compile-time object passed to a function parameter (a target
    /// description, a dtype, a string, an SM selector; for a `ConstExpr`
    /// parameter also a tuple of constants): no run-time value, the callee
    /// is specialised on it and sees the object itself (like None).
    Static(Rc<StaticObj>),
}

/// The object a [`Ty::Static`] argument stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StaticObj {
    Target(crate::target::Target),
    Dtype(Ty),
    Str(String),
    Sm(u32),
    /// A constant number in a tuple: its type, whether it is a Python
    /// scalar (weak), and its value (a float's bits).
    Int(Ty, bool, i128),
    Float(Ty, bool, u64),
    Bool(bool),
    Tuple(Vec<StaticObj>),
}

impl fmt::Display for StaticObj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StaticObj::Target(t) => write!(f, "target description {}", t.text()),
            StaticObj::Dtype(t) => write!(f, "dtype {t}"),
            StaticObj::Str(s) => write!(f, "{s:?}"),
            StaticObj::Sm(sm) => write!(f, "sm{sm}"),
            StaticObj::Int(_, _, i) => write!(f, "{i}"),
            StaticObj::Float(_, _, bits) => write!(f, "{:?}", f64::from_bits(*bits)),
            StaticObj::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            StaticObj::Tuple(items) => {
                write!(f, "(")?;
                for (i, x) in items.iter().enumerate() {
                    write!(f, "{}{x}", if i > 0 { ", " } else { "" })?;
                }
                write!(f, "{})", if items.len() == 1 { "," } else { "" })
            }
        }
    }
}

pub const INT32: Ty = Ty::Int { bits: 32, signed: true };
pub const INT64: Ty = Ty::Int { bits: 64, signed: true };
pub const UINT32: Ty = Ty::Int { bits: 32, signed: false };
pub const FLOAT32: Ty = Ty::Float(FloatKind::F32);

impl Ty {
    /// The fixed-format number types by their `cuda.device` names.
    pub fn from_dtype_name(name: &str) -> Option<Ty> {
        Some(match name {
            "bool" | "bool_" => Ty::Bool,
            "int8" => Ty::Int { bits: 8, signed: true },
            "int16" => Ty::Int { bits: 16, signed: true },
            "int32" | "int" => INT32,
            "int64" => INT64,
            "uint8" => Ty::Int { bits: 8, signed: false },
            "uint16" => Ty::Int { bits: 16, signed: false },
            "uint32" => UINT32,
            "uint64" => Ty::Int { bits: 64, signed: false },
            "float16" => Ty::Float(FloatKind::F16),
            "bfloat16" => Ty::Float(FloatKind::BF16),
            "float32" | "float" => FLOAT32,
            "float64" => Ty::Float(FloatKind::F64),
            "float8e4m3" => Ty::Float(FloatKind::F8E4M3),
            "float8e5m2" => Ty::Float(FloatKind::F8E5M2),
            "complex64" | "complex" => Ty::Complex(32),
            "complex128" => Ty::Complex(64),
            _ => return None,
        })
    }

    /// Vector type names: `float32x4`, `uint8x2`, ...
    pub fn from_vector_name(name: &str) -> Option<Ty> {
        let (base, lanes) = name.rsplit_once('x')?;
        let lanes: u32 = lanes.parse().ok().filter(|n| (1..=4).contains(n))?;
        let elem = Ty::from_dtype_name(base).filter(|t| matches!(t, Ty::Int { .. } | Ty::Float(_)))?;
        if matches!(base, "int" | "float") {
            return None;
        }
        Some(Ty::Vector { elem: Box::new(elem), lanes })
    }

    /// `device.align(t, n)`: a struct with a larger alignment, or for
    /// other types a one-field struct `aligned_<t>_<n>` (as builtins.rs
    /// builds it), which device code reads and writes as a `t`.
    pub fn aligned(t: Ty, n: u64) -> Ty {
        match t {
            Ty::Struct(def) => Ty::Struct(Rc::new(StructDef {
                name: def.name.clone(),
                fields: def.fields.clone(),
                align: def.align.max(n),
            })),
            other => Ty::one_field("aligned", other, n),
        }
    }

    /// A one-field struct `<kind>_<t>_<a>` holding a `t` aligned to `a`.
    fn one_field(kind: &str, t: Ty, n: u64) -> Ty {
        let a = t.align().max(n);
        Ty::Struct(Rc::new(StructDef { name: format!("{kind}_{t}_{a}"), fields: vec![("value".into(), t)], align: a }))
    }

    /// The `t` of a [`Ty::one_field`] struct of `kind`.
    fn one_field_value(&self, kind: &str) -> Option<&Ty> {
        match self {
            Ty::Struct(def) => match def.fields.as_slice() {
                [(field, inner)] if field == "value" && def.name.starts_with(&format!("{kind}_{inner}_")) => {
                    Some(inner)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// A `device.Atomic(t, align=n)` field: a one-field struct
    /// `atomic_<t>_<a>` holding the `t` (device code reaches it only through
    /// a reference to the struct in memory, as an `AtomicInterface`).
    pub fn atomic_cell(t: Ty, n: u64) -> Ty {
        Ty::one_field("atomic", t, n)
    }

    /// The `t` of a `device.Atomic(t)` field type.
    pub fn atomic_cell_value(&self) -> Option<&Ty> {
        self.one_field_value("atomic")
    }

    /// The `t` of an `align(t, n)` of a type `t` that is not a struct.
    pub fn aligned_value(&self) -> Option<&Ty> {
        self.one_field_value("aligned")
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Ty::Bool | Ty::Int { .. } | Ty::Float(_) | Ty::Complex(_))
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, Ty::Int { .. })
    }

    pub fn is_float(&self) -> bool {
        matches!(self, Ty::Float(_))
    }

    /// Size in bytes of the CUDA C++ representation (scalars and aggregates).
    pub fn size(&self) -> u64 {
        match self {
            Ty::Bool => 1,
            Ty::Int { bits, .. } => u64::from(*bits) / 8,
            Ty::Float(k) => u64::from(k.bits()) / 8,
            Ty::Complex(b) => u64::from(*b) / 4,
            Ty::Vector { elem, lanes } => elem.size() * u64::from(*lanes),
            Ty::Tuple(items) => c_struct_layout(items.iter(), 1).0,
            Ty::Struct(def) => c_struct_layout(def.fields.iter().map(|(_, t)| t), def.align).0,
            Ty::Array { ndim, .. } => 8 + 16 * u64::from(*ndim),
            Ty::WarpMask => 4,
            Ty::AtomicRef { .. } => 8,
            Ty::StructRef { .. } => 40,
            Ty::None | Ty::Raw(_) => 8,
            Ty::Static(_) => 0,
        }
    }

    pub fn align(&self) -> u64 {
        match self {
            Ty::Complex(b) => u64::from(*b) / 8,
            Ty::Vector { elem, lanes } => {
                if *lanes == 3 {
                    elem.size()
                } else {
                    (elem.size() * u64::from(*lanes)).min(16)
                }
            }
            Ty::Tuple(items) => c_struct_layout(items.iter(), 1).1,
            Ty::Struct(def) => c_struct_layout(def.fields.iter().map(|(_, t)| t), def.align).1,
            Ty::Array { .. } | Ty::AtomicRef { .. } | Ty::StructRef { .. } | Ty::None | Ty::Raw(_) => 8,
            Ty::Static(_) => 1,
            other => other.size(),
        }
    }

    /// The pydev IR spelling.
    pub fn mlir(&self) -> String {
        match self {
            Ty::Bool => "i1".into(),
            Ty::Int { bits, signed: true } => format!("si{bits}"),
            Ty::Int { bits, signed: false } => format!("ui{bits}"),
            Ty::Float(k) => match k {
                FloatKind::F8E4M3 => "f8E4M3FN",
                FloatKind::F8E5M2 => "f8E5M2",
                FloatKind::F16 => "f16",
                FloatKind::BF16 => "bf16",
                FloatKind::F32 => "f32",
                FloatKind::F64 => "f64",
            }
            .into(),
            Ty::Complex(b) => format!("complex<f{b}>"),
            Ty::Vector { elem, lanes } => format!("!pydev.vector<{lanes} x {}>", elem.mlir()),
            Ty::Tuple(items) => format!("!pydev.tuple<{}>", items.iter().map(Ty::mlir).collect::<Vec<_>>().join(", ")),
            Ty::Struct(def) => {
                let fields: Vec<String> = def.fields.iter().map(|(n, t)| format!("{n}: {}", t.mlir())).collect();
                let align = if def.align > 0 { format!(", align {}", def.align) } else { String::new() };
                format!("!pydev.struct<{:?}, {{{}}}{align}>", def.short_name(), fields.join(", "))
            }
            Ty::Array { dtype, ndim, layout, readonly, space } => {
                let mut s = format!("!pydev.array<{}, {ndim}", dtype.mlir());
                match space {
                    Space::Global => {}
                    Space::Shared => s.push_str(", shared"),
                    Space::Local => s.push_str(", local"),
                }
                match layout {
                    ArrayLayout::Strided => {}
                    ArrayLayout::C => s.push_str(", c"),
                    ArrayLayout::F => s.push_str(", f"),
                }
                if *readonly {
                    s.push_str(", readonly");
                }
                s + ">"
            }
            Ty::WarpMask => "!pydev.warp_mask".into(),
            Ty::AtomicRef { dtype, space } => match space {
                Space::Global => format!("!pydev.atomic_ref<{}>", dtype.mlir()),
                Space::Shared => format!("!pydev.atomic_ref<{}, shared>", dtype.mlir()),
                Space::Local => format!("!pydev.atomic_ref<{}, local>", dtype.mlir()),
            },
            Ty::StructRef { def, space } => Ty::Array {
                dtype: Box::new(Ty::Struct(def.clone())),
                ndim: 1,
                layout: ArrayLayout::Strided,
                readonly: false,
                space: *space,
            }
            .mlir(),
            Ty::None | Ty::Static(_) => "none".into(),
            Ty::Raw(t) => (*t).into(),
        }
    }
}

/// (size, align) of a C struct with these members.
pub fn c_struct_layout<'a>(members: impl Iterator<Item = &'a Ty>, min_align: u64) -> (u64, u64) {
    let (mut size, mut align) = (0u64, 1u64);
    for m in members {
        let a = m.align();
        size = size.div_ceil(a) * a + m.size();
        align = align.max(a);
    }
    let align = align.max(min_align);
    (size.div_ceil(align) * align, align)
}

/// The Python spelling, for messages.
impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => write!(f, "bool"),
            Ty::Int { bits, signed: true } => write!(f, "int{bits}"),
            Ty::Int { bits, signed: false } => write!(f, "uint{bits}"),
            Ty::Float(k) => write!(
                f,
                "{}",
                match k {
                    FloatKind::F8E4M3 => "float8e4m3",
                    FloatKind::F8E5M2 => "float8e5m2",
                    FloatKind::F16 => "float16",
                    FloatKind::BF16 => "bfloat16",
                    FloatKind::F32 => "float32",
                    FloatKind::F64 => "float64",
                }
            ),
            Ty::Complex(b) => write!(f, "complex{}", b * 2),
            Ty::Vector { elem, lanes } => write!(f, "{elem}x{lanes}"),
            Ty::Tuple(items) => {
                write!(f, "tuple[")?;
                for (i, t) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, "]")
            }
            Ty::Struct(def) => write!(f, "{}", def.short_name()),
            Ty::Array { dtype, ndim, layout, readonly, space } => {
                write!(f, "{dtype}[")?;
                for d in 0..*ndim {
                    if d > 0 {
                        write!(f, ", ")?;
                    }
                    let contiguous =
                        (*layout == ArrayLayout::C && d + 1 == *ndim) || (*layout == ArrayLayout::F && d == 0);
                    write!(f, "{}", if contiguous { "::1" } else { ":" })?;
                }
                write!(f, "]")?;
                if *readonly {
                    write!(f, " (read-only)")?;
                }
                match space {
                    Space::Global => Ok(()),
                    Space::Shared => write!(f, " (shared)"),
                    Space::Local => write!(f, " (local)"),
                }
            }
            Ty::WarpMask => write!(f, "WarpMask"),
            Ty::AtomicRef { dtype, .. } => write!(f, "AtomicInterface[{dtype}]"),
            Ty::StructRef { def, .. } => write!(f, "{} (in memory)", def.short_name()),
            Ty::None => write!(f, "None"),
            Ty::Raw(t) => write!(f, "{t}"),
            Ty::Static(obj) => write!(f, "{obj}"),
        }
    }
}

/// Why two types have no common type ([`promote`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PromoteError {
    #[error("{0} and {1} have no common type (uint64 with a signed integer); convert one explicitly")]
    UnsignedWithSigned(Ty, Ty),
    #[error("{0} and {1} have no common numeric type")]
    NotNumeric(Ty, Ty),
}

impl Ty {
    /// The dialect's promotion type of a number (`pydev_dialect::promotion`).
    pub fn promotion_number(&self) -> Option<pydev_dialect::promotion::Number> {
        use pydev_dialect::promotion::{Float, Number};
        Some(match self {
            Ty::Bool => Number::Bool,
            Ty::Int { bits, signed } => Number::Int { bits: *bits, signed: *signed },
            Ty::Float(k) => Number::Float(match k {
                FloatKind::F8E4M3 => Float::F8E4M3,
                FloatKind::F8E5M2 => Float::F8E5M2,
                FloatKind::F16 => Float::F16,
                FloatKind::BF16 => Float::BF16,
                FloatKind::F32 => Float::F32,
                FloatKind::F64 => Float::F64,
            }),
            Ty::Complex(bits) => Number::Complex(*bits),
            _ => return None,
        })
    }

    /// The type of a number of the dialect's promotion table.
    pub fn of_promotion_number(n: pydev_dialect::promotion::Number) -> Ty {
        use pydev_dialect::promotion::{Float, Number};
        match n {
            Number::Bool => Ty::Bool,
            Number::Int { bits, signed } => Ty::Int { bits, signed },
            Number::Float(f) => Ty::Float(match f {
                Float::F8E4M3 => FloatKind::F8E4M3,
                Float::F8E5M2 => FloatKind::F8E5M2,
                Float::F16 => FloatKind::F16,
                Float::BF16 => FloatKind::BF16,
                Float::F32 => FloatKind::F32,
                Float::F64 => FloatKind::F64,
            }),
            Number::Complex(bits) => Ty::Complex(bits),
        }
    }
}

/// The common type of two numbers: the dialect's promotion table
/// (`pydev_dialect::promotion::promote`, the one definition its verifier
/// checks ops against), with Python's weak scalars on top. `weak` marks
/// Python scalars (builtin int/float/complex/bool values), which take the
/// other operand's type when that is a fixed-format number of a kind that
/// can hold them.
pub fn promote(a: &Ty, a_weak: bool, b: &Ty, b_weak: bool) -> Result<Ty, PromoteError> {
    use Ty::*;
    if a == b {
        return Ok(a.clone());
    }
    // Weak scalars adopt the other operand's type within the same or a lower kind.
    let kind = |t: &Ty| match t {
        Bool => 0,
        Int { .. } => 1,
        Float(_) => 2,
        Complex(_) => 3,
        _ => 9,
    };
    if a_weak != b_weak {
        let (weak, strong) = if a_weak { (a, b) } else { (b, a) };
        if kind(weak) <= kind(strong) {
            return Ok(strong.clone());
        }
        // A Python float with a fixed integer gives the default float, a
        // Python complex with a fixed real gives complex64/128.
        return Ok(match (weak, strong) {
            (Float(_), _) => FLOAT32,
            (Complex(_), Float(FloatKind::F64)) => Complex(64),
            (Complex(_), _) => Complex(32),
            _ => weak.clone(),
        });
    }
    let (Some(x), Some(y)) = (a.promotion_number(), b.promotion_number()) else {
        return Err(PromoteError::NotNumeric(a.clone(), b.clone()));
    };
    match pydev_dialect::promotion::promote(x, y) {
        Some(n) => Ok(Ty::of_promotion_number(n)),
        Option::None => Err(PromoteError::UnsignedWithSigned(a.clone(), b.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(bits: u32, signed: bool) -> Ty {
        Ty::Int { bits, signed }
    }

    #[test]
    fn array_api_tables() {
        // Integer and unsigned tables.
        assert_eq!(promote(&int(8, true), false, &int(32, true), false), Ok(int(32, true)));
        assert_eq!(promote(&int(8, false), false, &int(16, false), false), Ok(int(16, false)));
        assert_eq!(promote(&int(8, true), false, &int(8, false), false), Ok(int(16, true)));
        assert_eq!(promote(&int(16, true), false, &int(8, false), false), Ok(int(16, true)));
        assert_eq!(promote(&int(8, true), false, &int(32, false), false), Ok(int(64, true)));
        assert!(promote(&int(64, false), false, &int(8, true), false).is_err());
        // Floats, complex, mixed.
        assert_eq!(promote(&Ty::Float(FloatKind::F16), false, &FLOAT32, false), Ok(FLOAT32));
        assert_eq!(promote(&Ty::Float(FloatKind::F16), false, &Ty::Float(FloatKind::BF16), false), Ok(FLOAT32));
        assert_eq!(promote(&Ty::Complex(32), false, &Ty::Float(FloatKind::F64), false), Ok(Ty::Complex(64)));
        assert_eq!(promote(&int(16, true), false, &Ty::Float(FloatKind::F16), false), Ok(Ty::Float(FloatKind::F16)));
        // Weak Python scalars keep the fixed type.
        assert_eq!(promote(&int(8, true), false, &INT32, true), Ok(int(8, true)));
        assert_eq!(promote(&Ty::Float(FloatKind::F16), false, &FLOAT32, true), Ok(Ty::Float(FloatKind::F16)));
        assert_eq!(promote(&int(8, true), false, &FLOAT32, true), Ok(FLOAT32));
        // Builtin int with builtin float gives float32.
        assert_eq!(promote(&INT32, true, &FLOAT32, true), Ok(FLOAT32));
    }

    #[test]
    fn names_and_layouts() {
        assert_eq!(Ty::from_vector_name("float32x4").unwrap().mlir(), "!pydev.vector<4 x f32>");
        assert!(Ty::from_vector_name("float32x5").is_none());
        let v3 = Ty::from_vector_name("float32x3").unwrap();
        assert_eq!((v3.size(), v3.align()), (12, 4));
        let t = Ty::Tuple(vec![Ty::Int { bits: 8, signed: true }, Ty::Float(FloatKind::F64)]);
        assert_eq!((t.size(), t.align()), (16, 8));
        assert_eq!(Ty::Int { bits: 16, signed: false }.to_string(), "uint16");
    }
}
