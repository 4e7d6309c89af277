// The result schema (harness/common/result_schema.h): every result type survives a round trip
// through JSON, verdicts and statuses are spelled one way, and decide() is the rule.
#include <gtest/gtest.h>

#include <cmath>

#include "result_schema.h"

using namespace arena;
using json = nlohmann::json;

namespace {

template <class T>
void expect_round_trip(const T& value) {
  const json once = value;
  const json twice = once.get<T>();
  EXPECT_EQ(once.dump(), twice.dump());
  EXPECT_EQ(once[key::schema_version], kResultSchemaVersion);
}

ResultHeader header(const std::string& gate, Status s) {
  ResultHeader h;
  h.gate = gate;
  h.status = s;
  h.task = "s/t";
  h.started = "2026-11-21T23:49:00Z";
  h.finished = "2026-11-21T23:50:00Z";
  return h;
}

}  // namespace

TEST(ResultSchema, EveryResultSurvivesARoundTrip) {
  CompileResult c;
  c.header = header("compile", Status::Failed);
  c.compiled = false;
  c.message = "calls hipMalloc";
  c.problems = {"line 3: open"};
  expect_round_trip(c);

  CorrectResult r;
  r.header = header("correct_unseen", Status::Passed);
  r.fuzz_seed = 1519564625;
  r.device = DeviceFacts{};
  r.device->name = "GPU";
  r.device->l2_bytes = int64_t{1} << 26;
  CorrectConfig cc;
  cc.label = "unseen[0]";
  cc.passed = false;
  cc.problems = {"y: 3 mismatched"};
  cc.seconds = 0.5;
  r.configs = {cc};
  r.passed_configs = 0;
  r.total_configs = 1;
  r.max_abs_err = 0.25;
  expect_round_trip(r);
  EXPECT_EQ(json(r)[key::fuzz_seed], 1519564625u);

  PerfResult p;
  p.header = header("perf", Status::Passed);
  p.device = DeviceFacts{};
  p.device->name = "GPU";
  PerfReport rep;
  rep.method.budget_s = 15;
  rep.method.delta = 0.01;
  PerfConfig pc;
  pc.label = "seen[0]";
  pc.speedup = {2.0, 1.9, 2.1, Verdict::Faster};
  pc.rounds_se = 0.004;
  pc.baseline = SideTiming{};
  pc.baseline->median_ms = 0.02;
  pc.candidate = SideTiming{};
  pc.candidate->median_ms = 0.01;
  SideTiming ref;
  ref.median_ms = 0.012;
  ref.name = "torch.compile";
  ref.vs_candidate = SpeedupInterval{1.2, 1.1, 1.3, Verdict::Faster};
  pc.references = {ref};
  for (const ConfigStatistic& s : config_statistics()) pc.statistics[s.key] = 1.5;
  PerfConfig untimed;
  untimed.label = "seen[1]";
  untimed.error = "not timed: no rounds";
  rep.configs = {pc, untimed};
  rep.speedup = {2.0, 1.9, 2.1, Verdict::Faster};
  rep.speedup_vs["torch.compile"] = {1.2, 1.1, 1.3, Verdict::Faster};
  p.report = rep;
  p.failures = {"candidate is slower on seen[2]"};
  expect_round_trip(p);
  const PerfResult back = json(p).get<PerfResult>();
  ASSERT_TRUE(back.report);
  EXPECT_EQ(back.report->configs[0].references[0].vs_candidate->verdict, Verdict::Faster);
  EXPECT_EQ(back.report->configs[1].error, "not timed: no rounds");
  EXPECT_EQ(back.report->configs[0].rounds_se, 0.004);
  EXPECT_FALSE(json(back.report->configs[1]).contains("rounds_se"));  // written only when set

  ProfileResult pr;
  pr.header = header("profile", Status::Passed);
  pr.sides["candidate"].bottleneck = "memory-bound";
  pr.sides["candidate"].top_stalls["long_scoreboard"] = 3.5;
  expect_round_trip(pr);
}

TEST(ResultSchema, AStatisticThatIsNotANumberIsWrittenAsNullAndReadAsNaN) {
  PerfConfig pc;
  pc.label = "seen[0]";
  pc.speedup = {2.0, 1.9, 2.1, Verdict::Faster};
  pc.statistics[kFractionOfPeak] = std::nan("");
  const json j = json::parse(json(pc).dump());
  EXPECT_TRUE(j[key::statistics][kFractionOfPeak].is_null());
  EXPECT_TRUE(std::isnan(j.get<PerfConfig>().statistics.at(kFractionOfPeak)));
}

