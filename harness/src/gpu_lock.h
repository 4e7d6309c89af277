// One GPU shared by a perf gate and correctness gates (ARENA_PERF_SCHEDULE=shared, docs/DESIGN.md,
// "Scheduling"): the perf gate times only while no other gate works on its GPU, and the
// correctness gates do their host work (inputs, the oracle, comparison) meanwhile.
//
// Two lock files per GPU in the run's lock folder (ARENA_GPU_LOCK_DIR, set by CMake on every gate
// of a shared schedule): gpu<N>.device, held shared by each gate while it works on the device and
// exclusively by the perf gate while it times; gpu<N>.turn, a turnstile that the timer holds from
// before it waits until it is done, so that device work arriving meanwhile queues behind it
// instead of starving it. The kernel releases both when a holder ends, however it ends.
// Every gate of one ctest run sees the same devices, so the device number names one GPU.
#pragma once
#include <filesystem>
#include <string>

namespace arena {

class GpuLock {
 public:
  enum class Mode { DeviceWork, Timing };

  GpuLock() = default;  // holds nothing
  // Waits for and holds `mode` on GPU `device`; holds nothing when `dir` is empty. Throws,
  // naming the file, when a lock file cannot be created or locked.
  GpuLock(const std::filesystem::path& dir, int device, Mode mode);
  ~GpuLock();
  GpuLock(GpuLock&& o) noexcept;
  GpuLock& operator=(GpuLock&& o) noexcept;
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;

  bool held() const { return device_fd_ >= 0; }
  double waited_s() const { return waited_s_; }

  // ARENA_GPU_LOCK_DIR, or empty where it is not set (no other gate shares the GPU while timing).
  static std::filesystem::path dir_from_environment();

 private:
  void release();
  int device_fd_ = -1, turn_fd_ = -1;
  double waited_s_ = 0;
};

}  // namespace arena
