// Host oracle: squared ReLU in double precision, y = max(x, 0)^2.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t total = a->ints[0] * a->ints[1];
  for (int64_t i = 0; i < total; ++i) y[i] = x[i] > 0.0 ? x[i] * x[i] : 0.0;
  return 0;
}
