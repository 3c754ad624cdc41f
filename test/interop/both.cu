// __host__ __device__ functions that both targets link: NVRTC compiles them
// for cuda (with cuda_fp16.h), clang for the host (the execution-space
// keywords defined away, no CUDA headers). test_interop.py, test_interop_cuda.py.
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#include <cuda_fp16.h>
#define PYDEV_TO_HALF_AND_BACK(x) __half2float(__float2half(x))
#else
#include <math.h>
#define PYDEV_TO_HALF_AND_BACK(x) ((float)(_Float16)(x))
#endif

struct vec3 { float x, y, z; };

extern "C" __host__ __device__ float hyp_half(float a, float b) {
  return PYDEV_TO_HALF_AND_BACK(sqrtf(a * a + b * b));
}

extern "C" __host__ __device__ vec3 cross3(vec3 a, vec3 b) {
  return vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

template <typename T> __host__ __device__ T clamp_t(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }
// long long: NVRTC has no <stdint.h>.
extern "C" __host__ __device__ long long clamp64(long long v, long long lo, long long hi) { return clamp_t(v, lo, hi); }
