// Host oracle: NeoX-style rotary embedding in double precision, in place on query and key.
// Token t at position p = positions[t] uses cos = cache[p, 0:R] and sin = cache[p, R:2R];
// in every head (2R values) the pair (x, y) = (v[j], v[j + R]) becomes
// (x cos_j - y sin_j, y cos_j + x sin_j).
#include "arena/arena_reference.h"

static void rotate(double* rows, int64_t t, int64_t heads, int64_t R, const double* cs) {
  for (int64_t h = 0; h < heads; ++h) {
    double* v = rows + (t * heads + h) * 2 * R;
    for (int64_t j = 0; j < R; ++j) {
      const double x = v[j], y = v[j + R], c = cs[j], s = cs[j + R];
      v[j] = x * c - y * s;
      v[j + R] = y * c + x * s;
    }
  }
}

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* positions = a->tensors[0];
  double* query = a->tensors[1];
  double* key = a->tensors[2];
  const double* cache = a->tensors[3];
  const int64_t T = a->ints[0], P = a->ints[1], Hq = a->ints[2], Hk = a->ints[3], R = a->ints[4];
  for (int64_t t = 0; t < T; ++t) {
    const int64_t p = static_cast<int64_t>(positions[t]);
    if (p < 0 || p >= P) return 1;
    rotate(query, t, Hq, R, cache + p * 2 * R);
    rotate(key, t, Hk, R, cache + p * 2 * R);
  }
  return 0;
}
