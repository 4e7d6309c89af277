#include "board_html.h"

#include <cmath>
#include <cstdio>

#include "format.h"

namespace arena::score::board_html {

std::string esc(const std::string& s) { return html_escape(s); }

std::string num(double v, const char* f) { return fmt_num(v, f); }

std::string pct(double v) {
  if (!std::isfinite(v)) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", 100 * v);
  return b;
}

std::string interval(const Interval& x) {
  if (!std::isfinite(x.est)) return "-";
  return num(x.est) + (std::isfinite(x.low) ? " <small>[" + num(x.low) + ", " + num(x.high) + "]</small>" : "");
}

std::string cell(const std::string& html, double v) {
  return "<td data-v=\"" + (std::isfinite(v) ? num(v, "%.6g") : std::string()) + "\">" + html + "</td>";
}
std::string cell(const std::string& text) { return "<td data-v=\"" + esc(text) + "\">" + esc(text) + "</td>"; }

std::string file_part(const std::string& s) {
  std::string o;
  for (char c : s) o += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
  return o;
}
std::string task_page(const std::string& id) {
  const auto at = id.find('/');
  return "tasks/" + file_part(id.substr(0, at)) + "__" + file_part(id.substr(at + 1)) + ".html";
}
std::string trajectory_page(const BoardRun& r, const std::string& id) {
  const auto at = id.find('/');
  return "trajectories/" + r.slug + "__" + file_part(id.substr(0, at)) + "__" + file_part(id.substr(at + 1)) + ".html";
}
std::string run_page(const BoardRun& r) { return "runs/" + r.slug + ".html"; }
std::string agent_label(const BoardRun& r) { return r.agent + (r.model.empty() ? "" : " (" + r.model + ")"); }

std::string page(const std::string& title, const std::string& root, const std::string& body) {
  std::string nav;
  for (const auto& [href, name] : std::vector<std::pair<std::string, std::string>>{
           {"index.html", "Leaderboard"}, {"categories.html", "Categories"}, {"history.html", "History"},
           {"audit.html", "Audit"}, {"runs.html", "Runs"}})
    nav += "<a href=\"" + root + href + "\">" + name + "</a> ";
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(title) +
         " - KernelArena board</title>\n<link rel=\"stylesheet\" href=\"" + root +
         "board.css\">\n<script>window.onerror=function(m,s,l){var e=document.getElementById('js-errors');"
         "if(e){e.textContent+=m+' ('+s+':'+l+')\\n';e.hidden=false;}};</script>\n</head><body>\n<nav>" + nav +
         "</nav>\n<pre id=\"js-errors\" hidden></pre>\n<h1>" + esc(title) + "</h1>\n" + body +
         "\n<script src=\"" + root + "board.js\"></script>\n</body></html>\n";
}

}  // namespace arena::score::board_html
