// Rotary position embedding (NeoX half-split) over fp16, one thread per VEC pairs of up to
// HPT heads of a token:
//  - the token's position and the VEC cos and sin values are read once and reused for the
//    HPT heads (the baseline re-reads them for every output element);
//  - both halves of a pair are read and written by the same thread, with 16-byte accesses of
//    eight fp16 values (and 32-byte cos/sin reads) when D / 2 % 8 == 0, 4-byte accesses of
//    two values when D / 2 is even, scalar accesses otherwise;
//  - all loads of a thread are issued before any math, so each thread has HPT * 32 bytes
//    in flight, and the index arithmetic is done once per thread.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define HPT 4  // heads per thread

__device__ __forceinline__ float lo_f16(uint32_t w) {
  return __half2float(__ushort_as_half((unsigned short)(w & 0xffffu)));
}
__device__ __forceinline__ float hi_f16(uint32_t w) {
  return __half2float(__ushort_as_half((unsigned short)(w >> 16)));
}
__device__ __forceinline__ uint32_t f16_bits(float f) { return (uint32_t)__half_as_ushort(__float2half(f)); }

// VEC fp16 values at p (aligned to 2 * VEC bytes) as packed 32-bit words (the low half of a
// word is the lower address; VEC == 1 keeps its value in the low half).
template <int VEC>
__device__ __forceinline__ void load_h(const __half* p, uint32_t* w) {
  if constexpr (VEC == 8) {
    const uint4 t = *reinterpret_cast<const uint4*>(p);
    w[0] = t.x; w[1] = t.y; w[2] = t.z; w[3] = t.w;
  } else if constexpr (VEC == 2) {
    w[0] = *reinterpret_cast<const uint32_t*>(p);
  } else {
    w[0] = __half_as_ushort(*p);
  }
}

template <int VEC>
__device__ __forceinline__ void store_h(__half* p, const uint32_t* w) {
  if constexpr (VEC == 8) {
    *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  } else if constexpr (VEC == 2) {
    *reinterpret_cast<uint32_t*>(p) = w[0];
  } else {
    *p = __ushort_as_half((unsigned short)w[0]);
  }
}

template <int VEC>
__device__ __forceinline__ void load_f(const float* p, float* v) {
  if constexpr (VEC == 8) {
    const float4 a = *reinterpret_cast<const float4*>(p);
    const float4 b = *reinterpret_cast<const float4*>(p + 4);
    v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w; v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
  } else if constexpr (VEC == 2) {
    const float2 a = *reinterpret_cast<const float2*>(p);
    v[0] = a.x; v[1] = a.y;
  } else {
    v[0] = *p;
  }
}

// Thread idx -> (token t, head group hg, chunk c): chunk c covers pairs [c * VEC, c * VEC + VEC)
// of heads [hg * HPT, hg * HPT + HPT) of token t.
template <int VEC>
__global__ void __launch_bounds__(256) rope_vec(const __half* __restrict__ q, const int* __restrict__ positions,
                                                const float* __restrict__ cos_cache,
                                                const float* __restrict__ sin_cache, __half* __restrict__ out,
                                                int64_t total, int h, int half, int nc, int nhg) {
  constexpr int W = VEC >= 2 ? VEC / 2 : 1;  // 32-bit words per VEC fp16 values
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int c = (int)(idx % nc);
  const int64_t rest = idx / nc;
  const int hg = (int)(rest % nhg);
  const int64_t t = rest / nhg;
  const int i0 = c * VEC;
  const int h0 = hg * HPT;

  const int64_t p = positions[t];
  float cs[VEC], sn[VEC];
  load_f<VEC>(cos_cache + p * half + i0, cs);
  load_f<VEC>(sin_cache + p * half + i0, sn);

  uint32_t lo[HPT][W], hi[HPT][W];
#pragma unroll
  for (int k = 0; k < HPT; ++k) {
    if (h0 + k < h) {
      const __half* src = q + (t * h + h0 + k) * (2 * (int64_t)half) + i0;
      load_h<VEC>(src, lo[k]);
      load_h<VEC>(src + half, hi[k]);
    }
  }
#pragma unroll
  for (int k = 0; k < HPT; ++k) {
    if (h0 + k < h) {
      uint32_t ol[W], oh[W];
      if constexpr (VEC == 1) {
        const float a = lo_f16(lo[k][0]), b = lo_f16(hi[k][0]);
        ol[0] = f16_bits(a * cs[0] - b * sn[0]);
        oh[0] = f16_bits(b * cs[0] + a * sn[0]);
      } else {
#pragma unroll
        for (int w = 0; w < W; ++w) {
          const float a0 = lo_f16(lo[k][w]), b0 = lo_f16(hi[k][w]);
          const float a1 = hi_f16(lo[k][w]), b1 = hi_f16(hi[k][w]);
          const float c0 = cs[2 * w], s0 = sn[2 * w], c1 = cs[2 * w + 1], s1 = sn[2 * w + 1];
          ol[w] = f16_bits(a0 * c0 - b0 * s0) | (f16_bits(a1 * c1 - b1 * s1) << 16);
          oh[w] = f16_bits(b0 * c0 + a0 * s0) | (f16_bits(b1 * c1 + a1 * s1) << 16);
        }
      }
      __half* dst = out + (t * h + h0 + k) * (2 * (int64_t)half) + i0;
      store_h<VEC>(dst, ol);
      store_h<VEC>(dst + half, oh);
    }
  }
}

template <int VEC>
static void launch(const __half* q, const int* positions, const float* cosc, const float* sinc, __half* out,
                   int64_t t, int h, int half, hipStream_t st) {
  const int nc = half / VEC;
  const int nhg = (h + HPT - 1) / HPT;
  const int64_t total = t * nhg * nc;
  const int block = 256;
  const int64_t grid = (total + block - 1) / block;
  hipLaunchKernelGGL(rope_vec<VEC>, dim3((unsigned)grid), dim3(block), 0, st, q, positions, cosc, sinc, out, total,
                     h, half, nc, nhg);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const __half* q = static_cast<const __half*>(a->tensors[0]);
  const int* positions = static_cast<const int*>(a->tensors[1]);
  const float* cosc = static_cast<const float*>(a->tensors[2]);
  const float* sinc = static_cast<const float*>(a->tensors[3]);
  __half* out = static_cast<__half*>(a->tensors[4]);
  const int64_t t = a->ints[0];
  const int h = (int)a->ints[1];
  const int half = (int)(a->ints[2] / 2);
  if (half % 8 == 0) launch<8>(q, positions, cosc, sinc, out, t, h, half, a->stream);
  else if (half % 2 == 0) launch<2>(q, positions, cosc, sinc, out, t, h, half, a->stream);
  else launch<1>(q, positions, cosc, sinc, out, t, h, half, a->stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
