// The board's aggregation (harness/score/board_*.h): merging and de-duplicating runs, the
// geometric mean's interval, ranks decided by intervals, the variance shares, entry metrics,
// the line diff and the transcript check, on inputs small enough to work out by hand.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "board_load.h"
#include "board_site.h"
#include "board_stats.h"
#include "ctest_xml.h"
#include "run_context.h"

using namespace arena::score;
using json = nlohmann::json;

namespace {

json task_json(const std::string& id, bool correct, double speedup = NAN) {
  const std::string suite = id.substr(0, id.find('/'));
  json t = {{"id", id}, {"suite", suite}, {"task", id.substr(id.find('/') + 1)}, {"compiled", true},
            {"correct_seen", correct}, {"correct_unseen", correct}, {"correct", correct}, {"judged", true},
            {"verdict", correct ? "FASTER" : ""}, {"gates", {{"perf", {{"outcome", correct ? "passed" : "not run"}}},
                                                             {"correct_seen", {{"outcome", correct ? "passed" : "failed"}}}}}};
  if (correct) t["speedup"] = speedup, t["ci95_low"] = speedup * 0.9, t["ci95_high"] = speedup * 1.1;
  return t;
}

json scores_json(const std::string& run, const std::string& site, double start, const std::string& gpu,
                 const std::vector<json>& tasks, const std::string& created = "2026-11-01T00:00:00Z") {
  json ctx = json::object();
  for (const auto& t : tasks) ctx[t["id"].get<std::string>()] = {{"gpu", gpu}, {"driver_version", 13000}, {"agent", "a"}};
  return {{"run", run}, {"created", created}, {"tasks", tasks},
          {"inputs", {{{"site", site}, {"build_stamp", "s"}, {"start_test_time", start}}}},
          {"context", {{"kernelarena_version", "0.1.0"}, {"tasks", ctx}}}};
}

}  // namespace

TEST(BoardStats, GeomeanIntervalCombinesLogStandardErrors) {
  // Each x has a log standard error of 0.1 (its interval is x * exp(-/+ 1.96 * 0.1)).
  const double k = std::exp(1.96 * 0.1);
  const Interval g = geomean_interval({{2, 2 / k, 2 * k}, {8, 8 / k, 8 * k}});
  EXPECT_NEAR(g.est, 4.0, 1e-12);  // sqrt(2 * 8)
  const double se = std::sqrt(0.01 + 0.01) / 2;
  EXPECT_NEAR(g.low, 4 * std::exp(-1.96 * se), 1e-12);
  EXPECT_NEAR(g.high, 4 * std::exp(1.96 * se), 1e-12);
  // A value without an interval adds no variance; none at all gives NaN.
  const Interval h = geomean_interval({{4, NAN, NAN}, {1, 1, 1}});
  EXPECT_NEAR(h.est, 2.0, 1e-12);
  EXPECT_NEAR(h.low, 2.0, 1e-12);
  EXPECT_TRUE(std::isnan(geomean_interval({}).est));
}

TEST(BoardStats, RanksTieWhereIntervalsOverlap) {
  // B is best by digits, but A's interval overlaps B's: both rank 1. C lies below both: 3.
  const std::vector<Interval> xs = {{2.5, 2.0, 3.0}, {3.1, 2.8, 3.5}, {1.2, 1.0, 1.5}, {}};
  EXPECT_EQ(interval_ranks(xs), (std::vector<int>{1, 1, 3, 4}));
  // Without overlap the order decides: 1, 2, 3.
  EXPECT_EQ(interval_ranks({{3, 2.9, 3.1}, {2, 1.9, 2.1}, {1, 0.9, 1.1}}), (std::vector<int>{1, 2, 3}));
}

