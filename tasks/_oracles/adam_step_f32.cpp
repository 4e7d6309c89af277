// Host oracle: one AdamW step in double precision. The float params are fp32
// hyperparameters: they are rounded to fp32 first (the values any kernel works with), then
// everything, the bias corrections included, is computed in double.
#include <cmath>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  double* p = a->tensors[0];
  const double* g = a->tensors[1];
  double* m = a->tensors[2];
  double* v = a->tensors[3];
  const int64_t L = a->ints[0], D = a->ints[1], step = a->ints[2];
  const double lr = static_cast<float>(a->floats[0]);
  const double beta1 = static_cast<float>(a->floats[1]);
  const double beta2 = static_cast<float>(a->floats[2]);
  const double eps = static_cast<float>(a->floats[3]);
  const double wd = static_cast<float>(a->floats[4]);
  const double bc1 = 1.0 - std::pow(beta1, static_cast<double>(step));
  const double bc2 = 1.0 - std::pow(beta2, static_cast<double>(step));
  const double step_size = lr / bc1;
  const double bc2_sqrt = std::sqrt(bc2);
  const int64_t per_layer = D * D + 3 * D;
  for (int64_t l = 0; l < L; ++l) {
    for (int64_t k = 0; k < per_layer; ++k) {
      const int64_t i = l * per_layer + k;
      const double decay = k < D * D ? 1.0 - lr * wd : 1.0;  // weight matrix: decayed
      const double mi = beta1 * m[i] + (1.0 - beta1) * g[i];
      const double vi = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
      m[i] = mi;
      v[i] = vi;
      p[i] = p[i] * decay - step_size * mi / (std::sqrt(vi) / bc2_sqrt + eps);
    }
  }
  return 0;
}
