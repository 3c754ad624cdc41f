//! Shared by the benches: the typical kernels of the CUDA-lowering issue and
//! a compile function that runs the same path as pydevc (Python source to
//! PTX text through `pydev_passes::pipeline`).

use melior::{pass::PassManager, Context};

/// (kernel, signature) in `test/gpu/kernels.py`.
pub const KERNELS: &[(&str, &str)] = &[
    ("vector_add", "float32[::1], readonly float32[::1], readonly float32[::1]"),
    ("saxpy", "float32, float32[::1], float32[::1], float32[::1]"),
    ("histogram", "uint32[::1], readonly int32[::1]"),
    ("warp_sum", "float32[::1], readonly float32[::1]"),
    ("block_sum", "float32[::1], readonly float32[::1]"),
    ("transpose", "float32[:, ::1], readonly float32[:, ::1]"),
    ("stencil", "float32[:, ::1], readonly float32[:, ::1]"),
    ("push", "Particle[::1], float32"),
    ("python_ints", "int32[:, ::1], readonly int32[::1], readonly int32[::1]"),
];

pub const SOURCE: &str = include_str!("../../test/gpu/kernels.py");

/// Compiles one kernel to PTX in `context`; panics on a compile error.
pub fn compile_ptx(context: &Context, kernel: &str, signature: &str) -> String {
    let mut module = pydev_frontend_python::compile(context, "kernels.py", SOURCE, kernel, signature)
        .unwrap_or_else(|d| panic!("{d}"));
    let pm = PassManager::new(context);
    pydev_passes::pipeline::add_cuda(&pm, &pydev_passes::pipeline::CudaOptions::default(), "ptx").expect("pipeline");
    pm.run(&mut module).expect("pipeline run");
    let objects = pydev_passes::gpu_objects(module.as_operation());
    String::from_utf8(objects.into_iter().next().expect("one gpu.binary").1).expect("PTX is text")
}
