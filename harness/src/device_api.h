/* The device backend: every GPU runtime call the runners make goes through this C API,
 * implemented once in harness/device/backend.hip and compiled with the kernel toolchain
 * (nvcc + HIP-on-CUDA headers, or ROCm's hipcc). The runners themselves are plain C++. */
#ifndef ARENA_DEVICE_API_H
#define ARENA_DEVICE_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Kernel libraries build with hidden visibility; the backend's API must stay visible. */
#pragma GCC visibility push(default)

typedef struct {
  char name[256];
  char arch[64];          /* "sm_90", "gfx90a" */
  int vendor_amd;         /* 1 on ROCm, 0 on NVIDIA */
  int sm_count;           /* SMs or CUs */
  int warp_size;
  int clock_khz;          /* peak shader clock */
  int mem_clock_khz;
  int mem_bus_bits;
  int l2_bytes;
  size_t total_mem;
  int runtime_version, driver_version;
  double peak_bytes_per_s;  /* from memory clock and bus width (DDR) */
  double peak_fp32_flops;   /* SMs x FP32 lanes x 2 x clock */
} arena_device_info;

/* Each call returns 0 on success; on failure the reason is in arena_dev_error(). */
const char* arena_dev_error(void);
int arena_dev_count(int* count);
int arena_dev_select(int id);
int arena_dev_info(arena_device_info* info);
/* The current device's free and total memory in bytes, all processes together. */
int arena_dev_mem_info(size_t* free_bytes, size_t* total_bytes);

void* arena_dev_malloc(size_t bytes); /* NULL on failure */
int arena_dev_free(void* p);
int arena_dev_h2d(void* dst, const void* src, size_t bytes);
int arena_dev_d2h(void* dst, const void* src, size_t bytes);
/* Page-locked host memory: device-to-host copies into it run at the link's full speed. */
void* arena_dev_host_alloc(size_t bytes); /* NULL on failure */
int arena_dev_host_free(void* p);
int arena_dev_d2d(void* dst, const void* src, size_t bytes, void* stream);
/* Fills `bytes` (a multiple of 8, 8-aligned) with a repeated 8-byte pattern, on `stream`. */
int arena_dev_fill(void* dst, uint64_t pattern, size_t bytes, void* stream);

void* arena_dev_stream_create(void);
int arena_dev_stream_destroy(void* s);
/* Waits for all work on `s`: 0 done, 1 timed out (work still running), -1 error. */
int arena_dev_stream_wait(void* s, double timeout_s);
int arena_dev_device_sync(void);

void* arena_dev_event_create(void);
int arena_dev_event_destroy(void* e);
int arena_dev_event_record(void* e, void* stream);
int arena_dev_event_elapsed_ms(void* start, void* stop, float* ms);

/* Compares two device buffers on `stream` and waits: *first_diff = index of the first
 * differing byte, or `bytes` when they are equal. */
int arena_dev_compare(const void* a, const void* b, size_t bytes, void* stream, size_t* first_diff);

/* Evicts caches before a sample by sweeping `bytes` of `buf` on `stream`. mode 0: the platform's
 * default (NVIDIA: read; AMD: read-modify-write); 1: read, then drop the swept lines from L2
 * (NVIDIA; elsewhere as 0); 2: read-modify-write. */
int arena_dev_flush(void* buf, size_t bytes, int mode, void* stream);
/* Drops any L2 persisting window and its carve-out (a kernel cannot keep data resident). */
int arena_dev_reset_persisting_l2(void);
/* Enqueues an empty kernel: measures the event floor. */
int arena_dev_empty_kernel(void* stream);
/* Opens (1) or closes (0) the profiler's capture range (ncu --profile-from-start off). */
int arena_dev_profiler(int on);

/* Device memory shared between processes: the judge exports its allocations (each the base
 * of one arena_dev_malloc), worker processes map them. A handle is 64 bytes on both vendors. */
#define ARENA_IPC_HANDLE_BYTES 64
int arena_dev_ipc_export(void* base, unsigned char handle[ARENA_IPC_HANDLE_BYTES]);
int arena_dev_ipc_open(const unsigned char handle[ARENA_IPC_HANDLE_BYTES], void** base);
int arena_dev_ipc_close(void* base);

/* Fills n elements of `dtype` (the order of DType: f32 f16 bf16 f64 i32 i64 i8 u8) at dst, on
 * `stream`, with draws keyed by (key, element index) from a distribution: kind 0 normal
 * (mean a, std b), 1 uniform [a, b), 2 integers in [a, b]. The perf gate's fresh inputs for
 * every timed sample; the values need not match the host's generator (the judge reads them
 * back when it checks a sample). */
int arena_dev_generate(void* dst, int dtype, size_t n, int kind, double a, double b, uint64_t key, void* stream);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
