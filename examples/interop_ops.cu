// CUDA C++ that examples/cpp_interop.py links (link=["interop_ops.cu"]).
// __host__ __device__ functions serve both targets: NVRTC compiles them for
// the GPU, clang for the host target (with __host__/__device__ defined away).
// extern "C": the plain symbol and the C calling convention pydev calls.

struct vec3 {
    float x, y, z;
};

extern "C" __host__ __device__ float smoothstep(float edge0, float edge1, float x) {
    float t = (x - edge0) / (edge1 - edge0);
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return t * t * (3.0f - 2.0f * t);
}

extern "C" __host__ __device__ vec3 cross3(vec3 a, vec3 b) {
    return vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
