// Statistics of one side's timed samples, as a registry (docs/DESIGN.md, "Performance"): each
// has a name, a unit and a description, so a summary says what its numbers are. The perf
// report fills each side's timing and the result schema's per-configuration statistics
// (result_schema.h, config_statistics()) from it. Adding a statistic of the samples: register
// it in standard_statistics() (perf_statistics.cpp); to show it per configuration, list it in
// config_statistics() and in config_statistic_sources().
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace arena {

enum class SampleUnit { Milliseconds, Relative, Count };
const char* sample_unit_name(SampleUnit u);  // "ms", "relative", "count"

struct SampleStatistic {
  std::string name;  // e.g. "median"
  SampleUnit unit;
  std::string description;
  std::function<double(const std::vector<double>& sorted)> compute;  // over the sorted, non-empty samples
};

class StatisticsRegistry;

// A side's samples summarized: every registered statistic's value, in registry order.
class SampleSummary {
 public:
  SampleSummary(const StatisticsRegistry& registry, std::vector<double> values);
  // Throws std::out_of_range naming the statistic when it is not registered.
  double operator[](const std::string& name) const;
  const StatisticsRegistry& registry() const { return *registry_; }
  const std::vector<double>& values() const { return values_; }
  // "median = 1.5 ms (median of the timed samples)", one line per statistic.
  std::string describe() const;

 private:
  const StatisticsRegistry* registry_;
  std::vector<double> values_;
};

class StatisticsRegistry {
 public:
  // Throws std::invalid_argument on an empty name, a name already registered or no function.
  void add(SampleStatistic s);
  const std::vector<SampleStatistic>& all() const { return list_; }
  // Position of a statistic; throws std::out_of_range naming it and the registered ones.
  size_t index_of(const std::string& name) const;
  // Throws std::invalid_argument on an empty sample.
  SampleSummary summarize(std::vector<double> samples_ms) const;

 private:
  std::vector<SampleStatistic> list_;
};

// samples, median, mean, min, max, q1, q3, iqr (ms); stdev_rel, iqr_rel (relative).
const StatisticsRegistry& standard_statistics();

// Where a per-configuration statistic of the result schema comes from: one side's sample
// statistic, scaled (milliseconds to microseconds).
struct ConfigStatisticSource {
  const char* key;        // in config_statistics()
  bool candidate;         // the candidate's samples, else the baseline's
  const char* statistic;  // in standard_statistics()
  double scale;
};
const std::vector<ConfigStatisticSource>& config_statistic_sources();

// Fills `out` with every config_statistic_sources() entry of one side.
void fill_config_statistics(std::map<std::string, double>& out, const SampleSummary& side, bool candidate);

}  // namespace arena
