// Per-row int8 dequantization plus a per-column bias, y[i, j] = q[i, j] * scale[i] + bias[j],
// in one pass: 1 byte read and 4 bytes written per element (eager PyTorch casts to a full fp32
// matrix, multiplies into another and adds into a third: about 21 bytes per element).
// Each thread makes four consecutive outputs of a row from one 4-byte load of codes, the row's
// scale and a 16-byte load of the bias (cached: it is one row long), with one 16-byte store;
// consecutive threads take consecutive quads, so every access is coalesced. Used when
// num_cols % 4 == 0 and the buffers are aligned (then every row is); scalar otherwise. 32-bit
// index math unless the matrix needs more.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256

template <typename I>
__global__ void __launch_bounds__(THREADS) dequant_rows_vec4(const uint32_t* __restrict__ q,
                                                              const float* __restrict__ scale,
                                                              const float4* __restrict__ bias,
                                                              float4* __restrict__ y, I nvec, I cols_vec) {
  for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < nvec; i += (I)gridDim.x * (I)blockDim.x) {
    const I row = i / cols_vec;
    const uint32_t w = q[i];
    const float s = scale[row];
    const float4 b = bias[i - row * cols_vec];
    y[i] = make_float4(fmaf((float)(int8_t)(w & 0xffu), s, b.x), fmaf((float)(int8_t)((w >> 8) & 0xffu), s, b.y),
                       fmaf((float)(int8_t)((w >> 16) & 0xffu), s, b.z), fmaf((float)(int8_t)(w >> 24), s, b.w));
  }
}

template <typename I>
__global__ void __launch_bounds__(THREADS) dequant_rows_scalar(const int8_t* __restrict__ q,
                                                                const float* __restrict__ scale,
                                                                const float* __restrict__ bias,
                                                                float* __restrict__ y, I n, I cols) {
  for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < n; i += (I)gridDim.x * (I)blockDim.x) {
    const I row = i / cols;
    y[i] = fmaf((float)q[i], scale[row], bias[i - row * cols]);
  }
}

template <typename I>
static void launch(const arena_args* a, int64_t rows, int64_t cols, bool vec) {
  const int64_t n = vec ? rows * cols / 4 : rows * cols;
  int64_t blocks = (n + THREADS - 1) / THREADS;
  if (blocks > (1 << 20)) blocks = 1 << 20;  // grid-stride beyond
  const float* scale = static_cast<const float*>(a->tensors[1]);
  if (vec)
    hipLaunchKernelGGL(dequant_rows_vec4<I>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream,
                       static_cast<const uint32_t*>(a->tensors[0]), scale, static_cast<const float4*>(a->tensors[2]),
                       static_cast<float4*>(a->tensors[3]), (I)n, (I)(cols / 4));
  else
    hipLaunchKernelGGL(dequant_rows_scalar<I>, dim3((unsigned)blocks), dim3(THREADS), 0, a->stream,
                       static_cast<const int8_t*>(a->tensors[0]), scale, static_cast<const float*>(a->tensors[2]),
                       static_cast<float*>(a->tensors[3]), (I)n, (I)cols);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int64_t rows = a->ints[0];
  const int64_t cols = a->ints[1];
  const bool vec = cols % 4 == 0 && ((uintptr_t)a->tensors[0] & 3) == 0 && ((uintptr_t)a->tensors[2] & 15) == 0 &&
                   ((uintptr_t)a->tensors[3] & 15) == 0;
  if (rows * cols < ((int64_t)1 << 31) - (int64_t)THREADS * (1 << 20)) launch<int>(a, rows, cols, vec);
  else launch<int64_t>(a, rows, cols, vec);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
