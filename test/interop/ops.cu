// A CUDA C++ fixture with __host__ __device__ functions: on the host pydev
// compiles it as C++ with the execution-space keywords defined away.
#include <stdint.h>
struct Op { int32_t k; };
__host__ __device__ inline int32_t apply(Op op, int32_t x) { return op.k * x + 1; }
extern "C" __host__ __device__ int32_t cu_apply(int32_t k, int32_t x) { return apply(Op{k}, x); }
