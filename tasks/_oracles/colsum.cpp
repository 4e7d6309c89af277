// Host oracle: column sums in double precision.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t m = a->ints[0], n = a->ints[1];
  for (int64_t c = 0; c < n; ++c) y[c] = 0.0;
  for (int64_t r = 0; r < m; ++r) {
    const double* xr = x + r * n;
    for (int64_t c = 0; c < n; ++c) y[c] += xr[c];
  }
  return 0;
}
