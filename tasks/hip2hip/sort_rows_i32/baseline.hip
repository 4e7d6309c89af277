// Row sort of int32 keys: one block per row, the row padded with INT_MAX to a power of two in
// shared memory and sorted by the textbook bitonic network, one compare-exchange per thread
// and index per step, __syncthreads() between steps.
#include <hip/hip_runtime.h>
#include <limits.h>
#include "arena/arena_abi.h"

__global__ void bitonic_rows(const int* keys, int* out, int n, int np) {
  extern __shared__ int s[];
  const int tid = threadIdx.x;
  const int* kr = keys + (int64_t)blockIdx.x * n;
  int* orow = out + (int64_t)blockIdx.x * n;
  for (int i = tid; i < np; i += blockDim.x) s[i] = i < n ? kr[i] : INT_MAX;
  __syncthreads();
  for (int k = 2; k <= np; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = tid; i < np; i += blockDim.x) {
        const int ixj = i ^ j;
        if (ixj > i) {
          const int a = s[i], b = s[ixj];
          const bool up = (i & k) == 0;
          if ((a > b) == up) {
            s[i] = b;
            s[ixj] = a;
          }
        }
      }
      __syncthreads();
    }
  }
  for (int i = tid; i < n; i += blockDim.x) orow[i] = s[i];
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int* keys = static_cast<const int*>(a->tensors[0]);
  int* out = static_cast<int*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  int np = 1;
  while (np < n) np <<= 1;
  const int threads = np < 1024 ? (np < 64 ? 64 : np) : 1024;
  hipLaunchKernelGGL(bitonic_rows, dim3((unsigned)m), dim3(threads), np * sizeof(int), a->stream, keys, out, n, np);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
