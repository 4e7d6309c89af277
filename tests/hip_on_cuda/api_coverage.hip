// Exercises everything the hip_on_cuda layer (harness/include/hip_on_cuda) claims to cover.
//
// Built by run_compile_checks.sh as a compile check: `nvcc -x cu -c` and a shared library
// linked with --no-undefined (so every runtime, driver and NVRTC symbol it references must
// resolve). The same code is a runnable self-test on a machine with an NVIDIA GPU:
// build with -DHIP_ON_CUDA_SELFTEST_MAIN and link -lcuda -lnvrtc, then run it; it checks
// results against known answers and exits non-zero on any mismatch.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
#include <hip/hiprtc.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <thread>
#include <type_traits>
#include <vector>

// ---------------------------------------------------------------------------------------
// Platform macros
#if !defined(__HIP_PLATFORM_NVIDIA__) || !defined(__HIP_PLATFORM_NVCC__)
#error "__HIP_PLATFORM_NVIDIA__ / __HIP_PLATFORM_NVCC__ must be defined"
#endif
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP__)
#error "__HIP_PLATFORM_AMD__ and __HIP__ must not be defined on NVIDIA"
#endif
#if !defined(HIP_VERSION) || HIP_VERSION < 60000000
#error "HIP_VERSION must say HIP >= 6.0"
#endif
#if !defined(__HIPCC__) || !defined(__HIP_ON_CUDA__)
#error "__HIPCC__ and __HIP_ON_CUDA__ must be defined under nvcc"
#endif
#if defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#error "__HIP_DEVICE_COMPILE__ must be defined in the device pass"
#endif

// ---------------------------------------------------------------------------------------
// Types
static_assert(std::is_same<hipError_t, cudaError_t>::value, "hipError_t is cudaError_t");
static_assert(std::is_same<hipStream_t, cudaStream_t>::value, "hipStream_t is cudaStream_t");
static_assert(std::is_same<hipEvent_t, cudaEvent_t>::value, "hipEvent_t is cudaEvent_t");
static_assert(std::is_same<hipDeviceptr_t, void*>::value, "hipDeviceptr_t is void*, as on AMD");
static_assert(std::is_same<hipModule_t, CUmodule>::value, "hipModule_t");
static_assert(std::is_same<hipFunction_t, CUfunction>::value, "hipFunction_t");
static_assert(std::is_same<__hip_bfloat16, __nv_bfloat16>::value, "__hip_bfloat16");
static_assert(sizeof(__hip_bfloat162) == 4 && sizeof(__half2) == 4, "packed pairs");
static_assert(hipSuccess == 0 && hipErrorInvalidValue == 1 && hipErrorOutOfMemory == 2 &&
                  hipErrorNotReady == 600 && hipErrorNoDevice == 100 && hipErrorInvalidDevice == 101 &&
                  hipErrorNotSupported == 801 && hipErrorInvalidHandle == 400 &&
                  hipErrorIllegalAddress == 700 && hipErrorLaunchFailure == 719,
              "HIP error numbers match HIP's own");
static_assert(hipMemcpyHostToHost == 0 && hipMemcpyHostToDevice == 1 && hipMemcpyDeviceToHost == 2 &&
                  hipMemcpyDeviceToDevice == 3 && hipMemcpyDefault == 4,
              "hipMemcpyKind values");
static_assert(hipStreamDefault == 0 && hipStreamNonBlocking == 1 && hipEventDefault == 0 &&
                  hipEventBlockingSync == 1 && hipEventDisableTiming == 2 && hipEventInterprocess == 4 &&
                  hipHostMallocDefault == 0 && hipHostMallocPortable == 1 && hipHostMallocMapped == 2 &&
                  hipHostMallocWriteCombined == 4,
              "flag values (HIP took CUDA's)");

static int g_failures = 0;
#define CHECK(cond)                                                                       \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                     \
      ++g_failures;                                                                       \
    }                                                                                     \
  } while (0)
#define HIP_CHECK(call)                                                                   \
  do {                                                                                    \
    hipError_t e_ = (call);                                                               \
    if (e_ != hipSuccess) {                                                               \
      fprintf(stderr, "FAIL %s:%d: %s -> %s (%s)\n", __FILE__, __LINE__, #call,           \
              hipGetErrorName(e_), hipGetErrorString(e_));                                \
      ++g_failures;                                                                       \
    }                                                                                     \
  } while (0)

// ---------------------------------------------------------------------------------------
// Kernels: launch forms, indices, dynamic shared memory, launch bounds
__global__ void noop_kernel() {}

template <typename T, int Mul>
__global__ void scale_kernel(T* data, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) data[i] *= T(Mul);
  (void)hipThreadIdx_y; (void)hipThreadIdx_z; (void)hipBlockIdx_y; (void)hipBlockIdx_z;
  (void)hipBlockDim_y; (void)hipBlockDim_z; (void)hipGridDim_x; (void)hipGridDim_y; (void)hipGridDim_z;
}

