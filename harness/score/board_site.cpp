#include "board_site.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "board_html.h"
#include "format.h"

using json = nlohmann::json;

namespace arena::score {

using namespace board_html;

namespace {

// Tasks of run r in suite s (and category c unless "all").
std::vector<const BoardTask*> select(const BoardRun& r, const std::string& s, const std::string& c) {
  std::vector<const BoardTask*> out;
  for (const auto& [id, t] : r.tasks)
    if (t.suite == s && (c == "all" || t.category == c)) out.push_back(&t);
  return out;
}

struct Entry {
  const BoardRun* run;
  std::string suite, category;
  EntryMetrics m;
  int rank = 0;
};

std::vector<Entry> entries(const std::vector<BoardRun>& runs) {
  std::vector<Entry> out;
  for (const auto& r : runs) {
    std::map<std::string, std::set<std::string>> cats;  // suite -> categories
    for (const auto& [id, t] : r.tasks) cats[t.suite].insert(t.category);
    for (const auto& [suite, cs] : cats) {
      out.push_back({&r, suite, "all", entry_metrics(select(r, suite, "all"))});
      for (const auto& c : cs) out.push_back({&r, suite, c, entry_metrics(select(r, suite, c))});
    }
  }
  std::map<std::string, std::vector<size_t>> groups;  // suite|category -> entries
  for (size_t i = 0; i < out.size(); ++i) groups[out[i].suite + "|" + out[i].category].push_back(i);
  for (const auto& [g, idx] : groups) {
    std::vector<Interval> xs;
    for (size_t i : idx) xs.push_back(out[i].m.geomean_all);
    const auto ranks = interval_ranks(xs);
    for (size_t k = 0; k < idx.size(); ++k) out[idx[k]].rank = ranks[k];
  }
  return out;
}

json interval_json(const Interval& x) {
  return {{"estimate", finite_or_null(x.est)}, {"ci95_low", finite_or_null(x.low)}, {"ci95_high", finite_or_null(x.high)}};
}

std::string select_box(const std::string& id, const std::string& label, const std::set<std::string>& values,
                       const std::string& first_value, const std::string& first_label) {
  std::string s = "<label>" + label + " <select id=\"filter-" + id + "\" data-filter=\"" + id + "\"><option value=\"" +
                  esc(first_value) + "\">" + esc(first_label) + "</option>";
  for (const auto& v : values)
    if (v != first_value) s += "<option value=\"" + esc(v) + "\">" + esc(v) + "</option>";
  return s + "</select></label> ";
}

std::string leaderboard_page(const std::vector<BoardRun>& runs, const std::vector<Entry>& es,
                             const std::vector<std::string>& notes) {
  std::set<std::string> suites, cats, gpus, dates;
  for (const auto& e : es) suites.insert(e.suite), cats.insert(e.category), gpus.insert(e.run->gpu), dates.insert(e.run->date);
  std::string b = "<p>" + std::to_string(runs.size()) + " run(s). Ranked within suite and category by the geometric "
                  "mean speedup over GPU-judged tasks (a task that is not correct counts as 1.0); an entry's rank is "
                  "1 + the number of entries whose 95 % interval lies wholly above its own, so overlapping intervals "
                  "share a rank. Click a column to sort.</p>\n<div class=\"filters\">" +
                  select_box("suite", "Suite", suites, "", "any") + select_box("category", "Category", cats, "all", "all") +
                  select_box("gpu", "GPU", gpus, "", "any") + select_box("date", "Date", dates, "", "any") +
                  "</div>\n<table id=\"leaderboard\" class=\"sortable filterable\"><thead><tr>";
  for (const auto& [key, label] : std::vector<std::pair<std::string, std::string>>{
           {"rank", "Rank"}, {"agent", "Agent"}, {"suite", "Suite"}, {"category", "Category"}, {"gpu", "GPU"},
           {"date", "Date"}, {"run", "Run"}, {"tasks", "Tasks"}, {"compile", "Compile"}, {"seen", "Correct seen"},
           {"unseen", "Correct unseen"}, {"speedup", "Geomean speedup (correct)"}, {"speedup_all", "Geomean, all (ranked)"},
           {"faster", "FASTER"}, {"peak", "Median peak"}, {"vs", "vs torch.compile"}})
    b += "<th id=\"th-" + key + "\" data-key=\"" + key + "\">" + label + "</th>";
  b += "</tr></thead><tbody>\n";
  for (const auto& e : es) {
    const auto& m = e.m;
    const BoardRun& r = *e.run;
    b += "<tr data-suite=\"" + esc(e.suite) + "\" data-category=\"" + esc(e.category) + "\" data-gpu=\"" + esc(r.gpu) +
         "\" data-date=\"" + esc(r.date) + "\">" + cell(std::to_string(e.rank), e.rank) +
         "<td data-v=\"" + esc(agent_label(r)) + "\"><a href=\"history.html#" + esc(file_part(r.agent + "__" + e.suite)) +
         "\">" + esc(agent_label(r)) + "</a></td>" + cell(e.suite) + cell(e.category) + cell(r.gpu) + cell(r.date) +
         "<td data-v=\"" + esc(r.run) + "\"><a href=\"" + run_page(r) + "\">" + esc(r.run) + "</a></td>" +
         cell(std::to_string(m.tasks), m.tasks) + cell(pct(m.compile_rate), m.compile_rate) +
         cell(pct(m.correct_seen_rate), m.correct_seen_rate) + cell(pct(m.correct_unseen_rate), m.correct_unseen_rate) +
         cell(interval(m.geomean_correct), m.geomean_correct.est) + cell(interval(m.geomean_all), m.geomean_all.est) +
         cell(pct(m.faster_rate), m.faster_rate) + cell(pct(m.median_peak), m.median_peak) +
         cell(interval(m.geomean_vs), m.geomean_vs.est) + "</tr>\n";
  }
  b += "</tbody></table>\n<p id=\"row-count\"></p>\n";
  if (!notes.empty()) {
    b += "<h2>Merged and dropped</h2><ul>";
    for (const auto& n : notes) b += "<li>" + esc(n) + "</li>";
    b += "</ul>";
  }
  return page("Leaderboard", "", b);
}

std::string shares_row(const std::string& what, const VarianceShares& v) {
  return "<tr><td>" + what + "</td><td>" + pct(v.category) + "</td><td>" + pct(v.agent) + "</td><td>" + pct(v.residual) +
         "</td><td>" + std::to_string(v.n) + "</td></tr>";
}

// Every GPU-judged task of every run as an observation of correctness (0/1) and of log speedup
// (0 when not correct), with its category and agent.
void observations(const std::vector<BoardRun>& runs, std::vector<Observation>* correct, std::vector<Observation>* speed) {
  for (const auto& r : runs)
    for (const auto& [id, t] : r.tasks) {
      if (!t.gpu_judged) continue;
      correct->push_back({t.category, agent_label(r), t.correct ? 1.0 : 0.0});
      speed->push_back({t.category, agent_label(r), t.correct && t.speedup > 0 ? std::log(t.speedup) : 0.0});
    }
}

json shares_json(const VarianceShares& v) {
  return {{"category", finite_or_null(v.category)}, {"agent", finite_or_null(v.agent)},
          {"rest", finite_or_null(v.residual)}, {"observations", v.n}};
}

std::string categories_page(const std::vector<BoardRun>& runs) {
  // Pooled over runs: category x agent.
  std::map<std::pair<std::string, std::string>, std::vector<const BoardTask*>> cells;
  std::vector<Observation> correct, speed;
  observations(runs, &correct, &speed);
  for (const auto& r : runs)
    for (const auto& [id, t] : r.tasks) cells[{t.category, agent_label(r)}].push_back(&t);
  std::set<std::string> agents, cats;
  for (const auto& [k, v] : cells) cats.insert(k.first), agents.insert(k.second);
  std::string b = "<h2>Variance explained</h2><p>Over every GPU-judged task of every run: each factor's sum of squares "
                  "between its levels over the total (eta squared, each factor alone; with unbalanced data the two "
                  "overlap, and the rest is 1 minus both). Speedup on the log scale, a task that is not correct counting "
                  "as 1.0.</p><table id=\"variance\"><thead><tr><th>Outcome</th><th>Category</th><th>Agent</th>"
                  "<th>Rest</th><th>Observations</th></tr></thead><tbody>" +
                  shares_row("correct", variance_shares(correct)) + shares_row("log speedup", variance_shares(speed)) +
                  "</tbody></table>\n<h2>By category and agent</h2><div class=\"filters\">" +
                  select_box("agent", "Agent", agents, "", "any") + "</div><table id=\"categories\" class=\"sortable "
                  "filterable\"><thead><tr><th data-key=\"category\">Category</th><th data-key=\"agent\">Agent</th>"
                  "<th data-key=\"tasks\">Task runs</th><th data-key=\"compile\">Compile</th><th data-key=\"correct\">"
                  "Correct</th><th data-key=\"speedup_all\">Geomean, all</th><th data-key=\"faster\">FASTER</th>"
                  "</tr></thead><tbody>\n";
  for (const auto& [k, ts] : cells) {
    const EntryMetrics m = entry_metrics(ts);
    b += "<tr data-agent=\"" + esc(k.second) + "\">" + cell(k.first) + cell(k.second) + cell(std::to_string(m.tasks), m.tasks) +
         cell(pct(m.compile_rate), m.compile_rate) + cell(pct(m.correct_rate), m.correct_rate) +
         cell(interval(m.geomean_all), m.geomean_all.est) + cell(pct(m.faster_rate), m.faster_rate) + "</tr>\n";
  }
  return page("Categories", "", b + "</tbody></table>");
}

// An SVG line chart of one agent and suite over its runs: geomean speedup (all) and correct rate.
std::string history_chart(const std::vector<std::pair<std::string, EntryMetrics>>& points) {
  const int w = 520, h = 200, pad = 36;
  double top = 1;
  for (const auto& [label, m] : points)
    if (std::isfinite(m.geomean_all.high)) top = std::max(top, m.geomean_all.high);
  top *= 1.1;
  auto x = [&](size_t i) { return pad + (points.size() < 2 ? (w - 2 * pad) / 2.0 : i * (w - 2.0 * pad) / (points.size() - 1)); };
  auto y = [&](double v, double max) { return h - pad - v / max * (h - 2 * pad); };
  char buf[256];
  std::string svg = "<svg class=\"chart\" viewBox=\"0 0 " + std::to_string(w) + " " + std::to_string(h) +
                    "\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) + "\" role=\"img\">";
  std::snprintf(buf, sizeof buf, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axis\"/>", pad, h - pad, w - pad, h - pad);
  svg += buf;
  std::snprintf(buf, sizeof buf, "<text x=\"2\" y=\"%.1f\">%.2fx</text><text x=\"2\" y=\"%.1f\">1x</text>", y(top, top) + 4,
                top, y(1, top) + 4);
  svg += buf;
  std::string speed, correct;
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& m = points[i].second;
    if (std::isfinite(m.geomean_all.est)) {
      std::snprintf(buf, sizeof buf, "%.1f,%.1f ", x(i), y(m.geomean_all.est, top));
      speed += buf;
      std::snprintf(buf, sizeof buf, "<circle class=\"speedup\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", x(i),
                    y(m.geomean_all.est, top));
      svg += buf;
      std::snprintf(buf, sizeof buf, "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x(i),
                    y(m.geomean_all.low, top), x(i), y(m.geomean_all.high, top));
      svg += buf;
    }
    if (std::isfinite(m.correct_rate)) {
      std::snprintf(buf, sizeof buf, "%.1f,%.1f ", x(i), y(m.correct_rate, 1.0));
      correct += buf;
      std::snprintf(buf, sizeof buf, "<circle class=\"correct\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", x(i),
                    y(m.correct_rate, 1.0));
      svg += buf;
    }
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%d\" class=\"tick\">", x(i) - 20, h - pad + 16);
    svg += buf + esc(points[i].first.substr(0, 14)) + "</text>";
  }
  svg += "<polyline class=\"speedup\" points=\"" + speed + "\"/><polyline class=\"correct\" points=\"" + correct + "\"/>";
  return svg + "</svg><p class=\"legend\"><span class=\"speedup\">&#9632;</span> geomean speedup, all tasks (with 95 % "
               "interval) <span class=\"correct\">&#9632;</span> correct rate (0 to 100 % of the height)</p>";
}

