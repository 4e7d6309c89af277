// Host oracle: C[m][n] = sum over 128-wide K blocks kb of As[m][kb] * Bs[n / 128][kb] *
// sum_{k in kb} a[m][k] * w[n][k] in double precision, where a and w are the fp8 e4m3fn values
// whose bit patterns the uint8 tensors A [M, K] and W [N, K] hold (DeepSeek-V3 block scaling:
// 1 x 128 activation groups, 128 x 128 weight blocks). Products of e4m3 values and their
// block sums are exact in double.
#include <algorithm>
#include <cmath>
#include <vector>

#include "arena/arena_reference.h"

namespace {

// The value of an fp8 e4m3fn bit pattern (no infinities; 0x7F and 0xFF are NaN).
double e4m3fn(double code) {
  const int c = static_cast<int>(code);
  const int e = (c >> 3) & 15;
  const int m = c & 7;
  if (e == 15 && m == 7) return std::nan("");
  const double mag = e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1.0 + m / 8.0, e - 7);
  return (c & 0x80) ? -mag : mag;
}

}  // namespace

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const int64_t K = a->ints[2];
  const int64_t G = 128;
  const int64_t KB = (K + G - 1) / G;
  const double* As = a->tensors[1];
  const double* Bs = a->tensors[3];
  double* C = a->tensors[4];
  std::vector<double> x(a->tensors[0], a->tensors[0] + M * K);
  std::vector<double> w(a->tensors[2], a->tensors[2] + N * K);
  for (double& v : x) v = e4m3fn(v);
  for (double& v : w) v = e4m3fn(v);
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      double c = 0.0;
      for (int64_t kb = 0; kb < KB; ++kb) {
        const int64_t k1 = std::min(K, (kb + 1) * G);
        double s = 0.0;
        for (int64_t k = kb * G; k < k1; ++k) s += x[i * K + k] * w[j * K + k];
        c += s * As[i * KB + kb] * Bs[(j / G) * KB + kb];
      }
      C[i * N + j] = c;
    }
  }
  return 0;
}
