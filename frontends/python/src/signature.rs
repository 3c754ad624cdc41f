//! The argument-type signature syntax of `pydevc --signature` and
//! `pydev.compile(fn, argtypes)` (docs/signatures.md):
//!
//! ```text
//! signature := type ("," type)*
//! type      := "readonly"? dtype ("[" dims "]")?      an array when [...] is given
//!            | "(" type ("," type)* ","? ")"          a tuple
//!            | "None"                                 no value (a null void* for interop)
//! dims      := dim ("," dim)*,  dim := ":" | "::1"   ::1 marks the contiguous dimension
//! dtype     := int8 .. uint64 | float16 | bfloat16 | float32 | float64 | float8e4m3
//!            | float8e5m2 | complex64 | complex128 | bool | int | float | complex
//!            | <number>x<1-4> (float32x4) | WarpMask | a @device.struct class name
//!            | qualname "@" line                    a @device.struct class defined anywhere
//!                                                  (`make.<locals>.P@12`: its co_qualname-style
//!                                                  name and a line of its definition)
//!            | "{" name ":" type ("," name ":" type)* "}"   a NumPy structured dtype
//! ```

use crate::{
    module::Module,
    types::{ArrayLayout, Space, Ty},
};

/// Splits at top-level commas (not inside [] or ()).
fn split_top(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// Why a signature's text (`"float32[:], int32"`) is not one of device
/// code's types ([`parse_signature`]).
#[derive(Debug, thiserror::Error)]
pub enum SignatureError {
    #[error("missing '}}' in '{text}'")]
    MissingBrace { text: String },
    #[error("structured field '{field}' must be written name: type")]
    StructuredField { field: String },
    #[error("missing ']' in '{text}'")]
    MissingBracket { text: String },
    #[error("unknown type '{base}' in the signature (expected a number, vector or struct type of this file)")]
    UnknownType { base: String },
    #[error("'readonly' applies to arrays, not to '{base}'")]
    ReadonlyScalar { base: String },
    #[error("expected [dims] after the dtype in '{text}'")]
    ExpectedDims { text: String },
    #[error("array dimension '{dim}' must be ':' or '::1'")]
    BadDimension { dim: String },
    #[error("'{text}': only the last (C order) or the first (Fortran order) dimension can be ::1")]
    ContiguousDimension { text: String },
}

pub fn parse_signature(m: &Module, text: &str) -> Result<Vec<Ty>, SignatureError> {
    if text.trim().is_empty() {
        return Ok(vec![]);
    }
    split_top(text).into_iter().map(|t| parse_type(m, t.trim())).collect()
}

fn parse_type(m: &Module, text: &str) -> Result<Ty, SignatureError> {
    // `{x: float32, y: int32}`: a NumPy structured dtype, laid out as a C struct.
    if text.starts_with('{') {
        let close = text.find('}').ok_or_else(|| SignatureError::MissingBrace { text: text.to_owned() })?;
        let mut fields = Vec::new();
        for f in split_top(&text[1..close]).into_iter().map(str::trim).filter(|f| !f.is_empty()) {
            let (name, ty) =
                f.split_once(':').ok_or_else(|| SignatureError::StructuredField { field: f.to_owned() })?;
            fields.push((name.trim().to_owned(), parse_type(m, ty.trim())?));
        }
        let def = std::rc::Rc::new(crate::types::StructDef { name: "structured".into(), fields, align: 0 });
        let rest = text[close + 1..].trim();
        return if rest.is_empty() { Ok(Ty::Struct(def)) } else { array_of(Ty::Struct(def), false, rest, text) };
    }
    if let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        let items: Vec<&str> = split_top(inner).into_iter().map(str::trim).filter(|s| !s.is_empty()).collect();
        return Ok(Ty::Tuple(items.into_iter().map(|t| parse_type(m, t)).collect::<Result<_, _>>()?));
    }
    let (readonly, text) = match text.strip_prefix("readonly ") {
        Some(rest) => (true, rest.trim()),
        None => (false, text),
    };
    let (base, dims) = match text.find('[') {
        Some(i) => {
            let dims = text[i + 1..]
                .strip_suffix(']')
                .ok_or_else(|| SignatureError::MissingBracket { text: text.to_owned() })?;
            (text[..i].trim(), Some(dims))
        }
        None => (text, None),
    };
    if base == "None" && dims.is_none() && !readonly {
        return Ok(Ty::None);
    }
    // A struct of the file named like a Python builtin (the spec's own
    // `class complex`) shadows it, as in Python; the launch spells numbers
    // by their fixed-format names (complex64, float32, int32), never so.
    let shadowed = matches!(base, "complex" | "float" | "int").then(|| m.struct_named(base)).flatten();
    let dtype = if base == "WarpMask" {
        Ty::WarpMask
    } else if let Some(s) = shadowed {
        Ty::Struct(s.def.clone())
    } else if let Some(t) = Ty::from_dtype_name(base).or_else(|| Ty::from_vector_name(base)) {
        t
    } else if let Some(s) = m.struct_named(base) {
        Ty::Struct(s.def.clone())
    } else {
        return Err(SignatureError::UnknownType { base: base.to_owned() });
    };
    let Some(dims) = dims else {
        if readonly {
            return Err(SignatureError::ReadonlyScalar { base: base.to_owned() });
        }
        return Ok(dtype);
    };
    array_of(dtype, readonly, &format!("[{dims}]"), text)
}

/// `dtype[dims]`: `dims_text` is the bracketed part.
fn array_of(dtype: Ty, readonly: bool, dims_text: &str, text: &str) -> Result<Ty, SignatureError> {
    let dims = dims_text
        .strip_prefix('[')
        .and_then(|d| d.strip_suffix(']'))
        .ok_or_else(|| SignatureError::ExpectedDims { text: text.to_owned() })?;
    let dims: Vec<&str> = dims.split(',').map(str::trim).collect();
    let contiguous: Vec<bool> = dims
        .iter()
        .map(|d| match *d {
            ":" => Ok(false),
            "::1" => Ok(true),
            other => Err(SignatureError::BadDimension { dim: other.to_owned() }),
        })
        .collect::<Result<_, _>>()?;
    let n = contiguous.len();
    let layout = match contiguous.iter().filter(|c| **c).count() {
        0 => ArrayLayout::Strided,
        1 if contiguous[n - 1] => ArrayLayout::C,
        1 if contiguous[0] => ArrayLayout::F,
        _ => return Err(SignatureError::ContiguousDimension { text: text.to_owned() }),
    };
    Ok(Ty::Array { dtype: Box::new(dtype), ndim: n as u32, layout, readonly, space: Space::Global })
}
