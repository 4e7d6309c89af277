#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "shards.h"

using namespace arena::score;

namespace {

TestRecord rec(const std::string& name, const std::string& status, const std::string& completion = "Completed",
               const std::string& exit_code = "") {
  TestRecord r;
  r.name = name;
  r.status = status;
  r.completion_status = completion;
  r.exit_code = exit_code.empty() && status == "failed" ? "Failed" : exit_code;
  r.exit_value = status == "failed" ? "1" : "0";
  return r;
}

TestXml file(const std::string& path, std::vector<TestRecord> tests) {
  TestXml x;
  x.path = path;
  x.tests = std::move(tests);
  return x;
}

}  // namespace

TEST(Shards, DisjointShardsUnite) {
  std::vector<TestXml> f = {file("a.xml", {rec("s/t/compile", "passed")}), file("b.xml", {rec("s/t/perf", "passed")})};
  MergeReport report;
  auto g = merge_gate_tests(f, &report);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g["s/t/compile"].origin->path, "a.xml");
  EXPECT_EQ(g["s/t/perf"].origin->path, "b.xml");
  EXPECT_TRUE(report.duplicates.empty());
  EXPECT_TRUE(report.conflicts.empty());
}

TEST(Shards, SameOutcomeTwiceIsADuplicate) {
  std::vector<TestXml> f = {file("a.xml", {rec("s/t/compile", "passed")}), file("b.xml", {rec("s/t/compile", "passed")})};
  MergeReport report;
  auto g = merge_gate_tests(f, &report);
  EXPECT_EQ(g["s/t/compile"].outcome, Outcome::passed);
  EXPECT_EQ(g["s/t/compile"].files.size(), 2u);
  ASSERT_EQ(report.duplicates.size(), 1u);
  EXPECT_EQ(report.duplicates[0]["test"], "s/t/compile");
  EXPECT_EQ(report.duplicates[0]["used"], "a.xml");
  EXPECT_TRUE(report.conflicts.empty());
}

TEST(Shards, DifferentOutcomesAreAConflictCountedAsFailed) {
  std::vector<TestXml> f = {file("a.xml", {rec("s/t/correct_unseen", "passed")}),
                            file("b.xml", {rec("s/t/correct_unseen", "failed")})};
  MergeReport report;
  auto g = merge_gate_tests(f, &report);
  const GateResult& r = g["s/t/correct_unseen"];
  EXPECT_EQ(r.outcome, Outcome::conflict);
  EXPECT_TRUE(is_failure(r.outcome));
  EXPECT_EQ(r.detail, "conflicting outcomes across Test.xml files: passed in a.xml, failed in b.xml");
  ASSERT_EQ(report.conflicts.size(), 1u);
  EXPECT_EQ(report.conflicts[0]["records"].size(), 2u);
  EXPECT_EQ(report.conflicts[0]["records"][1]["outcome"], "failed");
  EXPECT_TRUE(report.duplicates.empty());
  // timed out in one, failed in another: also a conflict
  f = {file("a.xml", {rec("s/t/perf", "failed", "Completed", "Timeout")}), file("b.xml", {rec("s/t/perf", "failed")})};
  MergeReport r2;
  EXPECT_EQ(merge_gate_tests(f, &r2)["s/t/perf"].outcome, Outcome::conflict);
}

TEST(Shards, ASkipGivesWayToARealOutcome) {
  std::vector<TestXml> f = {file("cpu.xml", {rec("s/t/perf", "notrun", "SKIP_RETURN_CODE=77")}),
                            file("gpu.xml", {rec("s/t/perf", "failed")})};
  MergeReport report;
  auto g = merge_gate_tests(f, &report);
  EXPECT_EQ(g["s/t/perf"].outcome, Outcome::failed);
  EXPECT_EQ(g["s/t/perf"].origin->path, "gpu.xml");
  ASSERT_EQ(report.duplicates.size(), 1u);
  EXPECT_TRUE(report.duplicates[0].contains("note"));
  EXPECT_TRUE(report.conflicts.empty());
}

TEST(Shards, NonGateAndFrameworkTestsAreIgnored) {
  TestRecord fw = rec("framework/x/compile", "passed");
  fw.labels = {"framework"};
  std::vector<TestXml> f = {file("a.xml", {rec("framework/unit/A.B", "passed"), fw, rec("s/t/compile", "failed")})};
  MergeReport report;
  auto g = merge_gate_tests(f, &report);
  EXPECT_EQ(g.size(), 1u);
  EXPECT_EQ(report.ignored_tests, 2);
}

namespace {

// A build folder <root>/<name>/ whose Test.xml records `tests` and whose correctness gates'
// result files record `seed` (none where seed is empty).
TestXml build_with_seed(const std::string& name, const std::string& seed, std::vector<TestRecord> tests) {
  const std::filesystem::path root = std::filesystem::absolute("shards_" + name);
  std::filesystem::remove_all(root);
  for (const TestRecord& r : tests) {
    const std::string gate = r.name.substr(r.name.rfind('/') + 1);
    const std::filesystem::path p = root / "arena" / "results" / (r.name + ".json");
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << R"({"schema_version": 1, "gate": ")" << gate << R"(", "status": "passed", )"
                     << (seed.empty() ? "" : "\"fuzz_seed\": " + seed + ", ")
                     << R"("passed_configs": 1, "total_configs": 1, "compiled": true})";
  }
  std::filesystem::create_directories(root / "Testing" / "tag");
  return file((root / "Testing" / "tag" / "Test.xml").string(), std::move(tests));
}

}  // namespace

TEST(Shards, FuzzSeedsComeFromTheCorrectnessGatesResults) {
  TestRecord fw = rec("framework/x/correct_unseen", "passed");
  fw.labels = {"framework"};
  TestXml f = build_with_seed("one", "1519564625",
                              {rec("s/t/correct_unseen", "passed"), rec("s/u/correct_seen", "failed"),
                               rec("s/t/compile", "passed"), rec("selftest/s/t/solution_correct", "passed"), fw});
  EXPECT_EQ(fuzz_seeds(f, {}), (std::set<std::string>{"1519564625"}));
  EXPECT_TRUE(fuzz_seeds(build_with_seed("compile_only", "7", {rec("s/t/compile", "passed")}), {}).empty());
  // a gate that did not run leaves no seed, whatever file lies there
  EXPECT_TRUE(fuzz_seeds(build_with_seed("not_run", "7", {rec("s/t/correct_unseen", "notrun", "Fixture dependency failed")}),
                         {}).empty());
}

TEST(Shards, ShardsOnDifferentHostsWithOneSeedAreOneRun) {
  // different build roots, one seed; a file naming no seed (compile gates only) does not count
  std::vector<TestXml> f = {build_with_seed("node1", "42", {rec("s/t/correct_unseen", "passed")}),
                            build_with_seed("node2", "42", {rec("s/u/correct_unseen", "passed")}),
                            build_with_seed("node3", "", {rec("s/v/compile", "passed")})};
  EXPECT_EQ(describe_mixed_fuzz_seeds(f, {}), "");
}

TEST(Shards, DifferentFuzzSeedsAreNamed) {
  std::vector<TestXml> f = {build_with_seed("a", "222", {rec("s/t/correct_unseen", "passed")}),
                            build_with_seed("b", "111", {rec("s/u/correct_unseen", "passed")}),
                            build_with_seed("c", "222", {rec("s/v/correct_seen", "passed")})};
  EXPECT_EQ(describe_mixed_fuzz_seeds(f, {}), "fuzz seed 111 in " + f[1].path + "; fuzz seed 222 in " + f[0].path +
                                                  ", " + f[2].path);
}
