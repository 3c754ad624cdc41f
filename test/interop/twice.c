/* Built to .o, .a, .bc and .ll by the tests. */
#include <stdint.h>
int64_t twice(int64_t x) { return 2 * x; }
