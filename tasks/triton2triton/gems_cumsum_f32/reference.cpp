// Host oracle: inclusive prefix sum along each row of an M x N matrix, in double precision.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t m = a->ints[0], n = a->ints[1];
  for (int64_t r = 0; r < m; ++r) {
    double s = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      s += x[r * n + j];
      y[r * n + j] = s;
    }
  }
  return 0;
}
