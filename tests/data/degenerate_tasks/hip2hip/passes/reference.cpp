#include <cmath>
#include <cstdint>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* b = a->tensors[1];
  double* y = a->tensors[2];
  for (int64_t i = 0; i < a->numel[2]; ++i) y[i] = x[i] * b[i] + a->floats[0];
  return 0;
}
