// Decode attention (one fp16 query per (batch, head) against an fp16 KV cache), fp32 math,
// split-K ("flash-decoding"):
//  - the L keys of every (batch, head) are cut into chunks of CHUNK keys and each chunk gets
//    its own block, so even a handful of heads with a long cache fills the GPU;
//  - in a block, a group of G lanes owns one key row at a time: each lane loads 16 bytes of the
//    key row and of the value row (8 halves; scalar loads only when D % 8 != 0), the partial
//    dot products are summed by xor shuffles inside the group, and the group keeps an online
//    softmax state (running max, rescaled sum, rescaled fp32 accumulator of its dimensions),
//    KB keys per step so that 2 * KB loads per lane are in flight;
//  - the groups of a block merge their states through shared memory; K and V are read once;
//  - a small second kernel merges the chunk states of each (batch, head) and writes out
//    (skipped when a single chunk covers L: the first kernel then writes out directly).
// Scores are kept in the log2 domain (q pre-scaled by scale * log2(e)) so that exp2f serves.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <math.h>
#include <stdint.h>
#include "arena/arena_abi.h"

#define THREADS 128
#define CHUNK 256           // keys per block
#define MAX_D 256
#define LOG2E 1.4426950408889634f

// Eight halves (16 bytes) to floats.
__device__ __forceinline__ void unpack8(const uint4& raw, float* f) {
  const __half2* h = reinterpret_cast<const __half2*>(&raw);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const float2 t = __half22float2(h[i]);
    f[2 * i] = t.x;
    f[2 * i + 1] = t.y;
  }
}

// VEC = 8: lane `lg` of a group owns dims [8 * lg, 8 * lg + 8) (PER = 1, needs D % 8 == 0).
// VEC = 1: lane `lg` owns dims lg + G * p for p < PER (scalar loads, any D).
template <int VEC, int PER>
struct Slice {
  float f[VEC * PER];
  __device__ __forceinline__ void load(const __half* row, int lg, int G, int D) {
#pragma unroll
    for (int p = 0; p < PER; ++p) {
      const int d0 = (p * G + lg) * VEC;
      if constexpr (VEC == 8) {
        if (d0 < D) {
          unpack8(*reinterpret_cast<const uint4*>(row + d0), f + 8 * p);
        } else {
#pragma unroll
          for (int e = 0; e < 8; ++e) f[8 * p + e] = 0.0f;
        }
      } else {
        f[p] = d0 < D ? __half2float(row[d0]) : 0.0f;
      }
    }
  }
  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int i = 0; i < VEC * PER; ++i) f[i] = 0.0f;
  }
};

