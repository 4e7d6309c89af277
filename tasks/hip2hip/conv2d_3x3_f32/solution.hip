// 3x3 convolution, padding 1, stride 1, fp32 NCHW, as a register-blocked direct convolution:
//  - a small first kernel rewrites w [Cout][Cin][3][3] into the workspace as
//    wt [Cin][9][Cout], so a block's weight tile is a set of contiguous rows;
//  - a 256-thread block owns a tile of TH = 4*PT rows x 32 columns x TCO = 8*CG output
//    channels (CG * PT = 8; CG = 8, 4 or 2 by Cout); each thread keeps 4 rows (one column) x
//    8 output channels = 32 accumulators in registers;
//  - per step of 8 input channels the block stages the (TH + 2) x 34 input tile with its halo
//    (zero outside the image) and the [8][9][TCO] weight tile in shared memory; per input
//    channel a thread then reads its 6 x 3 input neighbourhood once (18 conflict-free reads)
//    and, per tap, 8 weights as two broadcast 16-byte reads, for 288 FMAs (the direct kernel
//    does 2 global loads per FMA).
// Any B, Cin, Cout, H, W >= 1 work; tails are masked.
#include <hip/hip_runtime.h>
#include "arena/arena_abi.h"

#define THREADS 256
#define CI_T 8  // input channels per shared-memory stage

__global__ void transpose_weights(const float* __restrict__ w, float* __restrict__ wt, int Cin, int Cout) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // index into w
  const int64_t n = (int64_t)Cout * Cin * 9;
  if (i >= n) return;
  const int co = (int)(i / ((int64_t)Cin * 9));
  const int rk = (int)(i % ((int64_t)Cin * 9));  // ci * 9 + tap
  wt[(int64_t)rk * Cout + co] = w[i];
}

template <int CG, int PT>
__global__ void __launch_bounds__(THREADS) conv3x3_tiled(const float* __restrict__ x, const float* __restrict__ wt,
                                                       float* __restrict__ y, int Cin, int Cout, int H, int W,
                                                       int nColT, int nRowT, int nCoT) {
  static_assert(CG * PT == 8, "block shape");
  constexpr int TH = 4 * PT;      // output rows per block
  constexpr int TW = 32;          // output columns per block
  constexpr int TCO = 8 * CG;     // output channels per block
  constexpr int XH = TH + 2, XW = TW + 2;
  __shared__ __attribute__((aligned(16))) float ws[CI_T * 9 * TCO];
  __shared__ float xs[CI_T * XH * XW];

  int64_t bid = blockIdx.x;
  const int colt = (int)(bid % nColT);
  bid /= nColT;
  const int rowt = (int)(bid % nRowT);
  bid /= nRowT;
  const int cot = (int)(bid % nCoT);
  const int64_t b = bid / nCoT;
  const int r0 = rowt * TH, c0 = colt * TW, co0 = cot * TCO;

  const int tid = threadIdx.x;
  const int tx = tid % 32;          // column in the tile
  const int cg = (tid / 32) % CG;   // group of 8 output channels
  const int pt = tid / (32 * CG);   // group of 4 rows

  float acc[8][4];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

  const int64_t HW = (int64_t)H * W;
  const float* xb = x + b * Cin * HW;
  for (int ci0 = 0; ci0 < Cin; ci0 += CI_T) {
    const int nc = Cin - ci0 < CI_T ? Cin - ci0 : CI_T;
    __syncthreads();  // the previous stage's tiles are no longer read
    // Input tile: (channel, row) pairs over tid / 32, columns over tid % 32.
    for (int cr = tid / 32; cr < CI_T * XH; cr += THREADS / 32) {
      const int c = cr / XH, r = cr % XH;  // XH is a compile-time constant
      const int ih = r0 - 1 + r;
      const bool ok = c < nc && ih >= 0 && ih < H;
      const float* xr = xb + (ok ? (int64_t)(ci0 + c) * HW + (int64_t)ih * W : 0);
      for (int q = tx; q < XW; q += 32) {
        const int iw = c0 - 1 + q;
        xs[cr * XW + q] = (ok && iw >= 0 && iw < W) ? xr[iw] : 0.0f;
      }
    }
    // Weight tile: rows (c, tap) of TCO consecutive output channels.
    for (int idx = tid; idx < CI_T * 9 * TCO; idx += THREADS) {
      const int row = idx / TCO, co = idx % TCO;  // row = c * 9 + tap
      float v = 0.0f;
      if (row < nc * 9 && co0 + co < Cout) v = wt[((int64_t)ci0 * 9 + row) * Cout + co0 + co];
      ws[idx] = v;
    }
    __syncthreads();

    for (int c = 0; c < nc; ++c) {
      float xv[6][3];
      const float* xr = xs + (c * XH + 4 * pt) * XW + tx;
#pragma unroll
      for (int r = 0; r < 6; ++r)
#pragma unroll
        for (int q = 0; q < 3; ++q) xv[r][q] = xr[r * XW + q];
      const float4* wr = reinterpret_cast<const float4*>(ws + c * 9 * TCO + cg * 8);
#pragma unroll
      for (int kh = 0; kh < 3; ++kh)
#pragma unroll
        for (int kw = 0; kw < 3; ++kw) {
          const float4 wa = wr[(kh * 3 + kw) * (TCO / 4)], wb = wr[(kh * 3 + kw) * (TCO / 4) + 1];
          const float wv[8] = {wa.x, wa.y, wa.z, wa.w, wb.x, wb.y, wb.z, wb.w};
#pragma unroll
          for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(wv[i], xv[j + kh][kw], acc[i][j]);
        }
    }
  }

  const int ow = c0 + tx;
  if (ow >= W) return;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int co = co0 + cg * 8 + i;
    if (co >= Cout) break;
    float* yp = y + (b * Cout + co) * HW;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int oh = r0 + 4 * pt + j;
      if (oh < H) yp[(int64_t)oh * W + ow] = acc[i][j];
    }
  }
}

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  return (size_t)a->ints[1] * 9 * (size_t)a->ints[2] * sizeof(float);
}

