#include "result_json.h"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "ctest_xml.h"

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

// Is the gate's own status compatible with the outcome CTest recorded?
bool status_agrees(const GateResult& g, Status s, std::string* why) {
  switch (g.outcome) {
    case Outcome::passed:
      if (s == Status::Passed) return true;
      break;
    case Outcome::failed:
      if (s == Status::Failed || s == Status::Error) return true;
      break;
    case Outcome::skipped:
      if (s == Status::Skipped) return true;
      break;
    default:  // timeout, crash: the gate may not have finished (running); only a skip contradicts
      if (s != Status::Skipped) return true;
      break;
  }
  *why = std::string("the result file says '") + status_name(s) + "' but Test.xml says " + outcome_name(g.outcome);
  return false;
}

std::string gate_of(const std::string& test_name) {
  return test_name.substr(test_name.rfind('/') + 1);
}

}  // namespace

std::vector<std::string> result_path_candidates(const std::string& test_name, const std::string& test_xml_path,
                                                const std::vector<std::string>& result_dirs) {
  std::vector<std::string> out;
  fs::path xml = fs::absolute(test_xml_path).lexically_normal();
  fs::path testing = xml.parent_path().parent_path();
  if (!test_xml_path.empty() && testing.filename() == "Testing")
    out.push_back(result_path_in((testing.parent_path() / kResultsFolder).string(), test_name));
  for (const std::string& d : result_dirs) out.push_back(result_path_in(d, test_name));
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

void read_gate_result(GateResult& g, const std::string& gate, const json& j, const std::string& path) {
  try {
    if (gate == "compile") g.compile = j.get<CompileResult>();
    else if (gate.rfind("correct_", 0) == 0) g.correct = j.get<CorrectResult>();
    else if (gate == "perf") g.perf = j.get<PerfResult>();
    else if (gate == "profile") g.profile = j.get<ProfileResult>();
    else if (gate == "agent") g.agent = j.get<AgentResult>();
    else throw SchemaError("no result schema for gate '" + gate + "'");
  } catch (const SchemaError& e) {
    throw InputError(path + ": not a " + gate + " result of schema " + std::to_string(kResultSchemaVersion) + ": " +
                     e.what());
  }
}

void attach_result_json(GateResult& g, const std::string& test_name, const std::vector<std::string>& result_dirs) {
  if (g.outcome == Outcome::not_run || g.outcome == Outcome::missing || g.outcome == Outcome::conflict) return;
  const std::string gate = gate_of(test_name);
  const auto candidates = result_path_candidates(test_name, g.origin ? g.origin->path : "", result_dirs);
  if (candidates.empty()) {
    g.result_problem = "result file missing: " + (g.origin ? g.origin->path : std::string("the Test.xml")) +
                       " is not in a build folder's Testing/<tag>/ and no --gate-results folder was given";
    return;
  }
  std::string found;
  for (const std::string& c : candidates)
    if (fs::is_regular_file(c)) {
      found = c;
      break;
    }
  if (found.empty()) {
    g.result_path = candidates.front();
    g.result_problem = "result file missing: " + candidates.front();
    return;
  }
  g.result_path = found;
  std::ifstream in(found);
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    g.result_problem = "result file is not valid JSON: " + found;
    return;
  }
  ResultHeader header;
  try {
    header = j.get<ResultHeader>();
  } catch (const SchemaError& e) {
    throw InputError(found + ": " + e.what());
  }
  if (g.origin && !header.started.empty()) {
    long long t = parse_utc(header.started);
    if (t >= 0 && g.origin->start_time > 0 && t < g.origin->start_time - kClockSlackS) {
      g.result_problem = "result file " + found + " is older than this run (started " + header.started +
                         ", testing began " + fmt_utc(g.origin->start_time) + "): not used";
      return;
    }
    if (t >= 0 && g.origin->end_time > 0 && t > g.origin->end_time + kClockSlackS) {
      g.result_problem = "result file " + found + " was written after this run (started " + header.started +
                         ", testing ended " + fmt_utc(g.origin->end_time) + "): not used";
      return;
    }
  }
  std::string why;
  if (!status_agrees(g, header.status, &why)) {
    g.result_problem = why + " (" + found + "): not used";
    return;
  }
  read_gate_result(g, gate, j, found);
}

}  // namespace arena::score
