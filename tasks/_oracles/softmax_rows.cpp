// Host oracle: numerically stable row softmax in double precision.
#include <cmath>
#include "arena/arena_reference.h"
#include "oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t m = a->ints[0], n = a->ints[1];
  for (int64_t r = 0; r < m; ++r) {
    const double* xr = x + r * n;
    double* yr = y + r * n;
    const double mx = oracle::row_max(xr, n);
    double sum = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      yr[j] = std::exp(xr[j] - mx);
      sum += yr[j];
    }
    for (int64_t j = 0; j < n; ++j) yr[j] /= sum;
  }
  return 0;
}
