#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "score_model.h"

using namespace arena::score;
using json = nlohmann::json;

namespace {

GateResult gate(Outcome o, const std::string& detail = "") {
  GateResult g;
  g.outcome = o;
  g.detail = detail;
  return g;
}

// Per-configuration statistics as the perf engine fills them (every key of config_statistics()).
json statistics(double baseline_us, double candidate_us, double fraction) {
  json s = json::object();
  for (const arena::ConfigStatistic& st : arena::config_statistics()) s[st.key] = 1.0;
  s[arena::kBaselineMedianUs] = baseline_us;
  s[arena::kCandidateMedianUs] = candidate_us;
  s[arena::kFractionOfPeak] = fraction;
  return s;
}

json perf_json(double s, double lo, double hi, const std::string& verdict, json failures = json::array()) {
  return {{"schema_version", 1},
          {"gate", "perf"},
          {"status", failures.empty() ? "passed" : "failed"},
          {"speedup", s},
          {"ci95_low", lo},
          {"ci95_high", hi},
          {"verdict", verdict},
          {"failures", failures},
          {"device", {{"name", "GPU"}}},
          {"method", {{"budget_s", 15}, {"delta", 0.01}}},
          {"configs",
           {{{"label", "seen[0]"}, {"params", "N=1"}, {"speedup", s}, {"verdict", verdict},
             {"statistics", statistics(20, 10, 0.4)}},
            {{"label", "seen[1]"}, {"speedup", s}, {"verdict", verdict}, {"statistics", statistics(20, 10, 0.3)}}}}};
}

GateResult perf_gate(Outcome o, const json& result) {
  GateResult g = gate(o);
  g.perf = result.get<arena::PerfResult>();
  return g;
}

struct Gates {
  std::map<std::string, GateResult> g;
  TaskScore score() {
    std::map<std::string, const GateResult*> p;
    for (auto& [k, v] : g) p[k] = &v;
    return score_task("s", "t", p);
  }
};

Gates all_passed(const json& perf) {
  Gates x;
  x.g["compile"] = gate(Outcome::passed);
  x.g["correct_seen"] = gate(Outcome::passed);
  x.g["correct_unseen"] = gate(Outcome::passed);
  x.g["perf"] = perf.is_null() ? gate(Outcome::passed) : perf_gate(Outcome::passed, perf);
  return x;
}

}  // namespace

TEST(ScoreModel, AkaPoints) {
  EXPECT_EQ(aka_points(false, false, NAN), 0);
  EXPECT_EQ(aka_points(true, false, 3.0), 20);
  EXPECT_DOUBLE_EQ(aka_points(true, true, 1.5), 270);
}

TEST(ScoreModel, CorrectTaskWithItsSpeedup) {
  TaskScore t = all_passed(perf_json(2.0, 1.9, 2.1, "FASTER")).score();
  EXPECT_EQ(t.id, "s/t");
  EXPECT_TRUE(t.compiled && t.correct_seen && t.correct_unseen && t.perf_valid && t.correct && t.judged);
  EXPECT_DOUBLE_EQ(t.speedup, 2.0);
  EXPECT_DOUBLE_EQ(t.ci_low, 1.9);
  EXPECT_EQ(t.verdict, "FASTER");
  EXPECT_DOUBLE_EQ(t.fraction_of_peak, 0.3);  // the lowest over configurations
  EXPECT_DOUBLE_EQ(t.aka_score, 320);
  EXPECT_EQ(t.agent, "none");
  EXPECT_EQ(t.device, "GPU");
  ASSERT_EQ(t.configs.size(), 2u);
  EXPECT_DOUBLE_EQ(t.configs[0].statistics.at(arena::kBaselineMedianUs), 20);
  EXPECT_TRUE(t.errors.empty());
}

TEST(ScoreModel, CompileFailureScoresZeroAndIsJudged) {
  Gates x;
  x.g["compile"] = gate(Outcome::failed);
  x.g["compile"].compile = json{{"schema_version", 1}, {"gate", "compile"}, {"status", "failed"}, {"compiled", false},
                                {"message", "breaks the kernel ABI rules:\n  - calls x"}}
                               .get<arena::CompileResult>();
  x.g["compile"].record.output = "CMake Error at a.cmake:1 (message):\n  boom\n";
  for (const char* n : {"correct_seen", "correct_unseen", "perf"})
    x.g[n] = gate(Outcome::not_run, "Fixture dependency failed: Failed test dependencies: s/t/compile");
  TaskScore t = x.score();
  EXPECT_FALSE(t.compiled);
  EXPECT_TRUE(t.judged);
  EXPECT_EQ(t.aka_score, 0);
  ASSERT_GE(t.errors.size(), 2u);
  EXPECT_NE(std::find(t.errors.begin(), t.errors.end(), "compile: breaks the kernel ABI rules: - calls x"), t.errors.end());
  EXPECT_EQ(t.errors.back(),
            "correct_seen, correct_unseen, perf: not run (Fixture dependency failed: Failed test dependencies: s/t/compile)");
}