template <int CG, int PT>
static int launch_conv(const float* x, const float* wt, float* y, int64_t B, int Cin, int Cout, int H, int W,
                       hipStream_t st) {
  const int nColT = (W + 31) / 32, nRowT = (H + 4 * PT - 1) / (4 * PT), nCoT = (Cout + 8 * CG - 1) / (8 * CG);
  const int64_t blocks = B * nColT * nRowT * nCoT;
  hipLaunchKernelGGL((conv3x3_tiled<CG, PT>), dim3((unsigned)blocks), dim3(THREADS), 0, st, x, wt, y, Cin, Cout, H,
                     W, nColT, nRowT, nCoT);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  const float* w = static_cast<const float*>(a->tensors[1]);
  float* y = static_cast<float*>(a->tensors[2]);
  const int64_t B = a->ints[0];
  const int Cin = (int)a->ints[1], Cout = (int)a->ints[2], H = (int)a->ints[3], W = (int)a->ints[4];
  const size_t need = (size_t)Cin * 9 * Cout * sizeof(float);
  if (a->workspace == nullptr || a->workspace_bytes < need) return 1;
  float* wt = static_cast<float*>(a->workspace);

  const int64_t nw = (int64_t)Cout * Cin * 9;
  hipLaunchKernelGGL(transpose_weights, dim3((unsigned)((nw + THREADS - 1) / THREADS)), dim3(THREADS), 0, a->stream,
                     w, wt, Cin, Cout);
  if (hipGetLastError() != hipSuccess) return 1;
  if (Cout > 32) return launch_conv<8, 1>(x, wt, y, B, Cin, Cout, H, W, a->stream);
  if (Cout > 16) return launch_conv<4, 2>(x, wt, y, B, Cin, Cout, H, W, a->stream);
  return launch_conv<2, 4>(x, wt, y, B, Cin, Cout, H, W, a->stream);
}
