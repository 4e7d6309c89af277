// Host oracle: y[j][i] = x[i][j] for an M x N row-major matrix (blocked for host cache
// locality; the result is the plain element copy).
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  double* y = a->tensors[1];
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const int64_t B = 32;
  for (int64_t ib = 0; ib < M; ib += B)
    for (int64_t jb = 0; jb < N; jb += B) {
      const int64_t ie = ib + B < M ? ib + B : M;
      const int64_t je = jb + B < N ? jb + B : N;
      for (int64_t i = ib; i < ie; ++i)
        for (int64_t j = jb; j < je; ++j) y[j * M + i] = x[i * N + j];
    }
  return 0;
}
