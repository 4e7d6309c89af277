// Host oracle: GELU in double precision.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t n = a->ints[0];
  for (int64_t i = 0; i < n; ++i) y[i] = 0.5 * x[i] * (1.0 + std::erf(x[i] / std::sqrt(2.0)));
  return 0;
}
