#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "result_json.h"

using namespace arena::score;
namespace fs = std::filesystem;

namespace {

// A build folder under the test's working directory: <root>/build/Testing/tag/Test.xml and
// <root>/build/arena/results/s/t/<gate>.json.
struct Build {
  fs::path root;
  TestXml xml;
  explicit Build(const std::string& name) {
    root = fs::absolute("result_json_" + name);
    fs::remove_all(root);
    fs::create_directories(root / "build" / "Testing" / "tag");
    xml.path = (root / "build" / "Testing" / "tag" / "Test.xml").string();
    xml.start_time = 1795304900;  // 2026-11-21T23:48:20Z
    xml.end_time = 1795305000;    // 2026-11-21T23:50:00Z
  }
  std::string write(const std::string& gate, const std::string& text) {
    fs::path p = root / "build" / "arena" / "results" / "s" / "t" / (gate + ".json");
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  GateResult gate(Outcome o, const std::string& gate_name) {
    GateResult g;
    g.outcome = o;
    g.origin = &xml;
    g.record.command_line = "/x/arena-perf \"--task\" \"t.json\" \"--result\" \"/elsewhere/build/arena/results/s/t/" +
                            gate_name + ".json\"";
    return g;
  }
};

}  // namespace

TEST(ResultJson, PathFromCommandLine) {
  EXPECT_EQ(result_path_from_command_line("/b/arena-correct \"--set\" \"seen\" \"--result\" \"/b/r/s/t/correct_seen.json\""),
            "/b/r/s/t/correct_seen.json");
  EXPECT_EQ(result_path_from_command_line("/usr/bin/cmake \"-DSOURCE=/a.hip\" \"-DRESULT=/b/r/s/t/compile.json\" \"-P\" \"x\""),
            "/b/r/s/t/compile.json");
  EXPECT_EQ(result_path_from_command_line("arena-perf --result /b/perf.json --gbench-out /b/g.json"), "/b/perf.json");
  EXPECT_EQ(result_path_from_command_line("arena-perf --result=/b/perf.json"), "/b/perf.json");
  EXPECT_EQ(result_path_from_command_line("sh -c \"exit 0\""), "");
  EXPECT_EQ(result_path_from_command_line(""), "");
}

TEST(ResultJson, CandidatesMappedThenBesideTheTestXmlThenAsWritten) {
  auto c = result_path_candidates("/m1/build/arena/results/s/t/perf.json", "/copy/build/Testing/20260101-0000/Test.xml",
                                  {{"/m1/build/", "/mnt/m1/"}, {"/other/", "/x/"}});
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], "/mnt/m1/arena/results/s/t/perf.json");
  EXPECT_EQ(c[1], "/copy/build/arena/results/s/t/perf.json");
  EXPECT_EQ(c[2], "/m1/build/arena/results/s/t/perf.json");
  // not inside a build folder's Testing/<tag>/: only the path as written
  c = result_path_candidates("/m1/build/arena/results/s/t/perf.json", "/tmp/flat/Test.xml", {});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], "/m1/build/arena/results/s/t/perf.json");
}

TEST(ResultJson, ParsesUtc) {
  EXPECT_EQ(parse_utc("2026-11-21T23:49:41Z"), 1795304981);
  EXPECT_EQ(parse_utc("yesterday"), -1);
}

TEST(ResultJson, UsesAFileFromThisRun) {
  Build b("good");
  b.write("perf", R"({"status": "passed", "started": "2026-11-21T23:49:00Z", "speedup": 2.5})");
  GateResult g = b.gate(Outcome::passed, "perf");
  attach_result_json(g, {});
  EXPECT_TRUE(g.result_problem.empty()) << g.result_problem;
  EXPECT_DOUBLE_EQ(g.result.value("speedup", 0.0), 2.5);
  EXPECT_NE(g.result_path.find("result_json_good/build/arena/results/s/t/perf.json"), std::string::npos);
}

TEST(ResultJson, RefusesFilesFromAnotherRun) {
  Build b("stale");
  b.write("perf", R"({"status": "passed", "started": "2026-11-20T10:00:00Z"})");
  GateResult g = b.gate(Outcome::passed, "perf");
  attach_result_json(g, {});
  EXPECT_TRUE(g.result.is_null());
  EXPECT_NE(g.result_problem.find("is older than this run"), std::string::npos) << g.result_problem;

  b.write("perf", R"({"status": "passed", "started": "2026-11-22T10:00:00Z"})");
  g = b.gate(Outcome::passed, "perf");
  attach_result_json(g, {});
  EXPECT_NE(g.result_problem.find("was written after this run"), std::string::npos) << g.result_problem;
}

TEST(ResultJson, RefusesAFileThatContradictsTheTestXml) {
  Build b("contradicts");
  b.write("correct_seen", R"({"status": "passed", "started": "2026-11-21T23:49:00Z"})");
  GateResult g = b.gate(Outcome::failed, "correct_seen");
  attach_result_json(g, {});
  EXPECT_TRUE(g.result.is_null());
  EXPECT_NE(g.result_problem.find("says 'passed' but Test.xml says failed"), std::string::npos) << g.result_problem;
  b.write("compile", R"({"compiled": false, "message": "x"})");
  g = b.gate(Outcome::passed, "compile");
  attach_result_json(g, {});
  EXPECT_NE(g.result_problem.find("says 'failed' but Test.xml says passed"), std::string::npos) << g.result_problem;
  // a crash may leave a partial file (no status yet): it is used
  b.write("correct_unseen", R"({"configs": [], "started": "2026-11-21T23:49:00Z"})");
  g = b.gate(Outcome::crashed, "correct_unseen");
  attach_result_json(g, {});
  EXPECT_TRUE(g.result.is_object()) << g.result_problem;
}

TEST(ResultJson, MissingAndUnreadableFilesAreReported) {
  Build b("missing");
  GateResult g = b.gate(Outcome::passed, "perf");
  attach_result_json(g, {});
  EXPECT_EQ(g.result_problem, "result file missing: /elsewhere/build/arena/results/s/t/perf.json");
  b.write("perf", "{ not json");
  g = b.gate(Outcome::passed, "perf");
  attach_result_json(g, {});
  EXPECT_NE(g.result_problem.find("is not valid JSON"), std::string::npos);
  // tests that never started have nothing to read and nothing to report
  g = b.gate(Outcome::not_run, "perf");
  attach_result_json(g, {});
  EXPECT_TRUE(g.result_problem.empty());
}
