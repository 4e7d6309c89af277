#include <cmath>
#include <cstdint>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[2];
  for (int64_t i = 0; i < a->numel[2]; ++i) y[i] = 2.0 * x[i];
  return 0;
}
