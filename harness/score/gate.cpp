#include "gate.h"

#include <cstdio>
#include <sstream>

namespace arena::score {

// profile is opt-in (ARENA_PROFILE): the bottleneck class of both sides, no part of any verdict.
const std::vector<std::string> kGates = {"agent", "compile", "correct_seen", "correct_unseen", "perf", "profile"};

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::passed: return "passed";
    case Outcome::failed: return "failed";
    case Outcome::timeout: return "timeout";
    case Outcome::crashed: return "crashed";
    case Outcome::skipped: return "skipped";
    case Outcome::not_run: return "not_run";
    case Outcome::missing: return "missing";
    case Outcome::conflict: return "conflict";
  }
  return "?";
}

bool is_failure(Outcome o) {
  return o == Outcome::failed || o == Outcome::timeout || o == Outcome::crashed || o == Outcome::not_run ||
         o == Outcome::conflict;
}

bool is_unknown(Outcome o) { return o == Outcome::skipped || o == Outcome::missing; }

namespace {

std::string first_line_with(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find(needle) != std::string::npos) return line;
  return "";
}

std::string first_nonempty_line(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
  return "";
}

}  // namespace

Outcome classify(const TestRecord& r, std::string* detail) {
  detail->clear();
  if (r.status == "passed") return Outcome::passed;
  if (r.status == "failed") {
    if (r.exit_code == "Timeout") {
      char buf[64];
      if (r.execution_time >= 0) std::snprintf(buf, sizeof buf, "timed out after %.1f s", r.execution_time);
      else std::snprintf(buf, sizeof buf, "timed out");
      *detail = buf;
      return Outcome::timeout;
    }
    if (!r.exit_code.empty() && r.exit_code != "Failed") {
      *detail = "crashed (" + r.exit_code + ")";
      return Outcome::crashed;
    }
    *detail = r.fail_reason.empty() ? "exit " + (r.exit_value.empty() ? std::string("?") : r.exit_value)
                                    : r.fail_reason;
    return Outcome::failed;
  }
  // notrun (and anything newer CTest versions may write)
  const std::string& cs = r.completion_status;
  if (cs.rfind("SKIP_", 0) == 0 || cs == "Skipped") {
    std::string why = first_line_with(r.output, "SKIPPED:");
    *detail = why.empty() ? cs : why;
    return Outcome::skipped;
  }
  std::string line = first_nonempty_line(r.output);
  *detail = cs.empty() ? "not run" : cs;
  if (!line.empty() && line != cs) *detail += ": " + line;
  return Outcome::not_run;
}

bool split_gate_test_name(const std::string& name, std::string* suite, std::string* task, std::string* gate) {
  size_t a = name.find('/');
  if (a == std::string::npos || a == 0) return false;
  size_t b = name.find('/', a + 1);
  if (b == std::string::npos || b == a + 1 || name.find('/', b + 1) != std::string::npos) return false;
  std::string g = name.substr(b + 1);
  bool known = false;
  for (const auto& k : kGates) known = known || k == g;
  if (!known) return false;
  *suite = name.substr(0, a);
  *task = name.substr(a + 1, b - a - 1);
  *gate = g;
  return true;
}

}  // namespace arena::score
