// Host oracle: RMS normalization over rows in double precision with the per-row reciprocal
// RMS it saves for the backward pass: rstd = 1 / sqrt(mean(x^2) + eps), y = x * rstd * weight.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* w = a->tensors[1];
  double* y = a->tensors[2];
  double* rstd_out = a->tensors[3];
  const int64_t m = a->ints[0], n = a->ints[1];
  const double eps = a->floats[0];
  for (int64_t r = 0; r < m; ++r) {
    const double* xr = x + r * n;
    double* yr = y + r * n;
    double s = 0.0;
    for (int64_t j = 0; j < n; ++j) s += xr[j] * xr[j];
    const double rstd = 1.0 / std::sqrt(s / n + eps);
    rstd_out[r] = rstd;
    for (int64_t j = 0; j < n; ++j) yr[j] = xr[j] * rstd * w[j];
  }
  return 0;
}