std::string history_page(const std::vector<BoardRun>& runs) {
  std::map<std::pair<std::string, std::string>, std::vector<const BoardRun*>> series;  // (agent, suite) -> runs in time order
  for (const auto& r : runs) {
    std::set<std::string> suites;
    for (const auto& [id, t] : r.tasks) suites.insert(t.suite);
    for (const auto& s : suites) series[{r.agent, s}].push_back(&r);
  }
  std::string b;
  for (const auto& [k, rs] : series) {
    std::vector<std::pair<std::string, EntryMetrics>> points;
    std::string rows;
    for (const BoardRun* r : rs) {
      const EntryMetrics m = entry_metrics(select(*r, k.second, "all"));
      points.push_back({r->date, m});
      rows += "<tr><td><a href=\"" + run_page(*r) + "\">" + esc(r->run) + "</a></td><td>" + esc(r->date) + "</td><td>" +
              esc(r->gpu) + "</td><td>" + std::to_string(m.tasks) + "</td><td>" + pct(m.correct_rate) + "</td><td>" +
              interval(m.geomean_all) + "</td></tr>";
    }
    b += "<section id=\"" + esc(file_part(k.first + "__" + k.second)) + "\"><h2>" + esc(k.first) + " on " + esc(k.second) +
         "</h2>" + history_chart(points) + "<table><thead><tr><th>Run</th><th>Date</th><th>GPU</th><th>Tasks</th>"
         "<th>Correct</th><th>Geomean, all</th></tr></thead><tbody>" + rows + "</tbody></table></section>\n";
  }
  return page("History", "", b);
}

