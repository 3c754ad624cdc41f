//! Layout queries that the Python package's own layouts are tested
//! against: C++ sizes and alignments of IR types, the fast path's array
//! layout keys.

use crate::{dispatch, ir_types};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// (size, alignment) of the MLIR type `text` in the CUDA C++ layout, from
/// the dialect's one definition (`pydev_dialect::type_layout`), or None
/// when it has none: `pydev._types.c_layout` is tested against it.
#[pyfunction]
pub(crate) fn c_layout(text: &str) -> PyResult<Option<(u64, u64)>> {
    ir_types::with_type(text, pydev_dialect::type_layout)
}

/// The fast path's layout key of an array (`dispatch::contiguity`: 1 C, 2
/// Fortran, 0 strided; strides in elements): `pydev._arrays.dims` is tested
/// against it.
#[pyfunction]
pub(crate) fn array_layout(shape: Vec<i64>, strides: Vec<i64>) -> PyResult<u8> {
    if shape.len() != strides.len() {
        return Err(PyValueError::new_err("shape and strides differ in length"));
    }
    Ok(dispatch::contiguity(&shape, &strides))
}