TEST(ResultSchema, VerdictsAndStatusesAreSpelledOneWay) {
  for (Verdict v : {Verdict::Faster, Verdict::Same, Verdict::Slower, Verdict::Ambiguous, Verdict::NotTimed})
    EXPECT_EQ(verdict_from_name(verdict_name(v)), v);
  EXPECT_STREQ(verdict_name(Verdict::Faster), "FASTER");
  EXPECT_THROW(verdict_from_name("faster"), SchemaError);
  for (Status s : {Status::Passed, Status::Failed, Status::Error, Status::Skipped, Status::Running})
    EXPECT_EQ(status_from_name(status_name(s)), s);
  EXPECT_THROW(status_from_name("ok"), SchemaError);
}

TEST(ResultSchema, DecideIsTheIntervalRule) {
  EXPECT_EQ(decide(1.05, 1.10, 0.01), Verdict::Faster);
  EXPECT_EQ(decide(0.90, 0.95, 0.01), Verdict::Slower);
  EXPECT_EQ(decide(0.99, 1.01, 0.01), Verdict::Same);
  EXPECT_EQ(decide(0.98, 1.05, 0.01), Verdict::Ambiguous);
  EXPECT_EQ(decide(std::nan(""), 1.05, 0.01), Verdict::Ambiguous);
}

TEST(ResultSchema, UnknownVersionsAndMissingKeysAreRefusedByName) {
  json j = {{"schema_version", 3}, {"gate", "perf"}, {"status", "passed"}};
  try {
    (void)j.get<ResultHeader>();
    FAIL() << "schema 3 was read";
  } catch (const SchemaError& e) {
    EXPECT_NE(std::string(e.what()).find("schema_version 3 is not one this reader knows"), std::string::npos);
  }
  j["schema_version"] = 1;
  j.erase("gate");
  try {
    (void)j.get<ResultHeader>();
    FAIL() << "a result without its gate was read";
  } catch (const SchemaError& e) {
    EXPECT_STREQ(e.what(), "missing required key 'gate'");
  }
  json c = {{"schema_version", 1}, {"gate", "compile"}, {"status", "passed"}, {"compiled", "yes"}};
  try {
    (void)c.get<CompileResult>();
    FAIL() << "compiled as a string was read";
  } catch (const SchemaError& e) {
    EXPECT_STREQ(e.what(), "key 'compiled' has the wrong type (string)");
  }
}

TEST(ResultSchema, AgentResultRoundTripsAndNeedsItsStatus) {
  AgentResult a;
  a.header.gate = "agent";
  a.header.status = Status::Passed;
  a.header.task = "hip2hip/gelu_f16";
  a.agent = "replay";
  a.agent_status = "timed_out";
  a.seconds = 3600.2;
  a.timed_out = true;
  a.signal = 15;
  a.ignored_changes = {"added notes.txt"};
  expect_round_trip(a);
  json j = a;
  EXPECT_EQ(j["status"], "passed");
  EXPECT_EQ(j["agent_status"], "timed_out");
  EXPECT_FALSE(j.contains("exit_code"));
  auto b = j.get<AgentResult>();
  EXPECT_EQ(b.agent_status, "timed_out");
  EXPECT_EQ(b.signal, 15);
  EXPECT_EQ(b.ignored_changes, a.ignored_changes);
  j.erase("agent_status");
  EXPECT_THROW(j.get<AgentResult>(), SchemaError);
}

namespace {
// The message a reader of T refuses `j` with; empty when it reads it.
template <class T>
std::string refusal(const json& j) {
  try {
    (void)j.get<T>();
  } catch (const SchemaError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ResultSchema, InlineSpeedupsKeepTheirOwnRequiredKeys) {
  // A timed configuration must hold its speedup and verdict; the report's aggregate only its verdict.
  PerfConfig pc;
  pc.label = "seen[0]";
  pc.speedup = {2.0, 1.9, 2.1, Verdict::Faster};
  json c = pc;
  c.erase(key::speedup);
  c.erase(key::verdict);
  EXPECT_EQ(refusal<PerfConfig>(c), "missing required key 'speedup'");
  PerfResult p;
  p.header.gate = "perf";
  p.header.status = Status::Passed;
  p.report = PerfReport{};
  p.report->method.budget_s = 15;
  p.report->method.delta = 0.01;
  json r = p;
  r.erase(key::speedup);
  EXPECT_TRUE(std::isnan(r.get<PerfResult>().report->speedup.speedup));
  r.erase(key::verdict);
  EXPECT_EQ(refusal<PerfResult>(r), "missing required key 'verdict'");
  // An untimed configuration holds only its label, parameters and why.
  PerfConfig untimed;
  untimed.label = "seen[1]";
  untimed.error = "not timed: no rounds";
  EXPECT_FALSE(json(untimed).contains(key::speedup));
  EXPECT_EQ(json(untimed).get<PerfConfig>().error, "not timed: no rounds");
}
