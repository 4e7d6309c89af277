// Host oracle: out[t, :] = table[ids[t], :] (a copy: the values arrive already rounded to fp16).
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* table = a->tensors[0];
  const double* ids = a->tensors[1];
  double* out = a->tensors[2];
  const int64_t T = a->ints[0], D = a->ints[1], V = a->ints[2];
  for (int64_t t = 0; t < T; ++t) {
    const int64_t row = static_cast<int64_t>(ids[t]);
    if (row < 0 || row >= V) return 1;
    const double* src = table + row * D;
    double* dst = out + t * D;
    for (int64_t c = 0; c < D; ++c) dst[c] = src[c];
  }
  return 0;
}
