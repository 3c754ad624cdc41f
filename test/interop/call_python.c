/* A C program (compiled with the system compiler) calling Python
   interoperable functions from pydev.compile(..., stage="object"). */
#include <stdint.h>
#include <stdio.h>
typedef struct { float x, y, z; } vec3;
typedef struct { float* data; uint64_t shape[1]; uint64_t strides[1]; } desc1;
float axpy(float a, float x, float y);
vec3 vscale(vec3 v, float s);
float total(desc1 a);
int main(void) {
  vec3 v = {1.5f, -2.0f, 3.25f};
  vec3 w = vscale(v, 2.0f);
  float d[5] = {1, 2, 3, 4, 5};
  desc1 a = {d, {3}, {2}};
  printf("%g %g %g %g %g\n", axpy(2.0f, 3.0f, 4.0f), w.x, w.y, w.z, total(a));
  return 0;
}
