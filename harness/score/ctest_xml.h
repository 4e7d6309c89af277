// Reading CTest's Testing/<tag>/Test.xml (the CDash "Test" part): one record per <Test>,
// with its status, how it ended, its measurements, its output and its labels.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace arena::score {

// A problem with an input file; what() is "<file>:<line>: <what is wrong>" where a line is known.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct TestRecord {
  std::string name;               // <Name>, e.g. "hip2hip/gelu_f16/perf"
  std::string status;             // Status attribute: "passed", "failed" or "notrun"
  std::string completion_status;  // "Completed", "SKIP_RETURN_CODE=77", "Fixture dependency failed", ...
  std::string exit_code;          // "Failed", "Timeout", "SEGFAULT", ... (absent for passed and not-run tests)
  std::string exit_value;         // the process exit value as text
  std::string fail_reason;        // e.g. "Error regular expression found in output. Regex=[...]"
  double execution_time = -1;     // seconds; -1 when CTest did not record it
  std::string command_line;       // <FullCommandLine>; empty for tests that never started
  std::map<std::string, double> numbers;      // numeric/double measurements printed by the test
  std::map<std::string, std::string> texts;   // text/string measurements printed by the test
  std::string output;             // the test's output, decoded
  std::string output_note;        // set when the output could not be decoded
  std::vector<std::string> labels;
  int line = 0;                   // line of the <Test> element in the file
};

struct TestXml {
  std::string path;
  std::string site, build_name, build_stamp, generator;
  long long start_time = 0, end_time = 0;  // <StartTestTime>, <EndTestTime> (Unix seconds; 0 if absent)
  std::vector<TestRecord> tests;
};

// Throws InputError naming the file and line for unreadable files, malformed XML and XML
// that is not a CTest Test.xml.
TestXml read_test_xml(const std::string& path);
TestXml parse_test_xml(const std::string& text, const std::string& path_for_messages);

// Where a path given on the command line points: a Test.xml file itself, a build folder
// (Testing/TAG names the tag) or a Testing folder. Throws InputError when none is found.
std::string resolve_test_xml(const std::string& path);

}  // namespace arena::score