std::string audit_page(const std::vector<AuditEntry>& entries, const AuditLimits& limits) {
  char buf[320];
  std::snprintf(buf, sizeof buf, "<p>Results that deserve a look: correct speedups above %.3gx, fraction of peak above "
                "%.0f %%, kept timed samples whose relative error is above %.3g x the worst the correctness gates saw, and agent "
                "transcripts naming paths outside the workspace (the build tree, task folders, solutions).</p>",
                limits.speedup, 100 * limits.peak, limits.kept_error);
  std::string b = buf;
  b += "<table id=\"audit\" class=\"sortable\"><thead><tr><th data-key=\"kind\">Kind</th><th data-key=\"task\">Task"
       "</th><th data-key=\"run\">Run</th><th data-key=\"agent\">Agent</th><th>Detail</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    const AuditEntry& e = entries[i];
    b += "<tr>" + cell(e.kind) + "<td data-v=\"" + esc(e.task_id) + "\"><a id=\"audit-link-" + std::to_string(i) +
         "\" href=\"" + task_page(e.task_id) + "#run-" +
         esc(e.run_slug) + "\">" + esc(e.task_id) + "</a></td>" + cell(e.run) + cell(e.agent) + "<td>" + esc(e.detail) +
         "</td></tr>\n";
  }
  if (entries.empty()) b += "<tr><td colspan=\"5\">nothing to audit</td></tr>";
  return page("Audit", "", b + "</tbody></table>");
}

