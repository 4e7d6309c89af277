// Host oracle: C = A * B in double precision (row-major), for gemm_f32, gemm_f16 and gemm_i8.
// For int8 inputs every partial sum is an integer below 2^31 in magnitude, exact in double.
#include "arena/arena_reference.h"
#include "oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  oracle::gemm(a->tensors[0], a->tensors[1], a->tensors[2], a->ints[0], a->ints[1], a->ints[2]);
  return 0;
}
