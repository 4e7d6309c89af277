#include "format.h"

#include <cmath>
#include <cstdio>

using json = nlohmann::json;

namespace arena::score {

nlohmann::json finite_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

std::string fmt_num(double v, const char* format) {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string fmt_num(const json& v, const char* format) {
  return v.is_number() ? fmt_num(v.get<double>(), format) : "-";
}

std::string fmt_pct(const json& v) { return v.is_number() ? fmt_num(v.get<double>() * 100, "%.1f %%") : "-"; }

std::string fmt_speedup(const json& t) {
  if (!t.value("speedup", json()).is_number()) return "-";
  std::string s = fmt_num(t["speedup"]);
  if (t.value("ci95_low", json()).is_number() && t.value("ci95_high", json()).is_number())
    s += " [" + fmt_num(t["ci95_low"]) + ", " + fmt_num(t["ci95_high"]) + "]";
  // Which reference the speedup is over, where it is not the task's baseline kernel.
  const std::string ref = t.value("reference", "baseline");
  if (ref != "baseline") s += " vs " + ref;
  if (t.contains("speedup_vs") && t["speedup_vs"].is_object())
    for (const auto& [name, x] : t["speedup_vs"].items()) {
      if (!x.value("speedup", json()).is_number()) continue;
      s += "; vs " + name + " " + fmt_num(x["speedup"]);
      if (x.value("ci95_low", json()).is_number() && x.value("ci95_high", json()).is_number())
        s += " [" + fmt_num(x["ci95_low"]) + ", " + fmt_num(x["ci95_high"]) + "]";
    }
  return s;
}

std::string gate_cell(const json& task, const std::string& gate) {
  if (!task.contains("gates") || !task["gates"].contains(gate)) return "-";
  const json& g = task["gates"][gate];
  const std::string o = g.value("outcome", "missing");
  std::string cell = o == "passed"     ? "ok"
                     : o == "failed"   ? "FAILED"
                     : o == "not_run"  ? "not run"
                     : o == "missing"  ? "-"
                     : o == "conflict" ? "CONFLICT"
                                       : o;
  if (g.contains("configs_passed") && g.contains("configs_total") && g["configs_passed"].is_number() &&
      g["configs_total"].is_number() && o != "skipped")
    cell = fmt_num(g["configs_passed"], "%.0f") + "/" + fmt_num(g["configs_total"], "%.0f") +
           (o == "passed" ? "" : " " + cell);
  return cell;
}

std::string html_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string md_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace arena::score
