// Host oracle: mean of the squared differences in double precision.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* y = a->tensors[1];
  double* out = a->tensors[2];
  const int64_t n = a->ints[0];
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = x[i] - y[i];
    s += d * d;
  }
  out[0] = s / (double)n;
  return 0;
}
