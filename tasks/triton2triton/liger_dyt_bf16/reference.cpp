// Host oracle: DyT (Dynamic Tanh) in double precision, y = tanh(alpha * x) * gamma + beta
// with a scalar alpha and per-column gamma and beta.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double alpha = a->tensors[1][0];
  const double* gamma = a->tensors[2];
  const double* beta = a->tensors[3];
  double* y = a->tensors[4];
  const int64_t m = a->ints[0], n = a->ints[1];
  for (int64_t r = 0; r < m; ++r)
    for (int64_t j = 0; j < n; ++j) y[r * n + j] = std::tanh(alpha * x[r * n + j]) * gamma[j] + beta[j];
  return 0;
}
