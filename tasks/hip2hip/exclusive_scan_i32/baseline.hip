// Exclusive prefix sum of an int32 vector, the classic scan-then-propagate: a block-scan
// kernel (one element per thread, Hillis-Steele steps in shared memory) writes each block's
// exclusive scan and its total; the same kernel scans the totals (in place, recursively
// until one block remains); an add kernel then adds each block's offset, level by level.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define BLOCK 256
#define MAX_LEVELS 8

__global__ void block_scan(const int* in, int* out, int* sums, int64_t n) {
  __shared__ int buf[2][BLOCK];
  const int tid = threadIdx.x;
  const int64_t i = (int64_t)blockIdx.x * BLOCK + tid;
  const int v = i < n ? in[i] : 0;
  buf[0][tid] = v;
  __syncthreads();
  int src = 0;
  for (int off = 1; off < BLOCK; off <<= 1) {
    int t = buf[src][tid];
    if (tid >= off) t += buf[src][tid - off];
    buf[1 - src][tid] = t;
    src = 1 - src;
    __syncthreads();
  }
  const int incl = buf[src][tid];
  if (i < n) out[i] = incl - v;
  if (tid == BLOCK - 1) sums[blockIdx.x] = incl;
}

__global__ void add_offsets(int* out, const int* offsets, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] += offsets[blockIdx.x];
}

static int64_t blocks_for(int64_t n) { return (n + BLOCK - 1) / BLOCK; }

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  int64_t n = a->ints[0], total = 0;
  do {
    n = blocks_for(n);
    total += n;
  } while (n > 1);
  return (size_t)total * sizeof(int);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int* x = static_cast<const int*>(a->tensors[0]);
  int* y = static_cast<int*>(a->tensors[1]);
  int* ws = static_cast<int*>(a->workspace);
  int* outs[MAX_LEVELS];
  int* sums[MAX_LEVELS];
  int64_t counts[MAX_LEVELS];
  const int* in = x;
  int* out = y;
  int64_t n = a->ints[0];
  int levels = 0;
  while (true) {
    const int64_t nb = blocks_for(n);
    if (levels == MAX_LEVELS) return 1;
    outs[levels] = out;
    sums[levels] = ws;
    counts[levels] = n;
    hipLaunchKernelGGL(block_scan, dim3((unsigned)nb), dim3(BLOCK), 0, a->stream, in, out, ws, n);
    ++levels;
    if (nb == 1) break;
    in = ws;  // scan the block totals in place
    out = ws;
    ws += nb;
    n = nb;
  }
  // Top-down: level L's totals, scanned by level L + 1 (and completed by its own add), are
  // the offsets of level L's blocks.
  for (int l = levels - 2; l >= 0; --l)
    hipLaunchKernelGGL(add_offsets, dim3((unsigned)blocks_for(counts[l])), dim3(BLOCK), 0, a->stream, outs[l],
                       sums[l], counts[l]);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
