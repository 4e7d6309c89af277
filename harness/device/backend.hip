// The device backend (src/device_api.h) on HIP: one file, built with the kernel toolchain.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <thread>
#include <chrono>

#include "device_api.h"

namespace {

thread_local char g_error[1024] = "";

int fail(hipError_t e, const char* what) {
  std::snprintf(g_error, sizeof g_error, "%s: %s (%s)", what, hipGetErrorString(e), hipGetErrorName(e));
  return -1;
}

#define ARENA_TRY(call)                          \
  do {                                           \
    hipError_t e_ = (call);                      \
    if (e_ != hipSuccess) return fail(e_, #call); \
  } while (0)

hipStream_t as_stream(void* s) { return static_cast<hipStream_t>(s); }

__global__ void fill_kernel(uint64_t* p, uint64_t pattern, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = pattern;
}

// Read-modify-write: every cache level (L2, AMD's Infinity Cache) takes the lines, dirty.
__global__ void flush_rmw_kernel(uint4* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = p[i];
    v.x += 1u;
    p[i] = v;
  }
}

// Read only. Reads allocate in L2 and evict what the next sample's kernel would find there;
// they leave clean lines, so that kernel does not pay for writing back the flush's own data
// (a read-modify-write flush left L2 dirty and slowed memory-bound kernels by 3-6 % on NVIDIA).
// With `discard`, each warp then drops the lines it read from L2 (sm_80+: discard.global.L2),
// leaving L2 empty rather than full of clean lines, as Nsight Compute's cache control does.
// The store never happens (the buffer holds zeros); it keeps the reads from being removed.
__global__ void flush_read_kernel(uint4* p, size_t n, int discard) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const uint4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) p[0].x = acc;
#if !defined(__HIP_PLATFORM_AMD__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (discard)
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
      if (i % 8 == 0) asm volatile("discard.global.L2 [%0], 128;" ::"l"(p + i) : "memory");
#endif
}

__global__ void empty_kernel() {}

__global__ void compare_kernel(const unsigned char* a, const unsigned char* b, size_t n,
                               unsigned long long* first) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    if (a[i] != b[i]) atomicMin(first, (unsigned long long)i);
}

// Counter-based draws for arena_dev_generate: a 64-bit mix of (key, index), so every element
// is independent of the launch geometry.
__device__ inline uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__device__ inline double unit_open(uint64_t bits) { return ((bits >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

__device__ inline uint16_t bf16_bits(float f) {
  uint32_t u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);  // quiet NaN
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

__global__ void generate_kernel(void* dst, int dtype, size_t n, int kind, double a, double b, uint64_t key) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t r1 = mix64(key ^ mix64(2 * i)), r2 = mix64(key ^ mix64(2 * i + 1));
    const double u1 = unit_open(r1), u2 = unit_open(r2);
    double v;
    if (kind == 0) v = a + b * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    else if (kind == 1) v = a + (b - a) * u1;
    else v = fmin(b, a + floor(u1 * (b - a + 1.0)));
    switch (dtype) {
      case 0: static_cast<float*>(dst)[i] = static_cast<float>(v); break;
      case 1: static_cast<__half*>(dst)[i] = __float2half_rn(static_cast<float>(v)); break;
      case 2: static_cast<uint16_t*>(dst)[i] = bf16_bits(static_cast<float>(v)); break;
      case 3: static_cast<double*>(dst)[i] = v; break;
      case 4: static_cast<int32_t*>(dst)[i] = static_cast<int32_t>(llrint(v)); break;
      case 5: static_cast<int64_t*>(dst)[i] = static_cast<int64_t>(llrint(v)); break;
      case 6: static_cast<int8_t*>(dst)[i] = static_cast<int8_t>(llrint(v)); break;
      default: static_cast<uint8_t*>(dst)[i] = static_cast<uint8_t>(llrint(v)); break;
    }
  }
}

int grid_for(size_t n) {
  size_t blocks = (n + 255) / 256;
  return static_cast<int>(blocks < 65535 ? (blocks ? blocks : 1) : 65535);
}

// FP32 lanes per SM/CU for the peak-FLOP estimate (dual-issue FP32 on gfx90a/gfx94x).
int fp32_lanes(const hipDeviceProp_t& p, bool amd) {
  if (amd) return std::strncmp(p.gcnArchName, "gfx9", 4) == 0 ? 128 : 64;
  if (p.major >= 9 || (p.major == 8 && p.minor >= 6)) return 128;
  return 64;
}

}  // namespace

