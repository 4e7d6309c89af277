// One AdamW step over all L layers in a single launch. The parameters are one flat buffer
// whose layout is known from (L, D): layer l holds [D*D weight | D bias | D norm weight |
// D norm bias], so whether an element is decayed is (i mod (D*D + 3D)) < D*D and no per-tensor
// launches are needed. A grid sized to the device walks the buffer in groups of 8 elements:
// 16-byte loads (two float4 of param, exp_avg and exp_avg_sq, one uint4 of 8 fp16 gradients),
// one modulo per group, 16-byte stores; the last N % 8 elements are scalar. The bias
// corrections and the decay factor are computed once on the host in double.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include "arena/arena_abi.h"

struct AdamArgs {
  int64_t n, per_layer, dd;  // elements, D*D + 3D, D*D
  float beta1, beta2, one_minus_beta1, one_minus_beta2, eps;
  float decay;               // 1 - lr * weight_decay
  float step_size;           // lr / (1 - beta1^step)
  float inv_bc2_sqrt;        // 1 / sqrt(1 - beta2^step)
};

__device__ __forceinline__ void adamw_one(float& p, float g, float& m, float& v, bool decayed, const AdamArgs& k) {
  const float mi = fmaf(k.beta1, m, k.one_minus_beta1 * g);
  const float vi = fmaf(k.beta2, v, k.one_minus_beta2 * (g * g));
  m = mi;
  v = vi;
  const float denom = fmaf(sqrtf(vi), k.inv_bc2_sqrt, k.eps);
  p = (decayed ? p * k.decay : p) - k.step_size * mi / denom;
}

__global__ void __launch_bounds__(256) adamw_flat(float* __restrict__ p, const __half* __restrict__ grad,
                                                 float* __restrict__ m, float* __restrict__ v, AdamArgs k) {
  const int64_t groups = k.n / 8;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  float4* p4 = reinterpret_cast<float4*>(p);
  float4* m4 = reinterpret_cast<float4*>(m);
  float4* v4 = reinterpret_cast<float4*>(v);
  const uint4* g8 = reinterpret_cast<const uint4*>(grad);
  for (int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; q < groups; q += stride) {
    const uint4 graw = g8[q];
    const float4 pa = p4[2 * q], pb = p4[2 * q + 1];
    const float4 ma = m4[2 * q], mb = m4[2 * q + 1];
    const float4 va = v4[2 * q], vb = v4[2 * q + 1];
    float pp[8] = {pa.x, pa.y, pa.z, pa.w, pb.x, pb.y, pb.z, pb.w};
    float mm[8] = {ma.x, ma.y, ma.z, ma.w, mb.x, mb.y, mb.z, mb.w};
    float vv[8] = {va.x, va.y, va.z, va.w, vb.x, vb.y, vb.z, vb.w};
    const __half2* gh = reinterpret_cast<const __half2*>(&graw);
    float gg[8];
#pragma unroll
    for (int h = 0; h < 4; ++h) {
      const float2 f = __half22float2(gh[h]);
      gg[2 * h] = f.x;
      gg[2 * h + 1] = f.y;
    }
    // Position of the group's first element inside its layer; the next 7 may wrap into the
    // following layer(s) (a layer has at least 4 elements, so at most twice).
    const int64_t r = (8 * q) % k.per_layer;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      int64_t rr = r + j;
      if (rr >= k.per_layer) rr -= k.per_layer;
      if (rr >= k.per_layer) rr -= k.per_layer;
      adamw_one(pp[j], gg[j], mm[j], vv[j], rr < k.dd, k);
    }
    p4[2 * q] = make_float4(pp[0], pp[1], pp[2], pp[3]);
    p4[2 * q + 1] = make_float4(pp[4], pp[5], pp[6], pp[7]);
    m4[2 * q] = make_float4(mm[0], mm[1], mm[2], mm[3]);
    m4[2 * q + 1] = make_float4(mm[4], mm[5], mm[6], mm[7]);
    v4[2 * q] = make_float4(vv[0], vv[1], vv[2], vv[3]);
    v4[2 * q + 1] = make_float4(vv[4], vv[5], vv[6], vv[7]);
  }
  // The last n % 8 elements: the first threads of block 0.
  if (blockIdx.x == 0) {
    const int64_t i = groups * 8 + threadIdx.x;
    if (i < k.n) {
      float pi = p[i], mi = m[i], vi = v[i];
      adamw_one(pi, __half2float(grad[i]), mi, vi, i % k.per_layer < k.dd, k);
      p[i] = pi;
      m[i] = mi;
      v[i] = vi;
    }
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  float* p = static_cast<float*>(a->tensors[0]);
  const __half* g = static_cast<const __half*>(a->tensors[1]);
  float* m = static_cast<float*>(a->tensors[2]);
  float* v = static_cast<float*>(a->tensors[3]);
  const int64_t L = a->ints[0], D = a->ints[1], step = a->ints[2];
  const float lr = (float)a->floats[0], beta1 = (float)a->floats[1], beta2 = (float)a->floats[2];
  const float eps = (float)a->floats[3], wd = (float)a->floats[4];

  AdamArgs k;
  k.per_layer = D * D + 3 * D;
  k.dd = D * D;
  k.n = L * k.per_layer;
  k.beta1 = beta1;
  k.beta2 = beta2;
  k.one_minus_beta1 = 1.0f - beta1;
  k.one_minus_beta2 = 1.0f - beta2;
  k.eps = eps;
  k.decay = (float)(1.0 - (double)lr * (double)wd);
  k.step_size = (float)((double)lr / (1.0 - pow((double)beta1, (double)step)));
  k.inv_bc2_sqrt = (float)(1.0 / sqrt(1.0 - pow((double)beta2, (double)step)));

  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  const int block = 256;
  int64_t grid = (k.n / 8 + block - 1) / block;
  const int64_t cap = (int64_t)sms * 8;
  if (grid > cap) grid = cap;
  if (grid < 1) grid = 1;
  hipLaunchKernelGGL(adamw_flat, dim3((unsigned)grid), dim3(block), 0, a->stream, p, g, m, v, k);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
