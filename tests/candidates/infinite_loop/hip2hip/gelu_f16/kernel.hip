// Broken on purpose: thread 0 never finishes (it keeps writing, so the loop has a side
// effect and cannot be optimised away). The gate must report a hang, not wait for CTest's
// timeout, and record the remaining configurations as not run.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void gelu_kernel(const __half* x, __half* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    volatile unsigned short* spin = reinterpret_cast<volatile unsigned short*>(y);
    for (;;) spin[0] = static_cast<unsigned short>(spin[0] + 1);
  }
  if (i < n) {
    float v = __half2float(x[i]);
    y[i] = __float2half(0.5f * v * (1.0f + erff(v * 0.70710678118654752f)));
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  int64_t n = a->ints[0];
  hipLaunchKernelGGL(gelu_kernel, dim3((unsigned)((n + 255) / 256)), dim3(256), 0, a->stream,
                     static_cast<const __half*>(a->tensors[0]), static_cast<__half*>(a->tensors[1]), n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
