// A C++ fixture: templates inside, an extern "C" interface outside.
#include <cstdint>
#include <cmath>
template <typename T> static T clampT(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }
extern "C" float clampf(float v, float lo, float hi) { return clampT(v, lo, hi); }
extern "C" double hypot_cpp(double a, double b) { return std::sqrt(a * a + b * b); }