TEST(BoardStats, VarianceSharesByCategoryAndAgent) {
  // Category alone explains everything; agent nothing.
  VarianceShares v = variance_shares({{"a", "x", 1}, {"a", "y", 1}, {"b", "x", 0}, {"b", "y", 0}});
  EXPECT_NEAR(v.category, 1.0, 1e-12);
  EXPECT_NEAR(v.agent, 0.0, 1e-12);
  EXPECT_NEAR(v.residual, 0.0, 1e-12);
  EXPECT_EQ(v.n, 4);
  // One cell stands out: mean 0.5, total SS 3; category a vs b: 2 * 0.25 * 2 = 1 -> 1/3; agent likewise; rest 1/3.
  v = variance_shares({{"a", "x", 2}, {"a", "y", 0}, {"b", "x", 0}, {"b", "y", 0}});
  EXPECT_NEAR(v.category, 1.0 / 3, 1e-12);
  EXPECT_NEAR(v.agent, 1.0 / 3, 1e-12);
  EXPECT_NEAR(v.residual, 1.0 / 3, 1e-12);
  // No variance: no shares.
  EXPECT_TRUE(std::isnan(variance_shares({{"a", "x", 1}, {"b", "y", 1}}).category));
}

TEST(BoardStats, EntryMetricsCountEveryTask) {
  BoardRun r = board_run_from_scores(
      scores_json("r", "h", 1, "G", {task_json("s/t1", true, 4.0), task_json("s/t2", true, 1.0), task_json("s/t3", false),
                                     task_json("s/t4", false)}),
      "x.json");
  std::vector<const BoardTask*> ts;
  for (const auto& [id, t] : r.tasks) ts.push_back(&t);
  const EntryMetrics m = entry_metrics(ts);
  EXPECT_EQ(m.tasks, 4);
  EXPECT_DOUBLE_EQ(m.compile_rate, 1.0);
  EXPECT_DOUBLE_EQ(m.correct_rate, 0.5);
  EXPECT_DOUBLE_EQ(m.faster_rate, 0.5);              // both correct tasks say FASTER
  EXPECT_NEAR(m.geomean_correct.est, 2.0, 1e-12);    // sqrt(4 * 1)
  EXPECT_NEAR(m.geomean_all.est, std::sqrt(2.0), 1e-12);  // (4 * 1 * 1 * 1)^(1/4)
}

TEST(BoardLoad, ScoredTwiceCountsOnceAndShardsMerge) {
  std::vector<BoardRun> runs;
  runs.push_back(board_run_from_scores(scores_json("one", "h1", 100, "G", {task_json("s/a", true, 2)}), "one.json"));
  // The same inputs scored again under another name: dropped.
  runs.push_back(board_run_from_scores(
      scores_json("one-2", "h1", 100, "G", {task_json("s/a", true, 2)}, "2026-11-02T00:00:00Z"), "one-2.json"));
  // Two shards of run "two" from two hosts: merged; s/b is in both, the first is kept.
  runs.push_back(board_run_from_scores(scores_json("two", "h2", 200, "G", {task_json("s/b", true, 3)}), "two-a.json"));
  runs.push_back(board_run_from_scores(
      scores_json("two", "h3", 210, "G", {task_json("s/b", false), task_json("s/c", true, 1.5)}, "2026-11-03T00:00:00Z"),
      "two-b.json"));
  // Run "two" again on another GPU: another run.
  runs.push_back(board_run_from_scores(scores_json("two", "h4", 300, "H", {task_json("s/b", true, 5)}), "two-h.json"));
  std::vector<std::string> notes;
  const auto merged = merge_board_runs(runs, &notes);
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].run, "one");
  EXPECT_EQ(merged[1].run, "two");
  EXPECT_EQ(merged[1].gpu, "G");
  EXPECT_EQ(merged[1].tasks.size(), 2u);
  EXPECT_TRUE(merged[1].tasks.at("s/b").correct);  // the first shard's record
  EXPECT_EQ(merged[1].hosts, (std::vector<std::string>{"h2", "h3"}));
  EXPECT_EQ(merged[2].gpu, "H");
  EXPECT_NE(merged[1].slug, merged[2].slug);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("scored twice"), std::string::npos);
  EXPECT_NE(notes[1].find("merged into run two"), std::string::npos);
}

TEST(BoardLoad, RefusesWhatIsNotAScoresJson) {
  EXPECT_THROW(board_run_from_scores(json{{"tasks", 3}}, "bad.json"), InputError);
  try {
    board_run_from_scores(json::object(), "bad.json");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos);
  }
}

