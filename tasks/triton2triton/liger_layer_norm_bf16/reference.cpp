// Host oracle: layer normalization over rows in double precision (biased variance) with the
// per-row mean and rstd = 1 / sqrt(var + eps) that the forward pass saves for the backward.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* gamma = a->tensors[1];
  const double* beta = a->tensors[2];
  double* y = a->tensors[3];
  double* mean_out = a->tensors[4];
  double* rstd_out = a->tensors[5];
  const int64_t m = a->ints[0], n = a->ints[1];
  const double eps = a->floats[0];
  for (int64_t r = 0; r < m; ++r) {
    const double* xr = x + r * n;
    double mean = 0.0;
    for (int64_t j = 0; j < n; ++j) mean += xr[j];
    mean /= n;
    double var = 0.0;
    for (int64_t j = 0; j < n; ++j) var += (xr[j] - mean) * (xr[j] - mean);
    const double rstd = 1.0 / std::sqrt(var / n + eps);
    mean_out[r] = mean;
    rstd_out[r] = rstd;
    for (int64_t j = 0; j < n; ++j) y[r * n + j] = (xr[j] - mean) * rstd * gamma[j] + beta[j];
  }
  return 0;
}
