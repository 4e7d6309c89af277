// Host oracle: y[m] = sum_k A[m][k] * x[k] in double precision (A [M, K] row-major).
#include "arena/arena_reference.h"
#include "../../_oracles/oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  oracle::gemm(a->tensors[0], a->tensors[1], a->tensors[2], a->ints[0], 1, a->ints[1]);
  return 0;
}
