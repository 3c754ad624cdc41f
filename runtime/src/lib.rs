//! The pydev runtime.
//!
//! - [`compile`]: the one compile driver (Python source to any stage, for
//!   `cuda` and `host`) that `pydevc` and the Python package both call, over
//!   the pipelines of `pydev_passes::pipeline`.
//! - [`host`]: the host SIMT runtime that runs kernels of the `host`
//!   pipeline on the CPU.

pub mod cabi_adapters;
mod capi;
pub mod compile;
pub mod cuda;
pub mod cuda_check;
pub mod cxx_header;
pub mod host;
pub mod link;
pub mod nvvm_ir;
pub mod raised;

pub use compile::{
    compile_host, compile_stage, host_module_linked, host_object_from_text, host_program_from_text,
    host_program_linked, CompileOptions, Target,
};
pub use host::{Failure, HostModule, HostProgram, LaunchConfig};
pub use pydev_passes::pipeline::ExtraPasses;
pub use raised::Raised;

#[cfg(test)]
mod tests;
