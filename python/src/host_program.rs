//! `HostProgram`: a kernel JIT-compiled for the host and its launches on
//! the host SIMT runtime.

use crate::stats::{HOST_LAUNCHES, JIT_COMPILES};
use crate::{capi, CompileError, LaunchError};
use pydev_runtime::LaunchConfig;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::atomic::Ordering;

/// A kernel JIT-compiled for the host from the `llvm` stage text.
#[pyclass(frozen, module = "pydev._pydev")]
pub(crate) struct HostProgram {
    inner: pydev_runtime::HostProgram,
}

#[pymethods]
impl HostProgram {
    #[new]
    #[pyo3(signature = (llvm_text, kernel, opt_level=3, libraries=Vec::new(), object=None))]
    fn new(
        py: Python<'_>,
        llvm_text: &str,
        kernel: &str,
        opt_level: u8,
        libraries: Vec<String>,
        object: Option<&[u8]>,
    ) -> PyResult<Self> {
        if object.is_none() {
            JIT_COMPILES.fetch_add(1, Ordering::Relaxed);
        }
        // `libraries`: shared libraries built from the kernel's link= files;
        // `object`: the kernel's image from `host_object` (a disk cache's),
        // loaded without parsing `llvm_text`.
        let inner = py
            .detach(|| pydev_runtime::host_program_linked(llvm_text, kernel, opt_level, &libraries, object))
            .map_err(|e| CompileError::new_err(e.to_string()))?;
        Ok(Self { inner })
    }

    /// Byte size of each parameter.
    #[getter]
    fn param_sizes(&self) -> Vec<usize> {
        self.inner.param_sizes().to_vec()
    }

    /// Whether it synchronizes its grid (a cooperative launch: every block
    /// of the grid runs at once).
    #[getter]
    fn cooperative(&self) -> bool {
        self.inner.cooperative()
    }

    /// The most blocks of `threads` threads a cooperative launch may have
    /// on the host target.
    #[staticmethod]
    fn max_cooperative_blocks(threads: u64) -> u64 {
        pydev_runtime::HostProgram::max_cooperative_blocks(threads)
    }

    /// Runs the kernel (synchronously) on `grid` blocks of `block` threads.
    /// `keep`: the objects the array descriptors among `args` point into;
    /// their buffer exports (those that have one) are held until the
    /// launch returns, so that no other thread resizes or frees the memory
    /// while the kernel runs without the GIL.
    #[pyo3(signature = (grid, block, shared, args, keep=Vec::new()))]
    fn launch(
        &self,
        py: Python<'_>,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: usize,
        args: Vec<Bound<'_, PyAny>>,
        keep: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let bytes: Vec<Vec<u8>> = args
            .iter()
            .enumerate()
            .map(|(i, a)| capi::buffer_bytes(a, &format!("argument {i}")))
            .collect::<PyResult<_>>()?;
        // A tuple keeps several objects (an array's owner and its view).
        let mut held: Vec<capi::HeldBuffer> = Vec::with_capacity(keep.len());
        for k in &keep {
            match k.downcast::<PyTuple>() {
                Ok(t) => held.extend(t.iter().filter_map(|x| capi::HeldBuffer::hold(&x))),
                Err(_) => held.extend(capi::HeldBuffer::hold(k)),
            }
        }
        // SAFETY: the descriptors are pydev._launch's packing of the
        // arguments, whose memory `keep` (alive in the caller) owns, with
        // the exports held here for the launch.
        let result = unsafe { self.run(py, grid, block, shared, bytes) };
        drop(held);
        result
    }
}

/// The kernels of a multi-kernel module JIT-compiled for the host into one
/// object (`pydev.Program(m)`): `kernel(name)` is each one's HostProgram,
/// sharing the module's code.
#[pyclass(frozen, module = "pydev._pydev")]
pub(crate) struct HostModule {
    kernels: Vec<(String, Py<HostProgram>)>,
}

#[pymethods]
impl HostModule {
    /// The kernels `kernels` of host `llvm` stage text `llvm_text`;
    /// `libraries` and `object` (an image of these kernels from
    /// `host_object`) as for HostProgram.
    #[new]
    #[pyo3(signature = (llvm_text, kernels, opt_level=3, libraries=Vec::new(), object=None))]
    fn new(
        py: Python<'_>,
        llvm_text: &str,
        kernels: Vec<String>,
        opt_level: u8,
        libraries: Vec<String>,
        object: Option<&[u8]>,
    ) -> PyResult<Self> {
        if object.is_none() {
            JIT_COMPILES.fetch_add(1, Ordering::Relaxed);
        }
        let names: Vec<&str> = kernels.iter().map(String::as_str).collect();
        let module = py
            .detach(|| pydev_runtime::host_module_linked(llvm_text, &names, opt_level, &libraries, object))
            .map_err(|e| CompileError::new_err(e.to_string()))?;
        let kernels = module
            .programs()
            .iter()
            .map(|p| Ok((p.kernel().to_owned(), Py::new(py, HostProgram { inner: p.clone() })?)))
            .collect::<PyResult<_>>()?;
        Ok(Self { kernels })
    }

    /// The names of its kernels.
    #[getter]
    fn kernels(&self) -> Vec<String> {
        self.kernels.iter().map(|(k, _)| k.clone()).collect()
    }

    /// Kernel `name`'s HostProgram (KeyError when the module has none).
    fn kernel(&self, py: Python<'_>, name: &str) -> PyResult<Py<HostProgram>> {
        self.kernels.iter().find(|(k, _)| k == name).map(|(_, p)| p.clone_ref(py)).ok_or_else(|| {
            pyo3::exceptions::PyKeyError::new_err(format!(
                "no kernel '{name}' in the host module (its kernels: {})",
                self.kernels().join(", ")
            ))
        })
    }
}

impl HostProgram {
    /// # Safety
    /// As `pydev_runtime::HostProgram::launch`: every array descriptor in
    /// `bytes` addresses live memory that stays put until this returns.
    pub(crate) unsafe fn run(
        &self,
        py: Python<'_>,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: usize,
        bytes: Vec<Vec<u8>>,
    ) -> PyResult<()> {
        let config = LaunchConfig { grid: [grid.0, grid.1, grid.2], block: [block.0, block.1, block.2], shared };
        HOST_LAUNCHES.fetch_add(1, Ordering::Relaxed);
        // Ctrl-C stops launches made from the main thread (which runs
        // Python's signal handlers).
        let interruptible = pydev_runtime::host::interrupt::on_main_thread();
        let result = py.detach(|| {
            let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
            // SAFETY: as the caller promises.
            unsafe { self.inner.launch_with(config, &refs, interruptible) }
        });
        match result {
            Ok(()) => Ok(()),
            Err(pydev_runtime::Failure::Error(e)) => Err(match &e {
                pydev_runtime::host::HostError::Raised { raised, .. } => {
                    crate::driver::raised_error(py, e.to_string(), raised)
                }
                _ => LaunchError::new_err(e.to_string()),
            }),
            Err(pydev_runtime::Failure::Interrupted) => {
                // Python's handler ran: KeyboardInterrupt (or what the
                // program's own SIGINT handler raises).
                py.check_signals()?;
                Err(LaunchError::new_err(format!(
                    "kernel '{}' was interrupted by SIGINT before it finished: its outputs are incomplete",
                    self.inner.kernel()
                )))
            }
        }
    }
}