TEST(ScoreModel, ConfirmedSlowdownCountsOtherPerfFailuresDoNot) {
  Gates x = all_passed(perf_json(0.8, 0.79, 0.81, "SLOWER", {"candidate is slower on seen[0] (speedup 0.8)"}));
  x.g["perf"].outcome = Outcome::failed;
  TaskScore t = x.score();
  EXPECT_TRUE(t.perf_valid);
  EXPECT_TRUE(t.correct);
  EXPECT_DOUBLE_EQ(t.aka_score, 200);
  Gates y = all_passed(perf_json(0.8, 0.79, 0.81, "SLOWER",
                                 {"candidate is slower on seen[0] (speedup 0.8)",
                                  "candidate outputs are wrong after the timed launches on seen[1]: y: 3 mismatches"}));
  y.g["perf"].outcome = Outcome::failed;
  t = y.score();
  EXPECT_FALSE(t.perf_valid);
  EXPECT_FALSE(t.correct);
  EXPECT_TRUE(t.judged);
  EXPECT_EQ(t.aka_score, 20);
  ASSERT_EQ(t.errors.size(), 2u);
  EXPECT_EQ(t.errors[1].rfind("perf: candidate outputs are wrong after the timed launches", 0), 0u);
}

TEST(ScoreModel, SkippedGatesLeaveTheTaskUnjudged) {
  Gates x;
  x.g["compile"] = gate(Outcome::passed);
  for (const char* n : {"correct_seen", "correct_unseen", "perf"})
    x.g[n] = gate(Outcome::skipped, "SKIPPED: no usable GPU");
  TaskScore t = x.score();
  EXPECT_FALSE(t.judged);
  EXPECT_EQ(t.unjudged_reason, "correct_seen skipped");
  EXPECT_FALSE(t.correct);
  EXPECT_EQ(t.aka_score, 20);
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_EQ(t.notes[0], "correct_seen, correct_unseen, perf: skipped (no usable GPU)");
  // a failure elsewhere settles it even with a skipped gate
  x.g["correct_seen"] = gate(Outcome::failed);
  EXPECT_TRUE(x.score().judged);
}

TEST(ScoreModel, MissingCompileIsInferredFromCorrectness) {
  Gates x = all_passed(perf_json(1.5, 1.4, 1.6, "FASTER"));
  x.g.erase("compile");
  TaskScore t = x.score();
  EXPECT_TRUE(t.compiled);
  EXPECT_TRUE(t.correct);
  ASSERT_FALSE(t.notes.empty());
  EXPECT_NE(t.notes[0].find("compiled inferred"), std::string::npos);
  Gates y;  // only a compile gate: the rest absent (a filtered run)
  y.g["compile"] = gate(Outcome::passed);
  t = y.score();
  EXPECT_FALSE(t.judged);
  EXPECT_EQ(t.unjudged_reason, "correct_seen missing");
}

TEST(ScoreModel, NoPerfNumbersWithoutAResultFileWhateverTheGatePrinted) {
  Gates x = all_passed(nullptr);
  TestRecord& r = x.g["perf"].record;
  r.numbers = {{"speedup", 1.25}, {"ci95_low", 1.2}, {"ci95_high", 1.3}, {"speedup.seen[0]", 1.25},
               {"candidate_fraction_of_peak.seen[0]", 0.7}, {"baseline_median_us.seen[0]", 50}};
  r.texts = {{"verdict", "FASTER"}};
  x.g["perf"].result_problem = "result file missing: /b/perf.json";
  TaskScore t = x.score();
  EXPECT_FALSE(t.judged);
  EXPECT_FALSE(t.correct);
  EXPECT_TRUE(std::isnan(t.speedup));
  EXPECT_EQ(t.verdict, "");
  EXPECT_TRUE(t.configs.empty());
  EXPECT_EQ(t.notes[0], "perf: result file missing: /b/perf.json");
  EXPECT_EQ(t.errors.back(), "perf: passed but no speedup was recorded (no result file with one)");
}

