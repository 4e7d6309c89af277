// Host oracle: batchmean total variation distance and its gradient for p, q [BT, V]:
// loss[0] = (1/BT) sum 0.5 |p - q|, grads = 0.5/BT * sign(p - q) (0 where p == q).
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* p = a->tensors[0];
  const double* q = a->tensors[1];
  double* grads = a->tensors[3];
  const int64_t BT = a->ints[0], V = a->ints[1];
  const double half_scale = 0.5 / static_cast<double>(BT);
  double total = 0.0;
  for (int64_t i = 0; i < BT * V; ++i) {
    total += std::fabs(p[i] - q[i]);
    grads[i] = p[i] > q[i] ? half_scale : (p[i] < q[i] ? -half_scale : 0.0);
  }
  a->tensors[2][0] = total * half_scale;
  return 0;
}
