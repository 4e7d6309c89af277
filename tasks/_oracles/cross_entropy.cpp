// Host oracle: per-row cross-entropy logsumexp(row) - row[target] in double precision.
#include <cmath>
#include "arena/arena_reference.h"
#include "oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* target = a->tensors[1];
  double* loss = a->tensors[2];
  const int64_t m = a->ints[0], v = a->ints[1];
  for (int64_t r = 0; r < m; ++r) {
    const double* xr = x + r * v;
    const double mx = oracle::row_max(xr, v);
    const double s = oracle::sum_exp(xr, v, mx);
    const int64_t t = (int64_t)target[r];
    loss[r] = (mx + std::log(s)) - xr[t];
  }
  return 0;
}
