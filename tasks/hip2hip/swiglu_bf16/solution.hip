// SwiGLU over bf16 with wide accesses: when N % 8 == 0 every row of gate, up and y starts
// on a 16-byte boundary, so each thread moves eight outputs with one 16-byte load of gate,
// one of up and one 16-byte store (4-byte accesses of two values when N is only even,
// scalar ones otherwise). The flat index is split into row and column once per vector, not
// once per element. fp32 math, one rounding to bf16.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

__device__ __forceinline__ float bf16_to_float(uint32_t b) { return __uint_as_float((b & 0xffffu) << 16); }

// fp32 -> bf16, round to nearest even; NaN stays NaN.
__device__ __forceinline__ uint32_t float_to_bf16(float f) {
  uint32_t u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x0040u;
  u += 0x7fffu + ((u >> 16) & 1u);
  return u >> 16;
}

__device__ __forceinline__ float swiglu(float g, float u) { return g / (1.0f + expf(-g)) * u; }

// Loads VEC bf16 values at p (p aligned to 2 * VEC bytes) as VEC / 2 packed words.
template <int VEC>
__device__ __forceinline__ void load_words(const uint16_t* p, uint32_t* w) {
  if constexpr (VEC == 8) {
    const uint4 t = *reinterpret_cast<const uint4*>(p);
    w[0] = t.x; w[1] = t.y; w[2] = t.z; w[3] = t.w;
  } else if constexpr (VEC == 2) {
    w[0] = *reinterpret_cast<const uint32_t*>(p);
  } else {
    w[0] = *p;
  }
}

template <int VEC>
__device__ __forceinline__ void store_words(uint16_t* p, const uint32_t* w) {
  if constexpr (VEC == 8) {
    *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  } else if constexpr (VEC == 2) {
    *reinterpret_cast<uint32_t*>(p) = w[0];
  } else {
    *p = (uint16_t)w[0];
  }
}

// One thread per VEC consecutive outputs of a row; nv = N / VEC vectors per row.
template <int VEC>
__global__ void __launch_bounds__(256) swiglu_vec(const uint16_t* __restrict__ x, uint16_t* __restrict__ y,
                                                  int64_t total, int64_t nv, int64_t n) {
  constexpr int W = VEC >= 2 ? VEC / 2 : 1;  // 32-bit words per vector
  const int64_t v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= total) return;
  const int64_t row = v / nv;
  const int64_t col = (v - row * nv) * VEC;
  const uint16_t* gp = x + row * 2 * n + col;
  uint32_t g[W], u[W], o[W];
  load_words<VEC>(gp, g);
  load_words<VEC>(gp + n, u);
  if constexpr (VEC == 1) {
    o[0] = float_to_bf16(swiglu(bf16_to_float(g[0]), bf16_to_float(u[0])));
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k) {
      const uint32_t lo = float_to_bf16(swiglu(bf16_to_float(g[k]), bf16_to_float(u[k])));
      const uint32_t hi = float_to_bf16(swiglu(bf16_to_float(g[k] >> 16), bf16_to_float(u[k] >> 16)));
      o[k] = lo | (hi << 16);
    }
  }
  store_words<VEC>(y + row * n + col, o);
}

template <int VEC>
static void launch(const uint16_t* x, uint16_t* y, int64_t m, int64_t n, hipStream_t st) {
  const int64_t nv = n / VEC;
  const int64_t total = m * nv;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(swiglu_vec<VEC>, dim3((unsigned)grid), dim3(block), 0, st, x, y, total, nv, n);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const uint16_t* x = static_cast<const uint16_t*>(a->tensors[0]);
  uint16_t* y = static_cast<uint16_t*>(a->tensors[1]);
  const int64_t m = a->ints[0];
  const int64_t n = a->ints[1];
  if (n % 8 == 0) launch<8>(x, y, m, n, a->stream);
  else if (n % 2 == 0) launch<2>(x, y, m, n, a->stream);
  else launch<1>(x, y, m, n, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
