// Small formatting helpers shared by the Markdown and HTML reports.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace arena::score {

// A number for JSON output: NaN and infinities become null.
nlohmann::json finite_or_null(double v);
// printf-style number; "-" for null/NaN.
std::string fmt_num(const nlohmann::json& v, const char* format = "%.3f");
std::string fmt_num(double v, const char* format = "%.3f");
// 0.5 -> "50.0 %"; "-" for null.
std::string fmt_pct(const nlohmann::json& v);
// "1.234 [1.200, 1.260]" or "-".
std::string fmt_speedup(const nlohmann::json& task);
// A gate's cell: ok, FAILED, timeout, crashed, skipped, not run, conflict, - (absent); with
// "passed/total" configurations where known.
std::string gate_cell(const nlohmann::json& task, const std::string& gate);
std::string html_escape(const std::string& s);
// Escapes | and newlines for a Markdown table cell.
std::string md_cell(const std::string& s);

}  // namespace arena::score
