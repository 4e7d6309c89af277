// Host oracle: DeltaNet (delta-rule linear attention) forward with L2-normalized queries and
// keys, double precision. Tensors q [B,T,H,K], k [B,T,H,K], v [B,T,H,V], beta [B,T,H],
// o [B,T,H,V]; params B,T,H,K,V. Per sequence and head, with a K x V state S from zero:
//   q^ = q / sqrt(|q|^2 + 1e-6), k^ likewise,
//   u_t = v_t - S_{t-1}^T k^_t,   S_t = S_{t-1} + beta_t k^_t u_t^T,   o_t = K^-1/2 S_t^T q^_t.
#include <algorithm>
#include <cmath>
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* q = a->tensors[0];
  const double* k = a->tensors[1];
  const double* v = a->tensors[2];
  const double* beta = a->tensors[3];
  double* o = a->tensors[4];
  const int64_t B = a->ints[0], T = a->ints[1], H = a->ints[2], K = a->ints[3], V = a->ints[4];
  const double scale = 1.0 / std::sqrt(static_cast<double>(K));
  std::vector<double> S(K * V), qn(K), kn(K), u(V);
  auto normalize = [K](const double* x, std::vector<double>& y) {
    double ss = 0.0;
    for (int64_t i = 0; i < K; ++i) ss += x[i] * x[i];
    const double r = 1.0 / std::sqrt(ss + 1e-6);
    for (int64_t i = 0; i < K; ++i) y[i] = x[i] * r;
  };
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t h = 0; h < H; ++h) {
      std::fill(S.begin(), S.end(), 0.0);
      for (int64_t t = 0; t < T; ++t) {
        const int64_t row = (b * T + t) * H + h;
        normalize(q + row * K, qn);
        normalize(k + row * K, kn);
        const double* vt = v + row * V;
        for (int64_t j = 0; j < V; ++j) u[j] = vt[j];
        for (int64_t i = 0; i < K; ++i)
          for (int64_t j = 0; j < V; ++j) u[j] -= kn[i] * S[i * V + j];
        double* ot = o + row * V;
        for (int64_t j = 0; j < V; ++j) ot[j] = 0.0;
        for (int64_t i = 0; i < K; ++i) {
          double* s = S.data() + i * V;
          for (int64_t j = 0; j < V; ++j) {
            s[j] += beta[row] * kn[i] * u[j];
            ot[j] += qn[i] * s[j];
          }
        }
        for (int64_t j = 0; j < V; ++j) ot[j] *= scale;
      }
    }
  }
  return 0;
}
