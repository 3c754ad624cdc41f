//! The native counters (compiles, JIT compiles, launches) and `stats`,
//! which reports them.

use crate::dispatch;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) static COMPILES: AtomicU64 = AtomicU64::new(0);
pub(crate) static JIT_COMPILES: AtomicU64 = AtomicU64::new(0);
pub(crate) static HOST_LAUNCHES: AtomicU64 = AtomicU64::new(0);
pub(crate) static CUDA_LAUNCHES: AtomicU64 = AtomicU64::new(0);

/// Native counters: compiles (frontend + pipeline), JIT compiles, launches.
#[pyfunction]
pub(crate) fn stats(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("native_compiles", COMPILES.load(Ordering::Relaxed))?;
    d.set_item("jit_compiles", JIT_COMPILES.load(Ordering::Relaxed))?;
    d.set_item("mlir_contexts", pydev_runtime::compile::CONTEXTS_MADE.load(Ordering::Relaxed))?;
    d.set_item("host_launches", HOST_LAUNCHES.load(Ordering::Relaxed))?;
    d.set_item("cuda_launches", CUDA_LAUNCHES.load(Ordering::Relaxed))?;
    d.set_item("fast_launches", dispatch::FAST_LAUNCHES.load(Ordering::Relaxed))?;
    Ok(d)
}
