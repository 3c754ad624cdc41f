// CUDA C++ device functions whose by-value types LLVM lays out differently
// from nvcc in PTX parameters (3-lane vectors, structs aligned beyond their
// members, and aggregates holding them): pydev calls them with nvcc's
// layout (pydev-lower-aggregates). test_interop_cuda.py,
// test_interop_cuda_launch.py.
struct alignas(16) cplx16 { float re, im; };
struct withv3 { float3 v; float w; };
struct tup { char3 a; cplx16 b; };  // tuple[int8x3, cplx16]

extern "C" __device__ cplx16 cmul_cu(cplx16 a, cplx16 b) { return cplx16{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
extern "C" __device__ float3 vdot3(float3 a, float s, uchar3 h) { return make_float3(a.x * s + h.x, a.y * s + h.y, a.z * s + h.z); }
extern "C" __device__ tup nest(withv3 t, double3 d) {
  return tup{make_char3((signed char)t.w, (signed char)d.y, (signed char)(t.v.y + 0.5f > 0 ? 3 : -3)), cplx16{t.v.x + t.v.z, (float)d.z}};
}
