// Host oracle: y[m][n] = sum_k x[m][k] * (q(n, k) - 8) * scales[n][k / G] in double precision,
// where q(n, k) is the low nibble (k even) or the high nibble (k odd) of qweight[n][k / 2]. Each
// weight row is dequantized once, then dotted with every row of x.
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* qweight = a->tensors[1];
  const double* scales = a->tensors[2];
  double* y = a->tensors[3];
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const int64_t K = a->ints[2];
  const int64_t G = a->ints[3];
  const int64_t KH = K / 2, NG = K / G;
  std::vector<double> w(K);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t k = 0; k < K; ++k) {
      const int byte = static_cast<int>(qweight[n * KH + k / 2]);
      const int q = k % 2 == 0 ? (byte & 15) : (byte >> 4);
      w[k] = (q - 8) * scales[n * NG + k / G];
    }
    for (int64_t m = 0; m < M; ++m) {
      const double* xr = x + m * K;
      double s = 0.0;
      for (int64_t k = 0; k < K; ++k) s += xr[k] * w[k];
      y[m * N + n] = s;
    }
  }
  return 0;
}
