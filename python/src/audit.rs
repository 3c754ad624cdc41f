//! The `compile` audit hook of pydev._exec_source, in C: the source text of
//! functions defined by `exec`/`compile` of a string.

use pyo3::prelude::*;

/// Installs a process-wide audit hook calling `recorder(source, filename)`
/// on each `compile` event and returning at once on every other event (a
/// `sys.addaudithook` hook costs a Python call on each `id()`,
/// `sys._getframe()` ... of the process). It cannot be removed.
#[pyfunction]
pub(crate) fn add_compile_hook(py: Python<'_>, recorder: Py<PyAny>) -> PyResult<()> {
    crate::capi::add_compile_hook(py, recorder)
}