extern "C" {

const char* arena_dev_error(void) { return g_error; }

int arena_dev_count(int* count) {
  *count = 0;
  hipError_t e = hipGetDeviceCount(count);
  if (e != hipSuccess) {
    *count = 0;
    return fail(e, "hipGetDeviceCount");
  }
  return 0;
}

int arena_dev_select(int id) {
  ARENA_TRY(hipSetDevice(id));
  ARENA_TRY(hipFree(nullptr));  // create the context now, not inside the first timed call
  return 0;
}

int arena_dev_mem_info(size_t* free_bytes, size_t* total_bytes) {
  ARENA_TRY(hipMemGetInfo(free_bytes, total_bytes));
  return 0;
}

int arena_dev_info(arena_device_info* info) {
  std::memset(info, 0, sizeof *info);
  int dev = 0;
  ARENA_TRY(hipGetDevice(&dev));
  hipDeviceProp_t p;
  ARENA_TRY(hipGetDeviceProperties(&p, dev));
#if defined(__HIP_PLATFORM_AMD__)
  info->vendor_amd = 1;
  std::snprintf(info->arch, sizeof info->arch, "%s", p.gcnArchName);
#else
  info->vendor_amd = 0;
  std::snprintf(info->arch, sizeof info->arch, "sm_%d%d", p.major, p.minor);
#endif
  std::snprintf(info->name, sizeof info->name, "%s", p.name);
  info->sm_count = p.multiProcessorCount;
  info->warp_size = p.warpSize;
  ARENA_TRY(hipDeviceGetAttribute(&info->clock_khz, hipDeviceAttributeClockRate, dev));
  ARENA_TRY(hipDeviceGetAttribute(&info->mem_clock_khz, hipDeviceAttributeMemoryClockRate, dev));
  ARENA_TRY(hipDeviceGetAttribute(&info->mem_bus_bits, hipDeviceAttributeMemoryBusWidth, dev));
  ARENA_TRY(hipDeviceGetAttribute(&info->l2_bytes, hipDeviceAttributeL2CacheSize, dev));
  info->total_mem = p.totalGlobalMem;
  ARENA_TRY(hipRuntimeGetVersion(&info->runtime_version));
  ARENA_TRY(hipDriverGetVersion(&info->driver_version));
  info->peak_bytes_per_s = 2.0 * info->mem_clock_khz * 1e3 * (info->mem_bus_bits / 8.0);
  info->peak_fp32_flops = 2.0 * info->sm_count * fp32_lanes(p, info->vendor_amd) * info->clock_khz * 1e3;
  return 0;
}

void* arena_dev_malloc(size_t bytes) {
  void* p = nullptr;
  hipError_t e = hipMalloc(&p, bytes);
  if (e != hipSuccess) {
    fail(e, "hipMalloc");
    return nullptr;
  }
  return p;
}

int arena_dev_free(void* p) {
  ARENA_TRY(hipFree(p));
  return 0;
}

int arena_dev_h2d(void* dst, const void* src, size_t bytes) {
  ARENA_TRY(hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice));
  return 0;
}

int arena_dev_d2h(void* dst, const void* src, size_t bytes) {
  ARENA_TRY(hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost));
  return 0;
}

void* arena_dev_host_alloc(size_t bytes) {
  void* p = nullptr;
  hipError_t e = hipHostMalloc(&p, bytes, hipHostMallocDefault);
  if (e != hipSuccess) {
    fail(e, "hipHostMalloc");
    return nullptr;
  }
  return p;
}

int arena_dev_host_free(void* p) {
  ARENA_TRY(hipHostFree(p));
  return 0;
}

int arena_dev_d2d(void* dst, const void* src, size_t bytes, void* stream) {
  ARENA_TRY(hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, as_stream(stream)));
  return 0;
}

int arena_dev_fill(void* dst, uint64_t pattern, size_t bytes, void* stream) {
  size_t n = bytes / 8;
  if (n == 0) return 0;
  hipLaunchKernelGGL(fill_kernel, dim3(grid_for(n)), dim3(256), 0, as_stream(stream), static_cast<uint64_t*>(dst),
                     pattern, n);
  ARENA_TRY(hipGetLastError());
  return 0;
}

void* arena_dev_stream_create(void) {
  hipStream_t s = nullptr;
  hipError_t e = hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
  if (e != hipSuccess) {
    fail(e, "hipStreamCreateWithFlags");
    return nullptr;
  }
  return s;
}

int arena_dev_stream_destroy(void* s) {
  ARENA_TRY(hipStreamDestroy(as_stream(s)));
  return 0;
}

int arena_dev_stream_wait(void* s, double timeout_s) {
  // Poll instead of blocking, so a kernel that never ends is reported, not waited on forever.
  auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    hipError_t e = hipStreamQuery(as_stream(s));
    if (e == hipSuccess) return 0;
    if (e != hipErrorNotReady) return fail(e, "waiting for the stream");
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (waited > timeout_s) {
      std::snprintf(g_error, sizeof g_error, "work on the stream did not finish within %.1f s", timeout_s);
      return 1;
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(2)) pause *= 2;
  }
}

int arena_dev_device_sync(void) {
  ARENA_TRY(hipDeviceSynchronize());
  return 0;
}

