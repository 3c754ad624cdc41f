//! The type-text service of the Python package: what `pydev.Program` (and
//! `pydev._c_types`) need to know of a pydev IR type, read from the parsed
//! type with the dialect's one definition of the CUDA C++ layout
//! (`pydev_dialect::type_layout`, `field_offset`, `types::scalar_leaves`)
//! and of type identity (`types::same_up_to_struct_names`). No Python
//! module parses MLIR type text.

use pydev_dialect::melior::{
    ir::{r#type::IntegerType, Type, TypeLike},
    Context,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

thread_local! {
    /// The thread's context for type text: every dialect the pipelines
    /// accept, diagnostics of unparsable text silenced (the caller gets a
    /// ValueError). Uniqued types accumulate per distinct text.
    static CONTEXT: Context = {
        let context = pydev_dialect::new_pipeline_context();
        context.attach_diagnostic_handler(|_| true);
        context
    };
}

/// `f` of the type `text` parsed in the thread's context.
pub fn with_type<T>(text: &str, f: impl FnOnce(Type) -> T) -> PyResult<T> {
    CONTEXT.with(|context| {
        let ty = Type::parse(context, text)
            .ok_or_else(|| PyValueError::new_err(format!("cannot parse the type '{text}'")))?;
        Ok(f(ty))
    })
}

/// The NumPy kind a scalar of type `ty` may have: `b` (i1), `i` (si),
/// `u` (ui), `iu` (a signless integer: either sign), `f` (f16, f32, f64),
/// `c` (complex of those); None for scalars NumPy has no kind of (bf16,
/// float8, index).
fn numpy_kind(ty: Type) -> Option<&'static str> {
    let numpy_float = |t: Type| t.is_f16() || t.is_f32() || t.is_f64();
    if let Ok(i) = IntegerType::try_from(ty) {
        return Some(if i.width() == 1 {
            "b"
        } else if i.is_signed() {
            "i"
        } else if i.is_unsigned() {
            "u"
        } else {
            "iu"
        });
    }
    if numpy_float(ty) {
        return Some("f");
    }
    pydev_dialect::types::complex_element(ty).filter(|e| numpy_float(*e)).map(|_| "c")
}

/// A type's CUDA C++ layout as `pydev.Program` checks arguments against it.
pub type Layout = (u64, u64, Option<Vec<(u64, &'static str, u64)>>, Vec<u64>);

/// (size, alignment, scalars, member offsets) of pydev IR type `text` in the
/// CUDA C++ layout, or None when it has none. `scalars`: (offset, NumPy
/// kind, size) of each scalar in order (None when one has no NumPy kind, or
/// the type holds something else than numbers: arrays, atomic references,
/// warp masks); `member offsets`: those of a struct's fields or a tuple's
/// elements (empty for other types).
#[pyfunction]
pub fn ir_type_layout(text: &str) -> PyResult<Option<Layout>> {
    with_type(text, |ty| {
        let (size, align) = pydev_dialect::type_layout(ty)?;
        let scalars = pydev_dialect::types::scalar_leaves(ty).and_then(|leaves| {
            leaves
                .into_iter()
                .map(|(offset, t)| Some((offset, numpy_kind(t)?, pydev_dialect::type_layout(t)?.0)))
                .collect::<Option<Vec<_>>>()
        });
        let count = pydev_dialect::types::StructType::from_type(ty)
            .map(|s| s.field_types().len())
            .or_else(|| pydev_dialect::types::tuple_parts(ty).map(|t| t.len()))
            .unwrap_or(0);
        let offsets =
            (0..count).map(|i| pydev_dialect::field_offset(ty, u32::try_from(i).ok()?)).collect::<Option<Vec<_>>>()?;
        Some((size, align, scalars, offsets))
    })
}

/// Whether pydev IR types `a` and `b` are the same up to the names of the
/// structs in them (structs match by fields and alignment).
#[pyfunction]
pub fn ir_types_match(a: &str, b: &str) -> PyResult<bool> {
    if a == b {
        return Ok(true);
    }
    CONTEXT.with(|context| {
        let parse = |text: &str| {
            Type::parse(context, text).ok_or_else(|| PyValueError::new_err(format!("cannot parse the type '{text}'")))
        };
        Ok(pydev_dialect::types::same_up_to_struct_names(parse(a)?, parse(b)?))
    })
}
