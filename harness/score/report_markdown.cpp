#include <sstream>
#include <vector>

#include "config_rows.h"
#include "format.h"
#include "metric_rows.h"
#include "report.h"

using json = nlohmann::json;

namespace arena::score {

namespace {

// One row per metric, one column per suite and one for all tasks.
void metrics_table(std::ostringstream& md, const json& s) {
  std::vector<std::pair<std::string, const json*>> cols;
  for (const auto& [name, m] : s["suites"].items()) cols.push_back({name, &m});
  cols.push_back({"overall", &s["overall"]});
  md << "| metric |";
  for (const auto& c : cols) md << " " << md_cell(c.first) << " |";
  md << "\n|---|";
  for (size_t i = 0; i < cols.size(); ++i) md << "---|";
  md << "\n";
  for (const MetricRow& row : metric_rows()) {
    md << "| " << md_cell(row.label) << " |";
    for (const auto& c : cols) md << " " << md_cell(row.cell(*c.second)) << " |";
    md << "\n";
  }
}

// Test time per gate kind, and each Test.xml's wall time: what the run cost and where it went.
void time_table(std::ostringstream& md, const json& s) {
  if (!s.contains("time") || s["time"]["by_gate"].empty()) return;
  const json& t = s["time"];
  md << "\n## Time\n\n| gate | tests | total s | mean s | longest s |\n|---|---|---|---|---|\n";
  for (const auto& [gate, g] : t["by_gate"].items())
    md << "| " << gate << " | " << g.value("tests", 0) << " | " << fmt_num(g["total_s"], "%.1f") << " | "
       << fmt_num(g["mean_s"], "%.1f") << " | " << fmt_num(g["max_s"], "%.1f") << " ("
       << md_cell(g.value("slowest", "")) << ") |\n";
  md << "\nTest time " << fmt_num(t["test_seconds"], "%.1f") << " s";
  for (const auto& in : s["inputs"])
    if (in["wall_s"].is_number()) md << "; `" << in.value("file", "") << "` took " << fmt_num(in["wall_s"], "%.0f") << " s of wall time";
  md << ".\n";
}

// The perf gate's configurations, one row each, with the columns config_columns() lists.
void configs_table(std::ostringstream& md, const json& s) {
  bool any = false;
  for (const auto& t : s["tasks"]) any = any || !t["configs"].empty();
  if (!any) return;
  md << "\n## Configurations (perf)\n\n| task |";
  for (const ConfigColumn& c : config_columns()) md << " " << md_cell(c.label) << " |";
  md << "\n|---|";
  for (size_t i = 0; i < config_columns().size(); ++i) md << "---|";
  md << "\n";
  for (const auto& t : s["tasks"])
    for (const auto& c : t["configs"]) {
      md << "| " << md_cell(t.value("id", "")) << " |";
      for (const ConfigColumn& col : config_columns()) md << " " << md_cell(col.cell(c)) << " |";
      md << "\n";
    }
  md << "\n";
  for (const ConfigColumn& c : config_columns())
    if (!c.description.empty()) md << "- **" << c.label << "**: " << c.description << "\n";
}

}  // namespace

std::string render_summary_markdown(const json& s) {
  std::ostringstream md;
  md << "# KernelArena scores: " << s.value("run", "?") << "\n\n";
  md << "Scored " << s.value("created", "") << " by arena-score from " << s["inputs"].size() << " Test.xml file(s):\n\n";
  for (const auto& in : s["inputs"])
    md << "- `" << in.value("file", "") << "` (site " << in.value("site", "?") << ", " << in.value("gate_tests", 0)
       << " gate tests of " << in.value("tests", 0) << ")\n";
  md << "\n";
  if (s.contains("notice") && s["notice"].is_string()) md << "> **" << s["notice"].get<std::string>() << "**\n\n";
  for (const auto& w : s["warnings"]) md << "> **Warning:** " << w.get<std::string>() << "\n\n";

  md << "## Metrics\n\n";
  metrics_table(md, s);

  md << "\n## Tasks\n\n";
  md << "| task | agent | compile | correct_seen | correct_unseen | speedup [95 % CI] | verdict | peak (min) | points | "
        "errors, or why not judged |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& t : s["tasks"]) {
    std::string errors;
    for (const auto& e : t["errors"]) errors += (errors.empty() ? "" : "<br>") + md_cell(e.get<std::string>());
    // Not judged is not an error: set apart in italics.
    if (!t.value("judged", true))
      errors += (errors.empty() ? "" : "<br>") + ("*" + md_cell("not judged: " + t.value("unjudged_reason", "")) + "*");
    md << "| " << md_cell(t.value("id", "")) << (t.value("candidate_fallback", false) ? " (baseline (fallback))" : "")
       << " | " << t.value("agent", "none") << " | " << gate_cell(t, "compile")
       << " | " << gate_cell(t, "correct_seen") << " | " << gate_cell(t, "correct_unseen") << " | " << fmt_speedup(t)
       << (t.value("correct", false) || !t["speedup"].is_number() ? "" : " (does not count)") << " | "
       << (t["verdict"].is_string() ? t["verdict"].get<std::string>() : "-") << " | " << fmt_pct(t["fraction_of_peak"])
       << " | " << fmt_num(t["aka_score"], "%.1f") << " | " << errors << " |\n";
  }

  configs_table(md, s);
  if (!s["conflicts"].empty()) {
    md << "\n## Conflicts (counted as failed)\n\n";
    for (const auto& c : s["conflicts"]) {
      md << "- `" << c.value("test", "") << "`:";
      for (const auto& r : c["records"])
        md << " " << r.value("outcome", "") << " in `" << r.value("file", "") << "`"
           << (r.value("detail", "").empty() ? "" : " (" + md_cell(r.value("detail", "")) + ")") << ";";
      md << "\n";
    }
  }
  if (!s["duplicates"].empty()) {
    md << "\n## Duplicates (same outcome, merged)\n\n";
    for (const auto& d : s["duplicates"]) {
      md << "- `" << d.value("test", "") << "`: " << d.value("outcome", "") << " in " << d["files"].size()
         << " files; used `" << d.value("used", "") << "`";
      if (d.contains("note")) md << " (" << d.value("note", "") << ")";
      md << "\n";
    }
  }
  time_table(md, s);
  bool any_notes = false;
  for (const auto& t : s["tasks"]) any_notes = any_notes || !t["notes"].empty();
  if (any_notes) {
    md << "\n## Notes\n\n";
    for (const auto& t : s["tasks"])
      for (const auto& n : t["notes"]) md << "- " << t.value("id", "") << ": " << md_cell(n.get<std::string>()) << "\n";
  }
  md << "\n## Definitions\n\n";
  for (const auto& [k, v] : s["definitions"].items()) md << "- **" << k << "**: " << v.get<std::string>() << "\n";
  return md.str();
}

}  // namespace arena::score
