// Host oracle: C[m][n] = sum_k A[m][k] * B[k][n] + bias[n] in double precision (row-major).
#include "arena/arena_reference.h"
#include "../../_oracles/oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* bias = a->tensors[2];
  double* C = a->tensors[3];
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const int64_t K = a->ints[2];
  oracle::gemm(a->tensors[0], a->tensors[1], C, M, N, K);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) C[i * N + j] += bias[j];
  return 0;
}
