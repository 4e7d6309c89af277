// Host oracle: symmetric per-row int8 quantization, bit-exact. The spec fixes every fp32 step
// (max of |x|, one correctly rounded fp32 division for the scale, one per element, rint with
// ties to even), so the oracle computes in float rather than double, step for step.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* q = a->tensors[1];
  double* scale = a->tensors[2];
  const int64_t m = a->ints[0], n = a->ints[1];
  for (int64_t r = 0; r < m; ++r) {
    const double* xr = x + r * n;
    double* qr = q + r * n;
    float amax = 0.0f;
    for (int64_t j = 0; j < n; ++j) amax = std::fmax(amax, std::fabs(static_cast<float>(xr[j])));
    const float s = amax / 127.0f;
    scale[r] = s;
    for (int64_t j = 0; j < n; ++j) {
      if (amax == 0.0f) {
        qr[j] = 0.0;
        continue;
      }
      const float t = static_cast<float>(xr[j]) / s;  // correctly rounded fp32 division
      float v = std::rint(t);                          // ties to even (default rounding mode)
      v = std::fmin(std::fmax(v, -127.0f), 127.0f);
      qr[j] = v;
    }
  }
  return 0;
}
