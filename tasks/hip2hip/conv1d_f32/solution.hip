// 1D convolution with bias, 'same' zero padding, stride 1 (fp32), as a register-blocked
// direct convolution:
//  - a small first kernel rewrites w [Cout][Cin][KW] into the workspace as wt [Cin][KW][Cout],
//    so a block's weight tile is a set of contiguous rows (no index division when staging);
//  - a 256-thread block owns TCO output channels x TL positions of one batch row; each thread
//    keeps 8 channels x 4 positions (spaced TLX apart) in registers;
//  - per step of 8 input channels the block stages the x tile with its halo (TL + KW - 1
//    values per channel, zero outside [0, L)) and the weight tile [8][KW][TCO] in shared
//    memory; each (channel, tap) then costs 4 conflict-free scalar reads of x and two
//    broadcast 16-byte reads of weights for 32 FMAs (the direct kernel does 2 global loads
//    per FMA).
// Two block shapes: 32 x 8 threads (TL = 128, TCO = 64) and, for Cout <= 32, 64 x 4
// (TL = 256, TCO = 32). Any B, Cin, Cout, L and KW <= 15 work; tails are masked.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define CI_T 8  // input channels per shared-memory stage

__global__ void transpose_weights(const float* __restrict__ w, float* __restrict__ wt, int Cin, int Cout, int KW) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // index into w
  const int64_t n = (int64_t)Cout * Cin * KW;
  if (i >= n) return;
  const int co = (int)(i / ((int64_t)Cin * KW));
  const int rk = (int)(i % ((int64_t)Cin * KW));  // ci * KW + k
  wt[(int64_t)rk * Cout + co] = w[i];
}

template <int TLX, int CG>
__global__ void __launch_bounds__(THREADS) conv1d_tiled(const float* __restrict__ x, const float* __restrict__ wt,
                                                      const float* __restrict__ bias, float* __restrict__ y, int Cin,
                                                      int Cout, int L, int KW, int nLT, int nCT) {
  constexpr int TL = TLX * 4;   // positions per block
  constexpr int TCO = CG * 8;   // output channels per block
  static_assert(TLX * CG == THREADS, "block shape");
  extern __shared__ float4 smem4[];
  float* smem = reinterpret_cast<float*>(smem4);
  const int XW = TL + KW - 1;       // x tile row with halo
  float* ws = smem;                 // [CI_T][KW][TCO], 16-byte aligned
  float* xs = smem + CI_T * KW * TCO;  // [CI_T][XW]

  int64_t bid = blockIdx.x;
  const int lt = (int)(bid % nLT);
  bid /= nLT;
  const int ct = (int)(bid % nCT);
  const int64_t b = bid / nCT;
  const int l0 = lt * TL, co0 = ct * TCO;
  const int P = KW / 2;

  const int tid = threadIdx.x;
  const int tl = tid % TLX, cg = tid / TLX;

  float acc[8][4];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

  const float* xb = x + b * Cin * (int64_t)L;
  for (int ci0 = 0; ci0 < Cin; ci0 += CI_T) {
    const int nc = Cin - ci0 < CI_T ? Cin - ci0 : CI_T;
    __syncthreads();  // the previous stage's tiles are no longer read
    // x tile: row c = tid / 32 of the 8, columns strided by 32 (no division by XW).
    {
      const int c = tid / 32;
      const bool ok_c = c < nc;
      const float* xr = xb + (int64_t)(ci0 + (ok_c ? c : 0)) * L;
      for (int j = tid % 32; j < XW; j += 32) {
        const int s = l0 - P + j;
        xs[c * XW + j] = (ok_c && s >= 0 && s < L) ? xr[s] : 0.0f;
      }
    }
    // Weight tile: rows (c, k) of TCO consecutive output channels from wt.
    for (int idx = tid; idx < CI_T * KW * TCO; idx += THREADS) {
      const int row = idx / TCO, co = idx % TCO;  // TCO is a power of two; row = c * KW + k
      float v = 0.0f;
      if (row < nc * KW && co0 + co < Cout) v = wt[((int64_t)ci0 * KW + row) * Cout + co0 + co];
      ws[idx] = v;
    }
    __syncthreads();

    for (int c = 0; c < nc; ++c) {
      const float* xr = xs + c * XW + tl;
      const float4* wr = reinterpret_cast<const float4*>(ws + c * KW * TCO + cg * 8);
      for (int k = 0; k < KW; ++k) {
        const float xv[4] = {xr[k], xr[k + TLX], xr[k + 2 * TLX], xr[k + 3 * TLX]};
        const float4 wa = wr[k * (TCO / 4)], wb = wr[k * (TCO / 4) + 1];
        const float wv[8] = {wa.x, wa.y, wa.z, wa.w, wb.x, wb.y, wb.z, wb.w};
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
          for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(wv[i], xv[j], acc[i][j]);
      }
    }
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int co = co0 + cg * 8 + i;
    if (co >= Cout) break;
    const float bv = bias[co];
    float* yr = y + (b * Cout + co) * (int64_t)L;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int l = l0 + tl + j * TLX;
      if (l < L) yr[l] = acc[i][j] + bv;
    }
  }
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  return (size_t)a->ints[1] * (size_t)a->ints[4] * (size_t)a->ints[2] * sizeof(float);
}

template <int TLX, int CG>
static int launch_conv(const float* x, const float* wt, const float* bias, float* y, int64_t B, int Cin, int Cout,
                       int L, int KW, hipStream_t st) {
  constexpr int TL = TLX * 4, TCO = CG * 8;
  const int nLT = (L + TL - 1) / TL, nCT = (Cout + TCO - 1) / TCO;
  const int64_t blocks = B * nLT * nCT;
  const size_t shm = (size_t)(CI_T * KW * TCO + CI_T * (TL + KW - 1)) * sizeof(float);
  hipLaunchKernelGGL((conv1d_tiled<TLX, CG>), dim3((unsigned)blocks), dim3(THREADS), shm, st, x, wt, bias, y, Cin,
                     Cout, L, KW, nLT, nCT);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  const float* bias = static_cast<const float*>(a->tensors[2]);
  float* y = static_cast<float*>(a->tensors[3]);
  const int64_t B = a->ints[0];
  const int Cin = (int)a->ints[1], Cout = (int)a->ints[2], L = (int)a->ints[3], KW = (int)a->ints[4];
  if (KW < 1 || KW > 15) return 1;
  const size_t need = (size_t)Cin * KW * Cout * sizeof(float);
  if (a->workspace == nullptr || a->workspace_bytes < need) return 1;
  float* wt = static_cast<float*>(a->workspace);

  const int64_t nw = (int64_t)Cout * Cin * KW;
  hipLaunchKernelGGL(transpose_weights, dim3((unsigned)((nw + THREADS - 1) / THREADS)), dim3(THREADS), 0, a->stream,
                     w, wt, Cin, Cout, KW);
  if (hipGetLastError() != hipSuccess) return 1;
  if (Cout > 32) return launch_conv<32, 8>(x, wt, bias, y, B, Cin, Cout, L, KW, a->stream);
  return launch_conv<64, 4>(x, wt, bias, y, B, Cin, Cout, L, KW, a->stream);
}