TEST(BoardSite, LineDiff) {
  const auto d = line_diff("a\nb\nc\n", "a\nx\nc\nd\n");
  const std::vector<std::pair<char, std::string>> want = {{' ', "a"}, {'-', "b"}, {'+', "x"}, {' ', "c"}, {'+', "d"}};
  EXPECT_EQ(d, want);
  EXPECT_TRUE(line_diff("a\nb\n", "c\n", 1).empty());  // above the limit
}

TEST(RunContext, TranscriptReadsOutsideTheWorkspace) {
  const std::string ws = "/b/arena/run1/hip2hip/gelu/workspace";
  const std::string transcript = "cat /b/arena/run1/hip2hip/gelu/workspace/candidate.hip\n"
                                 "ls /usr/include/hip\n"
                                 "cat /b/arena/results/hip2hip/gelu/perf.json\n"
                                 "read /src/tasks/hip2hip/gelu/README.md\n"
                                 "/b/arena/run1/hip2hip/gelu/tools/arena-perf --help\n";
  EXPECT_EQ(outside_reads(transcript, ws),
            (std::vector<std::string>{"cat /b/arena/results/hip2hip/gelu/perf.json", "read /src/tasks/hip2hip/gelu/README.md"}));
  // Without a known workspace only task folders and solutions are named.
  EXPECT_EQ(outside_reads("cat /b/arena/results/x\ncat ./solution.hip\n", ""), (std::vector<std::string>{"cat ./solution.hip"}));
}

TEST(RunContext, ReadsTheAgentsFilesBesideItsResult) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("run_context_" + std::to_string(::getpid())) / "hip2hip" / "gelu";
  fs::create_directories(dir);
  auto write = [&](const char* name, const std::string& text) { std::ofstream(dir / name) << text; };
  write("agent_checks.jsonl", "{\"n\":1,\"script\":\"check\",\"exit\":1,\"stage\":\"correct\","
                              "\"candidate_copy\":\"checks/001-kernel.hip\"}\nnot json\n"
                              "{\"n\":2,\"script\":\"check\",\"exit\":0,\"stage\":\"done\",\"speedup\":1.5,"
                              "\"candidate_copy\":\"checks/001-kernel.hip\"}\n");
  fs::create_directories(dir / "agent_checks");
  write("agent_checks/001-kernel.hip", "first try\n");
  write("agent_stdout.log", "editing kernel.hip\ncat /src/tasks/hip2hip/gelu/solution.hip\n");
  write("agent_start.hip", "old\n");
  write("agent_candidate.hip", "new\n");
  std::map<std::string, GateResult> gates;
  GateResult& agent = gates["hip2hip/gelu/agent"];
  agent.outcome = Outcome::passed;
  agent.record.labels = {"hip2hip", "elementwise", "agent"};
  agent.result_path = (dir / "agent.json").string();
  agent.agent = arena::AgentResult{};
  agent.agent->agent = "command";
  agent.agent->model = "m1";
  agent.agent->agent_status = "finished";
  const json c = run_context(gates);
  fs::remove_all(dir.parent_path().parent_path());
  EXPECT_EQ(c["kernelarena_version"], kArenaVersion);
  const json& t = c["tasks"]["hip2hip/gelu"];
  EXPECT_EQ(t["category"], "elementwise");
  EXPECT_EQ(t["agent"], "command");
  EXPECT_EQ(t["model"], "m1");
  ASSERT_EQ(t["checks"].size(), 2u);  // the line that is not JSON is left out
  EXPECT_EQ(t["checks"][1]["speedup"], 1.5);
  EXPECT_EQ(t["checks"][0]["source"], "first try\n");  // the copy the runner kept
  EXPECT_FALSE(t["checks"][1].contains("source"));      // the same copy: not repeated
  EXPECT_EQ(t["start_source"], "old\n");
  EXPECT_EQ(t["candidate_source"], "new\n");
  ASSERT_EQ(t["outside_reads"].size(), 1u);
  EXPECT_EQ(t["outside_reads"][0], "cat /src/tasks/hip2hip/gelu/solution.hip");
}
