// Host oracle: liger's generalized JSD with its gradient. Per element, with P = exp(y),
// Q = exp(x), M = beta P + (1 - beta) Q:
//   0 < beta < 1: l = beta P (y - log M) + (1 - beta) Q (x - log M),  g = (1 - beta) Q (x - log M)
//   beta = 0 (forward KL):  l = P (y - x),  g = -P
//   beta = 1 (reverse KL):  l = Q (x - y),  g = l + Q
// loss[0] = sum(l) / BT, dx = g / BT. log M is formed as m + log(beta e^(y-m) + (1-beta) e^(x-m)),
// m = max(x, y), so no term underflows before the log; x = y gives exactly 0 (M = P = Q).
#include <algorithm>
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* x = a->tensors[0];
  const double* y = a->tensors[1];
  double* loss = a->tensors[2];
  double* dx = a->tensors[3];
  const int64_t BT = a->ints[0], V = a->ints[1];
  const double beta = a->floats[0];
  if (beta < 0.0 || beta > 1.0) return 1;
  double total = 0.0;
  for (int64_t i = 0; i < BT * V; ++i) {
    const double p = std::exp(y[i]), q = std::exp(x[i]);
    double l, g;
    if (beta == 0.0) {
      l = p * (y[i] - x[i]);
      g = -p;
    } else if (beta == 1.0) {
      l = q * (x[i] - y[i]);
      g = l + q;
    } else if (x[i] == y[i]) {  // M = P = Q: both terms vanish exactly
      l = 0.0;
      g = 0.0;
    } else {
      const double m = std::max(x[i], y[i]);
      const double log_ms = std::log(beta * std::exp(y[i] - m) + (1.0 - beta) * std::exp(x[i] - m));
      g = (1.0 - beta) * q * ((x[i] - m) - log_ms);
      l = beta * p * ((y[i] - m) - log_ms) + g;
    }
    total += l;
    dx[i] = g / static_cast<double>(BT);
  }
  loss[0] = total / static_cast<double>(BT);
  return 0;
}