// Dynamic shared memory above the 48 KiB default (needs hipFuncSetAttribute).
__global__ void __launch_bounds__(256) dyn_shared_kernel(int* out, int words) {
  HIP_DYNAMIC_SHARED(int, smem)
  for (int i = threadIdx.x; i < words; i += blockDim.x) smem[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int i = 0; i < words; ++i) s += smem[i];
    out[0] = (int)(s == (long long)words * (words - 1) / 2);
  }
}

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// ---------------------------------------------------------------------------------------
// Warp functions. One warp; each lane writes its results to out[slot * 32 + lane].
enum WarpSlot {
  kShflInt, kShflDownInt, kShflUpInt, kShflXorInt, kShflWidth16, kShflUnsigned,
  kSumFloat, kSumDouble, kShflDownLL, kShflULL, kShflLong, kShflHalf, kShflHalf2,
  kShflBf16, kShflBf162, kBallotLo, kBallotHi, kBallotDivergent, kAny, kAll, kAllDivergent,
  kLaneId, kActiveMask, kNumSlots
};

__global__ void warp_kernel(long long* out) {
  const int lane = threadIdx.x;
  long long* o = out + lane;
  int v = 100 + lane;
  o[kShflInt * 32] = __shfl(v, 3);
  o[kShflDownInt * 32] = __shfl_down(v, 1);  // lane 31 keeps its own value
  o[kShflUpInt * 32] = __shfl_up(v, 2);      // lanes 0,1 keep their own value
  o[kShflXorInt * 32] = __shfl_xor(v, 1);
  o[kShflWidth16 * 32] = __shfl(v, 0, 16);   // lane 0 or 16 of each half
  o[kShflUnsigned * 32] = (long long)__shfl_down(0x80000000u + lane, 4u);

  float f = (float)lane;
  double d = (double)lane * 0.5;
  for (int m = 16; m > 0; m >>= 1) {
    f += __shfl_xor(f, m);
    d += __shfl_down(d, m);
  }
  o[kSumFloat * 32] = (long long)f;                          // 496 on every lane
  o[kSumDouble * 32] = lane == 0 ? (long long)(d * 2) : -1;  // 496 on lane 0

  long long big = (1LL << 40) + lane;
  o[kShflDownLL * 32] = __shfl_down(big, 1);
  unsigned long long ubig = (1ULL << 63) + lane;
  o[kShflULL * 32] = (long long)(__shfl(ubig, 31) - (1ULL << 63));
  long l = (1L << 35) + lane;
  o[kShflLong * 32] = __shfl_up(l, 1);

  __half h = __float2half((float)lane);
  o[kShflHalf * 32] = (long long)__half2float(__shfl_xor(h, 2));
  __half2 h2 = __floats2half2_rn((float)lane, (float)(2 * lane));
  float2 h2f = __half22float2(__shfl(h2, 5));
  o[kShflHalf2 * 32] = (long long)(h2f.x + h2f.y);  // 5 + 10
  __hip_bfloat16 b = __float2bfloat16((float)lane);
  o[kShflBf16 * 32] = (long long)__bfloat162float(__shfl_down(b, 2));
  __hip_bfloat162 b2 = __floats2bfloat162_rn((float)lane, 1.0f);
  float2 b2f = __bfloat1622float2(__shfl_up(b2, 1));
  o[kShflBf162 * 32] = (long long)(b2f.x + b2f.y);

  static_assert(std::is_same<decltype(__ballot(1)), unsigned long long>::value,
                "__ballot returns 64 bits, as in HIP");
  unsigned long long bal = __ballot(lane & 1);
  o[kBallotLo * 32] = (long long)(bal & 0xffffffffull);
  o[kBallotHi * 32] = (long long)(bal >> 32);
  o[kBallotDivergent * 32] = -1;
  o[kAllDivergent * 32] = -1;
  if (lane < 8) {  // only the active lanes vote, as on AMD
    o[kBallotDivergent * 32] = (long long)__ballot(1);
    o[kAllDivergent * 32] = __all(lane < 8);
  }
  o[kAny * 32] = __any(lane == 17);
  o[kAll * 32] = __all(lane < 31);
  o[kLaneId * 32] = __lane_id();
  o[kActiveMask * 32] = __activemask();
  __syncwarp();
}

// ---------------------------------------------------------------------------------------
// Clocks: spin until wall_clock64() has advanced `ns`; record both clocks' deltas.
__global__ void clock_kernel(long long ns, long long* out) {
  long long w0 = wall_clock64();
  long long c0 = clock64();
  long long c1 = __clock64();
  while (wall_clock64() - w0 < ns) {
  }
  out[0] = wall_clock64() - w0;
  out[1] = clock64() - c0;
  out[2] = (long long)(__clock() != 0 || c1 >= c0);
}

__global__ void atomics_kernel(float* fs, double* ds) {
  unsafeAtomicAdd(fs, 1.0f);
  safeAtomicAdd(fs + 1, 2.0f);
  unsafeAtomicAdd(ds, 1.0);
  safeAtomicAdd(ds + 1, 2.0);
}

