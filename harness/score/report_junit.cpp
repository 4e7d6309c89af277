// junit.xml: the scored run as JUnit XML, which GitLab, Jenkins and GitHub test reporters
// read. One <testsuite> per suite, one <testcase> per gate (classname <suite>.<task>, name the
// gate), failed gates as <failure>, skipped and not-run ones as <skipped>. Every test case of
// a task carries the task's verdict, speedup, interval, correctness and points as
// <properties>, and its first output line says them too (reporters that ignore properties
// still show it).
#include <cmath>
#include <map>
#include <sstream>
#include <vector>

#include "format.h"
#include "report.h"

using json = nlohmann::json;

namespace arena::score {

namespace {

// XML text: HTML's escapes (all valid in XML), with control characters XML forbids as spaces.
std::string xml(const std::string& s) {
  std::string clean = s;
  for (char& c : clean)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') c = ' ';
  return html_escape(clean);
}

std::string value_text(const json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return fmt_num(v.get<double>(), "%.6g");
  return v.dump();
}

// What a task's perf gate found, in one line.
std::string headline(const json& t) {
  if (!t.value("judged", true)) return "not judged: " + t.value("unjudged_reason", "");
  std::string s = t.value("correct", false) ? "correct" : "not correct";
  if (t["speedup"].is_number()) {
    s += "; speedup " + fmt_speedup(t);
    if (t["verdict"].is_string()) s += " " + t["verdict"].get<std::string>();
    if (!t.value("correct", false)) s += " (does not count)";
  }
  if (t["aka_score"].is_number()) s += "; points " + fmt_num(t["aka_score"], "%.1f");
  return s;
}

struct Counts {
  int tests = 0, failures = 0, skipped = 0;
  double time = 0;
};

// The task's numbers, on every one of its test cases (null ones left out).
void write_task_properties(std::ostringstream& o, const json& t, const std::string& gate, const std::string& outcome) {
  const json props = {{"gate", gate},
                      {"outcome", outcome},
                      {"task", t.value("id", "")},
                      {"verdict", t["verdict"]},
                      {"speedup", t["speedup"]},
                      {"ci95_low", t["ci95_low"]},
                      {"ci95_high", t["ci95_high"]},
                      {"reference", t.value("reference", "baseline")},
                      {"correct", t.value("correct", false)},
                      {"judged", t.value("judged", true)},
                      {"points", t["aka_score"]},
                      {"fraction_of_peak", t["fraction_of_peak"]},
                      {"candidate_fallback", t.value("candidate_fallback", false)},
                      {"agent", t.value("agent", "none")}};
  o << "      <properties>\n";
  for (const auto& [k, v] : props.items())
    if (!v.is_null()) o << "        <property name=\"" << xml(k) << "\" value=\"" << xml(value_text(v)) << "\"/>\n";
  o << "      </properties>\n";
}

// Why a gate did not pass: the task's first error line for it, else the gate's detail.
std::string gate_reason(const json& t, const std::string& gate, const json& g) {
  for (const auto& e : t["errors"])
    if (e.get<std::string>().rfind(gate + ":", 0) == 0) return e.get<std::string>();
  return g.value("detail", "");
}

// One <testcase> for one gate of a task, counted in c.
void write_gate_case(std::ostringstream& o, Counts& c, const std::string& suite, const json& t,
                     const std::string& gate, const json& g) {
  const std::string outcome = g.value("outcome", "missing");
  if (outcome == "missing") return;
  const std::string id = t.value("id", "");
  const std::string classname = suite + "." + t.value("task", "");
  const double time = g.contains("time_s") && g["time_s"].is_number() ? g["time_s"].get<double>() : 0.0;
  c.tests++;
  c.time += time;
  o << "    <testcase classname=\"" << xml(classname) << "\" name=\"" << xml(gate) << "\" file=\""
    << xml(id + "/" + gate) << "\" time=\"" << fmt_num(time, "%.3f") << "\">\n";
  write_task_properties(o, t, gate, outcome);
  const std::string why = gate_reason(t, gate, g);
  if (outcome == "skipped" || outcome == "not_run") {
    c.skipped++;
    o << "      <skipped message=\"" << xml(outcome == "skipped" ? "skipped: " + t.value("unjudged_reason", why) : "not run: " + why)
      << "\"/>\n";
  } else if (outcome != "passed") {
    c.failures++;
    o << "      <failure type=\"" << xml(outcome) << "\" message=\"" << xml(why.empty() ? outcome : why) << "\"/>\n";
  }
  o << "      <system-out>" << xml(id + ": " + headline(t) + (t.value("candidate_fallback", false) ? "; judged its baseline (fallback)" : ""));
  if (!why.empty() && outcome != "passed") o << "\n" << xml(why);
  o << "</system-out>\n    </testcase>\n";
}

// One <testsuite>: the suite's metrics and the run's notice as properties, then its test cases.
void write_suite(std::ostringstream& x, const json& s, const std::string& suite, const Counts& c,
                 const std::string& cases) {
  const json& m = s["suites"][suite];
  x << "  <testsuite name=\"" << xml(suite) << "\" tests=\"" << c.tests << "\" failures=\"" << c.failures
    << "\" errors=\"0\" skipped=\"" << c.skipped << "\" time=\"" << fmt_num(c.time, "%.3f") << "\" timestamp=\""
    << xml(s.value("created", "")) << "\">\n    <properties>\n";
  for (const char* k : {"tasks", "judged", "compile_rate", "correct_rate", "geomean_speedup_correct",
                        "geomean_speedup_all", "aka_score_mean", "faster"})
    if (m.contains(k) && !m[k].is_null())
      x << "      <property name=\"" << k << "\" value=\"" << xml(value_text(m[k])) << "\"/>\n";
  if (s.contains("notice") && s["notice"].is_string())
    x << "      <property name=\"notice\" value=\"" << xml(s["notice"].get<std::string>()) << "\"/>\n";
  x << "    </properties>\n" << cases << "  </testsuite>\n";
}

}  // namespace

std::string render_junit_xml(const json& s) {
  std::map<std::string, std::vector<const json*>> by_suite;
  for (const auto& t : s["tasks"]) by_suite[t.value("suite", "")].push_back(&t);
  std::map<std::string, Counts> counts;
  Counts all;
  std::map<std::string, std::string> cases;
  for (const auto& [suite, tasks] : by_suite) {
    std::ostringstream o;
    Counts& c = counts[suite];
    for (const json* t : tasks)
      for (const auto& [gate, g] : (*t)["gates"].items()) write_gate_case(o, c, suite, *t, gate, g);
    cases[suite] = o.str();
    all.tests += c.tests;
    all.failures += c.failures;
    all.skipped += c.skipped;
    all.time += c.time;
  }
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"KernelArena " << xml(s.value("run", ""))
    << "\" tests=\"" << all.tests << "\" failures=\"" << all.failures << "\" errors=\"0\" skipped=\"" << all.skipped
    << "\" time=\"" << fmt_num(all.time, "%.3f") << "\">\n";
  for (const auto& [suite, c] : counts) write_suite(x, s, suite, c, cases[suite]);
  x << "</testsuites>\n";
  return x.str();
}

}  // namespace arena::score
