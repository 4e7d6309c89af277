// One AdamW step over the parameters of an L-layer model, the way a per-parameter optimizer
// loop does it: for every layer, one launch per parameter tensor (the D x D weight with weight
// decay, then bias, norm weight and norm bias without), one thread per element with scalar
// loads. The bias corrections are computed once on the host in double.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include "arena/arena_abi.h"

__global__ void adamw_tensor(float* p, const __half* grad, float* m, float* v, int64_t n, float lr, float beta1,
                             float beta2, float eps, float wd, float step_size, float bc2_sqrt) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float g = __half2float(grad[i]);
  const float pi = p[i] * (1.0f - lr * wd);
  const float mi = beta1 * m[i] + (1.0f - beta1) * g;
  const float vi = beta2 * v[i] + (1.0f - beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  const float denom = sqrtf(vi) / bc2_sqrt + eps;
  p[i] = pi - step_size * mi / denom;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  float* p = static_cast<float*>(a->tensors[0]);
  const __half* g = static_cast<const __half*>(a->tensors[1]);
  float* m = static_cast<float*>(a->tensors[2]);
  float* v = static_cast<float*>(a->tensors[3]);
  const int64_t L = a->ints[0], D = a->ints[1], step = a->ints[2];
  const float lr = (float)a->floats[0], beta1 = (float)a->floats[1], beta2 = (float)a->floats[2];
  const float eps = (float)a->floats[3], wd = (float)a->floats[4];
  const double bc1 = 1.0 - pow((double)beta1, (double)step);
  const double bc2 = 1.0 - pow((double)beta2, (double)step);
  const float step_size = (float)(lr / bc1);
  const float bc2_sqrt = (float)sqrt(bc2);

  const int64_t sizes[4] = {D * D, D, D, D};  // weight, bias, norm weight, norm bias
  int64_t off = 0;
  const int block = 256;
  for (int64_t l = 0; l < L; ++l) {
    for (int t = 0; t < 4; ++t) {
      const int64_t n = sizes[t];
      const float decay = t == 0 ? wd : 0.0f;
      const int64_t grid = (n + block - 1) / block;
      hipLaunchKernelGGL(adamw_tensor, dim3((unsigned)grid), dim3(block), 0, a->stream, p + off, g + off, m + off,
                         v + off, n, lr, beta1, beta2, eps, decay, step_size, bc2_sqrt);
      if (hipGetLastError() != hipSuccess) return 1;
      off += n;
    }
  }
  return 0;
}
