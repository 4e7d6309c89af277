// What one gate test's record means: its outcome (passed, failed, timed out, crashed,
// skipped, not run) and, after shards are merged, the merged record and its result JSON.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ctest_xml.h"
#include "result_schema.h"

namespace arena::score {

enum class Outcome {
  passed,
  failed,    // ran and failed (non-zero exit, or a FAIL/PASS regular expression)
  timeout,   // killed by CTest at its TIMEOUT
  crashed,   // ended by a signal (CTest's "Exception": SEGFAULT, ILLEGAL, ...)
  skipped,   // ran and asked to be skipped (exit 77: no GPU)
  not_run,   // never started: a fixture it needs failed, executable missing, disabled
  missing,   // no such test in any Test.xml
  conflict,  // shards disagree about it (counted as failed)
};

const char* outcome_name(Outcome o);
// failed, timeout, crashed, not_run and conflict: the gate did not pass and never will in this run.
bool is_failure(Outcome o);
// skipped and missing: nothing is known about the gate.
bool is_unknown(Outcome o);

// Outcome of a CTest record, with a one-line explanation (why it failed, why it was skipped).
Outcome classify(const TestRecord& r, std::string* detail);

// "<suite>/<task>/<gate>" with gate one of agent, compile, correct_seen, correct_unseen, perf.
bool split_gate_test_name(const std::string& name, std::string* suite, std::string* task, std::string* gate);
extern const std::vector<std::string> kGates;

struct GateResult {
  Outcome outcome = Outcome::missing;
  std::string detail;
  TestRecord record;                    // meaningful unless outcome == missing
  const TestXml* origin = nullptr;      // the Test.xml the record was taken from
  std::vector<std::string> files;       // every Test.xml that recorded this test
  // The gate's result file, read in the result schema; the one of its kind, none when none was read.
  std::optional<CompileResult> compile;
  std::optional<CorrectResult> correct;
  std::optional<PerfResult> perf;
  std::optional<ProfileResult> profile;
  std::optional<AgentResult> agent;
  std::string result_path;              // where the JSON was read from (or expected)
  std::string result_problem;           // why no JSON was used although the test names one
};

}  // namespace arena::score
