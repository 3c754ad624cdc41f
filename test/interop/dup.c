/* Defines scale_add again: linking it with ops.c is a duplicate symbol. */
#include <stdint.h>
float scale_add(float x, float s, int32_t k) { return 0; }
