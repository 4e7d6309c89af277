// Host oracle: C[b] = A[b] * B[b] in double precision for every batch b (row-major).
#include "arena/arena_reference.h"
#include "oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const int64_t Bt = a->ints[0];
  const int64_t M = a->ints[1];
  const int64_t N = a->ints[2];
  const int64_t K = a->ints[3];
  for (int64_t b = 0; b < Bt; ++b)
    oracle::gemm(a->tensors[0] + b * M * K, a->tensors[1] + b * K * N, a->tensors[2] + b * M * N, M, N, K);
  return 0;
}