// Block (bh, split) handles keys [split * CHUNK, min(L, (split + 1) * CHUNK)).
template <int VEC, int G, int PER, int KB>
__global__ __launch_bounds__(THREADS) void attn_decode_partial(const __half* __restrict__ q,
                                                               const __half* __restrict__ k,
                                                               const __half* __restrict__ v,
                                                               __half* __restrict__ out, float* __restrict__ ws_m,
                                                               float* __restrict__ ws_l,
                                                               float* __restrict__ ws_acc, int L, int D,
                                                               int nsplit, float qscale) {
  constexpr int NG = THREADS / G;  // groups per block
  constexpr int NV = VEC * PER;    // values per lane
  static_assert(VEC == 8 ? PER == 1 : (G == 32 && G * PER == MAX_D), "dims per lane");
  __shared__ float sm_m[NG], sm_l[NG], sm_w[NG];
  // NG * D <= THREADS * 8: with VEC == 8, G >= D / 8; with VEC == 1, G == 32 and D <= 256.
  __shared__ float sm_acc[THREADS * 8];

  const int tid = threadIdx.x;
  const int lg = tid % G, grp = tid / G;
  const int64_t bh = blockIdx.x / nsplit;
  const int split = blockIdx.x % nsplit;
  const int start = split * CHUNK;
  const int end = min(L, start + CHUNK);
  const __half* kb = k + bh * L * D;
  const __half* vb = v + bh * L * D;

  float qf[NV];
  {
    Slice<VEC, PER> t;
    t.load(q + bh * D, lg, G, D);
#pragma unroll
    for (int i = 0; i < NV; ++i) qf[i] = t.f[i] * qscale;
  }

  float m = -INFINITY, l = 0.0f, acc[NV];
#pragma unroll
  for (int i = 0; i < NV; ++i) acc[i] = 0.0f;

  for (int base = start; base < end; base += NG * KB) {  // uniform over the block
    Slice<VEC, PER> kr[KB], vr[KB];
#pragma unroll
    for (int i = 0; i < KB; ++i) {
      const int j = base + i * NG + grp;
      if (j < end) {
        kr[i].load(kb + (int64_t)j * D, lg, G, D);
        vr[i].load(vb + (int64_t)j * D, lg, G, D);
      } else {
        kr[i].zero();
        vr[i].zero();
      }
    }
    float s[KB];
#pragma unroll
    for (int i = 0; i < KB; ++i) {
      float a = 0.0f;
#pragma unroll
      for (int e = 0; e < NV; ++e) a = fmaf(qf[e], kr[i].f[e], a);
      s[i] = a;
    }
#pragma unroll
    for (int o = 1; o < G; o <<= 1)
#pragma unroll
      for (int i = 0; i < KB; ++i) s[i] += __shfl_xor(s[i], o);

    float mt = -INFINITY;
#pragma unroll
    for (int i = 0; i < KB; ++i) {
      if (base + i * NG + grp >= end) s[i] = -INFINITY;
      mt = fmaxf(mt, s[i]);
    }
    const float mn = fmaxf(m, mt);
    const float mref = mn == -INFINITY ? 0.0f : mn;  // no key yet: keep everything at zero
    const float alpha = exp2f(m - mref);             // m == -inf gives 0
    l *= alpha;
#pragma unroll
    for (int e = 0; e < NV; ++e) acc[e] *= alpha;
#pragma unroll
    for (int i = 0; i < KB; ++i) {
      const float p = exp2f(s[i] - mref);
      l += p;
#pragma unroll
      for (int e = 0; e < NV; ++e) acc[e] = fmaf(p, vr[i].f[e], acc[e]);
    }
    m = mn;
  }

  // Merge the groups of the block.
  if (lg == 0) {
    sm_m[grp] = m;
    sm_l[grp] = l;
  }
#pragma unroll
  for (int p = 0; p < PER; ++p) {
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      const int d = VEC == 8 ? (p * G + lg) * 8 + e : p * G + lg;
      if (d < D) sm_acc[grp * D + d] = acc[p * VEC + e];
    }
  }
  __syncthreads();
  float mb = -INFINITY;
  for (int g = 0; g < NG; ++g) mb = fmaxf(mb, sm_m[g]);  // finite: group 0 saw key `start`
  if (tid < NG) sm_w[tid] = exp2f(sm_m[tid] - mb);     // groups without keys: exp2(-inf) = 0
  __syncthreads();
  float lb = 0.0f;
  for (int g = 0; g < NG; ++g) lb += sm_w[g] * sm_l[g];
  for (int d = tid; d < D; d += THREADS) {
    float o = 0.0f;
    for (int g = 0; g < NG; ++g) o += sm_w[g] * sm_acc[g * D + d];
    if (nsplit == 1)
      out[bh * D + d] = __float2half(o / lb);
    else
      ws_acc[(bh * nsplit + split) * D + d] = o;
  }
  if (nsplit > 1 && tid == 0) {
    ws_m[bh * nsplit + split] = mb;
    ws_l[bh * nsplit + split] = lb;
  }
}

