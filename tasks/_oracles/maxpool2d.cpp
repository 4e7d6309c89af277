// Host oracle: K x K max pooling with stride S and padding P = K / 2 (padded positions are
// ignored), computed separably per plane: the maximum over each row window, then over the
// column window of those maxima (max is exact, so any order gives the same value).
#include <algorithm>
#include <cmath>
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t planes = a->ints[0] * a->ints[1], H = a->ints[2], W = a->ints[3], K = a->ints[4], S = a->ints[5];
  const int64_t P = K / 2, Ho = (H - 1) / S + 1, Wo = (W - 1) / S + 1;
  std::vector<double> rowmax(H * Wo);
  for (int64_t p = 0; p < planes; ++p) {
    const double* xp = x + p * H * W;
    double* yp = y + p * Ho * Wo;
    for (int64_t h = 0; h < H; ++h)
      for (int64_t ow = 0; ow < Wo; ++ow) {
        const int64_t w0 = std::max<int64_t>(ow * S - P, 0), w1 = std::min<int64_t>(ow * S - P + K, W);
        double m = -INFINITY;
        for (int64_t w = w0; w < w1; ++w) m = std::max(m, xp[h * W + w]);
        rowmax[h * Wo + ow] = m;
      }
    for (int64_t oh = 0; oh < Ho; ++oh) {
      const int64_t h0 = std::max<int64_t>(oh * S - P, 0), h1 = std::min<int64_t>(oh * S - P + K, H);
      for (int64_t ow = 0; ow < Wo; ++ow) {
        double m = -INFINITY;
        for (int64_t h = h0; h < h1; ++h) m = std::max(m, rowmax[h * Wo + ow]);
        yp[oh * Wo + ow] = m;
      }
    }
  }
  return 0;
}
