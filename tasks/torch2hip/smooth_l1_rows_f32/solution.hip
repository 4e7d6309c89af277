// Row means of the smooth L1 loss in one read of pred and target. Eager PyTorch writes the
// full batch_size x dim loss matrix and reads it back for the mean; here each thread sums its
// share of a row (four independent accumulators, 16-byte loads when every row is 16-byte
// aligned), the partial sums meet by shuffles (and shared memory for block rows), and one
// float per row is written.
//  - rows of up to 2048 values: one warp per row, several rows per block;
//  - longer rows: one block per row (256 to 1024 threads by row length).
// The per-element formula is eager's: z = |p - t|, z < beta ? 0.5 * z * z / beta : z - 0.5 * beta.
// Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define WARP_BLOCK 256
#define MAX_WARPS 32  // 1024 threads / 32 lanes
#define WARP_ROW_MAX 2048

__device__ __forceinline__ float sl1(float p, float t, float beta, float half_beta) {
  const float z = fabsf(p - t);
  return z < beta ? 0.5f * z * z / beta : z - half_beta;
}

template <int VEC>
__device__ __forceinline__ float sl1_vec(const float* p, const float* t, int64_t k, float beta, float half_beta) {
  if constexpr (VEC == 4) {
    const float4 a = reinterpret_cast<const float4*>(p)[k];
    const float4 b = reinterpret_cast<const float4*>(t)[k];
    return (sl1(a.x, b.x, beta, half_beta) + sl1(a.y, b.y, beta, half_beta)) +
           (sl1(a.z, b.z, beta, half_beta) + sl1(a.w, b.w, beta, half_beta));
  } else {
    return sl1(p[k], t[k], beta, half_beta);
  }
}

// Sum over the vectors first, first + step, ... < nv of one row (vectors of VEC floats).
template <int VEC>
__device__ __forceinline__ float row_partial(const float* __restrict__ p, const float* __restrict__ t, int nv,
                                             int first, int step, float beta, float half_beta) {
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int k = first;
  for (; k + 3 * step < nv; k += 4 * step) {
#pragma unroll
    for (int u = 0; u < 4; ++u) acc[u] += sl1_vec<VEC>(p, t, k + u * step, beta, half_beta);
  }
  for (; k < nv; k += step) acc[0] += sl1_vec<VEC>(p, t, k, beta, half_beta);  // at most three left
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
  return v;
}

// One warp per row.
template <int VEC>
__global__ void __launch_bounds__(WARP_BLOCK) sl1_rows_warp(const float* __restrict__ pred,
                                                            const float* __restrict__ target,
                                                            float* __restrict__ loss, int64_t rows, int n,
                                                            float beta, float half_beta) {
  const int ws = warpSize;
  const int lane = threadIdx.x % ws;
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / ws) + threadIdx.x / ws;
  if (row >= rows) return;  // the whole warp leaves together
  float s = row_partial<VEC>(pred + row * n, target + row * n, n / VEC, lane, ws, beta, half_beta);
  s = warp_sum(s);
  if (lane == 0) loss[row] = s / (float)n;
}

// One block per row.
template <int VEC>
__global__ void __launch_bounds__(1024) sl1_rows_block(const float* __restrict__ pred,
                                                       const float* __restrict__ target,
                                                       float* __restrict__ loss, int n, float beta,
                                                       float half_beta) {
  __shared__ float red[MAX_WARPS];
  const int64_t row = blockIdx.x;
  float s = row_partial<VEC>(pred + row * n, target + row * n, n / VEC, threadIdx.x, blockDim.x, beta, half_beta);
  s = warp_sum(s);
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize, nwarps = blockDim.x / warpSize;
  if (lane == 0) red[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float r = red[0];
    for (int w = 1; w < nwarps; ++w) r += red[w];
    loss[row] = r / (float)n;
  }
}

template <int VEC>
static void launch(const float* pred, const float* target, float* loss, int64_t rows, int n, float beta, int ws,
                   hipStream_t stream) {
  const float half_beta = 0.5f * beta;
  if (n <= WARP_ROW_MAX) {
    const int per_block = WARP_BLOCK / ws;
    const int64_t grid = (rows + per_block - 1) / per_block;
    hipLaunchKernelGGL(sl1_rows_warp<VEC>, dim3((unsigned)grid), dim3(WARP_BLOCK), 0, stream, pred, target, loss,
                       rows, n, beta, half_beta);
  } else {
    const int threads = n >= 65536 ? 1024 : (n >= 16384 ? 512 : 256);
    hipLaunchKernelGGL(sl1_rows_block<VEC>, dim3((unsigned)rows), dim3(threads), 0, stream, pred, target, loss, n,
                       beta, half_beta);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* pred = static_cast<const float*>(a->tensors[0]);
  const float* target = static_cast<const float*>(a->tensors[1]);
  float* loss = static_cast<float*>(a->tensors[2]);
  const int64_t rows = a->ints[0];
  const int n = (int)a->ints[1];
  const float beta = (float)a->floats[0];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  // 16-byte loads need every row of both inputs on a 16-byte boundary.
  const bool vec4 = n % 4 == 0 && ((uintptr_t)pred & 15) == 0 && ((uintptr_t)target & 15) == 0;
  if (vec4) launch<4>(pred, target, loss, rows, n, beta, ws, a->stream);
  else launch<1>(pred, target, loss, rows, n, beta, ws, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
