// Host oracle: y = A * x in double precision (row-major A).
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* A = a->tensors[0];
  const double* x = a->tensors[1];
  double* y = a->tensors[2];
  const int64_t M = a->ints[0];
  const int64_t K = a->ints[1];
  for (int64_t i = 0; i < M; ++i) {
    const double* row = A + i * K;
    double s = 0.0;
    for (int64_t k = 0; k < K; ++k) s += row[k] * x[k];
    y[i] = s;
  }
  return 0;
}
