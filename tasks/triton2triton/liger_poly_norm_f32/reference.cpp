// Host oracle: PolyNorm in double precision. norm(u) = u / sqrt(mean(u^2) + eps) over a row;
// y = w0 * norm(x^3) + w1 * norm(x^2) + w2 * norm(x) + b, with the three reciprocal RMS
// values (of x^3, x^2, x, in that order) saved per row for the backward pass.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* w = a->tensors[1];
  const double b = a->tensors[2][0];
  double* y = a->tensors[3];
  double* rstd = a->tensors[4];
  const int64_t m = a->ints[0], n = a->ints[1];
  const double eps = a->floats[0];
  for (int64_t r = 0; r < m; ++r) {
    const double* xr = x + r * n;
    double s2 = 0.0, s4 = 0.0, s6 = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      const double v2 = xr[j] * xr[j];
      s2 += v2;
      s4 += v2 * v2;
      s6 += v2 * v2 * v2;
    }
    const double r3 = 1.0 / std::sqrt(s6 / n + eps);
    const double r2 = 1.0 / std::sqrt(s4 / n + eps);
    const double r1 = 1.0 / std::sqrt(s2 / n + eps);
    rstd[r * 3 + 0] = r3;
    rstd[r * 3 + 1] = r2;
    rstd[r * 3 + 2] = r1;
    for (int64_t j = 0; j < n; ++j) {
      const double v = xr[j];
      y[r * n + j] = w[0] * v * v * v * r3 + w[1] * v * v * r2 + w[2] * v * r1 + b;
    }
  }
  return 0;
}
