// Host oracle: y[b][h][w][c] = sum_kh sum_kw x[b][h + kh - P][w + kw - P][c] * wt[kh][kw][c],
// P = KS / 2, zero outside the image, in double precision (inner loop along c).
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* wt = a->tensors[1];
  double* y = a->tensors[2];
  const int64_t B = a->ints[0], H = a->ints[1], W = a->ints[2], C = a->ints[3], KS = a->ints[4];
  const int64_t P = KS / 2;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w) {
        double* yo = y + ((b * H + h) * W + w) * C;
        for (int64_t c = 0; c < C; ++c) yo[c] = 0.0;
        for (int64_t kh = 0; kh < KS; ++kh) {
          const int64_t ih = h + kh - P;
          if (ih < 0 || ih >= H) continue;
          for (int64_t kw = 0; kw < KS; ++kw) {
            const int64_t iw = w + kw - P;
            if (iw < 0 || iw >= W) continue;
            const double* xi = x + ((b * H + ih) * W + iw) * C;
            const double* wk = wt + (kh * KS + kw) * C;
            for (int64_t c = 0; c < C; ++c) yo[c] += xi[c] * wk[c];
          }
        }
      }
  return 0;
}
