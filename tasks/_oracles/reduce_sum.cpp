// Host oracle: the sum of x in double precision.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t n = a->ints[0];
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  y[0] = s;
  return 0;
}