// fp16/bf16 conversions and arithmetic under HIP's names.
__global__ void half_kernel(float* out) {
  __half a = __float2half(1.5f), b = __float2half_rn(2.25f);
  out[0] = __half2float(__hadd(a, b));                       // 3.75
  out[1] = __half2float(__hfma(a, b, __float2half(1.0f)));   // 4.375
  float2 f2 = __half22float2(__float22half2_rn(make_float2(0.5f, -2.0f)));
  out[2] = f2.x + f2.y;                                      // -1.5
  __hip_bfloat16 c = __float2bfloat16(3.0f);
  out[3] = __bfloat162float(__hmul(c, __float2bfloat16(2.0f)));  // 6
  float2 g = __bfloat1622float2(__float22bfloat162_rn(make_float2(1.0f, 2.0f)));
  out[4] = g.x * g.y;                                        // 2
  half hh = half(0.25f);
  out[5] = __half2float(hh);                                 // 0.25
}

// ---------------------------------------------------------------------------------------
static void check_device(int dev) {
  hipDeviceProp_t p;
  HIP_CHECK(hipGetDeviceProperties(&p, dev));
  printf("device %d: %s (%s), %d SMs, %d kHz SM, %d kHz mem, %d-bit bus, L2 %d B\n", dev, p.name,
         p.gcnArchName, p.multiProcessorCount, p.clockRate, p.memoryClockRate, p.memoryBusWidth,
         p.l2CacheSize);
  printf("  smem/block %zu (opt-in %zu), smem/SM %zu, regs/block %d, max threads %d, pci %d:%d.%d, "
         "mode %d\n",
         p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.maxSharedMemoryPerMultiProcessor,
         p.regsPerBlock, p.maxThreadsPerBlock, p.pciDomainID, p.pciBusID, p.pciDeviceID,
         p.computeMode);
  CHECK(p.warpSize == 32);
  CHECK(p.totalGlobalMem > 0 && p.clockRate > 0 && p.memoryClockRate > 0);
  CHECK(p.maxThreadsDim[0] >= 1024 && p.maxGridSize[0] > 65535);
  CHECK(p.sharedMemPerBlockOptin >= p.sharedMemPerBlock);
  char arch[32];
  snprintf(arch, sizeof arch, "sm_%d%d", p.major, p.minor);
  CHECK(strcmp(arch, p.gcnArchName) == 0);

  char name[256];
  HIP_CHECK(hipDeviceGetName(name, (int)sizeof name, dev));
  CHECK(strcmp(name, p.name) == 0);

  static const hipDeviceAttribute_t attrs[] = {
      hipDeviceAttributeMaxThreadsPerBlock, hipDeviceAttributeMaxBlockDimX,
      hipDeviceAttributeMaxBlockDimY, hipDeviceAttributeMaxBlockDimZ, hipDeviceAttributeMaxGridDimX,
      hipDeviceAttributeMaxGridDimY, hipDeviceAttributeMaxGridDimZ, hipDeviceAttributeWarpSize,
      hipDeviceAttributeMultiprocessorCount, hipDeviceAttributeMaxThreadsPerMultiProcessor,
      hipDeviceAttributeMaxBlocksPerMultiProcessor, hipDeviceAttributeMaxRegistersPerBlock,
      hipDeviceAttributeMaxRegistersPerMultiprocessor, hipDeviceAttributeMaxSharedMemoryPerBlock,
      hipDeviceAttributeSharedMemPerBlockOptin, hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,
      hipDeviceAttributeSharedMemPerMultiprocessor, hipDeviceAttributeTotalConstantMemory,
      hipDeviceAttributeL2CacheSize, hipDeviceAttributePersistingL2CacheMaxSize,
      hipDeviceAttributeClockRate, hipDeviceAttributeClockInstructionRate,
      hipDeviceAttributeWallClockRate, hipDeviceAttributeMemoryClockRate,
      hipDeviceAttributeMemoryBusWidth, hipDeviceAttributeComputeCapabilityMajor,
      hipDeviceAttributeComputeCapabilityMinor, hipDeviceAttributeComputeMode,
      hipDeviceAttributeConcurrentKernels, hipDeviceAttributeCooperativeLaunch,
      hipDeviceAttributeIntegrated, hipDeviceAttributeEccEnabled, hipDeviceAttributePciBusId,
      hipDeviceAttributePciDeviceId, hipDeviceAttributePciDomainID};
  int v[sizeof attrs / sizeof attrs[0]];
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; ++i)
    HIP_CHECK(hipDeviceGetAttribute(&v[i], attrs[i], dev));
  int x = 0;
  HIP_CHECK(hipDeviceGetAttribute(&x, hipDeviceAttributeWarpSize, dev));
  CHECK(x == 32);
  HIP_CHECK(hipDeviceGetAttribute(&x, hipDeviceAttributeWallClockRate, dev));
  CHECK(x == 1000000);
  HIP_CHECK(hipDeviceGetAttribute(&x, hipDeviceAttributeMultiprocessorCount, dev));
  CHECK(x == p.multiProcessorCount);
  HIP_CHECK(hipDeviceGetAttribute(&x, hipDeviceAttributeClockRate, dev));
  CHECK(x == p.clockRate);
  HIP_CHECK(hipDeviceGetAttribute(&x, hipDeviceAttributeSharedMemPerBlockOptin, dev));
  CHECK((size_t)x == p.sharedMemPerBlockOptin);
  HIP_CHECK(hipDeviceGetAttribute(&x, hipDeviceAttributeComputeCapabilityMajor, dev));
  CHECK(x == p.major);
  HIP_CHECK(hipDeviceGetAttribute(&x, hipDeviceAttributePciBusId, dev));
  CHECK(x == p.pciBusID);
  CHECK(hipDeviceGetAttribute(&x, (hipDeviceAttribute_t)12345, dev) == hipErrorInvalidValue);

  int drv = 0, rt = 0;
  HIP_CHECK(hipDriverGetVersion(&drv));
  HIP_CHECK(hipRuntimeGetVersion(&rt));
  printf("  driver %d, runtime %d\n", drv, rt);
  CHECK(rt >= 13000);
}

