// Host oracle: C[b] = A[b] * B[b] in double precision for every batch b (row-major; i-k-j loop
// order so the inner loop streams rows of B and C).
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const int64_t Bt = a->ints[0];
  const int64_t M = a->ints[1];
  const int64_t N = a->ints[2];
  const int64_t K = a->ints[3];
  for (int64_t b = 0; b < Bt; ++b) {
    const double* A = a->tensors[0] + b * M * K;
    const double* B = a->tensors[1] + b * K * N;
    double* C = a->tensors[2] + b * M * N;
    for (int64_t i = 0; i < M; ++i) {
      double* c = C + i * N;
      for (int64_t j = 0; j < N; ++j) c[j] = 0.0;
      for (int64_t k = 0; k < K; ++k) {
        const double aik = A[i * K + k];
        const double* brow = B + k * N;
        for (int64_t j = 0; j < N; ++j) c[j] += aik * brow[j];
      }
    }
  }
  return 0;
}
