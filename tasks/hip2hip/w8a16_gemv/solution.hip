// Weight-only int8 GEMV y = scale * (W * x) (int8 W [M,K] row-major, fp32 per-row scale, fp16
// x and y), fp32 accumulation.
//
// Each warp computes two rows. Its lanes read consecutive 16-byte vectors of each row (16
// int8 weights a load, fully coalesced), two vectors per row in flight per lane (four loads
// to HBM), and the matching 32 bytes of x through the cache (x is shared by every row and
// stays there); each x vector is converted to fp32 once and used for both rows. int8 -> fp32
// is exact bit arithmetic instead of a conversion instruction: the byte, biased by 128, goes
// into the low mantissa bits of 2^23 and 2^23 + 128 is subtracted. Warp shuffles reduce the
// lane sums; lane 0 applies the row's scale and rounds to fp16 once. Rows whose length is not
// a multiple of 16 (so that vectors would be misaligned) take a scalar, still coalesced, path.
// Works with 32- and 64-wide warps.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define ROWS 2  // rows per warp

__device__ __forceinline__ float h2f(unsigned int bits) {
  return __half2float(__ushort_as_half((unsigned short)(bits & 0xffffu)));
}

// Four int8 values packed in w (byte j holds element j) as exact fp32 values.
__device__ __forceinline__ void i8x4_to_f32(unsigned int w, float* f) {
  const unsigned int u = w ^ 0x80808080u;  // each byte now holds value + 128 in 0..255
  f[0] = __uint_as_float(0x4B000000u | (u & 0xffu)) - 8388736.0f;
  f[1] = __uint_as_float(0x4B000000u | ((u >> 8) & 0xffu)) - 8388736.0f;
  f[2] = __uint_as_float(0x4B000000u | ((u >> 16) & 0xffu)) - 8388736.0f;
  f[3] = __uint_as_float(0x4B000000u | (u >> 24)) - 8388736.0f;
}

// Sixteen fp16 values (two 16-byte vectors) as fp32.
__device__ __forceinline__ void h16_to_f32(const uint4& a, const uint4& b, float* f) {
  const unsigned int w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    f[2 * j] = h2f(w[j]);
    f[2 * j + 1] = h2f(w[j] >> 16);
  }
}

__device__ __forceinline__ float dot16(const uint4& w, const float* xf, float acc) {
  const unsigned int ww[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    float f[4];
    i8x4_to_f32(ww[j], f);
#pragma unroll
    for (int i = 0; i < 4; ++i) acc = fmaf(f[i], xf[4 * j + i], acc);
  }
  return acc;
}

__global__ __launch_bounds__(THREADS) void w8a16_gemv_warp(const int8_t* __restrict__ W,
                                                           const float* __restrict__ scale,
                                                           const __half* __restrict__ x,
                                                           __half* __restrict__ y, int M, int K) {
  const int ws = warpSize;
  const int lane = threadIdx.x % ws;
  const int64_t r0 = ((int64_t)blockIdx.x * (blockDim.x / ws) + threadIdx.x / ws) * ROWS;
  if (r0 >= M) return;  // the whole warp shares r0
  // Rows past the end repeat the last row (valid memory); their results are not stored.
  const int8_t* wr[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) wr[r] = W + (r0 + r < M ? r0 + r : (int64_t)M - 1) * K;
  float acc[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) acc[r] = 0.0f;

  if (K % 16 == 0) {  // every row starts 16-byte aligned
    const int K16 = K / 16;
    const uint4* xv = reinterpret_cast<const uint4*>(x);
    float xf[16];
    int k = lane;
    for (; k + ws < K16; k += 2 * ws) {
      uint4 w0[ROWS], w1[ROWS];
#pragma unroll
      for (int r = 0; r < ROWS; ++r) {
        w0[r] = reinterpret_cast<const uint4*>(wr[r])[k];
        w1[r] = reinterpret_cast<const uint4*>(wr[r])[k + ws];
      }
      const uint4 xa0 = xv[2 * k], xb0 = xv[2 * k + 1];
      const uint4 xa1 = xv[2 * (k + ws)], xb1 = xv[2 * (k + ws) + 1];
      h16_to_f32(xa0, xb0, xf);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) acc[r] = dot16(w0[r], xf, acc[r]);
      h16_to_f32(xa1, xb1, xf);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) acc[r] = dot16(w1[r], xf, acc[r]);
    }
    if (k < K16) {
      uint4 w0[ROWS];
#pragma unroll
      for (int r = 0; r < ROWS; ++r) w0[r] = reinterpret_cast<const uint4*>(wr[r])[k];
      h16_to_f32(xv[2 * k], xv[2 * k + 1], xf);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) acc[r] = dot16(w0[r], xf, acc[r]);
    }
  } else {
    for (int k = lane; k < K; k += ws) {
      const float xk = __half2float(x[k]);
#pragma unroll
      for (int r = 0; r < ROWS; ++r) acc[r] = fmaf((float)wr[r][k], xk, acc[r]);
    }
  }
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
    for (int o = ws / 2; o > 0; o >>= 1) acc[r] += __shfl_xor(acc[r], o);
  if (lane == 0) {
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
      if (r0 + r < M) y[r0 + r] = __float2half(acc[r] * scale[r0 + r]);
  }
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int8_t* W = static_cast<const int8_t*>(a->tensors[0]);
  const float* scale = static_cast<const float*>(a->tensors[1]);
  const __half* x = static_cast<const __half*>(a->tensors[2]);
  __half* y = static_cast<__half*>(a->tensors[3]);
  const int M = (int)a->ints[0];
  const int K = (int)a->ints[1];
  int dev = 0, ws = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, dev) != hipSuccess) return 1;
  const int64_t warps = ((int64_t)M + ROWS - 1) / ROWS;
  const int warps_per_block = THREADS / ws;
  const int64_t grid = (warps + warps_per_block - 1) / warps_per_block;
  hipLaunchKernelGGL(w8a16_gemv_warp, dim3((unsigned)grid), dim3(THREADS), 0, a->stream, W, scale,
                     x, y, M, K);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
