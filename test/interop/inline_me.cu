// A C++ device function that link-time optimisation inlines into the
// Python kernel calling it (test_nvvm_ir.py): with the kernel as LTO-IR
// (libNVVM) nvJitLink's output has no call to it.
extern "C" __device__ int cu_affine(int k, int x) { return k * x + 1; }
