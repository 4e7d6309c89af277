#include "event_clock.h"

#include <cmath>

#include "stats.h"

namespace arena {

void EventOverhead::add(double event_us, double span_us) {
  const double d = event_us - span_us;
  if (span_us > 0 && event_us > 0 && std::isfinite(d)) diffs_.push_back(d);
}

std::optional<double> EventOverhead::value() const {
  if (diffs_.empty()) return std::nullopt;
  return median(diffs_);
}

}  // namespace arena
