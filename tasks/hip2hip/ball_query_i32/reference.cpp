// Host oracle: ball query with PointNet++ padding, exact integer arithmetic (the coordinates
// arrive as doubles holding integers).
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* points = a->tensors[0];
  const double* centers = a->tensors[1];
  double* idx = a->tensors[2];
  const int64_t B = a->ints[0], P = a->ints[1], Q = a->ints[2], K = a->ints[3], R2 = a->ints[4];
  for (int64_t b = 0; b < B; ++b) {
    const double* pts = points + b * P * 3;
    for (int64_t q = 0; q < Q; ++q) {
      const double* c = centers + (b * Q + q) * 3;
      const int64_t cx = static_cast<int64_t>(c[0]), cy = static_cast<int64_t>(c[1]), cz = static_cast<int64_t>(c[2]);
      double* out = idx + (b * Q + q) * K;
      int64_t cnt = 0;
      for (int64_t p = 0; p < P && cnt < K; ++p) {
        const int64_t dx = static_cast<int64_t>(pts[p * 3 + 0]) - cx;
        const int64_t dy = static_cast<int64_t>(pts[p * 3 + 1]) - cy;
        const int64_t dz = static_cast<int64_t>(pts[p * 3 + 2]) - cz;
        if (dx * dx + dy * dy + dz * dz <= R2) out[cnt++] = static_cast<double>(p);
      }
      const double pad = cnt > 0 ? out[0] : 0.0;
      for (int64_t l = cnt; l < K; ++l) out[l] = pad;
    }
  }
  return 0;
}
