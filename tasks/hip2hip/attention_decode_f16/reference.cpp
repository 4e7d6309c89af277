// Host oracle: decode attention in double precision. The scale is taken as the fp32 value a
// kernel receives.
#include <cmath>
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* q = a->tensors[0];
  const double* k = a->tensors[1];
  const double* v = a->tensors[2];
  double* out = a->tensors[3];
  const int64_t bh = a->ints[0] * a->ints[1], L = a->ints[2], D = a->ints[3];
  const double scale = static_cast<float>(a->floats[0]);
  std::vector<double> p(L), o(D);
  for (int64_t h = 0; h < bh; ++h) {
    const double* qh = q + h * D;
    const double* kh = k + h * L * D;
    const double* vh = v + h * L * D;
    double mx = -INFINITY;
    for (int64_t j = 0; j < L; ++j) {
      double dot = 0.0;
      for (int64_t d = 0; d < D; ++d) dot += qh[d] * kh[j * D + d];
      p[j] = dot * scale;
      mx = std::fmax(mx, p[j]);
    }
    double sum = 0.0;
    for (int64_t j = 0; j < L; ++j) {
      p[j] = std::exp(p[j] - mx);
      sum += p[j];
    }
    for (int64_t d = 0; d < D; ++d) o[d] = 0.0;
    for (int64_t j = 0; j < L; ++j)
      for (int64_t d = 0; d < D; ++d) o[d] += p[j] * vh[j * D + d];
    for (int64_t d = 0; d < D; ++d) out[h * D + d] = o[d] / sum;
  }
  return 0;
}
