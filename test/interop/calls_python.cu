// CUDA C++ calling Python interoperable functions (python/tests/interop_kernels.py):
// a kernel, and a CUB-style algorithm templated on a user operator whose
// operator() is a Python function. Compiled by NVRTC, linked with the
// Python functions' PTX by nvJitLink (test_interop_cuda.py).
#include <cuda_fp16.h>

extern "C" __device__ float axpy(float a, float x, float y);
struct vec3 { float x, y, z; };
extern "C" __device__ vec3 vscale(vec3 v, float s);

extern "C" __global__ void saxpy_cpp(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = axpy(a, x[i], y[i]);
}

extern "C" __global__ void scale_cpp(vec3* v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = vscale(v[i], s);
}

// A block reduction in the style of cub::BlockReduce, generic in its operator.
template <typename T, int BLOCK, typename Op>
__device__ T block_reduce(T v, Op op) {
  __shared__ T smem[BLOCK];
  smem[threadIdx.x] = v;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) smem[threadIdx.x] = op(smem[threadIdx.x], smem[threadIdx.x + s]);
    __syncthreads();
  }
  return smem[0];
}

extern "C" __device__ float py_max(float a, float b);
struct PyMax { __device__ float operator()(float a, float b) const { return py_max(a, b); } };

extern "C" __global__ void max_cpp(const float* x, float* out) {
  float m = block_reduce<float, 256>(x[threadIdx.x], PyMax{});
  if (threadIdx.x == 0) *out = __half2float(__float2half(m));  // cuda_fp16.h from the wheels
}
