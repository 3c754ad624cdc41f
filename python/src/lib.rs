//! `pydev._pydev`: the native half of the `pydev` / `cuda.device` wheel.
//! The Python package (python/pydev, python/cuda/device) does argument
//! handling, caching and the public API; this module compiles through
//! `pydev_runtime::compile` (the driver pydevc uses), runs host programs
//! on the host SIMT runtime and cuda programs through the driver.

mod cabi_adapters;
mod capi;
mod compile;
mod cuda_program;
mod dispatch;
mod dlpack_export;
mod driver;
mod facts;
mod host_program;
mod ir_type_parts;
mod ir_types;
mod layouts;
mod program_description;
mod protocols;
mod stats;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError};
use pyo3::prelude::*;

create_exception!(
    _pydev,
    CompileError,
    PyException,
    "A compile error in user code; the message carries file:line:col and the source line."
);
create_exception!(
    _pydev,
    LaunchError,
    PyRuntimeError,
    "A kernel failed at run time on the host (the message names the kernel)."
);

#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _pydev(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CompileError", m.py().get_type::<CompileError>())?;
    m.add("LaunchError", m.py().get_type::<LaunchError>())?;
    m.add_class::<host_program::HostProgram>()?;
    m.add_class::<host_program::HostModule>()?;
    m.add_class::<cuda_program::CudaProgram>()?;
    m.add_class::<cuda_program::CudaModule>()?;
    m.add_class::<dispatch::Dispatch>()?;
    m.add_function(wrap_pyfunction!(dispatch::launch_hooks, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch::fast_launch, m)?)?;
    m.add("ARG_KINDS", dispatch::kind_names())?;
    m.add_function(wrap_pyfunction!(facts::facts, m)?)?;
    m.add_function(wrap_pyfunction!(facts::small_float_bits, m)?)?;
    m.add_function(wrap_pyfunction!(compile::compile, m)?)?;
    m.add_function(wrap_pyfunction!(compile::host_object, m)?)?;
    m.add_function(wrap_pyfunction!(compile::host_target, m)?)?;
    m.add_function(wrap_pyfunction!(compile::compile_ir, m)?)?;
    m.add_function(wrap_pyfunction!(compile::check_passes, m)?)?;
    m.add_function(wrap_pyfunction!(compile::ir_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(compile::ir_kernels, m)?)?;
    m.add_function(wrap_pyfunction!(compile::verify_ir, m)?)?;
    m.add_function(wrap_pyfunction!(compile::signature_ir_types, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_status, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_arch, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_device_count, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_current_device, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_set_device, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_current_context, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_set_context, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_pointer_device, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_alloc, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_free, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_host_alloc, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_host_free, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_memcpy_htod, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_memcpy_dtoh, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_stream_create, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_stream_synchronize, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_stream_wait, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_fence, m)?)?;
    m.add("STREAM_GENERATION", dispatch::STREAM_GENERATION)?;
    m.add_function(wrap_pyfunction!(driver::cuda_fence_done, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_fence_release, m)?)?;
    m.add_function(wrap_pyfunction!(driver::cuda_synchronize, m)?)?;
    m.add_function(wrap_pyfunction!(stats::stats, m)?)?;
    m.add_function(wrap_pyfunction!(dlpack_export::dlpack_capsule, m)?)?;
    m.add_function(wrap_pyfunction!(dlpack_export::dlpack_live_exports, m)?)?;
    m.add_function(wrap_pyfunction!(protocols::cai_read, m)?)?;
    m.add_function(wrap_pyfunction!(protocols::dlpack_read, m)?)?;
    m.add_function(wrap_pyfunction!(layouts::c_layout, m)?)?;
    m.add_function(wrap_pyfunction!(ir_type_parts::ir_type_parts, m)?)?;
    m.add_function(wrap_pyfunction!(ir_types::ir_type_layout, m)?)?;
    m.add_function(wrap_pyfunction!(ir_types::ir_types_match, m)?)?;
    m.add_function(wrap_pyfunction!(compile::cxx_header, m)?)?;
    m.add_function(wrap_pyfunction!(compile::cxx_types, m)?)?;
    m.add_function(wrap_pyfunction!(cabi_adapters::cabi_host_adapters, m)?)?;
    m.add_function(wrap_pyfunction!(cabi_adapters::cabi_reverse_adapter, m)?)?;
    m.add_function(wrap_pyfunction!(cabi_adapters::cabi_cxx_signatures, m)?)?;
    m.add_function(wrap_pyfunction!(layouts::array_layout, m)?)?;
    Ok(())
}
