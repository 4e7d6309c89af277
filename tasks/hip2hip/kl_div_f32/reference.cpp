// Host oracle: per-row KL(softmax(p) || softmax(q)) from log-softmax values, in double precision.
#include <cmath>
#include "arena/arena_reference.h"

static double logsumexp(const double* v, int64_t n) {
  double mx = v[0];
  for (int64_t j = 1; j < n; ++j) mx = std::fmax(mx, v[j]);
  double s = 0.0;
  for (int64_t j = 0; j < n; ++j) s += std::exp(v[j] - mx);
  return mx + std::log(s);
}

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* p = a->tensors[0];
  const double* q = a->tensors[1];
  double* kl = a->tensors[2];
  const int64_t m = a->ints[0], n = a->ints[1];
  for (int64_t r = 0; r < m; ++r) {
    const double* pr = p + r * n;
    const double* qr = q + r * n;
    const double lp = logsumexp(pr, n), lq = logsumexp(qr, n);
    double s = 0.0;
    for (int64_t j = 0; j < n; ++j) {
      const double logp = pr[j] - lp, logq = qr[j] - lq;
      s += std::exp(logp) * (logp - logq);
    }
    kl[r] = s;
  }
  return 0;
}
