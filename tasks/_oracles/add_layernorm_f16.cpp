// Host oracle: h = fp16(x + r) (round to nearest even), then layer normalization of the
// rounded h over each row in double precision (biased variance), y = norm * gamma + beta.
#include <algorithm>
#include <cmath>
#include "arena/arena_reference.h"

// Rounds v to the nearest fp16 value (ties to even), subnormals included; |v| >= 65520 -> inf.
static double round_f16(double v) {
  if (!std::isfinite(v) || v == 0.0) return v;
  const double av = std::fabs(v);
  if (av >= 65520.0) return std::copysign(INFINITY, v);
  int e = 0;
  std::frexp(av, &e);                        // av = f * 2^e, f in [0.5, 1)
  const int q = std::max(e - 11, -24);       // exponent of the fp16 spacing around av
  const double r = std::nearbyint(std::ldexp(av, -q));  // default rounding: nearest, ties to even
  return std::copysign(std::ldexp(r, q), v);
}

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* r = a->tensors[1];
  const double* gamma = a->tensors[2];
  const double* beta = a->tensors[3];
  double* h = a->tensors[4];
  double* y = a->tensors[5];
  const int64_t m = a->ints[0], n = a->ints[1];
  const double eps = a->floats[0];
  for (int64_t i = 0; i < m * n; ++i) h[i] = round_f16(x[i] + r[i]);
  for (int64_t row = 0; row < m; ++row) {
    const double* hr = h + row * n;
    double* yr = y + row * n;
    double mean = 0.0;
    for (int64_t j = 0; j < n; ++j) mean += hr[j];
    mean /= n;
    double var = 0.0;
    for (int64_t j = 0; j < n; ++j) var += (hr[j] - mean) * (hr[j] - mean);
    var /= n;
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (int64_t j = 0; j < n; ++j) yr[j] = (hr[j] - mean) * rstd * gamma[j] + beta[j];
  }
  return 0;
}
