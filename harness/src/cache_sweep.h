// The cache sweep before every timed sample (docs/DESIGN.md, "Performance"): a pass over a
// buffer larger than the last-level cache, so every sample of every side starts from the same
// cold cache. One plan says how large, in which mode and in what words; the perf engine sizes
// it, the executors run it, arena-profile repeats it for the profiler, and the report says it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace arena {

// How the sweep touches its buffer (arena_dev_flush's mode; the numbers travel in requests
// and results, so they stay as they are).
enum class SweepMode : int {
  PlatformDefault = 0,  // NVIDIA: a read; AMD: a read-modify-write
  ReadDiscard = 1,      // a read, then its lines dropped from L2
  ReadModifyWrite = 2,  // a read-modify-write
};

// Mode `m` as given on a command line (--flush-mode) or in a request; throws
// std::invalid_argument naming the accepted values otherwise.
SweepMode sweep_mode_from(int64_t m);

struct SweepPlan {
  size_t bytes = 0;  // a multiple of 16 (the sweep moves 16-byte words); 0: no sweep
  SweepMode mode = SweepMode::PlatformDefault;

  // The perf gate's sweep: `requested` bytes (0: max(2 x L2, 256 MiB)), rounded up to 16.
  static SweepPlan for_timing(size_t requested, SweepMode mode, int64_t l2_bytes);
  // A sweep of exactly the words `bytes` holds (rounded down to 16): what an executor is
  // asked for, or arena-profile's --flush-bytes.
  static SweepPlan as_given(size_t bytes, SweepMode mode);

  int device_mode() const { return static_cast<int>(mode); }
  const char* description() const;  // for the perf result's method
};

// Enqueues the sweep of `plan` over `buffer` (at least plan.bytes, on the device) on `stream`;
// nothing when plan.bytes is 0. Throws DeviceError naming the step when the launch fails.
void enqueue_sweep(void* buffer, const SweepPlan& plan, void* stream);

}  // namespace arena
