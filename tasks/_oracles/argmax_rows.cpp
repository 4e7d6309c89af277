// Host oracle: index of the maximum of each row, the first one on ties.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* idx = a->tensors[1];
  const int64_t m = a->ints[0], n = a->ints[1];
  for (int64_t r = 0; r < m; ++r) {
    const double* xr = x + r * n;
    int64_t best = 0;
    for (int64_t j = 1; j < n; ++j)
      if (xr[j] > xr[best]) best = j;  // strictly greater: an equal later value keeps the first
    idx[r] = (double)best;
  }
  return 0;
}
