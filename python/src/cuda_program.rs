//! `CudaProgram`: a kernel loaded from PTX (or a linked image) through the
//! CUDA driver and its launches.

use crate::capi;
use crate::driver::cuda_error;
use crate::stats::CUDA_LAUNCHES;
use pydev_runtime::cuda;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::atomic::Ordering;

/// A kernel loaded from PTX through the CUDA driver.
#[pyclass(frozen, module = "pydev._pydev")]
pub(crate) struct CudaProgram {
    inner: cuda::CudaKernel,
}

#[pymethods]
impl CudaProgram {
    /// Kernel `kernel` of PTX text `ptx`; with `image` (bytes: a cubin or
    /// fatbin of that PTX linked with other code) the driver loads the
    /// image, and the parameter sizes still come from the PTX.
    #[new]
    #[pyo3(signature = (ptx, kernel, image=None))]
    fn new(ptx: &str, kernel: &str, image: Option<&[u8]>) -> PyResult<Self> {
        Ok(Self { inner: cuda::CudaKernel::load_image(ptx, kernel, image).map_err(cuda_error)? })
    }

    /// Byte size of each parameter (as the PTX declares them).
    #[getter]
    fn param_sizes(&self) -> Vec<usize> {
        self.inner.param_sizes().to_vec()
    }

    /// Whether it synchronizes its grid: launched with
    /// `cuLaunchCooperativeKernel`.
    #[getter]
    fn cooperative(&self) -> bool {
        self.inner.cooperative()
    }

    /// The device it was first loaded on (it loads on another device's
    /// context when it first launches there).
    #[getter]
    fn device(&self) -> i32 {
        self.inner.device()
    }

    /// Launches asynchronously on stream handle `stream`, on the current device.
    fn launch(
        &self,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: usize,
        stream: usize,
        args: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let bytes: Vec<Vec<u8>> = args
            .iter()
            .enumerate()
            .map(|(i, a)| capi::buffer_bytes(a, &format!("argument {i}")))
            .collect::<PyResult<_>>()?;
        let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
        // SAFETY: pydev._launch packs the descriptors of arrays it keeps
        // alive on the stream until it has run the launch (`keep_alive`), and the
        // handle of the launch's stream.
        unsafe { self.run(grid, block, shared, stream, &refs, None) }
    }
}

/// The kernels of a multi-kernel module loaded once through the CUDA
/// driver (`pydev.Program(m)`): one CUmodule, and `kernel(name)` each
/// kernel's CudaProgram (its CUfunction).
#[pyclass(frozen, module = "pydev._pydev")]
pub(crate) struct CudaModule {
    kernels: Vec<(String, Py<CudaProgram>)>,
}

#[pymethods]
impl CudaModule {
    /// The kernels `kernels` of PTX text `ptx`; `image` as for CudaProgram.
    #[new]
    #[pyo3(signature = (ptx, kernels, image=None))]
    fn new(py: Python<'_>, ptx: &str, kernels: Vec<String>, image: Option<&[u8]>) -> PyResult<Self> {
        let names: Vec<&str> = kernels.iter().map(String::as_str).collect();
        let loaded = cuda::load_module(ptx, &names, image).map_err(cuda_error)?;
        let kernels = kernels
            .into_iter()
            .zip(loaded)
            .map(|(k, inner)| Ok((k, Py::new(py, CudaProgram { inner })?)))
            .collect::<PyResult<_>>()?;
        Ok(Self { kernels })
    }

    /// The names of its kernels.
    #[getter]
    fn kernels(&self) -> Vec<String> {
        self.kernels.iter().map(|(k, _)| k.clone()).collect()
    }

    /// Kernel `name`'s CudaProgram (KeyError when the module has none).
    fn kernel(&self, py: Python<'_>, name: &str) -> PyResult<Py<CudaProgram>> {
        self.kernels.iter().find(|(k, _)| k == name).map(|(_, p)| p.clone_ref(py)).ok_or_else(|| {
            pyo3::exceptions::PyKeyError::new_err(format!(
                "no kernel '{name}' in the CUDA module (its kernels: {})",
                self.kernels().join(", ")
            ))
        })
    }
}

impl CudaProgram {
    /// Launches on the current device; `device`: that device, when the
    /// caller has just read it (`cuda::current_device`).
    ///
    /// # Safety
    /// As `pydev_runtime::cuda::CudaKernel::launch`.
    pub(crate) unsafe fn run(
        &self,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        shared: usize,
        stream: usize,
        args: &[&[u8]],
        device: Option<i32>,
    ) -> PyResult<()> {
        let shared = u32::try_from(shared).map_err(|_| {
            PyValueError::new_err(format!("{shared} bytes of dynamic shared memory is more than a launch can ask for"))
        })?;
        CUDA_LAUNCHES.fetch_add(1, Ordering::Relaxed);
        let (grid, block) = ([grid.0, grid.1, grid.2], [block.0, block.1, block.2]);
        // SAFETY: as the caller promises (`device` is the current device).
        unsafe {
            match device {
                Some(d) => self.inner.launch_on(d, grid, block, shared, stream, args),
                None => self.inner.launch(grid, block, shared, stream, args),
            }
        }
        .map_err(cuda_error)
    }
}
