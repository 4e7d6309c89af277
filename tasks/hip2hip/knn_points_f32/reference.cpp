// Host oracle: the K smallest squared distances from each query to the references of its batch,
// ascending, in double precision (selection, then a sort of the K selected).
#include <algorithm>
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* queries = a->tensors[0];
  const double* refs = a->tensors[1];
  double* dists = a->tensors[2];
  const int64_t B = a->ints[0], Q = a->ints[1], P = a->ints[2], K = a->ints[3];
  if (K > P) return 1;  // the spec requires K <= P
  std::vector<double> d(P);
  for (int64_t b = 0; b < B; ++b) {
    const double* r = refs + b * P * 3;
    for (int64_t i = 0; i < Q; ++i) {
      const double* q = queries + (b * Q + i) * 3;
      for (int64_t j = 0; j < P; ++j) {
        const double dx = q[0] - r[3 * j], dy = q[1] - r[3 * j + 1], dz = q[2] - r[3 * j + 2];
        d[j] = dx * dx + dy * dy + dz * dz;
      }
      std::nth_element(d.begin(), d.begin() + (K - 1), d.end());
      std::sort(d.begin(), d.begin() + K);
      std::copy(d.begin(), d.begin() + K, dists + (b * Q + i) * K);
    }
  }
  return 0;
}
