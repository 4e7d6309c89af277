// 256-bin histogram of a uint8 tensor, the textbook way: a first kernel zeroes the counts;
// then every block counts its grid-stride share of the bytes (one byte per thread per step)
// into one shared-memory histogram with shared atomics, and adds its 256 totals to the
// global counts with global atomics.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define BINS 256
#define MAX_BLOCKS 1024

__global__ void zero_counts(int* counts) { counts[threadIdx.x] = 0; }

__global__ void histogram_kernel(const uint8_t* x, int* counts, int64_t n) {
  __shared__ int local[BINS];
  local[threadIdx.x] = 0;  // BLOCK == BINS
  __syncthreads();
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&local[x[i]], 1);
  __syncthreads();
  if (local[threadIdx.x] != 0) atomicAdd(&counts[threadIdx.x], local[threadIdx.x]);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const uint8_t* x = static_cast<const uint8_t*>(a->tensors[0]);
  int* counts = static_cast<int*>(a->tensors[1]);
  const int64_t n = a->ints[0];
  hipLaunchKernelGGL(zero_counts, dim3(1), dim3(BINS), 0, a->stream, counts);
  int64_t grid = (n + BLOCK - 1) / BLOCK;
  if (grid > MAX_BLOCKS) grid = MAX_BLOCKS;
  hipLaunchKernelGGL(histogram_kernel, dim3((unsigned)grid), dim3(BLOCK), 0, a->stream, x, counts, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
