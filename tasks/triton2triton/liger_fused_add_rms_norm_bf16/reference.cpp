// Host oracle: residual add + RMS normalization over rows in double precision, as a decoder
// layer runs them: s = x + residual (the new residual stream), rstd = 1 / sqrt(mean(s^2) + eps),
// y = s * rstd * weight.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* res = a->tensors[1];
  const double* w = a->tensors[2];
  double* y = a->tensors[3];
  double* s = a->tensors[4];
  double* rstd_out = a->tensors[5];
  const int64_t m = a->ints[0], n = a->ints[1];
  const double eps = a->floats[0];
  for (int64_t r = 0; r < m; ++r) {
    double* sr = s + r * n;
    double ss = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      sr[j] = x[r * n + j] + res[r * n + j];
      ss += sr[j] * sr[j];
    }
    const double rstd = 1.0 / std::sqrt(ss / n + eps);
    rstd_out[r] = rstd;
    for (int64_t j = 0; j < n; ++j) y[r * n + j] = sr[j] * rstd * w[j];
  }
  return 0;
}
