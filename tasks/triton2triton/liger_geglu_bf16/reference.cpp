// Host oracle: GEGLU with the tanh approximation of GELU in double precision,
// c = 0.5 * a * (1 + tanh(sqrt(2 / pi) * (a + 0.044715 * a^3))) * b.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* r) {
  const double* a = r->tensors[0];
  const double* b = r->tensors[1];
  double* c = r->tensors[2];
  const int64_t total = r->ints[0] * r->ints[1];
  const double k = std::sqrt(2.0 / M_PI);
  for (int64_t i = 0; i < total; ++i) {
    const double v = a[i];
    c[i] = 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v))) * b[i];
  }
  return 0;
}
