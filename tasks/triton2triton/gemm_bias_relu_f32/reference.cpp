// Host oracle: C = relu(A * B + bias) in double precision (row-major; i-k-j loop order so the
// inner loop streams rows of B and C).
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* A = a->tensors[0];
  const double* B = a->tensors[1];
  const double* bias = a->tensors[2];
  double* C = a->tensors[3];
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const int64_t K = a->ints[2];
  for (int64_t i = 0; i < M; ++i) {
    double* c = C + i * N;
    for (int64_t j = 0; j < N; ++j) c[j] = 0.0;
    for (int64_t k = 0; k < K; ++k) {
      const double aik = A[i * K + k];
      const double* b = B + k * N;
      for (int64_t j = 0; j < N; ++j) c[j] += aik * b[j];
    }
    for (int64_t j = 0; j < N; ++j) {
      const double v = c[j] + bias[j];
      c[j] = v > 0.0 ? v : 0.0;
    }
  }
  return 0;
}
