// The event clock of replayed launches (docs/DESIGN.md, "Performance"). The activity tracer's
// kernel records slow some kernels while they are on (a naive one-element-per-thread GELU by
// 12 % on an H100), so a replaying executor times most samples with its kernel records off,
// by device events around the launch, and a few audit samples with them on. An audit sample
// gives both clocks on one launch: its event time less its span is the event pair's own
// overhead. The median of those, per buffer set, comes off the event times of the others.
#pragma once
#include <optional>
#include <vector>

namespace arena {

class EventOverhead {
 public:
  // One audit sample: its event time and its activity span (us). Spans that are not positive
  // (no kernel record came) and differences that are not finite are ignored.
  void add(double event_us, double span_us);
  // The median overhead so far; none before the first usable audit sample.
  std::optional<double> value() const;
  size_t count() const { return diffs_.size(); }

 private:
  std::vector<double> diffs_;
};

}  // namespace arena