static void check_memory_streams_events() {
  const int n = 1 << 20;
  int dev = -1;
  HIP_CHECK(hipGetDevice(&dev));
  float *a = nullptr, *b = nullptr, *c = nullptr, *h = nullptr;
  HIP_CHECK(hipMalloc(&a, n * sizeof(float)));
  HIP_CHECK(hipMalloc((void**)&b, n * sizeof(float)));
  HIP_CHECK(hipMallocManaged(&c, n * sizeof(float)));
  HIP_CHECK(hipHostMalloc(&h, n * sizeof(float)));
  void* h2 = nullptr;
  HIP_CHECK(hipHostMalloc(&h2, 64, hipHostMallocPortable | hipHostMallocCoherent));

  size_t free_b = 0, total_b = 0;
  HIP_CHECK(hipMemGetInfo(&free_b, &total_b));
  CHECK(free_b > 0 && total_b >= free_b);

  hipStream_t s1, s2, s3;
  HIP_CHECK(hipStreamCreate(&s1));
  HIP_CHECK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
  int lo = 0, hi = 0;
  HIP_CHECK(hipDeviceGetStreamPriorityRange(&lo, &hi));
  HIP_CHECK(hipStreamCreateWithPriority(&s3, hipStreamDefault, hi));
  hipEvent_t e0, e1, e2, e3;
  HIP_CHECK(hipEventCreate(&e0));
  HIP_CHECK(hipEventCreateWithFlags(&e1, hipEventDefault));
  HIP_CHECK(hipEventCreateWithFlags(&e2, hipEventDisableTiming));
  HIP_CHECK(hipEventCreateWithFlags(&e3, hipEventBlockingSync));

  for (int i = 0; i < n; ++i) h[i] = (float)i;
  HIP_CHECK(hipEventRecord(e0, s1));
  HIP_CHECK(hipMemcpyAsync(a, h, n * sizeof(float), hipMemcpyHostToDevice, s1));
  HIP_CHECK(hipMemsetD32Async(b, 0x3f800000 /* 1.0f */, n, s1));
  HIP_CHECK(hipMemPrefetchAsync(c, n * sizeof(float), dev, s1));
  hipLaunchKernelGGL(add_kernel, dim3((n + 255) / 256), dim3(256), 0, s1, a, b, c, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipEventRecord(e1, s1));
  HIP_CHECK(hipEventRecord(e2, s1));
  HIP_CHECK(hipStreamWaitEvent(s2, e2, 0));
  HIP_CHECK(hipMemsetAsync(b, 0, 16, s2));
  HIP_CHECK(hipEventRecord(e3, s2));
  HIP_CHECK(hipEventSynchronize(e3));
  HIP_CHECK(hipEventQuery(e1));
  HIP_CHECK(hipStreamQuery(s1));
  float ms = -1.0f;
  HIP_CHECK(hipEventElapsedTime(&ms, e0, e1));
  CHECK(ms >= 0.0f);
  CHECK(hipEventElapsedTime(&ms, e0, e2) != hipSuccess);  // e2 has timing disabled
  (void)hipGetLastError();
  HIP_CHECK(hipStreamSynchronize(s2));
  HIP_CHECK(hipDeviceSynchronize());
  CHECK(c[0] == 1.0f && c[n - 1] == (float)(n - 1) + 1.0f);  // managed memory, read on host

  HIP_CHECK(hipMemcpy(h, b, 32, hipMemcpyDeviceToHost));
  CHECK(h[0] == 0.0f && h[3] == 0.0f && h[4] == 1.0f);
  // Pattern fills (counts in elements) and a pitched copy; `a` as 32-bit words afterwards:
  // [7 7 7 7 | 0x01020102 | 0x11111111 | 0x22222222 | 0x33333333].
  unsigned* w = reinterpret_cast<unsigned*>(a);
  HIP_CHECK(hipMemset(a, 0, n * sizeof(float)));
  HIP_CHECK(hipMemsetD32(w, 7, 4));
  HIP_CHECK(hipMemsetD16(w + 4, 0x0102, 2));
  HIP_CHECK(hipMemsetD8(w + 5, 0x11, 4));
  HIP_CHECK(hipMemsetD8Async(w + 6, 0x22, 4, s1));
  HIP_CHECK(hipMemsetD16Async(w + 7, 0x3333, 2, s1));
  unsigned got[6] = {0, 0, 0, 0, 0, 0};
  // Two rows of 8 bytes, source pitch 16: words 0,1 then 4,5.
  HIP_CHECK(hipMemcpy2DAsync(got, 8, w, 16, 8, 2, hipMemcpyDeviceToHost, s1));
  HIP_CHECK(hipMemcpyAsync(got + 4, w + 6, 8, hipMemcpyDeviceToHost, s1));
  HIP_CHECK(hipStreamSynchronize(s1));
  CHECK(got[0] == 7 && got[1] == 7 && got[2] == 0x01020102u && got[3] == 0x11111111u &&
        got[4] == 0x22222222u && got[5] == 0x33333333u);

  void* pool = nullptr;
  HIP_CHECK(hipMallocAsync(&pool, 1 << 16, s1));
  HIP_CHECK(hipFreeAsync(pool, s1));
  HIP_CHECK(hipStreamSynchronize(s1));

  HIP_CHECK(hipEventDestroy(e0));
  HIP_CHECK(hipEventDestroy(e1));
  HIP_CHECK(hipEventDestroy(e2));
  HIP_CHECK(hipEventDestroy(e3));
  HIP_CHECK(hipStreamDestroy(s1));
  HIP_CHECK(hipStreamDestroy(s2));
  HIP_CHECK(hipStreamDestroy(s3));
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipFree(b));
  HIP_CHECK(hipFree(c));
  HIP_CHECK(hipHostFree(h));
  HIP_CHECK(hipHostFree(h2));
}

