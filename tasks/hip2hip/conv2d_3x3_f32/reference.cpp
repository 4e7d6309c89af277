// Host oracle: y[b][co][h][w] = sum_ci sum_kh sum_kw w[co][ci][kh][kw] * x[b][ci][h + kh - 1][w + kw - 1]
// (zero outside the image) in double precision; the inner loop runs along w.
#include <algorithm>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* w = a->tensors[1];
  double* y = a->tensors[2];
  const int64_t B = a->ints[0], Cin = a->ints[1], Cout = a->ints[2], H = a->ints[3], W = a->ints[4];
  for (int64_t b = 0; b < B; ++b)
    for (int64_t co = 0; co < Cout; ++co) {
      double* yp = y + (b * Cout + co) * H * W;
      for (int64_t i = 0; i < H * W; ++i) yp[i] = 0.0;
      for (int64_t ci = 0; ci < Cin; ++ci) {
        const double* xp = x + (b * Cin + ci) * H * W;
        for (int64_t kh = 0; kh < 3; ++kh)
          for (int64_t kw = 0; kw < 3; ++kw) {
            const double wk = w[((co * Cin + ci) * 3 + kh) * 3 + kw];
            const int64_t dh = kh - 1, dw = kw - 1;
            const int64_t h0 = std::max<int64_t>(0, -dh), h1 = std::min<int64_t>(H, H - dh);
            const int64_t w0 = std::max<int64_t>(0, -dw), w1 = std::min<int64_t>(W, W - dw);
            for (int64_t h = h0; h < h1; ++h) {
              double* yr = yp + h * W;
              const double* xr = xp + (h + dh) * W + dw;
              for (int64_t q = w0; q < w1; ++q) yr[q] += wk * xr[q];
            }
          }
      }
    }
  return 0;
}
