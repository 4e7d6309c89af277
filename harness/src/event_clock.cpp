#include "event_clock.h"

#include <algorithm>
#include <cmath>

namespace arena {

void EventOverhead::add(double event_us, double span_us) {
  const double d = event_us - span_us;
  if (span_us > 0 && event_us > 0 && std::isfinite(d)) diffs_.push_back(d);
}

std::optional<double> EventOverhead::value() const {
  if (diffs_.empty()) return std::nullopt;
  std::vector<double> v = diffs_;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2) return v[mid];
  const double upper = v[mid];
  return (upper + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
}

}  // namespace arena
