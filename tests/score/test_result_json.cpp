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
  GateResult gate(Outcome o) {
    GateResult g;
    g.outcome = o;
    g.origin = &xml;
    return g;
  }
};

// A result of gate `gate` in schema 1 with `status`, started at `started`, and `extra` keys.
std::string result(const std::string& gate, const std::string& status, const std::string& started,
                   const std::string& extra = "") {
  return R"({"schema_version": 1, "gate": ")" + gate + R"(", "status": ")" + status + R"(", "started": ")" + started +
         "\"" + (extra.empty() ? "" : ", " + extra) + "}";
}

}  // namespace

TEST(ResultJson, FoundByTestNameBesideTheTestXmlThenInGivenFolders) {
  auto c = result_path_candidates("s/t/perf", "/copy/build/Testing/20260101-0000/Test.xml", {"/mnt/m1/results", "/x"});
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], "/copy/build/arena/results/s/t/perf.json");
  EXPECT_EQ(c[1], "/mnt/m1/results/s/t/perf.json");
  EXPECT_EQ(c[2], "/x/s/t/perf.json");
  // not inside a build folder's Testing/<tag>/: only the folders given
  EXPECT_TRUE(result_path_candidates("s/t/perf", "/tmp/flat/Test.xml", {}).empty());
}

TEST(ResultJson, ParsesUtc) {
  EXPECT_EQ(parse_utc("2026-11-21T23:49:41Z"), 1795304981);
  EXPECT_EQ(parse_utc("yesterday"), -1);
}

TEST(ResultJson, UsesAFileFromThisRun) {
  Build b("good");
  b.write("perf", result("perf", "passed", "2026-11-21T23:49:00Z",
                         R"("method": {"budget_s": 15, "delta": 0.01}, "configs": [], "speedup": 2.5, "verdict": "FASTER")"));
  GateResult g = b.gate(Outcome::passed);
  attach_result_json(g, "s/t/perf", {});
  EXPECT_TRUE(g.result_problem.empty()) << g.result_problem;
  ASSERT_TRUE(g.perf && g.perf->report);
  EXPECT_DOUBLE_EQ(g.perf->report->speedup.speedup, 2.5);
  EXPECT_EQ(g.perf->report->speedup.verdict, arena::Verdict::Faster);
  EXPECT_NE(g.result_path.find("result_json_good/build/arena/results/s/t/perf.json"), std::string::npos);
}

TEST(ResultJson, RefusesFilesFromAnotherRun) {
  Build b("stale");
  b.write("perf", result("perf", "passed", "2026-11-20T10:00:00Z"));
  GateResult g = b.gate(Outcome::passed);
  attach_result_json(g, "s/t/perf", {});
  EXPECT_FALSE(g.perf);
  EXPECT_NE(g.result_problem.find("is older than this run"), std::string::npos) << g.result_problem;

  b.write("perf", result("perf", "passed", "2026-11-22T10:00:00Z"));
  g = b.gate(Outcome::passed);
  attach_result_json(g, "s/t/perf", {});
  EXPECT_NE(g.result_problem.find("was written after this run"), std::string::npos) << g.result_problem;
}

TEST(ResultJson, RefusesAFileThatContradictsTheTestXml) {
  Build b("contradicts");
  b.write("correct_seen", result("correct_seen", "passed", "2026-11-21T23:49:00Z", R"("passed_configs": 1, "total_configs": 1)"));
  GateResult g = b.gate(Outcome::failed);
  attach_result_json(g, "s/t/correct_seen", {});
  EXPECT_FALSE(g.correct);
  EXPECT_NE(g.result_problem.find("says 'passed' but Test.xml says failed"), std::string::npos) << g.result_problem;
  b.write("compile", R"({"schema_version": 1, "gate": "compile", "status": "failed", "compiled": false, "message": "x"})");
  g = b.gate(Outcome::passed);
  attach_result_json(g, "s/t/compile", {});
  EXPECT_NE(g.result_problem.find("says 'failed' but Test.xml says passed"), std::string::npos) << g.result_problem;
  // a crash may leave the file the gate keeps while it runs: it is used
  b.write("correct_unseen", result("correct_unseen", "running", "2026-11-21T23:49:00Z", R"("configs": [])"));
  g = b.gate(Outcome::crashed);
  attach_result_json(g, "s/t/correct_unseen", {});
  EXPECT_TRUE(g.correct) << g.result_problem;
}

