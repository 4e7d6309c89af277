/* KernelArena kernel ABI: the contract between the harness and every kernel library
 * (baseline, solution or candidate). A kernel library is a shared object that exports
 * arena_launch (required) and arena_workspace_size (optional).
 *
 * Rules (checked by the compile gate and the runners):
 *  - all device work goes on a->stream; no device allocation, no stream or event creation,
 *    no device/stream synchronization, no host threads, no state kept between calls;
 *  - tensors are device pointers in task.json order; ints and floats are the task's params
 *    in task.json order;
 *  - workspace (workspace_bytes long) is scratch the harness allocated; its contents are
 *    undefined on entry.
 */
#ifndef ARENA_ABI_H
#define ARENA_ABI_H

#include <stddef.h>
#include <stdint.h>

#if defined(ARENA_HOST_ONLY)
/* Host code that never touches HIP (the runners): a stream is an opaque pointer on both
 * vendors (ihipStream_t* / CUstream_st*), so the layout is identical. */
typedef void* arena_stream_t;
#else
#include <hip/hip_runtime_api.h>
typedef hipStream_t arena_stream_t;
#endif

#ifdef __cplusplus
#define ARENA_EXTERN_C extern "C"
#else
#define ARENA_EXTERN_C
#endif

#define ARENA_EXPORT ARENA_EXTERN_C __attribute__((visibility("default")))

typedef struct {
  void* const* tensors;
  int num_tensors;
  const int64_t* ints;
  int num_ints;
  const double* floats;
  int num_floats;
  void* workspace;
  size_t workspace_bytes;
  arena_stream_t stream;
} arena_args;

/* Required. Enqueue the whole computation on a->stream; return 0 on success. */
typedef int (*arena_launch_fn)(const arena_args* a);
/* Optional. Scratch bytes needed for these params (tensors and workspace are NULL). */
typedef size_t (*arena_workspace_size_fn)(const arena_args* a);

#define ARENA_ABI_VERSION 1

#endif
