// Host oracle: C[m][n] = (sum_k A[m][k] * W[n][k]) * sa[m] * sw[n] + bias[n] in double precision
// (A [M, K], W [N, K], both row-major: a product with the transposed weight). Every partial sum
// of the int8 products is an integer below 2^31 in magnitude, exact in double.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* A = a->tensors[0];
  const double* sa = a->tensors[1];
  const double* W = a->tensors[2];
  const double* sw = a->tensors[3];
  const double* bias = a->tensors[4];
  double* C = a->tensors[5];
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const int64_t K = a->ints[2];
  for (int64_t i = 0; i < M; ++i) {
    const double* x = A + i * K;
    for (int64_t j = 0; j < N; ++j) {
      const double* w = W + j * K;
      double s = 0.0;
      for (int64_t k = 0; k < K; ++k) s += x[k] * w[k];
      C[i * N + j] = s * sa[i] * sw[j] + bias[j];
    }
  }
  return 0;
}
