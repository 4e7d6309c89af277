// Host oracle: per-channel mean and biased variance (two passes) in double precision.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* mean = a->tensors[1];
  double* var = a->tensors[2];
  const int64_t B = a->ints[0], C = a->ints[1], HW = a->ints[2];
  const double n = (double)(B * HW);
  for (int64_t c = 0; c < C; ++c) {
    double s = 0.0;
    for (int64_t b = 0; b < B; ++b) {
      const double* xb = x + (b * C + c) * HW;
      for (int64_t i = 0; i < HW; ++i) s += xb[i];
    }
    const double mu = s / n;
    double q = 0.0;
    for (int64_t b = 0; b < B; ++b) {
      const double* xb = x + (b * C + c) * HW;
      for (int64_t i = 0; i < HW; ++i) q += (xb[i] - mu) * (xb[i] - mu);
    }
    mean[c] = mu;
    var[c] = q / n;
  }
  return 0;
}
