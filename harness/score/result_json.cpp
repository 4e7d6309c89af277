#include "result_json.h"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace arena::score {

namespace {

constexpr long long kClockSlackS = 120;  // a result may be stamped this far outside the testing window

std::string fmt_utc(long long t) {
  std::time_t tt = static_cast<std::time_t>(t);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&tt));
  return buf;
}

// Is the JSON's own status compatible with the outcome CTest recorded?
bool status_agrees(const GateResult& g, const json& j, std::string* why) {
  const bool is_compile = j.contains("compiled");
  std::string js = is_compile ? (j.value("compiled", false) ? "passed" : "failed") : j.value("status", "");
  switch (g.outcome) {
    case Outcome::passed:
      if (js == "passed") return true;
      break;
    case Outcome::failed:
      if (js == "failed" || js == "error") return true;
      break;
    case Outcome::skipped:
      if (js == "skipped") return true;
      break;
    default:  // timeout, crash: the file may be partial (no status yet); only a skip contradicts
      if (js != "skipped") return true;
      break;
  }
  *why = "the result file says '" + (js.empty() ? std::string("no status") : js) + "' but Test.xml says " +
         outcome_name(g.outcome);
  return false;
}

}  // namespace

std::string result_path_from_command_line(const std::string& cmd) {
  static const std::regex quoted_flag("\"--result\"\\s+\"([^\"]*)\"");
  static const std::regex plain_flag("(?:^|\\s)--result(?:\\s+|=)([^\\s\"]+)");
  static const std::regex quoted_define("\"-DRESULT=([^\"]*)\"");
  static const std::regex plain_define("(?:^|\\s)-DRESULT=([^\\s\"]+)");
  std::smatch m;
  for (const std::regex* re : {&quoted_flag, &quoted_define, &plain_flag, &plain_define})
    if (std::regex_search(cmd, m, *re)) return m[1].str();
  return "";
}

std::vector<std::string> result_path_candidates(const std::string& written, const std::string& test_xml_path,
                                                const std::vector<PathMap>& maps) {
  std::vector<std::string> out;
  for (const PathMap& m : maps)
    if (!m.from.empty() && written.rfind(m.from, 0) == 0) out.push_back(m.to + written.substr(m.from.size()));
  fs::path xml = fs::absolute(test_xml_path).lexically_normal();
  fs::path testing = xml.parent_path().parent_path();
  const std::string marker = "arena/results/";
  size_t at = written.rfind(marker);
  if (testing.filename() == "Testing" && at != std::string::npos)
    out.push_back((testing.parent_path() / "arena" / "results" / written.substr(at + marker.size())).string());
  out.push_back(written);
  return out;
}

long long parse_utc(const std::string& iso) {
  std::tm tm{};
  if (iso.size() < 20 || std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                                     &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<long long>(timegm(&tm));
}

void attach_result_json(GateResult& g, const std::vector<PathMap>& maps) {
  if (g.outcome == Outcome::not_run || g.outcome == Outcome::missing || g.outcome == Outcome::conflict) return;
  const std::string written = result_path_from_command_line(g.record.command_line);
  if (written.empty()) return;  // this test does not write one (agent tests, for instance)
  g.result_path = written;
  std::string found;
  for (const std::string& c : result_path_candidates(written, g.origin ? g.origin->path : "", maps))
    if (fs::is_regular_file(c)) {
      found = c;
      break;
    }
  if (found.empty()) {
    g.result_problem = "result file missing: " + written;
    return;
  }
  g.result_path = found;
  std::ifstream in(found);
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    g.result_problem = "result file is not valid JSON: " + found;
    return;
  }
  if (g.origin && j.contains("started") && j["started"].is_string()) {
    long long t = parse_utc(j["started"].get<std::string>());
    if (t >= 0 && g.origin->start_time > 0 && t < g.origin->start_time - kClockSlackS) {
      g.result_problem = "result file " + found + " is older than this run (started " + j["started"].get<std::string>() +
                         ", testing began " + fmt_utc(g.origin->start_time) + "): not used";
      return;
    }
    if (t >= 0 && g.origin->end_time > 0 && t > g.origin->end_time + kClockSlackS) {
      g.result_problem = "result file " + found + " was written after this run (started " +
                         j["started"].get<std::string>() + ", testing ended " + fmt_utc(g.origin->end_time) +
                         "): not used";
      return;
    }
  }
  std::string why;
  if (!status_agrees(g, j, &why)) {
    g.result_problem = why + " (" + found + "): not used";
    return;
  }
  g.result = std::move(j);
}

}  // namespace arena::score
