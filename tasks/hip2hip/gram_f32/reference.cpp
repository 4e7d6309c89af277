// Host oracle: G = A^T * A in double precision. Accumulates the upper triangle row by row of A
// (the inner loop streams a row of A and a row of G), then mirrors it.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* A = a->tensors[0];
  double* G = a->tensors[1];
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  for (int64_t i = 0; i < N * N; ++i) G[i] = 0.0;
  for (int64_t r = 0; r < M; ++r) {
    const double* row = A + r * N;
    for (int64_t i = 0; i < N; ++i) {
      const double ai = row[i];
      double* g = G + i * N;
      for (int64_t j = i; j < N; ++j) g[j] += ai * row[j];
    }
  }
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = i + 1; j < N; ++j) G[j * N + i] = G[i * N + j];
  return 0;
}
