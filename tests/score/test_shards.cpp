#include <gtest/gtest.h>

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

TestRecord with_command(TestRecord r, const std::string& command_line) {
  r.command_line = command_line;
  return r;
}

// A correctness gate's command line as CTest records it (every argument quoted).
std::string correct_cmd(const std::string& build, const std::string& seed) {
  return build + "/harness/arena-correct \"--task\" \"/src/tasks/s/t/task.json\" \"--candidate\" \"" + build +
         "/arena/kernels/s/t/candidate.so\" \"--set\" \"unseen\" \"--fuzz-seed\" \"" + seed + "\" \"--result\" \"" +
         build + "/arena/results/s/t/correct_unseen.json\"";
}

}  // namespace

TEST(Shards, FuzzSeedsComeFromGateCommandLines) {
  TestRecord fw = with_command(rec("framework/x/correct_unseen", "passed"), correct_cmd("/b", "999"));
  fw.labels = {"framework"};
  TestXml f = file("a.xml", {with_command(rec("s/t/correct_unseen", "passed"), correct_cmd("/node1/build", "1519564625")),
                             with_command(rec("s/u/correct_seen", "passed"), "arena-correct --set seen --fuzz-seed=1519564625"),
                             with_command(rec("s/t/compile", "passed"), "cmake \"-DRESULT=/b/compile.json\" -P x.cmake"),
                             with_command(rec("selftest/s/t/solution_correct", "passed"), correct_cmd("/b", "7")), fw});
  EXPECT_EQ(fuzz_seeds(f), (std::set<std::string>{"1519564625"}));
  EXPECT_TRUE(fuzz_seeds(file("b.xml", {rec("s/t/compile", "passed")})).empty());
}

TEST(Shards, ShardsOnDifferentHostsWithOneSeedAreOneRun) {
  // different build roots, one seed; a file naming no seed (compile gates only) does not count
  std::vector<TestXml> f = {
      file("node1/Test.xml", {with_command(rec("s/t/correct_unseen", "passed"), correct_cmd("/scratch/n1/build", "42"))}),
      file("node2/Test.xml", {with_command(rec("s/u/correct_unseen", "passed"), correct_cmd("/tmp/job7/build", "42"))}),
      file("node3/Test.xml", {rec("s/v/compile", "passed")})};
  EXPECT_EQ(describe_mixed_fuzz_seeds(f), "");
}

TEST(Shards, DifferentFuzzSeedsAreNamed) {
  std::vector<TestXml> f = {
      file("a.xml", {with_command(rec("s/t/correct_unseen", "passed"), correct_cmd("/n1", "222"))}),
      file("b.xml", {with_command(rec("s/u/correct_unseen", "passed"), correct_cmd("/n2", "111"))}),
      file("c.xml", {with_command(rec("s/v/correct_seen", "passed"), correct_cmd("/n3", "222"))})};
  EXPECT_EQ(describe_mixed_fuzz_seeds(f), "--fuzz-seed 111 in b.xml; --fuzz-seed 222 in a.xml, c.xml");
}