TEST(ScoreModel, CorrectnessCountsComeFromTheResultFile) {
  Gates x = all_passed(perf_json(2.0, 1.9, 2.1, "FASTER"));
  x.g["correct_unseen"].record.numbers = {{"configs_passed", 99}};  // printed, not read
  x.g["correct_unseen"].correct = json{{"schema_version", 1}, {"gate", "correct_unseen"}, {"status", "passed"},
                                       {"passed_configs", 12}, {"total_configs", 12}, {"max_abs_err", 0.5},
                                       {"fuzz_seed", 7}, {"configs", json::array()}}
                                      .get<arena::CorrectResult>();
  json j = task_to_json(x.score());
  EXPECT_EQ(j["gates"]["correct_unseen"]["configs_passed"], 12);
  EXPECT_EQ(j["gates"]["correct_unseen"]["configs_total"], 12);
  EXPECT_EQ(j["gates"]["correct_unseen"]["max_abs_err"], 0.5);
  EXPECT_FALSE(j["gates"]["correct_unseen"].contains("max_rel_err"));
  EXPECT_FALSE(j["gates"]["correct_seen"].contains("configs_passed"));
}

TEST(ScoreModel, EveryListedStatisticReachesScoresJson) {
  TaskScore t = all_passed(perf_json(2.0, 1.9, 2.1, "FASTER")).score();
  json j = task_to_json(t);
  ASSERT_EQ(j["configs"].size(), 2u);
  for (const arena::ConfigStatistic& st : arena::config_statistics()) {
    ASSERT_TRUE(j["configs"][0].contains(st.key)) << st.key;
    EXPECT_TRUE(j["configs"][0][st.key].is_number()) << st.key;
  }
  EXPECT_EQ(j["configs"][0][arena::kCandidateMedianUs], 10.0);
  EXPECT_EQ(j["configs"][1][arena::kFractionOfPeak], 0.3);
}

TEST(ScoreModel, AgentStatusAndJson) {
  Gates x = all_passed(perf_json(2.0, 1.9, 2.1, "FASTER"));
  x.g["agent"] = gate(Outcome::timeout, "timed out after 3600.0 s");
  TaskScore t = x.score();
  EXPECT_EQ(t.agent, "timeout");
  json j = task_to_json(t);
  EXPECT_EQ(j["agent"], "timeout");
  EXPECT_EQ(j["gates"]["perf"]["outcome"], "passed");
  EXPECT_EQ(j["configs"][1]["ci95_low"], nullptr);  // NaN is written as null
  EXPECT_EQ(j["aka_score"], 320.0);
  EXPECT_FALSE(j.contains("unjudged_reason"));
  // the agent step passes when the agent fails: its result file says how the agent ended
  x.g["agent"] = gate(Outcome::passed);
  arena::AgentResult a;
  a.header.gate = "agent";
  a.header.status = arena::Status::Passed;
  a.agent = "claude_code";
  a.agent_status = "failed";
  a.seconds = 42.4;
  x.g["agent"].agent = a;
  t = x.score();
  EXPECT_EQ(t.agent, "failed");
  EXPECT_DOUBLE_EQ(t.agent_seconds, 42.4);
  ASSERT_FALSE(t.notes.empty());
  EXPECT_EQ(t.notes[0], "agent: failed after 42 s; the gates judged what it left");
  EXPECT_TRUE(t.correct);  // judged on what it left
}

TEST(ScoreModel, AgentMeasurementsAloneAreNotAResult) {
  // CTest's measurements are for CDash: without the step's result file the agent's ending is
  // unknown, and the note says why.
  Gates x = all_passed(perf_json(2.0, 1.9, 2.1, "FASTER"));
  x.g["agent"] = gate(Outcome::passed);
  x.g["agent"].record.texts["agent_status"] = "failed";
  x.g["agent"].record.numbers["agent_seconds"] = 42.4;
  x.g["agent"].result_problem = "result file missing: /b/arena/results/hip2hip/t/agent.json";
  TaskScore t = x.score();
  EXPECT_EQ(t.agent, "passed");
  EXPECT_TRUE(std::isnan(t.agent_seconds));
  EXPECT_NE(std::find(t.notes.begin(), t.notes.end(), "agent: result file missing: /b/arena/results/hip2hip/t/agent.json"),
            t.notes.end());
}

TEST(ScoreModel, SpeedupsOverEachReference) {
  json perf = perf_json(2.0, 1.9, 2.1, "FASTER");
  perf["baseline_name"] = "torch eager";
  perf["speedup_vs"] = {{"torch.compile", {{"speedup", 1.25}, {"ci95_low", 1.2}, {"ci95_high", 1.3}, {"verdict", "FASTER"}}}};
  TaskScore t = all_passed(perf).score();
  EXPECT_EQ(t.reference, "torch eager");
  ASSERT_EQ(t.speedup_vs.count("torch.compile"), 1u);
  EXPECT_DOUBLE_EQ(t.speedup_vs["torch.compile"].speedup, 1.25);
  EXPECT_DOUBLE_EQ(t.speedup_vs["torch.compile"].ci_high, 1.3);
  json j = task_to_json(t);
  EXPECT_EQ(j["reference"], "torch eager");
  EXPECT_DOUBLE_EQ(j["speedup_vs"]["torch.compile"]["ci95_low"].get<double>(), 1.2);

  // A plain hip2hip perf result is over the baseline and has no further references.
  TaskScore plain = all_passed(perf_json(1.5, 1.4, 1.6, "FASTER")).score();
  EXPECT_EQ(plain.reference, "baseline");
  EXPECT_TRUE(plain.speedup_vs.empty());
}


