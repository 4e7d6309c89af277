// Host oracle: SwiGLU on separate gate and up tensors in double precision,
// c = silu(a) * b = a / (1 + exp(-a)) * b.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* r) {
  const double* a = r->tensors[0];
  const double* b = r->tensors[1];
  double* c = r->tensors[2];
  const int64_t total = r->ints[0] * r->ints[1];
  for (int64_t i = 0; i < total; ++i) c[i] = a[i] / (1.0 + std::exp(-a[i])) * b[i];
  return 0;
}
