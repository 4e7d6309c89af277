#include "fast_p_chart.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "format.h"

using json = nlohmann::json;

namespace arena::score {

namespace {

// The tasks of one curve: all of them, or one suite's.
struct Series {
  std::string name;
  std::vector<double> speedups;  // of correct tasks
  size_t tasks = 0, unjudged = 0;
};

// The plot area in pixels, and speedup (x) and share (y) mapped onto it.
struct Frame {
  int left = 50, top = 16, w = 560, hgt = 240;
  double xmax = 2.0;
  double X(double x) const { return left + (x - 1.0) / (xmax - 1.0) * w; }
  double Y(double y) const { return top + (1.0 - y) * hgt; }
};

bool fast_p_judged(const json& m) { return m.contains("fast_p") && m["fast_p"].value("1.0", json()).is_number(); }

// The overall series, and one per suite.
void collect_series(const json& s, Series& all, std::map<std::string, Series>& per_suite) {
  for (const auto& t : s["tasks"]) {
    Series& ss = per_suite[t.value("suite", "")];
    ss.name = t.value("suite", "");
    ss.tasks++;
    all.tasks++;
    ss.unjudged += !t.value("judged", true);
    all.unjudged += !t.value("judged", true);
    // Only a detectable speedup (verdict FASTER) counts on the curve, so it meets fast_1.0 at p = 1.
    if (t.value("correct", false) && t["speedup"].is_number() && t.value("verdict", json()) == "FASTER") {
      ss.speedups.push_back(t["speedup"].get<double>());
      all.speedups.push_back(t["speedup"].get<double>());
    }
  }
}

// Grid lines for 0-100 %, ticks along the speedup axis, and the axis itself.
void draw_axes(std::ostringstream& h, const Frame& f) {
  for (int i = 0; i <= 4; ++i) {
    double y = i / 4.0;
    h << "<line x1=\"" << f.left << "\" y1=\"" << f.Y(y) << "\" x2=\"" << f.left + f.w << "\" y2=\"" << f.Y(y)
      << "\" stroke=\"#e3e7ed\"/><text x=\"" << f.left - 6 << "\" y=\"" << f.Y(y) + 4 << "\" text-anchor=\"end\">"
      << fmt_num(y * 100, "%.0f") << "%</text>\n";
  }
  const double xmax = f.xmax;
  const double step = xmax <= 3 ? 0.25 : xmax <= 6 ? 0.5 : xmax <= 12 ? 1 : std::ceil(xmax / 10);
  for (double x = 1.0; x <= xmax + 1e-9; x += step)
    h << "<line x1=\"" << f.X(x) << "\" y1=\"" << f.Y(0) << "\" x2=\"" << f.X(x) << "\" y2=\"" << f.Y(0) + 4
      << "\" stroke=\"#1d2430\"/><text x=\"" << f.X(x) << "\" y=\"" << f.Y(0) + 16 << "\" text-anchor=\"middle\">"
      << fmt_num(x, "%g") << "</text>\n";
  h << "<text x=\"" << f.left + f.w / 2 << "\" y=\"" << f.top + f.hgt + 36
    << "\" text-anchor=\"middle\">speedup threshold p</text>\n";
  h << "<line x1=\"" << f.left << "\" y1=\"" << f.Y(0) << "\" x2=\"" << f.left + f.w << "\" y2=\"" << f.Y(0)
    << "\" stroke=\"#1d2430\"/>\n";
}

// Series k as a step curve (the share drops at each speedup), with its name in the legend.
void draw_curve(std::ostringstream& h, const Frame& f, Series& ss, size_t k) {
  static const char* palette[] = {"#1d2430", "#3867d6", "#13795b", "#b42318", "#8a6d00", "#7b3fa0"};
  if (ss.tasks == 0) return;
  std::sort(ss.speedups.begin(), ss.speedups.end());
  auto share = [&](double x) {
    size_t n = 0;
    for (double v : ss.speedups) n += v > x;
    return static_cast<double>(n) / ss.tasks;
  };
  std::ostringstream pts;
  double x = 1.0, y = share(1.0);
  pts << f.X(x) << "," << f.Y(y);
  for (double v : ss.speedups) {
    if (v <= 1.0) continue;
    pts << " " << f.X(v) << "," << f.Y(y);
    y = share(v);
    pts << " " << f.X(v) << "," << f.Y(y);
  }
  pts << " " << f.X(f.xmax) << "," << f.Y(y);
  const char* color = palette[k % 6];
  h << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"" << (k == 0 ? 2.5 : 1.5) << "\" points=\""
    << pts.str() << "\"/>\n";
  h << "<text x=\"" << f.left + f.w - 4 << "\" y=\"" << f.top + 12 + 14 * k << "\" text-anchor=\"end\" style=\"fill:"
    << color << "\">" << html_escape(ss.name) << " (" << ss.tasks << " tasks"
    << (ss.unjudged ? ", " + std::to_string(ss.unjudged) + " not judged" : "") << ")</text>\n";
}

// Circles at the reported fast_1.0, fast_1.5 and fast_2.0, and what the chart shows.
void draw_reported_points(std::ostringstream& h, const Frame& f, const json& s) {
  const json& m = s["overall"]["fast_p"];
  for (const char* p : {"1.0", "1.5", "2.0"})
    if (m.contains(p) && m[p].is_number())
      h << "<circle cx=\"" << f.X(std::stod(p)) << "\" cy=\"" << f.Y(m[p].get<double>()) << "\" r=\"4\" fill=\"#fff\" "
        << "stroke=\"#b42318\" stroke-width=\"2\"><title>fast_" << p << " = " << fmt_pct(m[p]) << "</title></circle>\n";
  h << "</svg>\n<p class=\"meta\">Share of all tasks (incorrect ones stay in the denominator) that are correct with "
       "verdict FASTER and a speedup point estimate above p. Red circles: the reported fast_1.0, fast_1.5 and fast_2.0 "
       "(fast_1.5 and fast_2.0 do not require the verdict, so a task with a wide AMBIGUOUS interval can put a circle "
       "above the curve). Tasks not judged count as not correct.</p>\n";
}

}  // namespace

// A set of tasks whose fast_p is not judged (no GPU gate ran for any of them) gets no curve: a line
// at 0 % would read as "all failed". Curves of sets with some unjudged tasks say how many.
void fast_p_chart(std::ostringstream& h, const json& s) {
  Series all{"overall", {}, 0, 0};
  std::map<std::string, Series> per_suite;
  collect_series(s, all, per_suite);
  h << "<h2>fast_p: share of all tasks correct and faster than p</h2>\n";
  if (!fast_p_judged(s["overall"])) {
    h << "<p class=\"meta nj\">fast_p not judged: no GPU gate ran, so no task of the " << all.tasks
      << " has a speedup; no curve is drawn.</p>\n";
    return;
  }
  std::vector<Series> series{all};
  std::vector<std::string> not_judged;
  if (per_suite.size() > 1)
    for (auto& [n, ss] : per_suite)
      if (fast_p_judged(s["suites"].value(n, json::object()))) series.push_back(ss);
      else not_judged.push_back(n);
  Frame f;
  for (double v : all.speedups) f.xmax = std::max(f.xmax, v * 1.05);
  h << "<svg width=\"" << f.left + f.w + 30 << "\" height=\"" << f.top + f.hgt + 44
    << "\" role=\"img\" aria-label=\"fast_p curve\">\n";
  draw_axes(h, f);
  for (size_t k = 0; k < series.size(); ++k) draw_curve(h, f, series[k], k);
  draw_reported_points(h, f, s);
  if (!not_judged.empty()) {
    h << "<p class=\"meta nj\">fast_p not judged (no GPU gate ran; no curve): ";
    for (size_t i = 0; i < not_judged.size(); ++i) h << (i ? ", " : "") << html_escape(not_judged[i]);
    h << ".</p>\n";
  }
}

}  // namespace arena::score
