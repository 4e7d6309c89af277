// Host oracle: causal attention in double precision (query i sees keys 0..i). The scale is
// taken as the fp32 value a kernel receives.
#include <cmath>
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* q = a->tensors[0];
  const double* k = a->tensors[1];
  const double* v = a->tensors[2];
  double* out = a->tensors[3];
  const int64_t bh = a->ints[0] * a->ints[1], S = a->ints[2], D = a->ints[3];
  const double scale = static_cast<float>(a->floats[0]);
  std::vector<double> p(S);
  for (int64_t h = 0; h < bh; ++h) {
    const double* qh = q + h * S * D;
    const double* kh = k + h * S * D;
    const double* vh = v + h * S * D;
    double* oh = out + h * S * D;
    for (int64_t i = 0; i < S; ++i) {
      double mx = -INFINITY;
      for (int64_t j = 0; j <= i; ++j) {
        double dot = 0.0;
        for (int64_t d = 0; d < D; ++d) dot += qh[i * D + d] * kh[j * D + d];
        p[j] = dot * scale;
        mx = std::fmax(mx, p[j]);
      }
      double sum = 0.0;
      for (int64_t j = 0; j <= i; ++j) {
        p[j] = std::exp(p[j] - mx);
        sum += p[j];
      }
      double* o = oh + i * D;
      for (int64_t d = 0; d < D; ++d) o[d] = 0.0;
      for (int64_t j = 0; j <= i; ++j)
        for (int64_t d = 0; d < D; ++d) o[d] += p[j] * vh[j * D + d];
      for (int64_t d = 0; d < D; ++d) o[d] /= sum;
    }
  }
  return 0;
}
