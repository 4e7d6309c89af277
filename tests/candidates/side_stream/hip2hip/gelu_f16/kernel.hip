// Broken on purpose: does its work on a stream of its own, so events on the harness's
// stream would time nothing. The compile gate must reject it (streams are forbidden).
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void gelu_kernel(const __half* x, __half* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __half2float(x[i]);
    y[i] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678118654752f)));
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  static hipStream_t side = nullptr;
  if (!side && hipStreamCreateWithFlags(&side, hipStreamNonBlocking) != hipSuccess) return 1;
  int64_t n = a->ints[0];
  hipLaunchKernelGGL(gelu_kernel, dim3((unsigned)((n + 255) / 256)), dim3(256), 0, side,
                     static_cast<const __half*>(a->tensors[0]), static_cast<__half*>(a->tensors[1]), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
