// Host oracle: per-row mean and variance in double precision (two passes),
// var = sum_j (x[r, j] - mean_r)^2 / (N - correction).
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* var = a->tensors[1];
  double* mean = a->tensors[2];
  const int64_t m = a->ints[0], n = a->ints[1], correction = a->ints[2];
  if (n - correction < 1) return 1;
  for (int64_t r = 0; r < m; ++r) {
    const double* xr = x + r * n;
    double s = 0.0;
    for (int64_t j = 0; j < n; ++j) s += xr[j];
    const double mu = s / n;
    double ss = 0.0;
    for (int64_t j = 0; j < n; ++j) ss += (xr[j] - mu) * (xr[j] - mu);
    mean[r] = mu;
    var[r] = ss / (n - correction);
  }
  return 0;
}
