// Host oracle: Qwen2-VL M-RoPE of q [B, S, HQ, D] and k [B, S, HKV, D] in place. Column j of a
// head's left half (and its partner j + D/2) rotates by the angle in plane 0 (temporal) of
// cos/sin [3, B, S, D] for j < T_SEC, plane 1 (height) for j < T_SEC + H_SEC, else plane 2 (width);
// only the left half of a cos/sin row is read.
#include "arena/arena_reference.h"

namespace {

void rotate(double* x, const double* cos, const double* sin, int64_t tokens, int64_t H, int64_t D,
            int64_t t_sec, int64_t h_sec) {
  const int64_t half = D / 2;
  for (int64_t t = 0; t < tokens; ++t) {
    for (int64_t h = 0; h < H; ++h) {
      double* row = x + (t * H + h) * D;
      for (int64_t j = 0; j < half; ++j) {
        const int64_t plane = (j >= t_sec) + (j >= t_sec + h_sec);
        const double c = cos[(plane * tokens + t) * D + j], s = sin[(plane * tokens + t) * D + j];
        const double x1 = row[j], x2 = row[j + half];
        row[j] = x1 * c - x2 * s;
        row[j + half] = x2 * c + x1 * s;
      }
    }
  }
}

}  // namespace

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const int64_t B = a->ints[0], S = a->ints[1], HQ = a->ints[2], HKV = a->ints[3], D = a->ints[4];
  const int64_t t_sec = a->ints[5], h_sec = a->ints[6];
  if (D % 2 != 0 || t_sec < 0 || h_sec < 0 || t_sec + h_sec > D / 2) return 1;
  rotate(a->tensors[0], a->tensors[2], a->tensors[3], B * S, HQ, D, t_sec, h_sec);
  rotate(a->tensors[1], a->tensors[2], a->tensors[3], B * S, HKV, D, t_sec, h_sec);
  return 0;
}
