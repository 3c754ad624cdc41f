/* Host fixtures of python/tests/test_interop.py: C functions a Python
   kernel calls through @device.func(interop=True, link=[...]) declarations. */
#include <stdbool.h>
#include <stdint.h>

float scale_add(float x, float s, int32_t k) { return x * s + (float)k; }

typedef struct { float x, y, z; } vec3;            /* 12 bytes: two SSE eightbytes */
typedef struct { int32_t a; double b; } pair;      /* padding after a */
typedef struct __attribute__((aligned(16))) { float re, im; } cplx16;  /* align=16 */
typedef struct { float x, y, z, w; } __attribute__((aligned(16))) float4_;
typedef struct { int32_t __0; float __1; } tuple_if;
typedef struct { double* data; uint64_t shape[2]; uint64_t strides[2]; } desc2d;

vec3 vmul(vec3 v, float s) { vec3 r = { v.x * s, v.y * s, v.z * s }; return r; }
pair mkpair(int32_t a, double b, bool neg) { pair p = { neg ? -a : a, b * 2 }; return p; }
cplx16 cmul(cplx16 a, cplx16 b) { cplx16 r = { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re }; return r; }
float4_ v4add(float4_ a, float4_ b) { float4_ r = { a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w }; return r; }
tuple_if swapish(tuple_if t) { tuple_if r = { t.__0 * 2, t.__1 + 0.5f }; return r; }
bool is_odd(int64_t v) { return (v & 1) != 0; }
/* The array descriptor of the spec (strides in elements): the sum of row r. */
double row_sum(desc2d a, int32_t r) {
  double s = 0;
  for (uint64_t j = 0; j < a.shape[1]; ++j) s += a.data[r * a.strides[0] + j * a.strides[1]];
  return s;
}
