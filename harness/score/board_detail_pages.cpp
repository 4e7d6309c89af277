// A run's page, a task's page (every run of it) and an agent's trajectory on a task.
#include <cmath>
#include <sstream>

#include "board_html.h"
#include "board_site.h"
#include "format.h"

using json = nlohmann::json;

namespace arena::score {

std::vector<std::pair<char, std::string>> line_diff(const std::string& before, const std::string& after, size_t max_lines) {
  auto lines = [](const std::string& s) {
    std::vector<std::string> v;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  };
  const auto a = lines(before), b = lines(after);
  if (a.size() > max_lines || b.size() > max_lines) return {};
  // Longest common subsequence by dynamic programming; then walk it.
  std::vector<std::vector<int>> L(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;) L[i][j] = a[i] == b[j] ? L[i + 1][j + 1] + 1 : std::max(L[i + 1][j], L[i][j + 1]);
  std::vector<std::pair<char, std::string>> out;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) out.push_back({' ', a[i]}), ++i, ++j;
    else if (i < a.size() && (j == b.size() || L[i + 1][j] >= L[i][j + 1])) out.push_back({'-', a[i++]});  // removals first
    else out.push_back({'+', b[j++]});
  }
  return out;
}

namespace board_html {

namespace {

std::string outcome_class(const std::string& o) {
  return o == "passed" ? "ok" : o == "skipped" || o == "missing" ? "skip" : "bad";
}

std::string diff_html(const std::string& before, const std::string& after) {
  const auto d = line_diff(before, after);
  if (d.empty()) return "<p>too large to compare here</p>";
  std::string out = "<pre class=\"diff\">";
  for (const auto& [op, line] : d)
    out += std::string("<span class=\"") + (op == '+' ? "add" : op == '-' ? "del" : "same") + "\">" + op + " " +
           esc(line) + "</span>";  // each span is a block: no newline between them
  return out + "</pre>";
}

}  // namespace

std::string run_detail_page(const BoardRun& r) {
  std::string b = "<p>Agent " + esc(agent_label(r)) + ", GPU " + esc(r.gpu.empty() ? "-" : r.gpu) + ", driver " +
                  esc(r.driver.empty() ? "-" : r.driver) + ", KernelArena " + esc(r.version) + ", " + esc(r.date) +
                  ".</p>";
  for (const auto& n : r.notes) b += "<p class=\"note\">" + esc(n) + "</p>";
  b += "<table class=\"sortable\"><thead><tr><th data-key=\"task\">Task</th><th data-key=\"category\">Category</th>"
       "<th>Compiled</th><th>Correct</th><th data-key=\"speedup\">Speedup</th><th>Verdict</th><th>Checks</th></tr>"
       "</thead><tbody>\n";
  for (const auto& [id, t] : r.tasks) {
    const size_t checks = t.context.contains("checks") ? t.context["checks"].size() : 0;
    b += "<tr><td data-v=\"" + esc(id) + "\"><a href=\"../" + task_page(id) + "#run-" + r.slug + "\">" + esc(id) +
         "</a></td>" + cell(t.category) + cell(t.compiled ? "yes" : "no") + cell(t.correct ? "yes" : "no") +
         cell(interval({t.speedup, t.ci_low, t.ci_high}), t.speedup) + cell(t.verdict) + "<td><a href=\"../" +
         trajectory_page(r, id) + "\">" + std::to_string(checks) + " check(s)</a></td></tr>\n";
  }
  return page("Run " + r.run, "../", b + "</tbody></table>");
}

std::string task_detail_page(const std::string& id, const std::vector<std::pair<const BoardRun*, const BoardTask*>>& uses) {
  std::string b = "<p>Every run of " + esc(id) + ".</p>";
  for (const auto& [r, t] : uses) {
    const json& s = t->score;
    b += "<section id=\"run-" + r->slug + "\"><h2>Run <a href=\"../" + run_page(*r) + "\">" + esc(r->run) + "</a>: " +
         esc(agent_label(*r)) + ", " + esc(r->gpu.empty() ? "no GPU" : r->gpu) + ", " + esc(r->date) + "</h2>";
    b += "<p>Compiled " + std::string(t->compiled ? "yes" : "no") + ", correct " + (t->correct ? "yes" : "no") +
         ", speedup " + interval({t->speedup, t->ci_low, t->ci_high}) + " " + esc(t->verdict) +
         " over " + esc(s.contains("reference") && s["reference"].is_string() ? s["reference"].get<std::string>() : "baseline") + (t->vs_name.empty() ? "" : ", vs " + esc(t->vs_name) + " " +
         interval({t->vs, t->vs_low, t->vs_high})) + ". <a href=\"../" + trajectory_page(*r, id) +
         "\">The agent's trajectory</a>.</p>";
    b += "<table class=\"gates\"><thead><tr><th>Gate</th><th>Outcome</th><th>Message</th><th>Time</th></tr></thead><tbody>";
    if (s.contains("gates") && s["gates"].is_object())
      for (const auto& [g, v] : s["gates"].items()) {
        const std::string o = v.value("outcome", "");
        std::string msg = v.value("detail", "");
        if (v.contains("configs_passed"))
          msg += (msg.empty() ? "" : "; ") + v["configs_passed"].dump() + "/" + v.value("configs_total", json()).dump() +
                 " configurations";
        if (v.contains("result_problem")) msg += (msg.empty() ? "" : "; ") + v["result_problem"].get<std::string>();
        b += "<tr><td>" + esc(g) + "</td><td class=\"" + outcome_class(o) + "\">" + esc(o) + "</td><td>" + esc(msg) +
             "</td><td>" + (v.contains("time_s") ? num(v["time_s"].get<double>(), "%.1f s") : "-") + "</td></tr>";
      }
    b += "</tbody></table>";
    for (const char* k : {"errors", "notes"})
      if (s.contains(k) && s[k].is_array() && !s[k].empty()) {
        b += "<ul class=\"" + std::string(k) + "\">";
        for (const auto& l : s[k]) b += "<li>" + esc(l.is_string() ? l.get<std::string>() : l.dump()) + "</li>";
        b += "</ul>";
      }
    if (s.contains("bottleneck") && s["bottleneck"].is_object() && !s["bottleneck"].empty()) {
      b += "<p>Profile: ";
      for (const auto& [side, cls] : s["bottleneck"].items()) b += esc(side) + " " + esc(cls.dump()) + "; ";
      b += "</p>";
    }
    if (s.contains("configs") && s["configs"].is_array() && !s["configs"].empty()) {
      b += "<table class=\"configs\"><thead><tr><th>Configuration</th><th>Parameters</th><th>Speedup [95 %]</th>"
           "<th>Verdict</th><th>Peak</th></tr></thead><tbody>";
      for (const auto& c : s["configs"]) {
        auto d = [&](const char* k) { return c.contains(k) && c[k].is_number() ? c[k].get<double>() : NAN; };
        b += "<tr><td>" + esc(c.value("label", "")) + "</td><td>" + esc(c.value("params", "")) + "</td><td>" +
             interval({d("speedup"), d("ci95_low"), d("ci95_high")}) + "</td><td>" + esc(c.value("verdict", "")) +
             "</td><td>" + pct(d("fraction_of_peak")) + "</td></tr>";
      }
      b += "</tbody></table>";
    }
    const std::string cand = t->context.value("candidate_source", ""), start = t->context.value("start_source", "");
    if (!cand.empty() && !start.empty()) b += "<h3>Candidate against the file it started from</h3>" + diff_html(start, cand);
    else if (!cand.empty()) b += "<h3>Candidate</h3><pre>" + esc(cand) + "</pre>";
    else b += "<p>The run kept no candidate source.</p>";
    b += "</section>\n";
  }
  return page(id, "../", b);
}

namespace {

// A trajectory's milestones: its first correct check and its fastest correct one (-1 where none).
struct CheckMilestones {
  int first_correct = -1, best = -1;
  double best_speedup = 0;
};

CheckMilestones check_milestones(const json& checks) {
  CheckMilestones m;
  for (size_t i = 0; i < checks.size(); ++i) {
    const json& k = checks[i];
    if (k.value("correct", false) && m.first_correct < 0) m.first_correct = static_cast<int>(i);
    const double sp = k.contains("speedup") && k["speedup"].is_number() ? k["speedup"].get<double>() : 0;
    if (k.value("correct", false) && sp > m.best_speedup) m.best_speedup = sp, m.best = static_cast<int>(i);
  }
  return m;
}

// One row per check (a note row where the runner noted something instead), marking the first
// correct, the best, and regressions: a correct check slower than the best before it, or an
// incorrect one after a correct one.
std::string check_rows(const json& checks, const CheckMilestones& m) {
  std::string b;
  bool was_correct = false;
  double best_so_far = 0;
  for (size_t i = 0; i < checks.size(); ++i) {
    const json& k = checks[i];
    if (k.contains("note")) {
      b += "<tr class=\"note\"><td colspan=\"10\">" + esc(k["note"].get<std::string>()) + "</td></tr>\n";
      continue;
    }
    auto d = [&](const char* key) { return k.contains(key) && k[key].is_number() ? k[key].get<double>() : NAN; };
    const bool correct = k.value("correct", false);
    std::string mark;
    if (static_cast<int>(i) == m.first_correct) mark += "first correct ";
    if (static_cast<int>(i) == m.best) mark += "best ";
    if (k.value("script", "") == "check" && was_correct && k.contains("correct") && !correct) mark += "regression (not correct) ";
    if (correct && best_so_far > 0 && d("speedup") < best_so_far && std::isfinite(d("ci95_high")) &&
        d("ci95_high") < best_so_far)
      mark += "regression (slower) ";
    if (k.contains("problem")) mark += esc(k["problem"].get<std::string>());
    was_correct |= correct;
    if (correct && d("speedup") > best_so_far) best_so_far = d("speedup");
    const std::string correct_cell = !k.contains("correct") ? "-"
                                     : (correct ? "yes" : "no") + (k.contains("configs_passed")
                                                                       ? " (" + k["configs_passed"].dump() + "/" +
                                                                             k.value("configs_total", json()).dump() + ")"
                                                                       : std::string());
    b += "<tr class=\"" + std::string(correct ? "ok" : "") + "\"><td>" + std::to_string(k.value("n", 0)) + "</td><td>" +
         esc(k.value("received", "")) + "</td><td>" + num(d("elapsed_s"), "%.0f s") + "</td><td>" +
         esc(k.value("script", "")) + " (exit " + (k.contains("exit") ? k["exit"].dump() : "-") + ", " +
         esc(k.value("stage", "")) + ")</td><td>" + (k.value("compiled", false) ? "yes" : "no") + "</td><td>" +
         esc(correct_cell) + "</td><td>" + interval({d("speedup"), d("ci95_low"), d("ci95_high")}) + "</td><td>" +
         esc(k.value("verdict", "")) + "</td><td>" + esc(k.value("candidate_hash", "").substr(0, 8)) + "</td><td>" +
         mark + "</td></tr>\n";
  }
  return b;
}

// The path to the final kernel: each candidate a check saw, against the one before it.
std::string check_steps(const json& c, const json& checks) {
  std::string before = c.value("start_source", json("")).is_string() ? c.value("start_source", "") : "";
  std::string steps;
  for (const auto& k : checks) {
    if (!k.contains("source") || !k["source"].is_string()) continue;
    const std::string now = k["source"].get<std::string>();
    steps += "<details><summary>check #" + std::to_string(k.value("n", 0)) + (before.empty() ? "" : ": changes") +
             "</summary>" + (before.empty() ? "<pre>" + esc(now) + "</pre>" : diff_html(before, now)) + "</details>";
    before = now;
  }
  return steps.empty() ? steps : "<h2>What each check compiled</h2>" + steps;
}

// The checks' table and what each compiled, or why there are none.
std::string checks_section(const json& c) {
  const json checks = c.contains("checks") && c["checks"].is_array() ? c["checks"] : json::array();
  if (checks.empty())
    return c.value("checks_kept", false) ? "<p id=\"no-checks\">The agent ran no check.</p>"
                                         : "<p id=\"no-checks\">This run kept no check log.</p>";
  const CheckMilestones m = check_milestones(checks);
  return "<p>" + std::to_string(checks.size()) + " call(s); first correct: " +
         (m.first_correct < 0 ? std::string("none") : "#" + std::to_string(checks[m.first_correct].value("n", 0))) +
         "; best: " + (m.best < 0 ? std::string("none") : "#" + std::to_string(checks[m.best].value("n", 0)) + " (" +
                                                          num(m.best_speedup) + "x)") +
         ".</p><table id=\"checks\"><thead><tr><th>#</th><th>Received</th><th>After</th><th>Script</th><th>Compiled</th>"
         "<th>Correct</th><th>Speedup [95 %]</th><th>Verdict</th><th>Candidate</th><th>Mark</th></tr></thead><tbody>\n" +
         check_rows(checks, m) + "</tbody></table>" + check_steps(c, checks);
}

}  // namespace

std::string trajectory_detail_page(const BoardRun& r, const BoardTask& t) {
  const json& c = t.context;
  std::string b = "<p>" + esc(agent_label(r)) + " on <a href=\"../" + task_page(t.id) + "#run-" + r.slug + "\">" +
                  esc(t.id) + "</a> in run <a href=\"../" + run_page(r) + "\">" + esc(r.run) + "</a>";
  if (c.contains("agent_status") && c["agent_status"].is_string()) b += "; the agent " + esc(c["agent_status"].get<std::string>());
  b += ". Every call of check.sh and profile.sh in its workspace, as the runner recorded it outside the workspace "
       "(time received, the candidate's copy, the self-check's results).</p>";
  b += checks_section(c);
  b += "<p>Final result (the gates): compiled " + std::string(t.compiled ? "yes" : "no") + ", correct " +
       (t.correct ? "yes" : "no") + ", speedup " + interval({t.speedup, t.ci_low, t.ci_high}) + ".</p>";
  if (c.contains("outside_reads") && !c["outside_reads"].empty()) {
    b += "<h2>Transcript lines naming paths outside the workspace</h2><pre class=\"flagged\">";
    for (const auto& l : c["outside_reads"]) b += esc(l.get<std::string>()) + "\n";
    b += "</pre>";
  }
  if (c.contains("transcript_tail"))
    b += "<h2>The agent's transcript (its end)</h2><pre class=\"transcript\">" + esc(c["transcript_tail"].get<std::string>()) +
         "</pre>";
  return page("Trajectory: " + t.id + " in " + r.run, "../", b);
}

}  // namespace board_html
}  // namespace arena::score
