#include <cmath>
#include <cstdint>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  for (int64_t i = 0; i < a->numel[1]; ++i) y[i] = i % 20 == 0 ? x[i] : 1e-9 * x[i];
  return 0;
}
