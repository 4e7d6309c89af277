// Host oracle: causal grouped-query attention forward in double precision.
// Tensors q [B, HQ, S, D], k and v [B, HKV, S, D], o [B, HQ, S, D]; params B, HQ, HKV, S, D.
// Query head h reads KV head h / (HQ / HKV); row i attends to keys 0..i:
// o[b,h,i] = softmax_j<=i(q_i . k_j / sqrt(D)) . v.
#include <cmath>
#include <vector>
#include "arena/arena_reference.h"
#include "../../_oracles/oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* q = a->tensors[0];
  const double* k = a->tensors[1];
  const double* v = a->tensors[2];
  double* o = a->tensors[3];
  const int64_t B = a->ints[0], HQ = a->ints[1], HKV = a->ints[2], S = a->ints[3], D = a->ints[4];
  if (HKV < 1 || HQ % HKV != 0) return 1;
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  std::vector<double> s(S);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t h = 0; h < HQ; ++h) {
      const double* kh = k + (b * HKV + h / (HQ / HKV)) * S * D;
      const double* vh = v + (b * HKV + h / (HQ / HKV)) * S * D;
      for (int64_t i = 0; i < S; ++i) {
        const double* qi = q + ((b * HQ + h) * S + i) * D;
        for (int64_t j = 0; j <= i; ++j) {
          double dot = 0.0;
          for (int64_t d = 0; d < D; ++d) dot += qi[d] * kh[j * D + d];
          s[j] = dot * scale;
        }
        const double mx = oracle::row_max(s.data(), i + 1);
        const double denom = oracle::sum_exp(s.data(), i + 1, mx);
        double* oi = o + ((b * HQ + h) * S + i) * D;
        for (int64_t d = 0; d < D; ++d) oi[d] = 0.0;
        for (int64_t j = 0; j <= i; ++j) {
          const double p = std::exp(s[j] - mx) / denom;
          for (int64_t d = 0; d < D; ++d) oi[d] += p * vh[j * D + d];
        }
      }
    }
  }
  return 0;
}
