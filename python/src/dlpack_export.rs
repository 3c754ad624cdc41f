//! DLPack exports: capsules of memory that device arrays own, and the count
//! of those still alive.

use crate::capi;
use pyo3::prelude::*;

/// A DLPack capsule of the memory at `data` (`pydev._dlpack.make_capsule`,
/// natively): `dtype` is (type code, bits, lanes), `device` (DLDeviceType,
/// id), `strides` in elements or None for C order; `owner` stays alive
/// until the consumer calls the deleter or the capsule dies unconsumed.
#[pyfunction]
#[pyo3(signature = (data, shape, dtype, device, owner, strides=None, readonly=false, versioned=false))]
#[allow(clippy::too_many_arguments)] // the DLTensor's fields, as Python passes them
pub(crate) fn dlpack_capsule<'py>(
    py: Python<'py>,
    data: u64,
    shape: Vec<i64>,
    dtype: (u8, u8, u16),
    device: (i32, i32),
    owner: Py<PyAny>,
    strides: Option<Vec<i64>>,
    readonly: bool,
    versioned: bool,
) -> PyResult<Bound<'py, PyAny>> {
    capi::dlpack_capsule(py, capi::ExportSpec { data, shape, strides, dtype, device, readonly, versioned }, owner)
}

/// How many tensors `dlpack_capsule` exported are still alive (tests).
#[pyfunction]
pub(crate) fn dlpack_live_exports() -> usize {
    capi::live_exports()
}
