// Rotary position embedding (NeoX half-split) over fp16: one thread per output element. Each
// thread recovers token and lane from its flat index, reads its token's position, the cos and
// sin of its pair, and both fp16 values of the pair with scalar loads, and stores one value.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <stdint.h>
#include "arena/arena_abi.h"

__global__ void rope_kernel(const __half* q, const int* positions, const float* cos_cache, const float* sin_cache,
                            __half* out, int64_t total, int64_t h, int64_t d) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int64_t half = d / 2;
  const int64_t t = i / (h * d);
  const int64_t j = i % d;             // position inside the head vector
  const int64_t head = i - j;          // start of the head vector
  const int64_t k = j < half ? j : j - half;
  const int64_t p = positions[t];
  const float c = cos_cache[p * half + k];
  const float s = sin_cache[p * half + k];
  const float lo = __half2float(q[head + k]);
  const float hi = __half2float(q[head + k + half]);
  const float o = j < half ? lo * c - hi * s : hi * c + lo * s;
  out[i] = __float2half(o);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* q = static_cast<const __half*>(a->tensors[0]);
  const int* positions = static_cast<const int*>(a->tensors[1]);
  const float* cos_cache = static_cast<const float*>(a->tensors[2]);
  const float* sin_cache = static_cast<const float*>(a->tensors[3]);
  __half* out = static_cast<__half*>(a->tensors[4]);
  const int64_t t = a->ints[0], h = a->ints[1], d = a->ints[2];
  const int64_t total = t * h * d;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(rope_kernel, dim3((unsigned)grid), dim3(block), 0, a->stream, q, positions, cos_cache,
                     sin_cache, out, total, h, d);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
