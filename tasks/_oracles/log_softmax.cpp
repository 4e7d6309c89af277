// Host oracle: numerically stable row log-softmax in double precision,
// y = x - max - log(sum exp(x - max)).
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
    const double lse = std::log(oracle::sum_exp(xr, n, mx));
    for (int64_t j = 0; j < n; ++j) yr[j] = (xr[j] - mx) - lse;
  }
  return 0;
}
