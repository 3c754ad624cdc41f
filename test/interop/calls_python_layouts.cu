// A C++ kernel calling a Python interop function whose types LLVM lays out
// differently from nvcc (a 3-lane vector, an align=16 struct): pydev gives
// the Python function nvcc's parameter layout (pydev-lower-aggregates).
// interop_kernels.py py_v3, test_interop_cuda.py.
struct alignas(16) cplx16 { float re, im; };
extern "C" __device__ float3 py_v3(float3 a, cplx16 c, float s);
extern "C" __global__ void calls_v3(float3* v, const cplx16* c, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = py_v3(v[i], c[i], s);
}
