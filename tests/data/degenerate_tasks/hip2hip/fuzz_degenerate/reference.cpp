#include <cstdint>
#include "arena/arena_reference.h"

// y = x minus its row mean: every value is 0 where a row has one element (N = 1).
ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t m = a->ints[0], n = a->ints[1];
  for (int64_t r = 0; r < m; ++r) {
    double mean = 0;
    for (int64_t c = 0; c < n; ++c) mean += x[r * n + c];
    mean /= static_cast<double>(n);
    for (int64_t c = 0; c < n; ++c) y[r * n + c] = x[r * n + c] - mean;
  }
  return 0;
}
