// Global average pooling over fp16 [B, C, HW] with coalesced 16-byte loads; the rows are one
// contiguous stream of R = B*C rows of HW halves.
//  - HW <= 512: a block stages RB = 256/G consecutive rows (RB*HW <= 4096 halves, and RB is a
//    multiple of 8, so the chunk starts 16-byte aligned) into shared memory with uint4 loads,
//    then G lanes (a power of two, about HW/16) sum each row and combine with xor shuffles.
//  - longer rows: a warp per row (a block per row when there are too few rows to fill the GPU);
//    a row's unaligned head and tail (HW % 8 != 0) are read as scalars, the aligned middle as
//    uint4 with four loads in flight per lane.
// fp32 sums, one fp16 rounding of sum / HW. Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define SMEM_HALVES 4096  // RB * HW <= (256 / G) * 16 * G
#define MAX_WARPS 32

__device__ __forceinline__ float sum8(uint4 v) {
  const __half2* h = reinterpret_cast<const __half2*>(&v);
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const float2 f = __half22float2(h[k]);
    s += f.x + f.y;
  }
  return s;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

// Short rows: block = RB rows staged in shared memory, G lanes per row.
__global__ void __launch_bounds__(THREADS) pool_short_rows(const __half* __restrict__ x, __half* __restrict__ y,
                                                          int64_t rows, int hw, int g) {
  __shared__ uint4 s4[SMEM_HALVES / 8];
  __half* sh = reinterpret_cast<__half*>(s4);
  const int tid = threadIdx.x;
  const int rb = THREADS / g;
  const int64_t r0 = (int64_t)blockIdx.x * rb;
  const int nr = (int)(rows - r0 < rb ? rows - r0 : rb);
  const int n = nr * hw;            // halves in this block's chunk
  const int64_t e0 = r0 * hw;       // multiple of 8: r0 is a multiple of rb, itself a multiple of 8
  const int nv = n / 8;
  const uint4* x4 = reinterpret_cast<const uint4*>(x + e0);
  for (int i = tid; i < nv; i += THREADS) s4[i] = x4[i];
  for (int i = nv * 8 + tid; i < n; i += THREADS) sh[i] = x[e0 + i];  // only the last block
  __syncthreads();

  const int lr = tid / g, lane = tid % g;
  float s = 0.0f;
  if (lr < nr) {
    const __half* row = sh + lr * hw;
    for (int j = lane; j < hw; j += g) s += __half2float(row[j]);
  }
  for (int o = g / 2; o > 0; o >>= 1) s += __shfl_xor(s, o);  // every lane takes part
  if (lane == 0 && lr < nr) y[r0 + lr] = __float2half(s / (float)hw);
}

// Long rows: a group of S threads (a warp, or the whole block) sums one row.
__device__ __forceinline__ float row_partial(const __half* __restrict__ x, int64_t row, int hw, int t, int S) {
  const int64_t base = row * hw;
  int head = (int)((8 - (base & 7)) & 7);
  if (head > hw) head = hw;
  const int nv = (hw - head) / 8;
  const int tail = hw - head - nv * 8;
  const uint4* v = reinterpret_cast<const uint4*>(x + base + head);  // 16-byte aligned
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  int i = t;
  for (; i + 3 * S < nv; i += 4 * S) {
    const uint4 a = v[i], b = v[i + S], c = v[i + 2 * S], d = v[i + 3 * S];
    s0 += sum8(a);
    s1 += sum8(b);
    s2 += sum8(c);
    s3 += sum8(d);
  }
  for (; i < nv; i += S) s0 += sum8(v[i]);
  float s = (s0 + s1) + (s2 + s3);
  if (t < head) s += __half2float(x[base + t]);
  if (t < tail) s += __half2float(x[base + head + (int64_t)nv * 8 + t]);
  return s;
}

__global__ void __launch_bounds__(THREADS) pool_rows_warp(const __half* __restrict__ x, __half* __restrict__ y,
                                                         int64_t rows, int hw) {
  const int lane = threadIdx.x % warpSize;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;  // the whole warp leaves together
  float s = warp_sum(row_partial(x, row, hw, lane, warpSize));
  if (lane == 0) y[row] = __float2half(s / (float)hw);
}

__global__ void __launch_bounds__(THREADS) pool_rows_block(const __half* __restrict__ x, __half* __restrict__ y,
                                                          int hw) {
  __shared__ float red[MAX_WARPS];
  const int64_t row = blockIdx.x;
  float s = warp_sum(row_partial(x, row, hw, threadIdx.x, blockDim.x));
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) red[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float r = red[0];
    for (int w = 1; w < (int)(blockDim.x / warpSize); ++w) r += red[w];
    y[row] = __float2half(r / (float)hw);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* x = static_cast<const __half*>(a->tensors[0]);
  __half* y = static_cast<__half*>(a->tensors[1]);
  const int64_t rows = a->ints[0] * a->ints[1];
  const int hw = (int)a->ints[2];
  int dev = 0, sms = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;

  if (hw <= 512) {
    int g = 1;
    while (g < 32 && g * 16 < hw) g <<= 1;  // G >= HW / 16, so RB * HW <= 4096
    const int rb = THREADS / g;
    const int64_t grid = (rows + rb - 1) / rb;
    hipLaunchKernelGGL(pool_short_rows, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, x, y, rows, hw, g);
  } else if (rows >= (int64_t)sms * 32) {
    const int per_block = THREADS / ws;
    const int64_t grid = (rows + per_block - 1) / per_block;
    hipLaunchKernelGGL(pool_rows_warp, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, x, y, rows, hw);
  } else {
    hipLaunchKernelGGL(pool_rows_block, dim3((unsigned)rows), dim3(THREADS), 0, a->stream, x, y, hw);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
