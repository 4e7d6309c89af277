// Host oracle: SwiGLU in double precision, y = gate / (1 + exp(-gate)) * up.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t m = a->ints[0], n = a->ints[1];
  for (int64_t r = 0; r < m; ++r) {
    const double* gate = x + r * 2 * n;
    const double* up = gate + n;
    double* yr = y + r * n;
    for (int64_t j = 0; j < n; ++j) yr[j] = gate[j] / (1.0 + std::exp(-gate[j])) * up[j];
  }
  return 0;
}
