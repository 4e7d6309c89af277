// Host oracle: C[m][n] = (sum_k A[m][k] * W[k][n]) * sa[m] * sw[n] in double precision (row-major;
// i-k-j loop order so the inner loop streams rows of W and C). Every partial sum of the int8
// products is an integer below 2^31 in magnitude, exact in double.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* A = a->tensors[0];
  const double* sa = a->tensors[1];
  const double* W = a->tensors[2];
  const double* sw = a->tensors[3];
  double* C = a->tensors[4];
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const int64_t K = a->ints[2];
  for (int64_t i = 0; i < M; ++i) {
    double* c = C + i * N;
    for (int64_t j = 0; j < N; ++j) c[j] = 0.0;
    for (int64_t k = 0; k < K; ++k) {
      const double aik = A[i * K + k];
      const double* w = W + k * N;
      for (int64_t j = 0; j < N; ++j) c[j] += aik * w[j];
    }
    for (int64_t j = 0; j < N; ++j) c[j] *= sa[i] * sw[j];
  }
  return 0;
}
