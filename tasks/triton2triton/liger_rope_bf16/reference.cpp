// Host oracle: rotate-half RoPE of q [B, S, HQ, D] and k [B, S, HKV, D] in place, with the left
// half of the [S, D] cos/sin row of each token's position (the package reads no other half).
#include "arena/arena_reference.h"

namespace {

void rotate(double* x, const double* cos, const double* sin, int64_t B, int64_t S, int64_t H, int64_t D) {
  const int64_t half = D / 2;
  for (int64_t t = 0; t < B * S; ++t) {
    const double* c = cos + (t % S) * D;
    const double* s = sin + (t % S) * D;
    for (int64_t h = 0; h < H; ++h) {
      double* row = x + (t * H + h) * D;
      for (int64_t j = 0; j < half; ++j) {
        const double x1 = row[j], x2 = row[j + half];
        row[j] = x1 * c[j] - x2 * s[j];
        row[j + half] = x2 * c[j] + x1 * s[j];
      }
    }
  }
}

}  // namespace

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const int64_t B = a->ints[0], S = a->ints[1], HQ = a->ints[2], HKV = a->ints[3], D = a->ints[4];
  if (D % 2 != 0) return 1;
  rotate(a->tensors[0], a->tensors[2], a->tensors[3], B, S, HQ, D);
  rotate(a->tensors[1], a->tensors[2], a->tensors[3], B, S, HKV, D);
  return 0;
}
