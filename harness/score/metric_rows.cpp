#include "metric_rows.h"

#include "format.h"

using json = nlohmann::json;

namespace arena::score {

namespace {
std::string count_of(const json& m, const char* count, const char* rate) {
  if (!m[rate].is_number()) return "not judged";  // no GPU gate ran: only compilation was judged
  return fmt_pct(m[rate]) + " (" + std::to_string(m.value(count, 0)) + "/" + std::to_string(m.value("tasks", 0)) + ")";
}
std::string n(const json& m, const char* key) { return std::to_string(m.value(key, 0)); }
}  // namespace

const std::vector<MetricRow>& metric_rows() {
  static const std::vector<MetricRow> rows = {
      {"tasks", [](const json& m) { return n(m, "tasks"); }},
      {"tasks that could not be judged (gates skipped or absent)", [](const json& m) { return n(m, "unjudged"); }},
      {"gates skipped (no GPU)", [](const json& m) { return n(m, "skipped_gates"); }},
      {"compile rate", [](const json& m) { return count_of(m, "compiled", "compile_rate"); }},
      {"correct_seen rate", [](const json& m) { return count_of(m, "correct_seen", "correct_seen_rate"); }},
      {"correct_unseen rate", [](const json& m) { return count_of(m, "correct_unseen", "correct_unseen_rate"); }},
      {"P(unseen correct given seen correct)", [](const json& m) { return fmt_pct(m["p_unseen_given_seen"]); }},
      {"generalization gap (seen rate - unseen rate)",
       [](const json& m) {
         return m["generalization_gap"].is_number() ? fmt_num(m["generalization_gap"].get<double>() * 100, "%+.1f pp")
                                                    : std::string("-");
       }},
      {"correct (seen + unseen + a speedup that counts)",
       [](const json& m) { return count_of(m, "correct", "correct_rate"); }},
      {"geomean speedup, correct tasks only", [](const json& m) { return fmt_num(m["geomean_speedup_correct"]); }},
      {"geomean speedup, judged tasks (not correct = 1.0)", [](const json& m) { return fmt_num(m["geomean_speedup_all"]); }},
      {"geomean speedup over further references, correct tasks that timed them",
       [](const json& m) {
         std::string s;
         if (m.contains("geomean_speedup_vs"))
           for (const auto& [name, x] : m["geomean_speedup_vs"].items())
             s += (s.empty() ? "" : "; ") + name + ": " + fmt_num(x["geomean"]) + " (" +
                  std::to_string(x.value("tasks", 0)) + " tasks)";
         return s.empty() ? std::string("-") : s;
       }},
      {"fast_1.0 (correct, verdict FASTER)", [](const json& m) { return fmt_pct(m["fast_p"]["1.0"]); }},
      {"fast_1.5 (correct, speedup > 1.5)", [](const json& m) { return fmt_pct(m["fast_p"]["1.5"]); }},
      {"fast_2.0 (correct, speedup > 2.0)", [](const json& m) { return fmt_pct(m["fast_p"]["2.0"]); }},
      {"AgentKernelArena score (mean points, judged tasks)",
       [](const json& m) {  // with the count it is over, so a mean of a few judged tasks reads as such
         if (!m["aka_score_mean"].is_number()) return std::string("-");
         return fmt_num(m["aka_score_mean"], "%.1f") + " (" + std::to_string(m.value("judged", 0)) + " judged)";
       }},
      {"gates failed / timed out / crashed / not run / conflicting",
       [](const json& m) {
         return n(m, "failed_gates") + " / " + n(m, "timeouts") + " / " + n(m, "crashes") + " / " +
                n(m, "not_run_gates") + " / " + n(m, "conflicts");
       }},
  };
  return rows;
}

}  // namespace arena::score
