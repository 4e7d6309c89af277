// The comparison's Markdown (compare.md).
#include <sstream>

#include "format.h"
#include "report.h"

using json = nlohmann::json;

namespace arena::score {

namespace {

std::string side(const json& s) {
  if (!s.is_object()) return "-";
  std::string out = s.value("state", "");
  if (s.value("speedup", json()).is_number()) out += ", " + fmt_speedup(s);
  return out;
}

std::string ratio(const json& t) {
  if (!t.contains("ratio") || !t["ratio"].is_number()) return "-";
  std::string r = fmt_num(t["ratio"]);
  if (t.value("ratio_ci95_low", json()).is_number())
    r += " [" + fmt_num(t["ratio_ci95_low"]) + ", " + fmt_num(t.value("ratio_ci95_high", json())) + "]";
  return r;
}

std::string pooled(const json& p) {
  std::ostringstream o;
  const json& v = p["verdicts"];
  o << v.value("better", 0) << " better, " << v.value("worse", 0) << " worse, " << v.value("no detectable change", 0)
    << " no detectable change, " << v.value("not comparable", 0) << " not comparable; ";
  if (p["geomean_ratio"].is_number())
    o << "geomean speedup ratio B/A over " << p.value("tasks_with_both_speedups", 0) << " task(s) correct in both: "
      << fmt_num(p["geomean_ratio"]) << " [" << fmt_num(p["geomean_ratio_ci95_low"]) << ", "
      << fmt_num(p["geomean_ratio_ci95_high"]) << "] -> **" << p.value("verdict", "") << "**";
  else
    o << "no task is correct with an interval in both runs";
  return o.str();
}

}  // namespace

std::string render_compare_markdown(const json& c) {
  std::ostringstream md;
  md << "# KernelArena comparison: " << c["a"].value("run", "A") << " (A) vs " << c["b"].value("run", "B") << " (B)\n\n";
  md << "Overall: " << pooled(c["overall"]) << "\n\n";
  md << "## Suites\n\n| suite | tasks | verdicts | compile rate | correct_seen | correct_unseen | correct | "
        "geomean (all, incorrect = 1) | fast_1.0 | points |\n|---|---|---|---|---|---|---|---|---|---|\n";
  auto metric = [](const json& m, const char* k, bool pct, const char* format = "%.3f") {
    const json& e = m[k];
    auto f = [&](const json& v) { return pct ? fmt_pct(v) : fmt_num(v, format); };
    return f(e["a"]) + " -> " + f(e["b"]);
  };
  auto suite_row = [&](const std::string& name, const json& p) {
    const json& m = p["metrics"];
    md << "| " << md_cell(name) << " | " << fmt_num(m["tasks"]["b"], "%.0f") << " | " << md_cell(pooled(p)) << " | "
       << metric(m, "compile_rate", true) << " | " << metric(m, "correct_seen_rate", true) << " | "
       << metric(m, "correct_unseen_rate", true) << " | " << metric(m, "correct_rate", true) << " | "
       << metric(m, "geomean_speedup_all", false) << " | " << metric(m, "fast_1.0", true) << " | "
       << metric(m, "aka_score_mean", false, "%.1f") << " |\n";
  };
  for (const auto& [name, p] : c["suites"].items()) suite_row(name, p);
  suite_row("overall", c["overall"]);
  md << "\n## Tasks\n\n| task | A | B | ratio B/A [95 % CI] | verdict | correctness changes |\n|---|---|---|---|---|---|\n";
  for (const auto& t : c["tasks"]) {
    std::string changes;
    if (t.contains("correctness_changes"))
      for (const auto& x : t["correctness_changes"]) changes += (changes.empty() ? "" : "; ") + x.get<std::string>();
    if (t.contains("reason")) changes += (changes.empty() ? "" : "; ") + t.value("reason", "");
    md << "| " << md_cell(t.value("id", "")) << " | " << md_cell(side(t.value("a", json()))) << " | "
       << md_cell(side(t.value("b", json()))) << " | " << ratio(t) << " | **" << t.value("verdict", "") << "** | "
       << md_cell(changes) << " |\n";
  }
  md << "\n## Method\n\n" << c.value("method", "") << " (delta = " << fmt_num(c["delta"], "%g") << ")\n";
  return md.str();
}

}  // namespace arena::score