TEST(ResultJson, MissingAndUnreadableFilesAreReported) {
  Build b("missing");
  GateResult g = b.gate(Outcome::passed);
  attach_result_json(g, "s/t/perf", {});
  EXPECT_EQ(g.result_problem, "result file missing: " + (b.root / "build/arena/results/s/t/perf.json").string());
  b.write("perf", "{ not json");
  g = b.gate(Outcome::passed);
  attach_result_json(g, "s/t/perf", {});
  EXPECT_NE(g.result_problem.find("is not valid JSON"), std::string::npos);
  // tests that never started have nothing to read and nothing to report
  g = b.gate(Outcome::not_run);
  attach_result_json(g, "s/t/perf", {});
  EXPECT_TRUE(g.result_problem.empty());
  // the agent step writes its result like a gate: one missing is reported, one present is read
  g = b.gate(Outcome::passed);
  attach_result_json(g, "s/t/agent", {});
  EXPECT_EQ(g.result_problem, "result file missing: " + (b.root / "build/arena/results/s/t/agent.json").string());
  b.write("agent", result("agent", "passed", "2026-11-21T23:49:00Z", R"("agent": "replay", "agent_status": "failed", "seconds": 3.5)"));
  g = b.gate(Outcome::passed);
  attach_result_json(g, "s/t/agent", {});
  ASSERT_TRUE(g.agent) << g.result_problem;
  EXPECT_EQ(g.agent->agent_status, "failed");
}

TEST(ResultJson, AFileOfAnotherSchemaStopsTheScoringNamingFileAndVersion) {
  Build b("version");
  const std::string path = b.write("perf", R"({"schema_version": 2, "gate": "perf", "status": "passed"})");
  GateResult g = b.gate(Outcome::passed);
  try {
    attach_result_json(g, "s/t/perf", {});
    FAIL() << "a result of schema 2 was read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": schema_version 2 is not one this reader knows (it reads 1); score "
                                              "results with the arena-score of the KernelArena that wrote them");
  }
  b.write("perf", R"({"gate": "perf", "status": "passed"})");
  EXPECT_THROW(attach_result_json(g, "s/t/perf", {}), InputError);
}

TEST(ResultJson, AFileWithoutARequiredKeyStopsTheScoringNamingFileAndKey) {
  Build b("required");
  // a finished correctness gate must say how many configurations passed
  const std::string path = b.write("correct_seen", result("correct_seen", "passed", "2026-11-21T23:49:00Z",
                                                          R"("configs": [{"label": "seen[0]", "passed": true}])"));
  GateResult g = b.gate(Outcome::passed);
  try {
    attach_result_json(g, "s/t/correct_seen", {});
    FAIL() << "a finished correctness result without its counts was read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": not a correct_seen result of schema 1: a finished correctness result "
                                              "needs passed_configs and total_configs");
  }
  // a configuration without its verdict
  b.write("correct_seen", result("correct_seen", "passed", "2026-11-21T23:49:00Z",
                                 R"("passed_configs": 1, "total_configs": 1, "configs": [{"label": "seen[0]"}])"));
  try {
    attach_result_json(g, "s/t/correct_seen", {});
    FAIL() << "a configuration without 'passed' was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": not a correct_seen result of schema 1: key 'configs': missing "
                                                "required key 'passed'"),
              std::string::npos)
        << e.what();
  }
  // the status is required of every file
  b.write("correct_seen", R"({"schema_version": 1, "gate": "correct_seen"})");
  try {
    attach_result_json(g, "s/t/correct_seen", {});
    FAIL() << "a result without a status was read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": missing required key 'status'");
  }
}