std::string runs_page(const std::vector<BoardRun>& runs) {
  std::string b = "<table class=\"sortable\"><thead><tr><th data-key=\"run\">Run</th><th data-key=\"agent\">Agent</th>"
                  "<th data-key=\"date\">Date</th><th data-key=\"gpu\">GPU</th><th>Driver</th><th>Version</th>"
                  "<th>Hosts</th><th data-key=\"tasks\">Tasks</th><th>From</th></tr></thead><tbody>\n";
  for (const auto& r : runs) {
    std::string hosts, files;
    for (const auto& h : r.hosts) hosts += (hosts.empty() ? "" : ", ") + h;
    for (const auto& f : r.files) files += esc(f) + "<br>";
    b += "<tr><td data-v=\"" + esc(r.run) + "\"><a href=\"" + run_page(r) + "\">" + esc(r.run) + "</a></td>" +
         cell(agent_label(r)) + cell(r.date) + cell(r.gpu) + cell(r.driver) + cell(r.version) + cell(hosts) +
         cell(std::to_string(r.tasks.size()), r.tasks.size()) + "<td>" + files + "</td></tr>\n";
  }
  return page("Runs", "", b + "</tbody></table>");
}

}  // namespace

json leaderboard_json(const std::vector<BoardRun>& runs) {
  json out = json::array();
  for (const auto& e : entries(runs)) {
    const auto& m = e.m;
    out.push_back({{"run", e.run->run}, {"agent", e.run->agent}, {"model", e.run->model}, {"suite", e.suite},
                   {"category", e.category}, {"gpu", e.run->gpu}, {"driver", e.run->driver}, {"date", e.run->date},
                   {"rank", e.rank}, {"tasks", m.tasks}, {"compile_rate", finite_or_null(m.compile_rate)},
                   {"correct_seen_rate", finite_or_null(m.correct_seen_rate)},
                   {"correct_unseen_rate", finite_or_null(m.correct_unseen_rate)},
                   {"correct_rate", finite_or_null(m.correct_rate)}, {"faster_rate", finite_or_null(m.faster_rate)},
                   {"median_fraction_of_peak", finite_or_null(m.median_peak)},
                   {"geomean_speedup_correct", interval_json(m.geomean_correct)},
                   {"geomean_speedup_all", interval_json(m.geomean_all)},
                   {"geomean_speedup_vs", m.vs_name.empty() ? json(nullptr) : json{{"reference", m.vs_name},
                                                                                   {"interval", interval_json(m.geomean_vs)}}}});
  }
  return out;
}

