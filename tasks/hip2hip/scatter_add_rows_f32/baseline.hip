// Row scatter-add out[idx[t], :] += src[t, :] over fp32: a kernel zeroes out (one thread per
// element), then one thread per element of src finds its row and column by dividing its flat
// index by D and adds its value into out with a global atomicAdd.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

__global__ void zero_kernel(float* out, int64_t total) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) out[i] = 0.0f;
}

__global__ void scatter_add_kernel(const float* src, const int* idx, float* out, int64_t total, int64_t d) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    const int64_t t = i / d;
    const int64_t c = i - t * d;
    atomicAdd(&out[(int64_t)idx[t] * d + c], src[i]);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* src = static_cast<const float*>(a->tensors[0]);
  const int* idx = static_cast<const int*>(a->tensors[1]);
  float* out = static_cast<float*>(a->tensors[2]);
  const int64_t T = a->ints[0], D = a->ints[1], V = a->ints[2];
  const int block = 256;
  const int64_t out_total = V * D, src_total = T * D;
  hipLaunchKernelGGL(zero_kernel, dim3((unsigned)((out_total + block - 1) / block)), dim3(block), 0, a->stream, out,
                     out_total);
  hipLaunchKernelGGL(scatter_add_kernel, dim3((unsigned)((src_total + block - 1) / block)), dim3(block), 0, a->stream,
                     src, idx, out, src_total, D);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