void* arena_dev_event_create(void) {
  hipEvent_t e = nullptr;
  hipError_t r = hipEventCreate(&e);
  if (r != hipSuccess) {
    fail(r, "hipEventCreate");
    return nullptr;
  }
  return e;
}

int arena_dev_event_destroy(void* e) {
  ARENA_TRY(hipEventDestroy(static_cast<hipEvent_t>(e)));
  return 0;
}

int arena_dev_event_record(void* e, void* stream) {
  ARENA_TRY(hipEventRecord(static_cast<hipEvent_t>(e), as_stream(stream)));
  return 0;
}

int arena_dev_event_elapsed_ms(void* start, void* stop, float* ms) {
  ARENA_TRY(hipEventSynchronize(static_cast<hipEvent_t>(stop)));
  ARENA_TRY(hipEventElapsedTime(ms, static_cast<hipEvent_t>(start), static_cast<hipEvent_t>(stop)));
  return 0;
}

int arena_dev_compare(const void* a, const void* b, size_t bytes, void* stream, size_t* first_diff) {
  *first_diff = bytes;
  if (bytes == 0) return 0;
  unsigned long long* d = nullptr;
  ARENA_TRY(hipMalloc(&d, sizeof *d));
  unsigned long long init = bytes;
  hipError_t e = hipMemcpyAsync(d, &init, sizeof init, hipMemcpyHostToDevice, as_stream(stream));
  if (e == hipSuccess) {
    hipLaunchKernelGGL(compare_kernel, dim3(grid_for(bytes)), dim3(256), 0, as_stream(stream),
                       static_cast<const unsigned char*>(a), static_cast<const unsigned char*>(b), bytes, d);
    e = hipGetLastError();
  }
  unsigned long long result = bytes;
  if (e == hipSuccess) e = hipMemcpyAsync(&result, d, sizeof result, hipMemcpyDeviceToHost, as_stream(stream));
  if (e == hipSuccess) e = hipStreamSynchronize(as_stream(stream));
  (void)hipFree(d);
  if (e != hipSuccess) return fail(e, "comparing device buffers");
  *first_diff = static_cast<size_t>(result);
  return 0;
}

int arena_dev_flush(void* buf, size_t bytes, int mode, void* stream) {
  size_t n = bytes / sizeof(uint4);
  if (n == 0) return 0;
#if defined(__HIP_PLATFORM_AMD__)
  const bool rmw = true;
#else
  const bool rmw = mode == 2;
#endif
  if (rmw)
    hipLaunchKernelGGL(flush_rmw_kernel, dim3(grid_for(n)), dim3(256), 0, as_stream(stream), static_cast<uint4*>(buf), n);
  else
    hipLaunchKernelGGL(flush_read_kernel, dim3(grid_for(n)), dim3(256), 0, as_stream(stream), static_cast<uint4*>(buf), n,
                       mode == 1 ? 1 : 0);
  ARENA_TRY(hipGetLastError());
  return 0;
}

int arena_dev_reset_persisting_l2(void) {
#if !defined(__HIP_PLATFORM_AMD__)
  ARENA_TRY(hipDeviceSetLimit(hipLimitPersistingL2CacheSize, 0));
  ARENA_TRY(hipCtxResetPersistingL2Cache());
#endif
  return 0;
}

int arena_dev_empty_kernel(void* stream) {
  hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, as_stream(stream));
  ARENA_TRY(hipGetLastError());
  return 0;
}

int arena_dev_ipc_export(void* base, unsigned char handle[ARENA_IPC_HANDLE_BYTES]) {
  hipIpcMemHandle_t h;
  static_assert(sizeof h == ARENA_IPC_HANDLE_BYTES, "IPC handles are 64 bytes");
  ARENA_TRY(hipIpcGetMemHandle(&h, base));
  std::memcpy(handle, &h, sizeof h);
  return 0;
}

int arena_dev_ipc_open(const unsigned char handle[ARENA_IPC_HANDLE_BYTES], void** base) {
  hipIpcMemHandle_t h;
  std::memcpy(&h, handle, sizeof h);
  *base = nullptr;
  ARENA_TRY(hipIpcOpenMemHandle(base, h, hipIpcMemLazyEnablePeerAccess));
  return 0;
}

int arena_dev_ipc_close(void* base) {
  ARENA_TRY(hipIpcCloseMemHandle(base));
  return 0;
}

int arena_dev_generate(void* dst, int dtype, size_t n, int kind, double a, double b, uint64_t key, void* stream) {
  if (n == 0) return 0;
  hipLaunchKernelGGL(generate_kernel, dim3(grid_for(n)), dim3(256), 0, as_stream(stream), dst, dtype, n, kind, a, b,
                     key);
  ARENA_TRY(hipGetLastError());
  return 0;
}

int arena_dev_profiler(int on) {
  ARENA_TRY(on ? hipProfilerStart() : hipProfilerStop());
  return 0;
}

}  // extern "C"
