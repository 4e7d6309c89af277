// Host oracle: scaled causal softmax in double precision. Row i of each [S, S] slice keeps
// columns j <= i: y = exp(a_j - max) / sum, a_j = scale * s[i, j] with scale rounded to fp32
// (the kernel's parameter type); masked columns are 0.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* s = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t bh = a->ints[0], n = a->ints[1];
  const double scale = (double)(float)a->floats[0];
  for (int64_t row = 0; row < bh * n; ++row) {
    const int64_t last = row % n;
    const double* sr = s + row * n;
    double* yr = y + row * n;
    double mx = scale * sr[0];
    for (int64_t j = 1; j <= last; ++j) mx = std::fmax(mx, scale * sr[j]);
    double sum = 0.0;
    for (int64_t j = 0; j <= last; ++j) {
      yr[j] = std::exp(scale * sr[j] - mx);
      sum += yr[j];
    }
    for (int64_t j = 0; j <= last; ++j) yr[j] /= sum;
    for (int64_t j = last + 1; j < n; ++j) yr[j] = 0.0;
  }
  return 0;
}