static void check_warp_functions() {
  long long* d = nullptr;
  HIP_CHECK(hipMalloc(&d, kNumSlots * 32 * sizeof(long long)));
  hipLaunchKernelGGL(warp_kernel, dim3(1), dim3(32), 0, 0, d);
  HIP_CHECK(hipGetLastError());
  std::vector<long long> r(kNumSlots * 32);
  HIP_CHECK(hipMemcpy(r.data(), d, r.size() * sizeof(long long), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d));
  for (int l = 0; l < 32; ++l) {
    auto at = [&](int slot) { return r[slot * 32 + l]; };
    CHECK(at(kShflInt) == 103);
    CHECK(at(kShflDownInt) == 100 + (l < 31 ? l + 1 : l));
    CHECK(at(kShflUpInt) == 100 + (l >= 2 ? l - 2 : l));
    CHECK(at(kShflXorInt) == 100 + (l ^ 1));
    CHECK(at(kShflWidth16) == 100 + (l & 16));
    CHECK(at(kShflUnsigned) == 0x80000000LL + (l < 28 ? l + 4 : l));
    CHECK(at(kSumFloat) == 496);
    CHECK(at(kSumDouble) == (l == 0 ? 496 : -1));
    CHECK(at(kShflDownLL) == (1LL << 40) + (l < 31 ? l + 1 : l));
    CHECK(at(kShflULL) == 31);
    CHECK(at(kShflLong) == (1LL << 35) + (l >= 1 ? l - 1 : l));
    CHECK(at(kShflHalf) == (l ^ 2));
    CHECK(at(kShflHalf2) == 15);
    CHECK(at(kShflBf16) == (l < 30 ? l + 2 : l));
    CHECK(at(kShflBf162) == (l >= 1 ? l - 1 : l) + 1);
    CHECK(at(kBallotLo) == 0xAAAAAAAALL);
    CHECK(at(kBallotHi) == 0);
    CHECK(at(kBallotDivergent) == (l < 8 ? 0xFF : -1));
    CHECK(at(kAllDivergent) == (l < 8 ? 1 : -1));
    CHECK(at(kAny) == 1);
    CHECK(at(kAll) == 0);
    CHECK(at(kLaneId) == l);
    CHECK(at(kActiveMask) == 0xFFFFFFFFLL);
  }
}

