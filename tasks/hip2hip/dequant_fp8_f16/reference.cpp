// Host oracle: FP8 E4M3 (OCP e4m3fn) decode times the block scale, bit-exact. The spec fixes
// the arithmetic (exact decode, one correctly rounded fp32 product, one round to nearest even
// fp16), so the oracle mirrors it: the product in float, then an exact fp16 rounding.
#include <algorithm>
#include <cmath>
#include <limits>
#include "arena/arena_reference.h"

namespace {

// The value of an e4m3fn code: sign, 4-bit exponent (bias 7), 3-bit mantissa, subnormals at
// exponent 0, no infinities, S.1111.111 is NaN. Exact in float.
float decode_e4m3fn(int c) {
  const int sign = c >> 7, e = (c >> 3) & 15, m = c & 7;
  float v;
  if (e == 15 && m == 7) v = std::numeric_limits<float>::quiet_NaN();
  else if (e == 0) v = std::ldexp(static_cast<float>(m), -9);       // m/8 * 2^-6
  else v = std::ldexp(static_cast<float>(8 + m), e - 10);           // (1 + m/8) * 2^(e-7)
  return sign ? -v : v;
}

// The fp16 value nearest to f (ties to even), as a double; overflow to infinity.
double round_to_half(float f) {
  if (std::isnan(f)) return std::numeric_limits<double>::quiet_NaN();
  const double x = f, ax = std::fabs(x);
  if (ax >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), x);
  int e = 0;
  std::frexp(ax, &e);                          // ax = mant * 2^e, mant in [0.5, 1)
  const int ex = std::max(e - 1, -14);         // fp16 binade (subnormals share the lowest)
  const double ulp = std::ldexp(1.0, ex - 10);
  return std::copysign(std::nearbyint(ax / ulp) * ulp, x);  // exact scaling; default mode: ties to even
}

}  // namespace

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* codes = a->tensors[0];
  const double* scales = a->tensors[1];
  double* y = a->tensors[2];
  const int64_t m = a->ints[0], nb = a->ints[1], n = 128 * nb;
  for (int64_t r = 0; r < m; ++r)
    for (int64_t j = 0; j < n; ++j) {
      const float s = static_cast<float>(scales[r * nb + j / 128]);
      const float p = decode_e4m3fn(static_cast<int>(codes[r * n + j])) * s;  // one fp32 rounding
      y[r * n + j] = round_to_half(p);
    }
  return 0;
}
