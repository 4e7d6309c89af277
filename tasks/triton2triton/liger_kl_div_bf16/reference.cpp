// Host oracle: batchmean KL divergence, loss[0] = (1/BT) sum_{r,j} t (log(max(t, 1e-10)) - p)
// for y_pred p (log-probabilities) and y_true t (probabilities), both [BT, V].
#include <algorithm>
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* pred = a->tensors[0];
  const double* t = a->tensors[1];
  const int64_t BT = a->ints[0], V = a->ints[1];
  const double eps = 1e-10;  // the package wrapper's default
  double total = 0.0;
  for (int64_t i = 0; i < BT * V; ++i) total += t[i] * (std::log(std::max(t[i], eps)) - pred[i]);
  a->tensors[2][0] = total / static_cast<double>(BT);
  return 0;
}
