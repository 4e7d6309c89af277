// Per-channel power-of-two int8 fake quantization, y = clamp(rint(x * 2^f), -128, 127) * 2^-f
// with f = frac_bits[channel], in one pass: x read once, y written once (eager PyTorch runs
// four full-tensor elementwise kernels: multiply, round, clamp, divide).
// Scaling by a power of two is exact in fp32, rintf rounds half to even like torch.round, and
// multiplying by 2^-f equals dividing by 2^f, so every value is exact (and equal to the
// float64 model's). 16-byte accesses when height * width % 4 == 0 and the buffers are 16-byte
// aligned (then a vector never straddles two channels), scalar ones otherwise; 32-bit index
// math unless the tensor needs more.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 256

__device__ __forceinline__ float fq(float x, float m, float inv_m) {
  return fminf(fmaxf(rintf(x * m), -128.0f), 127.0f) * inv_m;
}

// Each thread: VEC consecutive elements (all in one channel: VEC divides hw).
template <typename I, int VEC>
__global__ void __launch_bounds__(THREADS) fake_quant_pow2(const float* __restrict__ x,
                                                            const int* __restrict__ frac_bits,
                                                            float* __restrict__ y, I nvec, I hw_vec, I channels) {
  for (I i = (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x; i < nvec; i += (I)gridDim.x * (I)blockDim.x) {
    const int f = frac_bits[(i / hw_vec) % channels];
    const float m = (float)(1 << f);
    const float inv_m = 1.0f / m;  // exact: a power of two
    if constexpr (VEC == 4) {
      const float4 v = reinterpret_cast<const float4*>(x)[i];
      reinterpret_cast<float4*>(y)[i] = make_float4(fq(v.x, m, inv_m), fq(v.y, m, inv_m), fq(v.z, m, inv_m),
                                                    fq(v.w, m, inv_m));
    } else {
      y[i] = fq(x[i], m, inv_m);
    }
  }
}

template <typename I, int VEC>
static void launch(const arena_args* a, int64_t total, int64_t hw, int64_t channels) {
  const int64_t nvec = total / VEC;
  int64_t blocks = (nvec + THREADS - 1) / THREADS;
  if (blocks > (1 << 20)) blocks = 1 << 20;  // grid-stride beyond
  hipLaunchKernelGGL((fake_quant_pow2<I, VEC>), dim3((unsigned)blocks), dim3(THREADS), 0, a->stream,
                     static_cast<const float*>(a->tensors[0]), static_cast<const int*>(a->tensors[1]),
                     static_cast<float*>(a->tensors[2]), (I)nvec, (I)(hw / VEC), (I)channels);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  const int64_t channels = a->ints[1];
  const int64_t hw = a->ints[2] * a->ints[3];
  const int64_t total = a->ints[0] * channels * hw;
  const bool vec = hw % 4 == 0 && ((uintptr_t)a->tensors[0] & 15) == 0 && ((uintptr_t)a->tensors[2] & 15) == 0;
  const bool small = total < ((int64_t)1 << 31) - (int64_t)THREADS * (1 << 20);
  if (small) {
    if (vec) launch<int, 4>(a, total, hw, channels);
    else launch<int, 1>(a, total, hw, channels);
  } else {
    if (vec) launch<int64_t, 4>(a, total, hw, channels);
    else launch<int64_t, 1>(a, total, hw, channels);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