TEST(ScoreModel, OptionalProfileGateRecordsBottlenecksWithoutJudging) {
  Gates x = all_passed(perf_json(2.0, 1.9, 2.1, "FASTER"));
  TaskScore without = x.score();
  EXPECT_TRUE(without.bottleneck.empty());
  EXPECT_EQ(without.gates.count("profile"), 0u);  // not run: not a missing gate
  GateResult p = gate(Outcome::failed);
  p.profile = json{{"schema_version", 1},
                   {"gate", "profile"},
                   {"status", "passed"},
                   {"sides",
                    {{"candidate", {{"bottleneck", "memory-bound"}}},
                     {"baseline", {{"bottleneck", "latency/occupancy-bound"}}}}}}
                  .get<arena::ProfileResult>();
  x.g["profile"] = p;
  TaskScore with = x.score();
  EXPECT_EQ(with.bottleneck.at("candidate"), "memory-bound");
  EXPECT_EQ(with.bottleneck.at("baseline"), "latency/occupancy-bound");
  EXPECT_TRUE(with.correct);  // a failed profile never changes the verdict
  EXPECT_DOUBLE_EQ(with.speedup, 2.0);
  EXPECT_EQ(task_to_json(with)["bottleneck"]["candidate"], "memory-bound");
}

namespace {

// A correctness gate that failed with its result file's status and error.
GateResult correct_gate(arena::Status status, const std::string& error) {
  GateResult g = gate(Outcome::failed);
  arena::CorrectResult r;
  r.header.gate = "correct_unseen";
  r.header.status = status;
  r.header.error = error;
  g.correct = r;
  return g;
}

const char* kOomError =
    "out of device memory while allocating 34210560 bytes: hipMalloc: out of memory; 139.0 GB of the GPU's "
    "141.0 GB were in use (the gates sharing it): not a verdict on the kernel; run again with fewer gates per GPU";

}  // namespace

// The harness ran out of device memory in one correctness gate: the task is not judged (no
// points, no mean), never correct, and the reason names the gate and what to change.
TEST(ScoreModel, OutOfDeviceMemoryIsNotJudgedAndNeverPassed) {
  Gates x = all_passed(perf_json(1.5, 1.4, 1.6, "FASTER"));
  x.g["correct_unseen"] = correct_gate(arena::Status::Error, kOomError);
  TaskScore t = x.score();
  EXPECT_FALSE(t.judged);
  EXPECT_FALSE(t.correct_unseen);
  EXPECT_FALSE(t.correct);
  EXPECT_NE(t.unjudged_reason.find("correct_unseen out of device memory"), std::string::npos) << t.unjudged_reason;
  EXPECT_NE(t.unjudged_reason.find("fewer gates per GPU"), std::string::npos) << t.unjudged_reason;
  EXPECT_EQ(t.aka_score, 20);  // compiled, not correct: the JSON writes no points for an unjudged task
}

// The same error text with status "failed" is a candidate's failure, and so is status "error"
// with another reason: only the harness's own out-of-memory status is read as not judged.
TEST(ScoreModel, OnlyTheHarnessOutOfMemoryErrorIsNotJudged) {
  for (auto [status, error] : {std::pair{arena::Status::Failed, std::string(kOomError)},
                               std::pair{arena::Status::Error, std::string("cannot load the oracle")},
                               std::pair{arena::Status::Error, std::string("error: out of device memory")}}) {
    Gates x = all_passed(perf_json(1.5, 1.4, 1.6, "FASTER"));
    x.g["correct_seen"] = correct_gate(status, error);
    TaskScore t = x.score();
    EXPECT_TRUE(t.judged) << error << ": " << t.unjudged_reason;
    EXPECT_FALSE(t.correct) << error;
  }
}

// A wrong result on the other set settles the task as not correct, even beside a gate that ran
// out of memory.
TEST(ScoreModel, WrongOnOneSetOutweighsOutOfMemoryOnTheOther) {
  Gates x = all_passed(perf_json(1.5, 1.4, 1.6, "FASTER"));
  x.g["correct_seen"] = gate(Outcome::failed, "mismatch");
  x.g["correct_unseen"] = correct_gate(arena::Status::Error, kOomError);
  TaskScore t = x.score();
  EXPECT_TRUE(t.judged) << t.unjudged_reason;
  EXPECT_FALSE(t.correct);
}