static void check_kernels_and_launch_api(int dev) {
  // hipLaunchKernelGGL forms: template kernels via HIP_KERNEL_NAME or parentheses, no args.
  const int n = 1000;
  float* f = nullptr;
  double* g = nullptr;
  HIP_CHECK(hipMalloc(&f, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&g, n * sizeof(double)));
  std::vector<float> hf(n, 1.0f);
  std::vector<double> hg(n, 1.0);
  HIP_CHECK(hipMemcpy(f, hf.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(g, hg.data(), n * sizeof(double), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale_kernel<float, 2>), dim3((n + 127) / 128), dim3(128), 0, 0, f, n);
  hipLaunchKernelGGL((scale_kernel<double, 3>), (n + 127) / 128, 128, 0, hipStreamPerThread, g, n);
  hipLaunchKernelGGL(noop_kernel, dim3(1), dim3(1), 0, 0);
  HIP_CHECK(hipGetLastError());

  // hipLaunchKernel with an argument array, the const void* form HIP uses.
  int n2 = n;
  void* args[] = {&f, &n2};
  HIP_CHECK(hipLaunchKernel((const void*)scale_kernel<float, 2>, dim3((n + 127) / 128), dim3(128),
                            args, 0, 0));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(hf.data(), f, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hg.data(), g, n * sizeof(double), hipMemcpyDeviceToHost));
  CHECK(hf[0] == 4.0f && hf[n - 1] == 4.0f && hg[0] == 3.0 && hg[n - 1] == 3.0);

  // Dynamic shared memory beyond 48 KiB, after opting in.
  int optin = 0;
  HIP_CHECK(hipDeviceGetAttribute(&optin, hipDeviceAttributeSharedMemPerBlockOptin, dev));
  const int words = (optin - 1024) / (int)sizeof(int);
  int* ok = nullptr;
  HIP_CHECK(hipMalloc(&ok, sizeof(int)));
  HIP_CHECK(hipMemset(ok, 0, sizeof(int)));
  HIP_CHECK(hipFuncSetAttribute((const void*)dyn_shared_kernel, hipFuncAttributeMaxDynamicSharedMemorySize,
                                words * (int)sizeof(int)));
  HIP_CHECK(hipFuncSetAttribute((const void*)dyn_shared_kernel,
                                hipFuncAttributePreferredSharedMemoryCarveout, 100));
  hipLaunchKernelGGL(dyn_shared_kernel, dim3(1), dim3(256), words * sizeof(int), 0, ok, words);
  HIP_CHECK(hipGetLastError());
  int okh = 0;
  HIP_CHECK(hipMemcpy(&okh, ok, sizeof(int), hipMemcpyDeviceToHost));
  CHECK(okh == 1);
  HIP_CHECK(hipFree(ok));

  // Occupancy: kernel as a function and as const void*.
  int blocks = 0, blocks2 = 0, grid = 0, block = 0;
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add_kernel, 256, 0));
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks2, (const void*)add_kernel, 256, 0));
  CHECK(blocks > 0 && blocks == blocks2);
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks2, (const void*)add_kernel,
                                                                  256, 0, 0));
  HIP_CHECK(hipOccupancyMaxPotentialBlockSize(&grid, &block, add_kernel));
  CHECK(grid > 0 && block > 0 && block <= 1024);
  HIP_CHECK(hipOccupancyMaxPotentialBlockSize(&grid, &block, (const void*)add_kernel, 0, 128));
  CHECK(block > 0 && block <= 128);

  // Errors: a bad launch (CUDA 13 says cudaErrorInvalidValue for an oversized block) is
  // reported by hipPeekAtLastError, then returned and cleared by hipGetLastError.
  hipLaunchKernelGGL(noop_kernel, dim3(1), dim3(4096), 0, 0);
  const hipError_t peeked = hipPeekAtLastError();
  CHECK(peeked != hipSuccess && hipGetLastError() == peeked);
  CHECK(hipGetLastError() == hipSuccess);
  CHECK(strcmp(hipGetErrorName(hipErrorNotReady), "cudaErrorNotReady") == 0);
  CHECK(hipGetErrorString(hipErrorOutOfMemory) != nullptr);
  CHECK(hipSetDevice(1 << 20) == hipErrorInvalidDevice);
  (void)hipGetLastError();
  HIP_CHECK(hipSetDevice(dev));

  float* fs = nullptr;
  double* ds = nullptr;
  HIP_CHECK(hipMalloc(&fs, 2 * sizeof(float)));
  HIP_CHECK(hipMalloc(&ds, 2 * sizeof(double)));
  HIP_CHECK(hipMemset(fs, 0, 2 * sizeof(float)));
  HIP_CHECK(hipMemset(ds, 0, 2 * sizeof(double)));
  hipLaunchKernelGGL(atomics_kernel, dim3(4), dim3(64), 0, 0, fs, ds);
  float fh[2];
  double dh[2];
  HIP_CHECK(hipMemcpy(fh, fs, sizeof fh, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(dh, ds, sizeof dh, hipMemcpyDeviceToHost));
  CHECK(fh[0] == 256.0f && fh[1] == 512.0f && dh[0] == 256.0 && dh[1] == 512.0);
  HIP_CHECK(hipFree(fs));
  HIP_CHECK(hipFree(ds));

  float* hv = nullptr;
  HIP_CHECK(hipMalloc(&hv, 6 * sizeof(float)));
  hipLaunchKernelGGL(half_kernel, dim3(1), dim3(1), 0, 0, hv);
  float hh[6];
  HIP_CHECK(hipMemcpy(hh, hv, sizeof hh, hipMemcpyDeviceToHost));
  CHECK(hh[0] == 3.75f && hh[1] == 4.375f && hh[2] == -1.5f && hh[3] == 6.0f && hh[4] == 2.0f &&
        hh[5] == 0.25f);
  HIP_CHECK(hipFree(hv));
  HIP_CHECK(hipFree(f));
  HIP_CHECK(hipFree(g));
}

