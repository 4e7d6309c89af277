// Host oracle: MoE router top-k softmax in double precision. Per token t: p = softmax(logits[t]);
// the K experts of largest p, largest first, equal logits to the lower expert id; weights p
// (or p / sum of the K chosen p when renormalize); token_expert_indices[t, k] = k * T + t.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>
#include "arena/arena_reference.h"
#include "../../_oracles/oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* logits = a->tensors[0];
  double* weights = a->tensors[1];
  double* ids = a->tensors[2];
  double* src = a->tensors[3];
  const int64_t T = a->ints[0], E = a->ints[1], K = a->ints[2];
  const bool renormalize = a->ints[3] != 0;
  if (K > E) return 1;
  std::vector<int64_t> order(E);
  for (int64_t t = 0; t < T; ++t) {
    const double* x = logits + t * E;
    const double mx = oracle::row_max(x, E);
    const double sum = oracle::sum_exp(x, E, mx);
    std::iota(order.begin(), order.end(), 0);
    // Softmax is monotone: the largest probabilities are the largest logits.
    std::partial_sort(order.begin(), order.begin() + K, order.end(), [x](int64_t i, int64_t j) {
      return x[i] > x[j] || (x[i] == x[j] && i < j);
    });
    double chosen = 0.0;
    for (int64_t k = 0; k < K; ++k) chosen += std::exp(x[order[k]] - mx);
    const double den = renormalize ? chosen : sum;
    for (int64_t k = 0; k < K; ++k) {
      weights[t * K + k] = std::exp(x[order[k]] - mx) / den;
      ids[t * K + k] = static_cast<double>(order[k]);
      src[t * K + k] = static_cast<double>(k * T + t);
    }
  }
  return 0;
}
