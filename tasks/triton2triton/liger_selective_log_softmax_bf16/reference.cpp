// Host oracle: selective log-softmax. For b < B, l < L, with z = logits[b, l, :] / temperature
// (logits [B, L + 1, N]) and the next token id = input_ids[b, l + 1] (input_ids [B, L + 1]):
// log_p[b, l] = z[id] - logsumexp(z).
#include <cmath>
#include <vector>
#include "arena/arena_reference.h"
#include "../../_oracles/oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* logits = a->tensors[0];
  const double* ids = a->tensors[1];
  double* log_p = a->tensors[2];
  const int64_t B = a->ints[0], L = a->ints[1], N = a->ints[2];
  const double temperature = a->floats[0];
  if (!(temperature > 0.0)) return 1;
  std::vector<double> z(static_cast<size_t>(N));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t l = 0; l < L; ++l) {
      const double* row = logits + (b * (L + 1) + l) * N;
      for (int64_t j = 0; j < N; ++j) z[j] = row[j] / temperature;
      const double mx = oracle::row_max(z.data(), N);
      const double lse = mx + std::log(oracle::sum_exp(z.data(), N, mx));
      const int64_t id = static_cast<int64_t>(ids[b * (L + 1) + l + 1]);
      if (id < 0 || id >= N) return 1;
      log_p[b * L + l] = z[id] - lse;
    }
  return 0;
}
