// Sum of N fp32 values: one element per thread, a shared-memory tree per block that writes
// one partial sum per block, and the same kernel again over the partials (kept in the
// workspace) until a single value remains, written to y.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define BLOCK 256

__global__ void block_sum_kernel(const float* in, float* out, int64_t n) {
  __shared__ float red[BLOCK];
  const int tid = threadIdx.x;
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + tid;
  red[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = red[0];
}

static int64_t blocks_for(int64_t n) { return (n + BLOCK - 1) / BLOCK; }

// Two partial-sum buffers: level 1 (one value per block of x) and level 2.
ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t b1 = blocks_for(a->ints[0]);
  return (size_t)(b1 + blocks_for(b1)) * sizeof(float);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t n = a->ints[0];
  float* buf[2] = {static_cast<float*>(a->workspace), static_cast<float*>(a->workspace) + blocks_for(n)};

  const float* in = x;
  int64_t count = n;
  int level = 0;
  do {
    const int64_t blocks = blocks_for(count);
    float* out = blocks == 1 ? y : buf[level % 2];
    hipLaunchKernelGGL(block_sum_kernel, dim3((unsigned)blocks), dim3(BLOCK), 0, a->stream, in, out, count);
    if (hipGetLastError() != hipSuccess) return 1;
    in = out;
    count = blocks;
    ++level;
  } while (count > 1);
  return 0;
}
