#include "cache_sweep.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace arena {

SweepMode sweep_mode_from(int64_t m) {
  if (m < 0 || m > 2)
    throw std::invalid_argument("the cache sweep's mode (--flush-mode) takes 0, 1 or 2, not " + std::to_string(m));
  return static_cast<SweepMode>(m);
}

SweepPlan SweepPlan::for_timing(size_t requested, SweepMode mode, int64_t l2_bytes) {
  size_t bytes = requested;
  if (bytes == 0) bytes = std::max<size_t>(2 * static_cast<size_t>(std::max<int64_t>(l2_bytes, 0)), size_t{256} << 20);
  return {(bytes + 15) / 16 * 16, mode};
}

SweepPlan SweepPlan::as_given(size_t bytes, SweepMode mode) { return {bytes / 16 * 16, mode}; }

const char* SweepPlan::description() const {
  switch (mode) {
    case SweepMode::ReadDiscard:
      return "read sweep, then its lines dropped from L2, on the timing stream before every sample";
    case SweepMode::ReadModifyWrite:
      return "read-modify-write sweep on the timing stream before every sample";
    default:
      return "the platform's sweep (NVIDIA: read; AMD: read-modify-write) on the timing stream before every sample";
  }
}

}  // namespace arena
