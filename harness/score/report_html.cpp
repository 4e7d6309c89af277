// index.html: one self-contained page (inline CSS, SVG and a little JS; no external URLs).
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <vector>

#include "config_rows.h"
#include "fast_p_chart.h"
#include "format.h"
#include "metric_rows.h"
#include "report.h"

using json = nlohmann::json;

namespace arena::score {

namespace {

const char* kStyle = R"CSS(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2430;background:#fff;max-width:1400px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d7dce3;padding-bottom:4px}
.meta{color:#5a6472;font-size:13px}
.warn{background:#fff4d6;border:1px solid #e8c35a;padding:6px 10px;margin:6px 0;font-size:13px}
table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #d7dce3;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef1f5}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table#tasks{width:100%}td.msgs{min-width:260px;font-size:12px}.ci{font-size:11px;color:#5a6472}
table.sortable th{cursor:pointer;user-select:none}table.sortable th:after{content:" \2195";color:#9aa3af}
table.sortable th[aria-sort=ascending]:after{content:" \2191";color:#1d2430}
table.sortable th[aria-sort=descending]:after{content:" \2193";color:#1d2430}
.ok{color:#13795b}.bad{color:#b42318;font-weight:600}.skip{color:#8a6d00}.dim{color:#8a94a3}
td.msgs div{margin:1px 0;overflow-wrap:anywhere}.msgs .err{color:#b42318}.nj{color:#5a6472}
svg text{font-family:inherit;font-size:11px;fill:#1d2430}
.legend span{display:inline-block;margin-right:14px;font-size:12px}
.sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
)CSS";

const char* kScript = R"JS(
(function () {
  var table = document.getElementById('tasks');
  if (!table) return;
  var body = table.tBodies[0], heads = table.tHead.rows[0].cells;
  function value(row, i, numeric) {
    var v = row.cells[i].getAttribute('data-v');
    if (!numeric) return v || '';
    return v === null || v === '' ? -Infinity : parseFloat(v);
  }
  function sortBy(i, desc) {
    var numeric = heads[i].getAttribute('data-type') === 'num';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = value(a, i, numeric), y = value(b, i, numeric);
      var c = x < y ? -1 : x > y ? 1 : 0;
      return desc ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    for (var k = 0; k < heads.length; k++) heads[k].removeAttribute('aria-sort');
    heads[i].setAttribute('aria-sort', desc ? 'descending' : 'ascending');
  }
  Array.prototype.forEach.call(heads, function (h, i) {
    h.addEventListener('click', function () { sortBy(i, h.getAttribute('aria-sort') === 'ascending'); });
  });
  var m = /^#sort=([A-Za-z_.]+)(-desc)?$/.exec(window.location.hash);
  if (m) Array.prototype.forEach.call(heads, function (h, i) { if (h.getAttribute('data-key') === m[1]) sortBy(i, !!m[2]); });
})();
)JS";

std::string esc(const std::string& s) { return html_escape(s); }

std::string outcome_class(const std::string& o) {
  if (o == "passed" || o == "finished") return "ok";
  if (o == "skipped") return "nj";  // not judged, which is no failure: neutral
  if (o == "missing") return "dim";
  return "bad";
}

std::string gate_td(const json& t, const std::string& gate) {
  std::string o = t["gates"].contains(gate) ? t["gates"][gate].value("outcome", "missing") : "missing";
  return "<td class=\"" + outcome_class(o) + "\" data-v=\"" + esc(o) + "\">" + esc(gate_cell(t, gate)) + "</td>";
}

std::string num_attr(const json& v) { return v.is_number() ? fmt_num(v.get<double>(), "%.6g") : ""; }

void metrics_section(std::ostringstream& h, const json& s) {
  h << "<h2>Metrics</h2>\n<table class=\"metrics\"><thead><tr><th>metric</th>";
  std::vector<const json*> cols;
  for (const auto& [name, m] : s["suites"].items()) {
    h << "<th>" << esc(name) << "</th>";
    cols.push_back(&m);
  }
  h << "<th>overall</th></tr></thead><tbody>\n";
  cols.push_back(&s["overall"]);
  for (const MetricRow& row : metric_rows()) {
    h << "<tr><td>" << esc(row.label) << "</td>";
    for (const json* m : cols) h << "<td class=\"n\">" << esc(row.cell(*m)) << "</td>";
    h << "</tr>\n";
  }
  h << "</tbody></table>\n";
}

void tasks_section(std::ostringstream& h, const json& s) {
  h << "<h2>Tasks</h2>\n<p class=\"meta\">Click a column to sort (or open the page with #sort=speedup-desc).</p>\n"
       "<table id=\"tasks\" class=\"sortable\"><thead><tr>"
       "<th data-key=\"task\">task</th><th data-key=\"agent\">agent</th><th data-key=\"compile\">compile</th>"
       "<th data-key=\"seen\" title=\"correct_seen\">seen</th><th data-key=\"unseen\" title=\"correct_unseen\">unseen</th>"
       "<th data-key=\"speedup\" data-type=\"num\">speedup [95 % CI]</th><th data-key=\"verdict\">verdict</th>"
       "<th data-key=\"peak\" data-type=\"num\" title=\"lowest candidate fraction of peak over the perf configurations\">peak</th><th data-key=\"points\" data-type=\"num\">points</th>"
       "<th data-key=\"errors\">errors, or why not judged</th></tr></thead><tbody>\n";
  for (const auto& t : s["tasks"]) {
    const bool counts = t.value("correct", false);
    h << "<tr data-task=\"" << esc(t.value("id", "")) << "\"><td data-v=\"" << esc(t.value("id", "")) << "\">"
      << esc(t.value("id", ""))
      << (t.value("candidate_fallback", false) ? "<div class=\"ci skip\">baseline (fallback): no candidate file</div>" : "")
      << "</td>";
    const std::string agent = t.value("agent", "none");
    h << "<td class=\"" << (agent == "none" ? "dim" : outcome_class(agent)) << "\" data-v=\"" << esc(agent) << "\">"
      << esc(agent) << "</td>";
    h << gate_td(t, "compile") << gate_td(t, "correct_seen") << gate_td(t, "correct_unseen");
    h << "<td class=\"n" << (counts || !t["speedup"].is_number() ? "" : " dim") << "\" data-v=\""
      << (counts ? num_attr(t["speedup"]) : "") << "\">" << esc(fmt_num(t["speedup"]));
    if (t["ci95_low"].is_number() && t["ci95_high"].is_number())
      h << "<div class=\"ci\">[" << fmt_num(t["ci95_low"]) << ", " << fmt_num(t["ci95_high"]) << "]</div>";
    if (t.value("reference", "baseline") != "baseline" && t["speedup"].is_number())
      h << "<div class=\"ci\">vs " << esc(t["reference"].get<std::string>()) << "</div>";
    if (t.contains("speedup_vs") && t["speedup_vs"].is_object())
      for (const auto& [name, x] : t["speedup_vs"].items())
        if (x.value("speedup", json()).is_number())
          h << "<div class=\"ci\">vs " << esc(name) << " " << fmt_num(x["speedup"]) << "</div>";
    if (!counts && t["speedup"].is_number()) h << "<div class=\"ci\">does not count</div>";
    h << "</td>";
    const std::string verdict = t["verdict"].is_string() ? t["verdict"].get<std::string>() : "";
    h << "<td class=\"" << (verdict == "FASTER" ? "ok" : verdict == "SLOWER" ? "bad" : "") << "\" data-v=\""
      << esc(verdict) << "\">" << esc(verdict.empty() ? "-" : verdict) << "</td>";
    h << "<td class=\"n\" data-v=\"" << num_attr(t["fraction_of_peak"]) << "\">" << esc(fmt_pct(t["fraction_of_peak"]))
      << "</td>";
    h << "<td class=\"n\" data-v=\"" << num_attr(t["aka_score"]) << "\">" << esc(fmt_num(t["aka_score"], "%.1f"))
      << "</td>";
    // Errors in red, whole (they wrap); why a task is not judged in the neutral colour: it did not fail.
    h << "<td class=\"msgs\" data-v=\"" << t["errors"].size() << "\">";
    for (const auto& e : t["errors"]) h << "<div class=\"err\">" << esc(e.get<std::string>()) << "</div>";
    if (!t.value("judged", true))
      h << "<div class=\"nj\">not judged: " << esc(t.value("unjudged_reason", "")) << "</div>";
    h << "</td></tr>\n";
  }
  h << "</tbody></table>\n";
}

// Horizontal interval plot, log-scaled speedup axis, one row per task with a speedup.
void speedup_chart(std::ostringstream& h, const json& s) {
  struct Row {
    std::string id, verdict;
    double v, lo, hi;
    bool counts;
  };
  std::vector<Row> rows;
  std::vector<std::string> without, unjudged;
  for (const auto& t : s["tasks"]) {
    if (!t["speedup"].is_number()) {
      (t.value("judged", true) ? without : unjudged).push_back(t.value("id", ""));
      continue;
    }
    double v = t["speedup"].get<double>();
    double lo = t["ci95_low"].is_number() ? t["ci95_low"].get<double>() : v;
    double hi = t["ci95_high"].is_number() ? t["ci95_high"].get<double>() : v;
    rows.push_back({t.value("id", ""), t["verdict"].is_string() ? t["verdict"].get<std::string>() : "", v, lo, hi,
                    t.value("correct", false)});
  }
  h << "<h2>Speedup per task</h2>\n";
  if (rows.empty()) {
    h << "<p class=\"meta\">No task has a measured speedup.</p>\n";
  } else {
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.v > b.v; });
    double mn = 0.5, mx = 2.0;
    for (const Row& r : rows) {
      mn = std::min(mn, std::max(r.lo, 1e-3));
      mx = std::max(mx, r.hi);
    }
    const double l0 = std::floor(std::log2(mn)), l1 = std::ceil(std::log2(mx));
    const int left = 230, width = 620, top = 24, row_h = 22;
    const int height = top + static_cast<int>(rows.size()) * row_h + 30;
    auto X = [&](double v) { return left + (std::log2(std::max(v, 1e-3)) - l0) / (l1 - l0) * width; };
    h << "<svg width=\"" << left + width + 170 << "\" height=\"" << height << "\" role=\"img\" "
      << "aria-label=\"speedup per task with 95 % intervals\">\n";
    for (double e = l0; e <= l1; e += 1) {
      double v = std::pow(2.0, e), x = X(v);
      h << "<line x1=\"" << x << "\" y1=\"" << top - 6 << "\" x2=\"" << x << "\" y2=\"" << height - 24
        << "\" stroke=\"" << (v == 1 ? "#1d2430" : "#e3e7ed") << "\"" << (v == 1 ? " stroke-dasharray=\"4 3\"" : "")
        << "/><text x=\"" << x << "\" y=\"" << height - 10 << "\" text-anchor=\"middle\">" << fmt_num(v, "%g")
        << "x</text>\n";
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      const double y = top + i * row_h + row_h / 2.0;
      const std::string color = !r.counts ? "#9aa3af" : r.verdict == "FASTER" ? "#13795b" : r.verdict == "SLOWER" ? "#b42318" : "#3867d6";
      h << "<text x=\"" << left - 8 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << esc(r.id) << "</text>"
        << "<line x1=\"" << X(r.lo) << "\" y1=\"" << y << "\" x2=\"" << X(r.hi) << "\" y2=\"" << y
        << "\" stroke=\"" << color << "\" stroke-width=\"2\"/>"
        << "<line x1=\"" << X(r.lo) << "\" y1=\"" << y - 5 << "\" x2=\"" << X(r.lo) << "\" y2=\"" << y + 5
        << "\" stroke=\"" << color << "\"/><line x1=\"" << X(r.hi) << "\" y1=\"" << y - 5 << "\" x2=\"" << X(r.hi)
        << "\" y2=\"" << y + 5 << "\" stroke=\"" << color << "\"/>"
        << "<circle cx=\"" << X(r.v) << "\" cy=\"" << y << "\" r=\"4\" fill=\"" << (r.counts ? color : "#fff")
        << "\" stroke=\"" << color << "\"/>"
        << "<text x=\"" << X(r.hi) + 8 << "\" y=\"" << y + 4 << "\">" << fmt_num(r.v) << (r.counts ? "" : " (does not count)")
        << "</text>\n";
    }
    h << "</svg>\n<p class=\"legend\"><span><i class=\"sw\" style=\"background:#13795b\"></i>FASTER</span>"
         "<span><i class=\"sw\" style=\"background:#3867d6\"></i>SAME / AMBIGUOUS</span>"
         "<span><i class=\"sw\" style=\"background:#b42318\"></i>SLOWER</span>"
         "<span><i class=\"sw\" style=\"background:#9aa3af\"></i>measured but does not count (not correct)</span>"
         "<span>bars: 95 % interval; dashed line: 1x (the baseline)</span></p>\n";
  }
  auto list = [&](const std::vector<std::string>& ids, const char* cls, const char* what) {
    if (ids.empty()) return;
    h << "<p class=\"" << cls << "\">" << what;
    for (size_t i = 0; i < ids.size(); ++i) h << (i ? ", " : "") << esc(ids[i]);
    h << ".</p>\n";
  };
  list(without, "meta", "No speedup for: ");
  list(unjudged, "meta nj", "Not judged, so no speedup, for: ");
}

// The perf gate's configurations, one row each, with the columns config_columns() lists.
void configs_section(std::ostringstream& h, const json& s) {
  bool any = false;
  for (const auto& t : s["tasks"]) any = any || !t["configs"].empty();
  if (!any) return;
  h << "<h2>Configurations (perf)</h2>\n<table id=\"configs\"><thead><tr><th>task</th>";
  for (const ConfigColumn& c : config_columns())
    h << "<th" << (c.description.empty() ? "" : " title=\"" + esc(c.description) + "\"") << ">" << esc(c.label) << "</th>";
  h << "</tr></thead><tbody>\n";
  for (const auto& t : s["tasks"])
    for (const auto& c : t["configs"]) {
      h << "<tr><td>" << esc(t.value("id", "")) << "</td>";
      for (const ConfigColumn& col : config_columns())
        h << "<td" << (col.numeric ? " class=\"n\"" : "") << ">" << esc(col.cell(c)) << "</td>";
      h << "</tr>\n";
    }
  h << "</tbody></table>\n<p class=\"meta\">";
  for (const ConfigColumn& c : config_columns())
    if (!c.description.empty()) h << "<b>" << esc(c.label) << "</b>: " << esc(c.description) << ". ";
  h << "</p>\n";
}

// 0 correct, 1 not correct (failed, crashed, timed out, conflicting, or not run after a failure),
// 2 not judged (skipped, say for want of a GPU, or absent: nothing is known).
int correctness_of(const json& t, const char* gate) {
  const std::string o = t["gates"].contains(gate) ? t["gates"][gate].value("outcome", "missing") : "missing";
  return o == "passed" ? 0 : o == "skipped" || o == "missing" ? 2 : 1;
}

void seen_unseen_section(std::ostringstream& h, const json& s) {
  h << "<h2>Seen vs unseen configurations</h2>\n<p class=\"meta\">Tasks by correctness on the configurations the "
       "agent saw and on the unseen and generated ones. Seen-but-not-unseen is the generalization failure. A gate "
       "that was skipped or is absent is not judged, which is not the same as not correct.</p>\n";
  std::map<std::string, std::vector<const json*>> groups;
  for (const auto& t : s["tasks"]) {
    groups[t.value("suite", "")].push_back(&t);
    if (s["suites"].size() > 1) groups["(overall)"].push_back(&t);
  }
  h << "<div style=\"display:flex;flex-wrap:wrap;gap:24px\">\n";
  for (const auto& [name, ts] : groups) {
    std::vector<std::string> cell[3][3];
    for (const json* t : ts)
      cell[correctness_of(*t, "correct_seen")][correctness_of(*t, "correct_unseen")].push_back(
          (*t)["task"].get<std::string>() + (t->value("judged", true) ? "" : " (not judged)"));
    auto td = [&](int a, int b, const char* cls) {
      std::ostringstream o;
      o << "<td class=\"n " << cls << "\"><b>" << cell[a][b].size() << "</b>";
      for (const auto& n : cell[a][b]) o << "<div class=\"meta\">" << esc(n) << "</div>";
      o << "</td>";
      return o.str();
    };
    h << "<table><caption style=\"text-align:left;font-weight:600\">" << esc(name) << "</caption>"
      << "<tr><th></th><th>unseen correct</th><th>unseen not correct</th><th>unseen not judged</th></tr>"
      << "<tr><th>seen correct</th>" << td(0, 0, "ok") << td(0, 1, "bad") << td(0, 2, "nj") << "</tr>"
      << "<tr><th>seen not correct</th>" << td(1, 0, "skip") << td(1, 1, "dim") << td(1, 2, "nj") << "</tr>"
      << "<tr><th>seen not judged</th>" << td(2, 0, "nj") << td(2, 1, "nj") << td(2, 2, "nj") << "</tr></table>\n";
  }
  h << "</div>\n";
}

}  // namespace

std::string render_index_html(const json& s) {
  std::ostringstream h;
  const std::string run = s.value("run", "?");
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    << "<title>KernelArena scores: " << esc(run) << "</title><style>" << kStyle << "</style></head><body>\n";
  h << "<h1>KernelArena scores: " << esc(run) << "</h1>\n<p class=\"meta\">Scored " << esc(s.value("created", ""))
    << " from " << s["inputs"].size() << " Test.xml file(s): ";
  bool first = true;
  for (const auto& in : s["inputs"]) {
    h << (first ? "" : "; ") << esc(in.value("file", "")) << " (site " << esc(in.value("site", "?")) << ")";
    first = false;
  }
  h << "</p>\n";
  if (s.contains("notice") && s["notice"].is_string())
    h << "<div class=\"warn notice\"><b>" << esc(s["notice"].get<std::string>()) << "</b></div>\n";
  for (const auto& w : s["warnings"]) h << "<div class=\"warn\">" << esc(w.get<std::string>()) << "</div>\n";
  metrics_section(h, s);
  tasks_section(h, s);
  speedup_chart(h, s);
  fast_p_chart(h, s);
  seen_unseen_section(h, s);
  configs_section(h, s);
  if (!s["conflicts"].empty()) {
    h << "<h2>Conflicts (counted as failed)</h2>\n<ul>\n";
    for (const auto& c : s["conflicts"]) {
      h << "<li><b>" << esc(c.value("test", "")) << "</b>:";
      for (const auto& r : c["records"]) h << " " << esc(r.value("outcome", "")) << " in " << esc(r.value("file", "")) << ";";
      h << "</li>\n";
    }
    h << "</ul>\n";
  }
  if (!s["duplicates"].empty()) {
    h << "<h2>Duplicates (same outcome, merged)</h2>\n<ul>\n";
    for (const auto& d : s["duplicates"])
      h << "<li>" << esc(d.value("test", "")) << ": " << esc(d.value("outcome", "")) << " in " << d["files"].size()
        << " files" << (d.contains("note") ? " (" + esc(d.value("note", "")) + ")" : "") << "</li>\n";
    h << "</ul>\n";
  }
  h << "<h2>Notes</h2>\n<ul>\n";
  for (const auto& t : s["tasks"])
    for (const auto& n : t["notes"]) h << "<li>" << esc(t.value("id", "")) << ": " << esc(n.get<std::string>()) << "</li>\n";
  h << "</ul>\n<h2>Definitions</h2>\n<dl>\n";
  for (const auto& [k, v] : s["definitions"].items())
    h << "<dt><b>" << esc(k) << "</b></dt><dd>" << esc(v.get<std::string>()) << "</dd>\n";
  h << "</dl>\n<script>" << kScript << "</script>\n</body></html>\n";
  return h.str();
}

}  // namespace arena::score
