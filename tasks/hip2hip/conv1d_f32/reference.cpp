// Host oracle: y[b][co][l] = bias[co] + sum_ci sum_k w[co][ci][k] * x[b][ci][l + k - KW/2]
// (zero outside [0, L)) in double precision; the inner loop runs along l.
#include <algorithm>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* w = a->tensors[1];
  const double* bias = a->tensors[2];
  double* y = a->tensors[3];
  const int64_t B = a->ints[0], Cin = a->ints[1], Cout = a->ints[2], L = a->ints[3], KW = a->ints[4];
  const int64_t P = KW / 2;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t co = 0; co < Cout; ++co) {
      double* yr = y + (b * Cout + co) * L;
      for (int64_t l = 0; l < L; ++l) yr[l] = bias[co];
      for (int64_t ci = 0; ci < Cin; ++ci) {
        const double* xr = x + (b * Cin + ci) * L;
        for (int64_t k = 0; k < KW; ++k) {
          const double wk = w[(co * Cin + ci) * KW + k];
          const int64_t s = k - P;  // y[l] uses x[l + s]
          const int64_t lo = std::max<int64_t>(0, -s), hi = std::min<int64_t>(L, L - s);
          for (int64_t l = lo; l < hi; ++l) yr[l] += wk * xr[l + s];
        }
      }
    }
  return 0;
}
