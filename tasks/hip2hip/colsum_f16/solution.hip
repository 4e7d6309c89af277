// Column sums of an M x N fp16 matrix with every multiprocessor streaming x at full width:
//  - a 2-D grid of column tiles x row chunks, sized to about eight 256-thread blocks per
//    multiprocessor whatever the shape (tall, square or wide);
//  - in a block, TX threads span a tile of TX * VEC columns and TY = 256 / TX threads walk down
//    the chunk's rows, each reading VEC halves per row with one load: 16-byte (8 halves) when
//    N % 8 == 0, half2 when N is even, a half otherwise (every row is then aligned for it);
//    four rows' loads are in flight per thread per step, accumulated in fp32 registers;
//  - the TY partial sums of each column meet in shared memory, and one atomicAdd per column
//    and block adds the block's sum to y, which a tiny first kernel zeroes.
// Uses no warp-level operations, so the warp width does not matter.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define THREADS 256

__global__ void zero_kernel(float* __restrict__ y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.0f;
}

template <int VEC>
__device__ __forceinline__ void load_add(const __half* p, float* acc) {
  if constexpr (VEC == 8) {
    const uint4 raw = *reinterpret_cast<const uint4*>(p);
    const __half2* h = reinterpret_cast<const __half2*>(&raw);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const float2 f = __half22float2(h[k]);
      acc[2 * k] += f.x;
      acc[2 * k + 1] += f.y;
    }
  } else if constexpr (VEC == 2) {
    const float2 f = __half22float2(*reinterpret_cast<const __half2*>(p));
    acc[0] += f.x;
    acc[1] += f.y;
  } else {
    acc[0] += __half2float(*p);
  }
}

// Block (tile, chunk): columns [tile * tx * VEC, +tx * VEC), rows [chunk * rows, +rows).
template <int VEC>
__global__ void __launch_bounds__(THREADS) colsum_tiles(const __half* __restrict__ x, float* __restrict__ y,
                                                        int64_t m, int n, int tx, int64_t rows) {
  __shared__ float red[THREADS * VEC];
  const int t = threadIdx.x;
  const int cx = t % tx, ry = t / tx, ty = blockDim.x / tx;
  const int tile_cols = tx * VEC;
  const int64_t col0 = (int64_t)blockIdx.x * tile_cols;
  const int64_t c = col0 + (int64_t)cx * VEC;  // first of this thread's VEC columns (VEC divides n)
  const int64_t rbeg = (int64_t)blockIdx.y * rows;
  const int64_t rend = rbeg + rows < m ? rbeg + rows : m;

  float acc[VEC];
#pragma unroll
  for (int e = 0; e < VEC; ++e) acc[e] = 0.0f;
  if (c < n) {
    const int64_t step = (int64_t)ty * n;
    int64_t r = rbeg + ry;
    const __half* p = x + r * n + c;
    for (; r + 3 * ty < rend; r += 4 * ty, p += 4 * step) {
      float part[4][VEC];
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int e = 0; e < VEC; ++e) part[u][e] = 0.0f;
#pragma unroll
      for (int u = 0; u < 4; ++u) load_add<VEC>(p + u * step, part[u]);
#pragma unroll
      for (int e = 0; e < VEC; ++e) acc[e] += (part[0][e] + part[1][e]) + (part[2][e] + part[3][e]);
    }
    for (; r < rend; r += ty, p += step) load_add<VEC>(p, acc);
  }
#pragma unroll
  for (int e = 0; e < VEC; ++e) red[t * VEC + e] = acc[e];  // = red[ry][cx * VEC + e]
  __syncthreads();
  if (t < tile_cols && col0 + t < n) {
    float s = 0.0f;
    for (int k = 0; k < ty; ++k) s += red[k * tile_cols + t];
    atomicAdd(&y[col0 + t], s);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* x = static_cast<const __half*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int n = (int)a->ints[1];
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;

  const int vec = n % 8 == 0 ? 8 : (n % 2 == 0 ? 2 : 1);
  const int64_t nv = n / vec;  // vectors per row
  int tx = 1;
  while (tx < 32 && tx < nv) tx <<= 1;
  const int ty = THREADS / tx;
  const int64_t tiles = (nv + tx - 1) / tx;
  // Row chunks: enough blocks for about 8 per multiprocessor, at most 65535 (grid.y), at least
  // ty rows each.
  const int64_t target = (int64_t)sms * 8;
  int64_t chunks = (target + tiles - 1) / tiles;
  const int64_t max_chunks = (m + ty - 1) / ty;
  if (chunks > max_chunks) chunks = max_chunks;
  if (chunks > 65535) chunks = 65535;
  if (chunks < 1) chunks = 1;
  const int64_t rows = (m + chunks - 1) / chunks;
  chunks = (m + rows - 1) / rows;

  hipLaunchKernelGGL(zero_kernel, dim3((unsigned)((n + THREADS - 1) / THREADS)), dim3(THREADS), 0, a->stream, y, n);
  const dim3 grid((unsigned)tiles, (unsigned)chunks);
  if (vec == 8)
    hipLaunchKernelGGL(colsum_tiles<8>, grid, dim3(THREADS), 0, a->stream, x, y, m, n, tx, rows);
  else if (vec == 2)
    hipLaunchKernelGGL(colsum_tiles<2>, grid, dim3(THREADS), 0, a->stream, x, y, m, n, tx, rows);
  else
    hipLaunchKernelGGL(colsum_tiles<1>, grid, dim3(THREADS), 0, a->stream, x, y, m, n, tx, rows);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
