// Host oracle: counts of each byte value.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* counts = a->tensors[1];
  const int64_t n = a->ints[0];
  int64_t c[256] = {0};
  for (int64_t i = 0; i < n; ++i) ++c[(int)x[i] & 255];
  for (int k = 0; k < 256; ++k) counts[k] = (double)c[k];
  return 0;
}