std::map<std::string, std::string> render_board(const std::vector<BoardRun>& runs, const std::vector<std::string>& notes,
                                                const AuditLimits& limits) {
  std::map<std::string, std::string> files;
  const auto es = entries(runs);
  const auto audit = audit_entries(runs, limits);
  files["index.html"] = leaderboard_page(runs, es, notes);
  files["categories.html"] = categories_page(runs);
  files["history.html"] = history_page(runs);
  files["audit.html"] = audit_page(audit, limits);
  files["runs.html"] = runs_page(runs);
  files["board.css"] = kBoardCss;
  files["board.js"] = kBoardJs;
  std::map<std::string, std::vector<std::pair<const BoardRun*, const BoardTask*>>> by_task;
  json runs_json = json::array();
  for (const auto& r : runs) {
    files[run_page(r)] = run_detail_page(r);
    json tasks = json::object();
    for (const auto& [id, t] : r.tasks) {
      by_task[id].push_back({&r, &t});
      files[trajectory_page(r, id)] = trajectory_detail_page(r, t);
      tasks[id] = {{"score", t.score}, {"context", t.context}, {"category", t.category}};
    }
    runs_json.push_back({{"run", r.run}, {"slug", r.slug}, {"agent", r.agent}, {"model", r.model}, {"gpu", r.gpu},
                         {"driver", r.driver}, {"version", r.version}, {"date", r.date}, {"hosts", r.hosts},
                         {"files", r.files}, {"notes", r.notes}, {"tasks", tasks}});
  }
  for (const auto& [id, uses] : by_task) files[task_page(id)] = task_detail_page(id, uses);
  json audit_json = json::array();
  for (const auto& a : audit)
    audit_json.push_back({{"run", a.run}, {"agent", a.agent}, {"task", a.task_id}, {"kind", a.kind}, {"detail", a.detail},
                          {"page", task_page(a.task_id)}});
  std::vector<Observation> correct, speed;
  observations(runs, &correct, &speed);
  const json variance = {{"correct", shares_json(variance_shares(correct))},
                         {"log_speedup", shares_json(variance_shares(speed))}};
  files["board.json"] = json{{"tool", "arena-score board"}, {"notes", notes}, {"leaderboard", leaderboard_json(runs)},
                             {"variance", variance},
                             {"audit", audit_json}, {"runs", runs_json}}.dump(1) + "\n";
  return files;
}

}  // namespace arena::score