// One block per (batch, head): merge the nsplit chunk states.
__global__ __launch_bounds__(THREADS) void attn_decode_combine(const float* __restrict__ ws_m,
                                                               const float* __restrict__ ws_l,
                                                               const float* __restrict__ ws_acc,
                                                               __half* __restrict__ out, int D, int nsplit) {
  extern __shared__ float w[];  // nsplit weights
  const int tid = threadIdx.x;
  const int64_t bh = blockIdx.x;
  const float* mrow = ws_m + bh * nsplit;
  const float* lrow = ws_l + bh * nsplit;
  float mx = -INFINITY;
  for (int s = 0; s < nsplit; ++s) mx = fmaxf(mx, mrow[s]);
  for (int s = tid; s < nsplit; s += THREADS) w[s] = exp2f(mrow[s] - mx);
  __syncthreads();
  float l = 0.0f;
  for (int s = 0; s < nsplit; ++s) l += w[s] * lrow[s];
  const float inv = 1.0f / l;
  for (int d = tid; d < D; d += THREADS) {
    float o = 0.0f;
    for (int s = 0; s < nsplit; ++s) o += w[s] * ws_acc[(bh * nsplit + s) * D + d];
    out[bh * D + d] = __float2half(o * inv);
  }
}

static int num_splits(int64_t L) { return (int)((L + CHUNK - 1) / CHUNK); }

ARENA_EXPORT size_t arena_workspace_size(const arena_args* a) {
  const int64_t bh = a->ints[0] * a->ints[1];
  const int64_t ns = num_splits(a->ints[2]);
  const int64_t D = a->ints[3];
  if (ns == 1) return 0;
  return (size_t)(bh * ns * (D + 2)) * sizeof(float);
}

struct Args {
  const __half *q, *k, *v;
  __half* out;
  float *ws_m, *ws_l, *ws_acc;
  int L, D, nsplit;
  float qscale;
  int64_t blocks;
  hipStream_t stream;
};

template <int VEC, int G, int PER, int KB>
static void launch_partial(const Args& p) {
  hipLaunchKernelGGL((attn_decode_partial<VEC, G, PER, KB>), dim3((unsigned)p.blocks), dim3(THREADS), 0, p.stream,
                     p.q, p.k, p.v, p.out, p.ws_m, p.ws_l, p.ws_acc, p.L, p.D, p.nsplit, p.qscale);
}

ARENA_EXPORT int arena_launch(const arena_args* a) {
  Args p;
  p.q = static_cast<const __half*>(a->tensors[0]);
  p.k = static_cast<const __half*>(a->tensors[1]);
  p.v = static_cast<const __half*>(a->tensors[2]);
  p.out = static_cast<__half*>(a->tensors[3]);
  const int64_t bh = a->ints[0] * a->ints[1];
  p.L = (int)a->ints[2];
  p.D = (int)a->ints[3];
  p.nsplit = num_splits(p.L);
  p.qscale = (float)a->floats[0] * LOG2E;
  p.blocks = bh * p.nsplit;
  p.stream = a->stream;
  float* ws = static_cast<float*>(a->workspace);
  p.ws_acc = ws;
  p.ws_m = p.nsplit > 1 ? ws + bh * p.nsplit * p.D : nullptr;
  p.ws_l = p.nsplit > 1 ? p.ws_m + bh * p.nsplit : nullptr;

  if (p.D % 8 == 0) {
    const int lanes = p.D / 8;  // 1..32 lanes of 8 dims
    if (lanes <= 1) launch_partial<8, 1, 1, 4>(p);
    else if (lanes <= 2) launch_partial<8, 2, 1, 4>(p);
    else if (lanes <= 4) launch_partial<8, 4, 1, 4>(p);
    else if (lanes <= 8) launch_partial<8, 8, 1, 4>(p);
    else if (lanes <= 16) launch_partial<8, 16, 1, 4>(p);
    else launch_partial<8, 32, 1, 4>(p);
  } else {
    launch_partial<1, 32, MAX_D / 32, 2>(p);
  }
  if (hipGetLastError() != hipSuccess) return 1;
  if (p.nsplit > 1) {
    hipLaunchKernelGGL(attn_decode_combine, dim3((unsigned)bh), dim3(THREADS), (size_t)p.nsplit * sizeof(float),
                       a->stream, p.ws_m, p.ws_l, p.ws_acc, p.out, p.D, p.nsplit);
  }
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
