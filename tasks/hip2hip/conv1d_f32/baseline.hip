// 1D convolution with bias, 'same' zero padding, stride 1 (fp32): one thread per output
// y[b][co][l], reading its Cin x KW input window and weights straight from global memory.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

__global__ void conv1d_direct(const float* x, const float* w, const float* bias, float* y, int64_t total, int Cin,
                              int Cout, int L, int KW) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int l = (int)(i % L);
  const int64_t t = i / L;
  const int co = (int)(t % Cout);
  const int64_t b = t / Cout;
  const int P = KW / 2;
  const float* xb = x + b * Cin * L;
  const float* wc = w + (int64_t)co * Cin * KW;
  float acc = bias[co];
  for (int ci = 0; ci < Cin; ++ci) {
    for (int k = 0; k < KW; ++k) {
      const int s = l + k - P;
      if (s >= 0 && s < L) acc += wc[ci * KW + k] * xb[(int64_t)ci * L + s];
    }
  }
  y[i] = acc;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* bias = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t B = a->ints[0];
  const int Cin = (int)a->ints[1], Cout = (int)a->ints[2], L = (int)a->ints[3], KW = (int)a->ints[4];
  const int64_t total = B * Cout * L;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(conv1d_direct, dim3((unsigned)grid), dim3(block), 0, a->stream, x, w, bias, y, total, Cin, Cout,
                     L, KW);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
