// Host oracle: multi-scale retention (RetNet) forward in its recurrent form, double precision.
// Tensors q [B,T,H,K], k [B,T,H,K], v [B,T,H,V], o [B,T,H,V]; params B,T,H,K,V.
// Head h decays its K x V state by the fixed gamma_h = 1 - 2^(-5-h) at every step:
//   S_t = gamma_h S_{t-1} + k_t v_t^T,   o_t = K^-1/2 * q_t^T S_t,   S_{-1} = 0.
// No chunking, so it is the reference for the recurrent and the chunked forms alike.
#include <algorithm>
#include <cmath>
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* q = a->tensors[0];
  const double* k = a->tensors[1];
  const double* v = a->tensors[2];
  double* o = a->tensors[3];
  const int64_t B = a->ints[0], T = a->ints[1], H = a->ints[2], K = a->ints[3], V = a->ints[4];
  const double scale = 1.0 / std::sqrt(static_cast<double>(K));
  std::vector<double> S(K * V);
  for (int64_t h = 0; h < H; ++h) {
    const double gamma = 1.0 - std::ldexp(1.0, static_cast<int>(-5 - h));
    for (int64_t b = 0; b < B; ++b) {
      std::fill(S.begin(), S.end(), 0.0);
      for (int64_t t = 0; t < T; ++t) {
        const int64_t row = (b * T + t) * H + h;
        const double* qt = q + row * K;
        const double* kt = k + row * K;
        const double* vt = v + row * V;
        double* ot = o + row * V;
        for (int64_t j = 0; j < V; ++j) ot[j] = 0.0;
        for (int64_t i = 0; i < K; ++i) {
          double* s = S.data() + i * V;
          for (int64_t j = 0; j < V; ++j) {
            s[j] = gamma * s[j] + kt[i] * vt[j];
            ot[j] += qt[i] * s[j];
          }
        }
        for (int64_t j = 0; j < V; ++j) ot[j] *= scale;
      }
    }
  }
  return 0;
}
