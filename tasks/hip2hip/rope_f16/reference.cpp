// Host oracle: NeoX rotary embedding in double precision. For pair i < D/2 of head vector v
// of token t at position p: out[i] = v[i] c - v[i + D/2] s, out[i + D/2] = v[i + D/2] c + v[i] s,
// c = cos_cache[p][i], s = sin_cache[p][i].
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* q = a->tensors[0];
  const double* positions = a->tensors[1];
  const double* cosc = a->tensors[2];
  const double* sinc = a->tensors[3];
  double* out = a->tensors[4];
  const int64_t T = a->ints[0], H = a->ints[1], D = a->ints[2];
  const int64_t half = D / 2;
  for (int64_t t = 0; t < T; ++t) {
    const int64_t p = (int64_t)positions[t];
    const double* c = cosc + p * half;
    const double* s = sinc + p * half;
    for (int64_t h = 0; h < H; ++h) {
      const double* v = q + (t * H + h) * D;
      double* o = out + (t * H + h) * D;
      for (int64_t i = 0; i < half; ++i) {
        o[i] = v[i] * c[i] - v[i + half] * s[i];
        o[i + half] = v[i + half] * c[i] + v[i] * s[i];
      }
    }
  }
  return 0;
}
