// Host oracle: causal gated linear attention in its recurrent form, double precision.
// Tensors q [B,T,H,K], k [B,T,H,K], v [B,T,H,V], g (log gates), o [B,T,H,V]; params B,T,H,K,V.
// Per sequence b and head h, with a K x V state S starting at zero:
//   S_t = diag(exp(g_t)) S_{t-1} + k_t v_t^T,   o_t = K^-1/2 * q_t^T S_t.
// g is either one gate per head ([B,T,H], simple GLA / scalar decay) or one per key channel
// ([B,T,H,K], GLA); the element count says which. Every step is exact up to double rounding,
// with no chunking, so it is the reference for both the recurrent and the chunked kernels.
#include <algorithm>
#include <cmath>
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* q = a->tensors[0];
  const double* k = a->tensors[1];
  const double* v = a->tensors[2];
  const double* g = a->tensors[3];
  double* o = a->tensors[4];
  const int64_t B = a->ints[0], T = a->ints[1], H = a->ints[2], K = a->ints[3], V = a->ints[4];
  const bool per_key = a->numel[3] == B * T * H * K;
  if (!per_key && a->numel[3] != B * T * H) return 1;
  const double scale = 1.0 / std::sqrt(static_cast<double>(K));
  std::vector<double> S(K * V), decay(K);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t h = 0; h < H; ++h) {
      std::fill(S.begin(), S.end(), 0.0);
      for (int64_t t = 0; t < T; ++t) {
        const int64_t row = (b * T + t) * H + h;
        for (int64_t i = 0; i < K; ++i) decay[i] = std::exp(per_key ? g[row * K + i] : g[row]);
        const double* qt = q + row * K;
        const double* kt = k + row * K;
        const double* vt = v + row * V;
        double* ot = o + row * V;
        for (int64_t j = 0; j < V; ++j) ot[j] = 0.0;
        for (int64_t i = 0; i < K; ++i) {
          double* s = S.data() + i * V;
          for (int64_t j = 0; j < V; ++j) {
            s[j] = decay[i] * s[j] + kt[i] * vt[j];
            ot[j] += qt[i] * s[j];
          }
        }
        for (int64_t j = 0; j < V; ++j) ot[j] *= scale;
      }
    }
  }
  return 0;
}