static void check_clocks() {
  // Spin 20 ms by wall_clock64(); events around it must agree (globaltimer is in ns).
  long long* d = nullptr;
  HIP_CHECK(hipMalloc(&d, 3 * sizeof(long long)));
  hipEvent_t a, b;
  HIP_CHECK(hipEventCreate(&a));
  HIP_CHECK(hipEventCreate(&b));
  const long long ns = 20 * 1000 * 1000;
  HIP_CHECK(hipEventRecord(a));
  hipLaunchKernelGGL(clock_kernel, dim3(1), dim3(1), 0, 0, ns, d);
  HIP_CHECK(hipEventRecord(b));
  HIP_CHECK(hipEventSynchronize(b));
  float ms = 0;
  HIP_CHECK(hipEventElapsedTime(&ms, a, b));
  long long h[3];
  HIP_CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  int rate = 0;
  HIP_CHECK(hipDeviceGetAttribute(&rate, hipDeviceAttributeWallClockRate, 0));
  const double wall_ms = (double)h[0] / rate;  // ticks / kHz = ms
  printf("  wall_clock64: %.3f ms by the counter, %.3f ms by events; clock64 %lld cycles\n", wall_ms,
         ms, h[1]);
  CHECK(wall_ms >= 20.0 && wall_ms < 25.0);
  CHECK(ms >= 19.0f && ms < 40.0f);
  CHECK(h[1] > 0 && h[2] == 1);
  HIP_CHECK(hipEventDestroy(a));
  HIP_CHECK(hipEventDestroy(b));
  HIP_CHECK(hipFree(d));
}

// Runtime compilation and the module API: compile, load, launch, check.
static const char* kRtcSource =
    "extern \"C\" __global__ void axpy(float a, const float* x, float* y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] += a * x[i];\n"
    "}\n"
    "template <int K> __global__ void fill(int* p) { p[threadIdx.x] = K; }\n";

static void check_rtc_and_modules(const char* arch_option) {
  int major = 0, minor = 0;
  CHECK(hiprtcVersion(&major, &minor) == HIPRTC_SUCCESS && major >= 13);
  hiprtcProgram prog;
  CHECK(hiprtcCreateProgram(&prog, kRtcSource, "axpy.cu", 0, nullptr, nullptr) == HIPRTC_SUCCESS);
  CHECK(hiprtcAddNameExpression(prog, "fill<7>") == HIPRTC_SUCCESS);
  const char* opts[] = {arch_option, "-std=c++17"};
  hiprtcResult rc = hiprtcCompileProgram(prog, 2, opts);
  size_t log_size = 0;
  CHECK(hiprtcGetProgramLogSize(prog, &log_size) == HIPRTC_SUCCESS);
  std::vector<char> log(log_size + 1, '\0');
  CHECK(hiprtcGetProgramLog(prog, log.data()) == HIPRTC_SUCCESS);
  if (rc != HIPRTC_SUCCESS)
    fprintf(stderr, "hiprtc (%s): %s\n%s\n", arch_option, hiprtcGetErrorString(rc), log.data());
  CHECK(rc == HIPRTC_SUCCESS);
  const char* lowered = nullptr;
  CHECK(hiprtcGetLoweredName(prog, "fill<7>", &lowered) == HIPRTC_SUCCESS && lowered != nullptr);
  std::string fill_name = lowered ? lowered : "";
  size_t code_size = 0;
  CHECK(hiprtcGetCodeSize(prog, &code_size) == HIPRTC_SUCCESS && code_size > 0);
  std::vector<char> code(code_size);
  CHECK(hiprtcGetCode(prog, code.data()) == HIPRTC_SUCCESS);
  CHECK(hiprtcDestroyProgram(&prog) == HIPRTC_SUCCESS);
  const bool is_ptx = code_size > 8 && memcmp(code.data(), "\x7f" "ELF", 4) != 0;
  printf("  hiprtc %s: %zu bytes of %s\n", arch_option, code_size, is_ptx ? "PTX" : "CUBIN");

  hipModule_t mod;
  hipFunction_t axpy, fill;
  HIP_CHECK(hipModuleLoadData(&mod, code.data()));
  HIP_CHECK(hipModuleGetFunction(&axpy, mod, "axpy"));
  HIP_CHECK(hipModuleGetFunction(&fill, mod, fill_name.c_str()));
  const int n = 1000;
  float *x = nullptr, *y = nullptr;
  int* p = nullptr;
  HIP_CHECK(hipMalloc(&x, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&y, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&p, 32 * sizeof(int)));
  HIP_CHECK(hipMemsetD32(x, 0x40000000 /* 2.0f */, n));
  HIP_CHECK(hipMemsetD32(y, 0x3f800000 /* 1.0f */, n));
  float a = 3.0f;
  int nn = n;
  void* params[] = {&a, &x, &y, &nn};
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipModuleLaunchKernel(axpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, params, nullptr));
  // The same launch through `extra` (packed argument buffer).
  struct Packed {  // the kernel's parameters at their ABI offsets: 0, 8, 16, 24
    float a;
    const float* x;
    float* y;
    int n;
  } packed = {1.0f, x, y, n};
  size_t packed_size = offsetof(Packed, n) + sizeof(int);  // 28: no tail padding
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                   HIP_LAUNCH_PARAM_END};
  HIP_CHECK(hipModuleLaunchKernel(axpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, nullptr, extra));
  // From a fresh thread that has made no runtime call yet (no context bound to it).
  void* fill_params[] = {&p};
  std::thread([&] {
    HIP_CHECK(hipModuleLaunchKernel(fill, 1, 1, 1, 32, 1, 1, 0, s, fill_params, nullptr));
  }).join();
  HIP_CHECK(hipStreamSynchronize(s));
  std::vector<float> yh(n);
  int ph[32];
  HIP_CHECK(hipMemcpy(yh.data(), y, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(ph, p, sizeof ph, hipMemcpyDeviceToHost));
  CHECK(yh[0] == 9.0f && yh[n - 1] == 9.0f);  // 1 + 3*2 + 1*2
  CHECK(ph[0] == 7 && ph[31] == 7);
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipModuleUnload(mod));
  HIP_CHECK(hipFree(x));
  HIP_CHECK(hipFree(y));
  HIP_CHECK(hipFree(p));
}

