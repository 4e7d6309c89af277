// Host oracle: out[v, :] = sum of src[t, :] over the t with idx[t] == v, in double precision.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* src = a->tensors[0];
  const double* idx = a->tensors[1];
  double* out = a->tensors[2];
  const int64_t T = a->ints[0], D = a->ints[1], V = a->ints[2];
  for (int64_t i = 0; i < V * D; ++i) out[i] = 0.0;
  for (int64_t t = 0; t < T; ++t) {
    const int64_t v = static_cast<int64_t>(idx[t]);
    if (v < 0 || v >= V) return 1;
    const double* s = src + t * D;
    double* o = out + v * D;
    for (int64_t c = 0; c < D; ++c) o[c] += s[c];
  }
  return 0;
}
