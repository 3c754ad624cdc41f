//! The structure of a pydev IR type given as text, for `pydev.ir.Type`:
//! its kind and parameters, read from the type MLIR parses (in the type-text
//! service's context, `ir_types::with_type`) with the typed API
//! `pydev_dialect` generates from `pydev.td` (one struct per `TypeDef`), so
//! that no Python module parses MLIR type text. The parameters are those
//! of the `TypeDef`, in its order (python/pydev/_ods.py's `TYPES`).

use pydev_dialect::melior::ir::{r#type::IntegerType, Type, TypeLike};
use pydev_dialect::types::{ArrayType, AtomicRefType, StructType, TupleType, VectorType, WarpMaskType};
use pyo3::prelude::*;

/// A parameter's value as Python sees it: types as their text, enums as
/// their spelling in pydev.td, lists of types or names as lists of text.
#[derive(IntoPyObject)]
pub enum Param {
    Int(u64),
    Bool(bool),
    Text(String),
    Texts(Vec<String>),
}

fn texts<'c>(types: impl IntoIterator<Item = Type<'c>>) -> Param {
    Param::Texts(types.into_iter().map(|t| t.to_string()).collect())
}

/// (kind, parameters) of a parsed type: a pydev `TypeDef`'s mnemonic with
/// its parameters in ODS order; `integer` (width, signedness), `float`,
/// `index` and `complex` (element) for MLIR's builtin scalars; None for
/// other types.
fn parts(ty: Type) -> Option<(&'static str, Vec<Param>)> {
    use Param::*;
    if let Some(a) = ArrayType::from_type(ty) {
        let params = vec![
            Text(a.element_type().to_string()),
            Int(a.rank().into()),
            Text(a.space().as_str().into()),
            Text(a.layout().as_str().into()),
            Bool(a.readonly()),
        ];
        return Some(("array", params));
    }
    if let Some(v) = VectorType::from_type(ty) {
        return Some(("vector", vec![Int(v.lanes().into()), Text(v.element_type().to_string())]));
    }
    if let Some(t) = TupleType::from_type(ty) {
        return Some(("tuple", vec![texts(t.types())]));
    }
    if let Some(s) = StructType::from_type(ty) {
        return Some(("struct", vec![Text(s.name()), Texts(s.field_names()), texts(s.field_types()), Int(s.align())]));
    }
    if WarpMaskType::from_type(ty).is_some() {
        return Some(("warp_mask", vec![]));
    }
    if let Some(a) = AtomicRefType::from_type(ty) {
        return Some(("atomic_ref", vec![Text(a.element_type().to_string()), Text(a.space().as_str().into())]));
    }
    if let Ok(i) = IntegerType::try_from(ty) {
        let sign = if i.is_signed() {
            "signed"
        } else if i.is_unsigned() {
            "unsigned"
        } else {
            "signless"
        };
        return Some(("integer", vec![Int(i.width().into()), Text(sign.into())]));
    }
    if ty.is_float() {
        return Some(("float", vec![]));
    }
    if ty.is_index() {
        return Some(("index", vec![]));
    }
    if let Some(element) = pydev_dialect::types::complex_element(ty) {
        return Some(("complex", vec![Text(element.to_string())]));
    }
    None
}

/// (kind, parameters, text as MLIR prints it) of MLIR type `text`: for a
/// pydev type its `TypeDef`'s mnemonic and parameters in ODS order (types
/// as text, enums as spelled in pydev.td, lists as lists); `integer`
/// (width, "signless"/"signed"/"unsigned"), `float`, `index` or `complex`
/// (element) for builtin scalars; kind None for other types. ValueError
/// when the text is no type.
#[pyfunction]
pub fn ir_type_parts(text: &str) -> PyResult<(Option<&'static str>, Vec<Param>, String)> {
    crate::ir_types::with_type(text, |ty| match parts(ty) {
        Some((kind, params)) => (Some(kind), params, ty.to_string()),
        None => (None, vec![], ty.to_string()),
    })
}
