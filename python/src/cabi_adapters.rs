//! The host's C ABI adapters of interoperable functions for `pydev._host_link`
//! (the writer: `pydev_runtime::cabi_adapters`; docs/interop.md, "How the
//! call is made on the host"). Types are pydev IR type texts.

use pydev_runtime::cabi_adapters::{self, CxxSignature, Signature};
use pyo3::prelude::*;

use crate::CompileError;

fn signature((name, params, result): (String, Vec<String>, Option<String>)) -> Signature {
    Signature { name, params, result }
}

fn error(e: cabi_adapters::CabiError) -> PyErr {
    CompileError::new_err(e.to_string())
}

/// (LLVM IR, C++) of the adapters `__pydev_cabi_<name>` and shims
/// `__pydev_packed_<name>` of declared functions `sigs`
/// ([(name, [parameter type], result type or None)]).
#[pyfunction]
pub fn cabi_host_adapters(
    py: Python<'_>,
    sigs: Vec<(String, Vec<String>, Option<String>)>,
) -> PyResult<(String, String)> {
    let sigs: Vec<Signature> = sigs.into_iter().map(signature).collect();
    py.detach(|| cabi_adapters::host_adapters(&sigs)).map_err(error)
}

/// (LLVM IR, C++) that give Python interop function `name` of host LLVM IR
/// `llvm_ir` the platform's C ABI (`stage="object"`).
#[pyfunction]
#[pyo3(signature = (llvm_ir, name, params, result=None))]
pub fn cabi_reverse_adapter(
    py: Python<'_>,
    llvm_ir: &str,
    name: String,
    params: Vec<String>,
    result: Option<String>,
) -> PyResult<(String, String)> {
    let sig = signature((name, params, result));
    py.detach(|| cabi_adapters::reverse_adapter(llvm_ir, &sig)).map_err(error)
}

/// (C++ declarations, [(parameter C++ types, result C++ type)]) of
/// signatures [([parameter type], result type or None)], with the
/// `static_assert`s of every scalar's offset.
#[pyfunction]
pub fn cabi_cxx_signatures(
    py: Python<'_>,
    sigs: Vec<(Vec<String>, Option<String>)>,
) -> PyResult<(String, Vec<CxxSignature>)> {
    py.detach(|| cabi_adapters::cxx_signatures(&sigs)).map_err(error)
}
