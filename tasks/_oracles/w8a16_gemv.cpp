// Host oracle: y[i] = scale[i] * sum_k W[i][k] * x[k] in double precision (row-major W).
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* W = a->tensors[0];
  const double* scale = a->tensors[1];
  const double* x = a->tensors[2];
  double* y = a->tensors[3];
  const int64_t M = a->ints[0];
  const int64_t K = a->ints[1];
  for (int64_t i = 0; i < M; ++i) {
    const double* row = W + i * K;
    double s = 0.0;
    for (int64_t k = 0; k < K; ++k) s += row[k] * x[k];
    y[i] = scale[i] * s;
  }
  return 0;
}
