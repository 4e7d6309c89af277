// Fused SwiGLU over fp16: one read of x, one write of y, fp32 math, one rounding.
// The widest access every row allows: 16 bytes (8 halves) when dim % 8 == 0 (then both
// halves of every row are 16-byte aligned), 4 bytes when dim is even, 2 otherwise. Grid
// sized to the device; each thread walks vectors with a grid stride and carries its
// (row, column) forward instead of dividing on every step.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include <stdint.h>
#include <type_traits>
#include "arena/arena_abi.h"

template <int VEC>
using word_t = typename std::conditional<VEC == 8, uint4, typename std::conditional<VEC == 2, uint32_t, uint16_t>::type>::type;

template <int VEC>
__device__ __forceinline__ void load_vec(const __half* p, float* f) {
  const word_t<VEC> w = *reinterpret_cast<const word_t<VEC>*>(p);
  const __half* h = reinterpret_cast<const __half*>(&w);
#pragma unroll
  for (int k = 0; k < VEC; ++k) f[k] = __half2float(h[k]);
}

template <int VEC>
__device__ __forceinline__ void store_vec(__half* p, const float* f) {
  word_t<VEC> w;
  __half* h = reinterpret_cast<__half*>(&w);
#pragma unroll
  for (int k = 0; k < VEC; ++k) h[k] = __float2half(f[k]);
  *reinterpret_cast<word_t<VEC>*>(p) = w;
}

template <int VEC>
__global__ void __launch_bounds__(256) swiglu_kernel(const __half* __restrict__ x, __half* __restrict__ y,
                                                     int64_t rows, int64_t dim) {
  const int64_t nv = dim / VEC;  // vectors per output row
  const int64_t total = rows * nv;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t step_row = stride / nv, step_col = stride - step_row * nv;
  int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int64_t row = v / nv, col = v - row * nv;
  for (; v < total; v += stride) {
    const __half* pa = x + row * 2 * dim + col * VEC;
    float a[VEC], b[VEC], o[VEC];
    load_vec<VEC>(pa, a);
    load_vec<VEC>(pa + dim, b);
#pragma unroll
    for (int k = 0; k < VEC; ++k) o[k] = a[k] / (1.0f + expf(-a[k])) * b[k];
    store_vec<VEC>(y + row * dim + col * VEC, o);
    row += step_row;
    col += step_col;
    if (col >= nv) {
      col -= nv;
      ++row;
    }
  }
}

template <int VEC>
static void launch(const __half* x, __half* y, int64_t rows, int64_t dim, int sms, hipStream_t st) {
  const int block = 256;
  const int64_t want = (rows * (dim / VEC) + block - 1) / block;
  const int64_t cap = (int64_t)sms * 8;
  const int grid = (int)(want < 1 ? 1 : (want < cap ? want : cap));
  hipLaunchKernelGGL(swiglu_kernel<VEC>, dim3(grid), dim3(block), 0, st, x, y, rows, dim);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* x = static_cast<const __half*>(a->tensors[0]);
  __half* y = static_cast<__half*>(a->tensors[1]);
  const int64_t rows = a->ints[0];
  const int64_t dim = a->ints[1];
  int dev = 0, sms = 0;
  if (hipGetDevice(&dev) != hipSuccess) return 1;
  if (hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess) return 1;
  if (sms < 1) sms = 1;
  if (dim % 8 == 0) launch<8>(x, y, rows, dim, sms, a->stream);
  else if (dim % 2 == 0) launch<2>(x, y, rows, dim, sms, a->stream);
  else launch<1>(x, y, rows, dim, sms, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
