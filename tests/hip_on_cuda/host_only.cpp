// Host code that includes only <hip/hip_runtime_api.h>, built by a plain C++ compiler:
//   g++ -std=c++17 -I harness/include/hip_on_cuda -I <cuda>/include host_only.cpp
//       -L<cuda>/lib64 -lcudart
// It must compile without nvcc and link with cudart alone (no -lcuda: the driver-API
// wrappers it does not call leave no reference). Run on a machine with an NVIDIA GPU it
// checks the calls; without one it says so and exits 0.
#include <hip/hip_runtime_api.h>

#include <stdio.h>
#include <string.h>

#include <vector>

#if !defined(__HIP_PLATFORM_NVIDIA__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP__)
#error "platform macros"
#endif
#if defined(__HIPCC__) || defined(__HIP_DEVICE_COMPILE__)
#error "__HIPCC__ / __HIP_DEVICE_COMPILE__ are for nvcc only"
#endif

static int failures = 0;
#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);   \
      ++failures;                                                       \
    }                                                                   \
  } while (0)
#define HIP_CHECK(call)                                                                  \
  do {                                                                                   \
    hipError_t e_ = (call);                                                              \
    if (e_ != hipSuccess) {                                                              \
      fprintf(stderr, "FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, hipGetErrorName(e_)); \
      ++failures;                                                                        \
    }                                                                                    \
  } while (0)

int main() {
  int count = 0;
  hipError_t e = hipGetDeviceCount(&count);
  if (e != hipSuccess || count == 0) {
    printf("host_only: no NVIDIA GPU (%s), nothing run\n", hipGetErrorString(e));
    (void)hipGetLastError();
    return 0;
  }
  HIP_CHECK(hipSetDevice(0));
  int dev = -1;
  HIP_CHECK(hipGetDevice(&dev));

  hipDeviceProp_t p;
  HIP_CHECK(hipGetDeviceProperties(&p, dev));
  printf("host_only: %s (%s), %d SMs, %d kHz, L2 %d B, smem opt-in %zu B\n", p.name, p.gcnArchName,
         p.multiProcessorCount, p.clockRate, p.l2CacheSize, p.sharedMemPerBlockOptin);
  int warp = 0, sms = 0, wall = 0, mem_clock = 0;
  HIP_CHECK(hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, dev));
  HIP_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, dev));
  HIP_CHECK(hipDeviceGetAttribute(&wall, hipDeviceAttributeWallClockRate, dev));
  HIP_CHECK(hipDeviceGetAttribute(&mem_clock, hipDeviceAttributeMemoryClockRate, dev));
  CHECK(warp == 32 && p.warpSize == 32 && sms == p.multiProcessorCount && wall == 1000000);
  CHECK(mem_clock == p.memoryClockRate && p.clockRate > 0);

  const size_t n = 1 << 20;
  float* d = nullptr;
  float* h = nullptr;
  HIP_CHECK(hipMalloc(&d, n * sizeof(float)));
  HIP_CHECK(hipHostMalloc(&h, n * sizeof(float)));
  hipStream_t s;
  HIP_CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  hipEvent_t a, b;
  HIP_CHECK(hipEventCreate(&a));
  HIP_CHECK(hipEventCreateWithFlags(&b, hipEventBlockingSync));
  for (size_t i = 0; i < n; ++i) h[i] = (float)i;
  HIP_CHECK(hipEventRecord(a, s));
  HIP_CHECK(hipMemcpyAsync(d, h, n * sizeof(float), hipMemcpyHostToDevice, s));
  HIP_CHECK(hipMemsetAsync(d, 0, 4 * sizeof(float), s));
  HIP_CHECK(hipMemcpyAsync(h, d, n * sizeof(float), hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipEventRecord(b, s));
  HIP_CHECK(hipEventSynchronize(b));
  HIP_CHECK(hipStreamQuery(s));
  float ms = -1;
  HIP_CHECK(hipEventElapsedTime(&ms, a, b));
  CHECK(ms >= 0 && h[3] == 0.0f && h[4] == 4.0f && h[n - 1] == (float)(n - 1));
  HIP_CHECK(hipMemset(d, 0, sizeof(float)));
  HIP_CHECK(hipMemcpy(h, d, sizeof(float), hipMemcpyDeviceToHost));
  CHECK(h[0] == 0.0f);
  HIP_CHECK(hipDeviceSynchronize());

  size_t free_b = 0, total_b = 0, limit = 0;
  HIP_CHECK(hipMemGetInfo(&free_b, &total_b));
  HIP_CHECK(hipDeviceGetLimit(&limit, hipLimitStackSize));
  CHECK(total_b > 0 && limit > 0);
  int drv = 0, rt = 0;
  HIP_CHECK(hipDriverGetVersion(&drv));
  HIP_CHECK(hipRuntimeGetVersion(&rt));
  CHECK(drv > 0 && rt > 0);

  // Errors are cudaError_t values under HIP's names.
  CHECK(hipFree(reinterpret_cast<void*>(0x10)) != hipSuccess);
  CHECK(hipGetLastError() != hipSuccess);
  CHECK(hipGetLastError() == hipSuccess);
  CHECK(strcmp(hipGetErrorName(hipErrorInvalidValue), "cudaErrorInvalidValue") == 0);

  HIP_CHECK(hipEventDestroy(a));
  HIP_CHECK(hipEventDestroy(b));
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipHostFree(h));
  HIP_CHECK(hipFree(d));
  printf("host_only: %s (%d failed checks)\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
