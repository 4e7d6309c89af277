// Host oracle: 2x bilinear upsampling, align_corners = false, in double precision. Source
// coordinate src = (dst + 0.5) / 2 - 0.5 clamped below at 0; i0 = floor(src), i1 = i0 + 1
// unless i0 is the last row/column (then i1 = i0); weights (1 - l, l) with l = src - i0.
#include <vector>
#include "arena/arena_reference.h"

namespace {
struct Tap {
  int64_t i0, i1;
  double l;
};
std::vector<Tap> taps(int64_t in) {
  std::vector<Tap> t(2 * in);
  for (int64_t d = 0; d < 2 * in; ++d) {
    double src = (d + 0.5) * 0.5 - 0.5;
    if (src < 0) src = 0;
    const int64_t i0 = static_cast<int64_t>(src);
    t[d] = {i0, i0 < in - 1 ? i0 + 1 : i0, src - static_cast<double>(i0)};
  }
  return t;
}
}  // namespace

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t planes = a->ints[0] * a->ints[1], H = a->ints[2], W = a->ints[3];
  const std::vector<Tap> th = taps(H), tw = taps(W);
  for (int64_t p = 0; p < planes; ++p) {
    const double* xp = x + p * H * W;
    double* yp = y + p * 4 * H * W;
    for (int64_t oh = 0; oh < 2 * H; ++oh) {
      const Tap& h = th[oh];
      const double* r0 = xp + h.i0 * W;
      const double* r1 = xp + h.i1 * W;
      double* yr = yp + oh * 2 * W;
      for (int64_t ow = 0; ow < 2 * W; ++ow) {
        const Tap& w = tw[ow];
        yr[ow] = (1 - h.l) * ((1 - w.l) * r0[w.i0] + w.l * r0[w.i1]) + h.l * ((1 - w.l) * r1[w.i0] + w.l * r1[w.i1]);
      }
    }
  }
  return 0;
}