static void check_limits_and_misc(int dev) {
  size_t v = 0;
  HIP_CHECK(hipDeviceGetLimit(&v, hipLimitStackSize));
  CHECK(v > 0);
  HIP_CHECK(hipDeviceSetLimit(hipLimitMallocHeapSize, 16 << 20));
  HIP_CHECK(hipDeviceGetLimit(&v, hipLimitPrintfFifoSize));
  int persist_max = 0;
  HIP_CHECK(hipDeviceGetAttribute(&persist_max, hipDeviceAttributePersistingL2CacheMaxSize, dev));
  if (persist_max > 0) {
    HIP_CHECK(hipDeviceSetLimit(hipLimitPersistingL2CacheSize, (size_t)persist_max / 2));
    HIP_CHECK(hipDeviceGetLimit(&v, hipLimitPersistingL2CacheSize));
    CHECK(v > 0);
    HIP_CHECK(hipCtxResetPersistingL2Cache());
    HIP_CHECK(hipDeviceSetLimit(hipLimitPersistingL2CacheSize, 0));
  }
  HIP_CHECK(hipProfilerStart());
  HIP_CHECK(hipProfilerStop());
  CHECK(hipCUResultTohipError(CUDA_ERROR_NOT_READY) == hipErrorNotReady);
  CHECK(hipCUResultTohipError(CUDA_ERROR_INVALID_HANDLE) == hipErrorInvalidHandle);
}

// Returns the number of failed checks, or -1 when there is no usable GPU.
extern "C" __attribute__((visibility("default"))) int hip_on_cuda_selftest(void) {
  int count = 0;
  HIP_CHECK(hipInit(0));
  if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
    printf("hip_on_cuda selftest: no NVIDIA GPU, nothing run\n");
    return -1;
  }
  g_failures = 0;
  int dev = 0;
  HIP_CHECK(hipSetDevice(0));
  HIP_CHECK(hipGetDevice(&dev));
  CHECK(dev == 0);
  check_device(dev);
  check_memory_streams_events();
  check_warp_functions();
  check_kernels_and_launch_api(dev);
  check_clocks();
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, dev));
  char real_arch[64], virtual_arch[64];
  snprintf(real_arch, sizeof real_arch, "-arch=sm_%d%d", prop.major, prop.minor);
  snprintf(virtual_arch, sizeof virtual_arch, "-arch=compute_%d%d", prop.major, prop.minor);
  check_rtc_and_modules(real_arch);     // CUBIN path
  check_rtc_and_modules(virtual_arch);  // PTX path, JIT-compiled by hipModuleLoadData
  check_limits_and_misc(dev);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipDeviceReset());
  // The module API must rebind the runtime's new primary context after a reset.
  check_rtc_and_modules(real_arch);
  hipModule_t none;
  CHECK(hipModuleLoad(&none, "/nonexistent/hip_on_cuda.cubin") == hipErrorFileNotFound);
  printf("hip_on_cuda selftest: %s (%d failed checks)\n", g_failures ? "FAILED" : "passed", g_failures);
  return g_failures;
}

#ifdef HIP_ON_CUDA_SELFTEST_MAIN
int main() {
  int r = hip_on_cuda_selftest();
  return r > 0 ? 1 : 0;
}
#endif
