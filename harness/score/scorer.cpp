#include "scorer.h"

#include <ctime>
#include <map>

#include "ctest_xml.h"
#include "metrics.h"
#include "run_context.h"
#include "run_time.h"
#include "score_model.h"
#include "shards.h"

using json = nlohmann::json;

namespace arena::score {

namespace {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace

json metric_definitions() {
  return {
      {"tasks", "every task with at least one gate test in the Test.xml files; failed, crashed, timed-out, not-run "
                "and unjudged tasks stay in every denominator"},
      {"compile_rate", "tasks whose compile gate passed / tasks"},
      {"correct_seen_rate", "tasks whose correct_seen gate passed / tasks"},
      {"correct_unseen_rate", "tasks whose correct_unseen gate passed / tasks"},
      {"correct_rate", "correct tasks / tasks; correct = correct_seen and correct_unseen passed and the perf gate "
                       "gave a speedup that counts (it passed, or failed only on a confirmed slowdown)"},
      {"p_unseen_given_seen", "tasks correct on seen and unseen / tasks correct on seen (null when none is correct on "
                              "seen)"},
      {"generalization_gap", "correct_seen_rate - correct_unseen_rate"},
      {"geomean_speedup_correct", "geometric mean of the speedup over correct tasks only (null when none)"},
      {"geomean_speedup_all", "geometric mean over judged tasks, a task that is not correct counting as speedup 1.0 "
                              "(null when none is judged)"},
      {"fast_p", "share of all tasks that are correct (seen and unseen) with speedup > p; for p = 1.0 the perf "
                 "verdict must also be FASTER (95 % interval above 1 + delta)"},
      {"aka_score_mean", "mean over judged tasks of the AgentKernelArena points: 0 not compiled, 20 compiled but not "
                         "correct, 120 + 100 x speedup correct (a task that was not judged has no points; a task that "
                         "did not compile is judged, with or without a GPU; null when no task is judged)"},
      {"gpu_judged", "tasks with a correctness or perf gate that ran; when none did (no GPU), only compilation was "
                     "judged and the rates and speedups that need a GPU are null"},
      {"candidate_fallback", "per task: the candidate folder had no file for it, so its baseline was judged "
                             "(ARENA_CANDIDATE_FALLBACK=baseline)"},
      {"unjudged", "tasks whose outcome a skipped (no GPU) or absent gate left open: not failed, but not correct "
                   "either, so they count as not correct in the rates above; they have no points and are left out "
                   "of the mean points and the geometric means"},
      {"skipped_gates", "gates that exited 77 (skipped: no GPU)"},
      {"fraction_of_peak", "per task: the lowest candidate fraction of the device's peak (bandwidth, or fp32 FLOP/s "
                           "where the task is compute-bound) over the perf configurations"},
  };
}

namespace {

// Every Test.xml file's gate tests, merged over shards, each with its result JSON attached.
std::map<std::string, GateResult> merged_gates(const std::vector<TestXml>& files,
                                               const std::vector<std::string>& xml_paths,
                                               const std::vector<std::string>& result_dirs, MergeReport& merge) {
  std::map<std::string, GateResult> gates = merge_gate_tests(files, &merge);
  if (gates.empty()) {
    std::string list;
    for (const auto& p : xml_paths) list += (list.empty() ? "" : ", ") + p;
    throw InputError(list + ": no <suite>/<task>/<gate> tests (compile, correct_seen, correct_unseen, perf, agent) "
                            "in these Test.xml files");
  }
  for (auto& [name, g] : gates) attach_result_json(g, name, result_dirs);
  return gates;
}

// One score per task, its gates grouped by task in name order.
std::vector<TaskScore> score_tasks(const std::map<std::string, GateResult>& gates) {
  std::map<std::string, std::map<std::string, const GateResult*>> by_task;
  std::map<std::string, std::pair<std::string, std::string>> names;
  for (const auto& [name, g] : gates) {
    std::string suite, task, gate;
    split_gate_test_name(name, &suite, &task, &gate);
    by_task[suite + "/" + task][gate] = &g;
    names[suite + "/" + task] = {suite, task};
  }
  std::vector<TaskScore> tasks;
  for (const auto& [id, tg] : by_task) tasks.push_back(score_task(names[id].first, names[id].second, tg));
  return tasks;
}

// What each Test.xml file was: where and when it ran, and how many of its tests are gates.
json inputs_json(const std::vector<TestXml>& files, const std::vector<std::string>& result_dirs) {
  json inputs = json::array();
  for (const auto& f : files) {
    int gate_tests = 0;
    for (const auto& r : f.tests) {
      std::string s, t, g;
      gate_tests += split_gate_test_name(r.name, &s, &t, &g);
    }
    inputs.push_back({{"file", f.path},
                      {"site", f.site},
                      {"build_name", f.build_name},
                      {"build_stamp", f.build_stamp},
                      {"start_test_time", f.start_time},
                      {"end_test_time", f.end_time},
                      {"wall_s", wall_seconds(f)},
                      {"tests", f.tests.size()},
                      {"gate_tests", gate_tests},
                      {"fuzz_seeds", fuzz_seeds(f, result_dirs)}});
  }
  return inputs;
}

// Warnings about the inputs themselves: mixed seeds, result files not used, conflicting
// outcomes, perf gates measured on more than one device.
void add_input_warnings(const std::string& mixed_seeds, const std::vector<TaskScore>& tasks,
                        const MergeReport& merge, json& warnings) {
  if (!mixed_seeds.empty())
    warnings.push_back("the Test.xml files used different fuzz seeds (" + mixed_seeds +
                       "): unseen configurations differ between tasks (--allow-mixed-seeds)");
  int missing_results = 0;
  for (const auto& t : tasks)
    for (const auto& [name, g] : t.gates) missing_results += !g.result_problem.empty();
  if (missing_results)
    warnings.push_back(std::to_string(missing_results) +
                       " gate result file(s) missing or not used: the Test.xml outcome counts, but those gates give no "
                       "numbers (see each task's notes)");
  if (!merge.conflicts.empty())
    warnings.push_back(std::to_string(merge.conflicts.size()) +
                       " test(s) with conflicting outcomes across Test.xml files: counted as failed");
  std::map<std::string, int> devices;  // device the perf gate measured on -> tasks
  for (const auto& t : tasks)
    if (!t.device.empty()) devices[t.device]++;
  if (devices.size() > 1) {
    std::string list;
    for (const auto& [name, n] : devices)
      list += (list.empty() ? "" : ", ") + name + ": " + std::to_string(n) + " task" + (n == 1 ? "" : "s");
    warnings.push_back("perf gates measured on " + std::to_string(devices.size()) + " different devices (" + list +
                       "): each speedup is over the baseline on the same device, but the totals mix devices");
  }
}

// The notice when no GPU gate ran (only compilation was judged), else a warning on unjudged tasks.
std::string no_gpu_notice(const Metrics& overall, const std::map<std::string, int>& skip_reasons, json& warnings) {
  std::string notice;
  if (overall.gpu_judged == 0 && overall.skipped_gates > 0) {
    const bool no_gpu = skip_reasons.size() == 1 && skip_reasons.begin()->first.find("GPU") != std::string::npos;
    notice = std::string(no_gpu ? "No GPU found" : "No GPU gate ran") + ": only compilation was judged (" +
             std::to_string(overall.compiled) + " of " + std::to_string(overall.tasks) +
             " task(s) compiled). Correctness and speedups need a GPU, so none are shown; " +
             (overall.judged ? std::to_string(overall.judged) + " task(s) that did not compile are judged (0 points), "
                               "the others are not judged."
                             : std::string("no task is judged."));
    if (skip_reasons.size() == 1) notice += " The GPU gates said: " + skip_reasons.begin()->first;
  } else if (overall.unjudged) {
    warnings.push_back(std::to_string(overall.unjudged) + " of " + std::to_string(overall.tasks) +
                       " task(s) could not be judged (gates skipped or absent): they count as not correct, and have "
                       "no points");
  }
  return notice;
}

// One reason for every skipped GPU gate (no GPU, say) is said once, not per task: each task's
// note keeps which of its gates skipped.
void say_skip_reason_once(const std::map<std::string, int>& skip_reasons, const std::string& notice, json& warnings,
                          json& task_list) {
  if (skip_reasons.size() != 1) return;
  if (notice.empty())
    warnings.push_back(std::to_string(skip_reasons.begin()->second) + " task(s) had GPU gates skipped: " +
                       skip_reasons.begin()->first);
  const std::string said = "skipped (" + skip_reasons.begin()->first + ")";
  for (auto& j : task_list) {
    for (auto& n : j["notes"])
      if (n.get<std::string>().size() > said.size() &&
          n.get<std::string>().compare(n.get<std::string>().size() - said.size(), said.size(), said) == 0)
        n = n.get<std::string>().substr(0, n.get<std::string>().size() - said.size()) + "skipped";
  }
}

}  // namespace

json score_test_xml_files(const std::vector<std::string>& xml_paths, const std::vector<std::string>& result_dirs,
                          const std::string& run_name, bool allow_mixed_seeds) {
  std::vector<TestXml> files;
  files.reserve(xml_paths.size());
  for (const auto& p : xml_paths) files.push_back(read_test_xml(p));
  // Shards of one run were configured alike; a different seed means different unseen configurations.
  const std::string mixed_seeds = describe_mixed_fuzz_seeds(files, result_dirs);
  if (!mixed_seeds.empty() && !allow_mixed_seeds)
    throw InputError("these Test.xml files are not shards of one run: their correctness gates used different fuzz "
                     "seeds (" + mixed_seeds + "), so their unseen configurations differ. Configure every shard "
                     "with the same -DARENA_FUZZ_SEED, or pass --allow-mixed-seeds to score them together anyway");

  MergeReport merge;
  const std::map<std::string, GateResult> gates = merged_gates(files, xml_paths, result_dirs, merge);
  const std::vector<TaskScore> tasks = score_tasks(gates);

  std::map<std::string, std::vector<const TaskScore*>> per_suite;
  std::vector<const TaskScore*> all;
  json task_list = json::array();
  for (const auto& t : tasks) {
    per_suite[t.suite].push_back(&t);
    all.push_back(&t);
    task_list.push_back(task_to_json(t));
  }
  json suites = json::object();
  for (const auto& [suite, ts] : per_suite) suites[suite] = metrics_to_json(compute_metrics(ts));

  json warnings = json::array();
  add_input_warnings(mixed_seeds, tasks, merge, warnings);
  Metrics overall = compute_metrics(all);
  std::map<std::string, int> skip_reasons;
  for (const auto& t : tasks)
    if (!t.skip_reason.empty()) skip_reasons[t.skip_reason]++;
  const std::string notice = no_gpu_notice(overall, skip_reasons, warnings);
  say_skip_reason_once(skip_reasons, notice, warnings, task_list);
  int fallbacks = 0;
  for (const auto& t : tasks) fallbacks += t.candidate_fallback;
  if (fallbacks)
    warnings.push_back(std::to_string(fallbacks) + " task(s) had no candidate file and were judged on their baselines "
                       "(ARENA_CANDIDATE_FALLBACK=baseline): marked \"baseline (fallback)\"");

  return {{"schema", 1},
          {"tool", "arena-score"},
          {"run", run_name},
          {"created", utc_now()},
          {"inputs", inputs_json(files, result_dirs)},
          {"ignored_tests", merge.ignored_tests},
          {"definitions", metric_definitions()},
          {"overall", metrics_to_json(overall)},
          {"suites", suites},
          {"tasks", task_list},
          {"time", run_time_summary(gates)},
          {"duplicates", merge.duplicates},
          {"conflicts", merge.conflicts},
          {"warnings", warnings},
          {"notice", notice.empty() ? json(nullptr) : json(notice)},
          {"context", run_context(gates)}};  // what the board reads beyond the scores (run_context.h)
}

}  // namespace arena::score
