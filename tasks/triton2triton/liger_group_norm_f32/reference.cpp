// Host oracle: group normalization forward with its statistics, in double precision.
// Group (b, g) is the CPG * HW contiguous values of channels g * CPG .. g * CPG + CPG - 1 of
// batch b; mean and rstd = 1 / sqrt(biased variance + eps) per group, then a per-channel affine.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* gamma = a->tensors[1];
  const double* beta = a->tensors[2];
  double* y = a->tensors[3];
  double* mean_out = a->tensors[4];
  double* rstd_out = a->tensors[5];
  const int64_t B = a->ints[0], G = a->ints[1], cpg = a->ints[2], hw = a->ints[3];
  const double eps = a->floats[0];
  const int64_t n = cpg * hw;
  for (int64_t grp = 0; grp < B * G; ++grp) {
    const double* xg = x + grp * n;
    double* yg = y + grp * n;
    double mean = 0.0;
    for (int64_t e = 0; e < n; ++e) mean += xg[e];
    mean /= n;
    double var = 0.0;
    for (int64_t e = 0; e < n; ++e) var += (xg[e] - mean) * (xg[e] - mean);
    var /= n;
    const double rstd = 1.0 / std::sqrt(var + eps);
    mean_out[grp] = mean;
    rstd_out[grp] = rstd;
    const int64_t c0 = (grp % G) * cpg;
    for (int64_t e = 0; e < n; ++e) {
      const int64_t c = c0 + e / hw;
      yg[e] = (xg[e] - mean) * rstd * gamma[c] + beta[c];
    }
  }
  return 0;
}
