// Embedding lookup out[t, :] = table[ids[t], :] over fp16: one thread per output element,
// which finds its token and column by dividing its flat index by D and copies one 2-byte value.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

__global__ void gather_kernel(const __half* table, const int* ids, __half* out, int64_t total, int64_t d) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    const int64_t t = i / d;
    const int64_t c = i - t * d;
    out[i] = table[(int64_t)ids[t] * d + c];
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* table = static_cast<const __half*>(a->tensors[0]);
  const int* ids = static_cast<const int*>(a->tensors[1]);
  __half* out = static_cast<__half*>(a->tensors[2]);
  const int64_t T = a->ints[0], D = a->ints[1];
  const int64_t total = T * D;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(gather_kernel, dim3((unsigned)grid), dim3(block), 0, a->stream, table, ids, out, total, D);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
