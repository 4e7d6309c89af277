#include "perf_statistics.h"

#include <algorithm>
#include <stdexcept>

#include "result_schema.h"
#include "stats.h"

namespace arena {

const char* sample_unit_name(SampleUnit u) {
  static const char* const names[] = {"ms", "relative", "count"};  // in SampleUnit's order
  return names[static_cast<int>(u)];
}

SampleSummary::SampleSummary(const StatisticsRegistry& registry, std::vector<double> values)
    : registry_(&registry), values_(std::move(values)) {}

double SampleSummary::operator[](const std::string& name) const { return values_[registry_->index_of(name)]; }

std::string SampleSummary::describe() const {
  std::string out;
  for (size_t i = 0; i < values_.size(); ++i) {
    const SampleStatistic& s = registry_->all()[i];
    out += s.name + " = " + std::to_string(values_[i]) + " " + sample_unit_name(s.unit) + " (" + s.description + ")\n";
  }
  return out;
}

void StatisticsRegistry::add(SampleStatistic s) {
  if (s.name.empty()) throw std::invalid_argument("a sample statistic needs a name");
  if (!s.compute) throw std::invalid_argument("sample statistic '" + s.name + "' has no function");
  for (const auto& known : list_)
    if (known.name == s.name) throw std::invalid_argument("sample statistic '" + s.name + "' is registered twice");
  list_.push_back(std::move(s));
}

size_t StatisticsRegistry::index_of(const std::string& name) const {
  std::string known;
  for (size_t i = 0; i < list_.size(); ++i) {
    if (list_[i].name == name) return i;
    known += (i ? ", " : "") + list_[i].name;
  }
  throw std::out_of_range("no sample statistic named '" + name + "' (registered: " + known + ")");
}

SampleSummary StatisticsRegistry::summarize(std::vector<double> samples_ms) const {
  if (samples_ms.empty()) throw std::invalid_argument("summarize: empty sample");
  std::sort(samples_ms.begin(), samples_ms.end());
  std::vector<double> values;
  for (const auto& s : list_) values.push_back(s.compute(samples_ms));
  return SampleSummary(*this, std::move(values));
}

const StatisticsRegistry& standard_statistics() {
  static const StatisticsRegistry registry = [] {
    using V = const std::vector<double>&;
    const SampleUnit ms = SampleUnit::Milliseconds;
    StatisticsRegistry r;
    r.add({"samples", SampleUnit::Count, "number of timed samples", [](V v) { return static_cast<double>(v.size()); }});
    r.add({"median", ms, "median of the timed samples", [](V v) { return sorted_quantile(v, 0.5); }});
    r.add({"mean", ms, "arithmetic mean of the timed samples", [](V v) { return mean_of(v); }});
    r.add({"min", ms, "fastest timed sample", [](V v) { return v.front(); }});
    r.add({"max", ms, "slowest timed sample", [](V v) { return v.back(); }});
    r.add({"q1", ms, "first quartile (type-7 interpolation)", [](V v) { return sorted_quantile(v, 0.25); }});
    r.add({"q3", ms, "third quartile (type-7 interpolation)", [](V v) { return sorted_quantile(v, 0.75); }});
    r.add({"iqr", ms, "interquartile range q3 - q1: the spread",
           [](V v) { return sorted_quantile(v, 0.75) - sorted_quantile(v, 0.25); }});
    r.add({"stdev_rel", SampleUnit::Relative, "sample standard deviation over the mean",
           [](V v) { return sample_stdev(v) / mean_of(v); }});
    r.add({"iqr_rel", SampleUnit::Relative, "interquartile range over the median",
           [](V v) { return (sorted_quantile(v, 0.75) - sorted_quantile(v, 0.25)) / sorted_quantile(v, 0.5); }});
    return r;
  }();
  return registry;
}

const std::vector<ConfigStatisticSource>& config_statistic_sources() {
  // kFractionOfPeak is not a statistic of the samples alone: the report fills it from the
  // roofline (plausibility.h).
  static const std::vector<ConfigStatisticSource> list = {
      {kBaselineMedianUs, false, "median", 1e3},
      {kCandidateMedianUs, true, "median", 1e3},
      {kCandidateIqrUs, true, "iqr", 1e3},
  };
  return list;
}

void fill_config_statistics(std::map<std::string, double>& out, const SampleSummary& side, bool candidate) {
  for (const auto& src : config_statistic_sources())
    if (src.candidate == candidate) out[src.key] = side[src.statistic] * src.scale;
}

}  // namespace arena
