// PoolFormer token mixer, y = avgpool3x3(x) - x (stride 1, padding 1, padded positions not
// counted), in one pass: each thread makes four horizontally adjacent outputs from the 3 x 6
// window of inputs around them, so x is read once from DRAM (the neighbouring rows come from
// cache) and y written once. Eager PyTorch writes the pooled tensor and reads it back, with x,
// in a second kernel.
// The window is summed in eager's order (row-major, padded positions contributing exact
// zeros) and divided by the count of real positions, so the pooled value is eager's bit for
// bit. 16-byte loads and stores when width % 4 == 0 and the buffers are 16-byte aligned (then
// every row is), scalar accesses otherwise. 32-bit index math unless the tensor needs more.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256

template <typename I, bool VEC>
__global__ void __launch_bounds__(THREADS) avgpool3_sub(const float* __restrict__ x, float* __restrict__ y,
                                                         I quads, I w4, int height, int width) {
  for (I t = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; t < quads; t += (I)gridDim.x * (I)blockDim.x) {
    const I r = t / w4;  // row over (batch, channel, h)
    const int w0 = (int)(t - r * w4) * 4;
    const int h = (int)(r % (I)height);
    const float* xc = x + r * (I)width;
    // v[dr][j]: input at row h + dr - 1, column w0 - 1 + j; 0 outside the image.
    float v[3][6];
#pragma unroll
    for (int dr = 0; dr < 3; ++dr) {
      const int hh = h + dr - 1;
      if (hh < 0 || hh >= height) {
#pragma unroll
        for (int j = 0; j < 6; ++j) v[dr][j] = 0.0f;
        continue;
      }
      const float* xr = xc + (I)(dr - 1) * (I)width;
      if constexpr (VEC) {
        const float4 m = *reinterpret_cast<const float4*>(xr + w0);
        v[dr][0] = w0 > 0 ? xr[w0 - 1] : 0.0f;
        v[dr][1] = m.x;
        v[dr][2] = m.y;
        v[dr][3] = m.z;
        v[dr][4] = m.w;
        v[dr][5] = w0 + 4 < width ? xr[w0 + 4] : 0.0f;
      } else {
#pragma unroll
        for (int j = 0; j < 6; ++j) {
          const int c = w0 - 1 + j;
          v[dr][j] = (c >= 0 && c < width) ? xr[c] : 0.0f;
        }
      }
    }
    const int nh = 1 + (h > 0) + (h < height - 1);
    float out[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int w = w0 + i;
      float s = 0.0f;
#pragma unroll
      for (int dr = 0; dr < 3; ++dr) {
        s += v[dr][i];
        s += v[dr][i + 1];
        s += v[dr][i + 2];
      }
      const int nw = 1 + (w > 0) + (w < width - 1);
      out[i] = s / (float)(nh * nw) - v[1][i + 1];
    }
    float* yr = y + r * (I)width;
    if constexpr (VEC) {
      *reinterpret_cast<float4*>(yr + w0) = make_float4(out[0], out[1], out[2], out[3]);
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i)
        if (w0 + i < width) yr[w0 + i] = out[i];
    }
  }
}

template <typename I, bool VEC>
static void launch(const float* x, float* y, int64_t rows, int height, int width, hipStream_t stream) {
  const int64_t w4 = (width + 3) / 4;
  const int64_t quads = rows * w4;
  int64_t blocks = (quads + THREADS - 1) / THREADS;
  if (blocks > (1 << 20)) blocks = 1 << 20;  // grid-stride beyond
  hipLaunchKernelGGL((avgpool3_sub<I, VEC>), dim3((unsigned)blocks), dim3(THREADS), 0, stream, x, y, (I)quads, (I)w4,
                     height, width);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const float* x = static_cast<const float*>(a->tensors[0]);
  float* y = static_cast<float*>(a->tensors[1]);
  const int64_t rows = a->ints[0] * a->ints[1] * a->ints[2];
  const int height = (int)a->ints[2];
  const int width = (int)a->ints[3];
  const bool vec = width % 4 == 0 && ((uintptr_t)x & 15) == 0 && ((uintptr_t)y & 15) == 0;
  // 32-bit indices while every element offset (and the thread count) fits.
  const bool small = rows * (int64_t)(width + 3) < ((int64_t)1 << 31) - (int64_t)THREADS * (1 << 20);
  if (small) {
    if (vec) launch<int, true>(x, y, rows, height, width, a->stream);
    else launch<int, false>(x, y, rows, height, width, a->stream);
  } else {
    if (vec) launch<int64_t, true>(x, y, rows, height, width, a->stream);
    else launch<int64_t, false>(x, y, rows, height, width, a->stream);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
