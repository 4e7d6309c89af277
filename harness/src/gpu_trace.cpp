#include "gpu_trace.h"

#include <algorithm>

namespace arena {

double span_us(const std::vector<GpuActivity>& acts, uint64_t tag) {
  uint64_t first = UINT64_MAX, last = 0;
  for (const auto& a : acts)
    if (a.tag == tag) {
      first = std::min(first, a.start_ns);
      last = std::max(last, a.end_ns);
    }
  return first == UINT64_MAX ? -1.0 : static_cast<double>(last - first) / 1e3;
}

}  // namespace arena
