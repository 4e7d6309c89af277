// Host oracle: Llama-4 RoPE of q [B, S, HQ, D] and k [B, S, HKV, D] in place: each pair
// (x[2i], x[2i+1]) is multiplied as a complex number by freqs[s, i] = (freqs[s, 2i], freqs[s, 2i+1]).
#include "arena/arena_reference.h"

namespace {

void rotate(double* x, const double* freqs, int64_t B, int64_t S, int64_t H, int64_t D) {
  for (int64_t t = 0; t < B * S; ++t) {
    const double* f = freqs + (t % S) * D;
    for (int64_t h = 0; h < H; ++h) {
      double* row = x + (t * H + h) * D;
      for (int64_t j = 0; j + 1 < D; j += 2) {
        const double re = row[j], im = row[j + 1];
        row[j] = re * f[j] - im * f[j + 1];
        row[j + 1] = re * f[j + 1] + im * f[j];
      }
    }
  }
}

}  // namespace

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const int64_t B = a->ints[0], S = a->ints[1], HQ = a->ints[2], HKV = a->ints[3], D = a->ints[4];
  if (D % 2 != 0) return 1;
  rotate(a->tensors[0], a->tensors[2], B, S, HQ, D);
  rotate(a->tensors[1], a->tensors[2], B, S, HKV, D);
  return 0;
}
