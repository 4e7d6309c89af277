// y = tanh(x @ w + b) for a tall, narrow fp32 matrix: one pass over x with the bias and tanh
// applied to the dot products in registers (eager runs a GEMV that is poor on short rows,
// then two more kernels over y).
//
// Short rows (K < 2048): a row is handled by a group of G lanes, G the smallest power of two
// (at most 32, so a group never straddles a warp of either width) that covers the row in one
// step of 16-byte vectors (K % 4 == 0; rows then start 16-byte aligned) or of scalars. The
// groups of a warp take consecutive rows, so a warp reads one contiguous stretch of x, e.g.
// 8 rows of 16 values in one 512-byte load; longer rows loop in steps of G vectors. The
// partial sums are combined with xor shuffles inside the group and lane 0 writes tanh(s + b).
// Long rows (K >= 2048): one 256-thread block per row (grid-stride), a strided vector loop,
// then a warp and a block reduction.
#include <hip/hip_runtime.h>
#include <math.h>
#include "arena/arena_abi.h"

#define NT 256
#define LONG_ROW 2048

template <bool VEC>
__device__ __forceinline__ float row_dot(const float* __restrict__ xr, const float* __restrict__ w, int K, int first,
                                         int step) {
  float s = 0.0f;
  if (VEC) {
    for (int k = first * 4; k < K; k += step * 4) {
      const float4 xv = *reinterpret_cast<const float4*>(xr + k);
      const float4 wv = *reinterpret_cast<const float4*>(w + k);
      s = fmaf(xv.x, wv.x, s);
      s = fmaf(xv.y, wv.y, s);
      s = fmaf(xv.z, wv.z, s);
      s = fmaf(xv.w, wv.w, s);
    }
  } else {
    for (int k = first; k < K; k += step) s = fmaf(xr[k], w[k], s);
  }
  return s;
}

template <bool VEC>
__global__ __launch_bounds__(NT) void matvec_tanh_groups(const float* __restrict__ x, const float* __restrict__ w,
                                                         const float* __restrict__ b, float* __restrict__ y,
                                                         int64_t M, int K, int G) {
  const int lane = threadIdx.x % G;
  const int rpb = NT / G;  // rows per block step
  const float bv = b[0];
  // base is uniform over the block, so every lane reaches the shuffles.
  for (int64_t base = (int64_t)blockIdx.x * rpb; base < M; base += (int64_t)gridDim.x * rpb) {
    const int64_t row = base + threadIdx.x / G;
    float s = row < M ? row_dot<VEC>(x + row * K, w, K, lane, G) : 0.0f;
    for (int o = G / 2; o > 0; o >>= 1) s += __shfl_xor(s, o);
    if (lane == 0 && row < M) y[row] = tanhf(s + bv);
  }
}

template <bool VEC>
__global__ __launch_bounds__(NT) void matvec_tanh_blocks(const float* __restrict__ x, const float* __restrict__ w,
                                                         const float* __restrict__ b, float* __restrict__ y,
                                                         int64_t M, int K) {
  __shared__ float partial[NT];  // one slot per warp is enough; sized for any warp width
  const int ws = warpSize;
  const int lane = threadIdx.x % ws, warp = threadIdx.x / ws, nw = NT / ws;
  for (int64_t row = blockIdx.x; row < M; row += gridDim.x) {
    float s = row_dot<VEC>(x + row * K, w, K, threadIdx.x, NT);
    for (int o = ws / 2; o > 0; o >>= 1) s += __shfl_xor(s, o);
    if (lane == 0) partial[warp] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
      float t = 0.0f;
      for (int i = 0; i < nw; ++i) t += partial[i];
      y[row] = tanhf(t + b[0]);
    }
    __syncthreads();
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* b = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t M = a->ints[0];
  const int K = (int)a->ints[1];
  const bool vec = K % 4 == 0;
  if (K >= LONG_ROW) {
    const int64_t blocks = M < 65536 ? M : 65536;
    if (vec)
      hipLaunchKernelGGL(matvec_tanh_blocks<true>, dim3((unsigned)blocks), dim3(NT), 0, a->stream, x, w, b, y, M, K);
    else
      hipLaunchKernelGGL(matvec_tanh_blocks<false>, dim3((unsigned)blocks), dim3(NT), 0, a->stream, x, w, b, y, M, K);
  } else {
    const int units = vec ? K / 4 : K;  // vectors (or values) per row
    int G = 1;
    while (G < units && G < 32) G *= 2;
    const int64_t rpb = NT / G;
    int64_t blocks = (M + rpb - 1) / rpb;
    if (blocks > (1 << 20)) blocks = 1 << 20;
    if (vec)
      hipLaunchKernelGGL(matvec_tanh_groups<true>, dim3((unsigned)blocks), dim3(NT), 0, a->stream, x, w, b, y, M, K,
                         G);
    else
      hipLaunchKernelGGL(matvec_tanh_groups<false>, dim3((unsigned)blocks), dim3(NT), 0, a->stream, x, w, b, y, M,
                         K, G);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
