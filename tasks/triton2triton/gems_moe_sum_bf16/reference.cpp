// Host oracle: MoE combine in double precision, y[t, h] = sum_k x[t, k, h].
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t T = a->ints[0], K = a->ints[1], H = a->ints[2];
  for (int64_t t = 0; t < T; ++t)
    for (int64_t h = 0; h < H; ++h) {
      double s = 0.0;
      for (int64_t k = 0; k < K; ++k) s += x[(t * K + k) * H + h];
      y[t * H + h] = s;
    }
  return 0;
}
