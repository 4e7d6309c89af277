// 2-D transpose of an M x N fp32 matrix through shared memory: each 256-thread block moves
// one 64 x 64 tile (16 elements per thread). Both the reads of x and the writes of y run
// along rows (coalesced); the tile is padded to 65 columns so that the column-wise
// shared-memory reads hit 32 different banks. Interior tiles skip the bounds checks; edge
// tiles (ragged M or N) check every element. The grid is 1-D over tiles, so any M and N fit.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define TILE 64
#define BX 64  // threads along a tile row
#define BY 4   // thread rows; each thread covers TILE / BY = 16 rows

__global__ __launch_bounds__(BX * BY) void transpose_tiled(const float* __restrict__ x,
                                                           float* __restrict__ y, int64_t M,
                                                           int64_t N, int64_t tiles_n) {
  __shared__ float tile[TILE][TILE + 1];
  const int64_t t = blockIdx.x;
  const int64_t i0 = (t / tiles_n) * TILE;  // first row of x in this tile
  const int64_t j0 = (t % tiles_n) * TILE;  // first column of x in this tile
  const int tx = threadIdx.x, ty = threadIdx.y;

  if (i0 + TILE <= M && j0 + TILE <= N) {
    const float* src = x + (i0 + ty) * N + j0 + tx;
#pragma unroll
    for (int r = 0; r < TILE; r += BY) tile[ty + r][tx] = src[(int64_t)r * N];
    __syncthreads();
    float* dst = y + (j0 + ty) * M + i0 + tx;
#pragma unroll
    for (int c = 0; c < TILE; c += BY) dst[(int64_t)c * M] = tile[tx][ty + c];
  } else {
#pragma unroll
    for (int r = 0; r < TILE; r += BY) {
      const int64_t i = i0 + ty + r, j = j0 + tx;
      if (i < M && j < N) tile[ty + r][tx] = x[i * N + j];
    }
    __syncthreads();
#pragma unroll
    for (int c = 0; c < TILE; c += BY) {
      const int64_t j = j0 + ty + c, i = i0 + tx;
      if (i < M && j < N) y[j * M + i] = tile[tx][ty + c];
    }
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const int64_t tiles_m = (M + TILE - 1) / TILE;
  const int64_t tiles_n = (N + TILE - 1) / TILE;
  const int64_t tiles = tiles_m * tiles_n;
  if (tiles > 0x7fffffff) return 1;
  hipLaunchKernelGGL(transpose_tiled, dim3((unsigned)tiles), dim3(BX, BY), 0, a->stream, x, y, M,
                     N, tiles_n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
