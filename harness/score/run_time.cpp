#include "run_time.h"

namespace arena::score {

using json = nlohmann::json;

json run_time_summary(const std::map<std::string, GateResult>& gates) {
  struct Sum {
    int tests = 0;
    double total = 0, max = -1;
    std::string slowest;
  };
  std::map<std::string, Sum> by_gate;
  double all = 0;
  int untimed = 0;
  for (const auto& [name, g] : gates) {
    std::string suite, task, gate;
    split_gate_test_name(name, &suite, &task, &gate);
    const double t = g.record.execution_time;
    // Tests that never started carry no time worth summing (CTest writes 0 for them).
    if (g.outcome == Outcome::missing || g.outcome == Outcome::not_run || t < 0) {
      ++untimed;
      continue;
    }
    Sum& s = by_gate[gate];
    ++s.tests;
    s.total += t;
    all += t;
    if (t > s.max) s.max = t, s.slowest = suite + "/" + task;
  }
  json out = json::object();
  for (const auto& [gate, s] : by_gate)
    out[gate] = {{"tests", s.tests}, {"total_s", s.total}, {"mean_s", s.total / s.tests}, {"max_s", s.max},
                 {"slowest", s.slowest}};
  return {{"by_gate", out}, {"test_seconds", all}, {"untimed_tests", untimed}};
}

json wall_seconds(const TestXml& x) {
  if (x.start_time <= 0 || x.end_time < x.start_time) return nullptr;
  return x.end_time - x.start_time;
}

}  // namespace arena::score
