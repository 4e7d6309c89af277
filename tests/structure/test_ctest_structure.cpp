// The generated CTest structure, read back through `ctest --show-only=json-v1`: every task
// of the configured suites has its four gates with the right labels, fixtures, resource
// groups, skip code and timeouts, and each suite's gates run the right runners.
#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz.h"
#include "gate_memory.h"
#include "task_spec.h"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

json show_only() {
  std::string cmd = std::string("cd '") + ARENA_BINARY_DIR + "' && '" + ARENA_CTEST_COMMAND + "' --show-only=json-v1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {};
  std::string text;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
  pclose(p);
  return json::parse(text);
}

struct TestInfo {
  std::set<std::string> labels, fixtures_setup, fixtures_required;
  std::string resource_groups;
  std::vector<std::pair<std::string, int>> requirements;  // (resource type, slots), every group
  bool skip77 = false, run_serial = false;
  double timeout = 0;
  std::vector<std::string> command;
  std::map<std::string, std::string> environment;
};

std::set<std::string> as_set(const json& v) {
  std::set<std::string> s;
  for (const auto& x : v) s.insert(x.get<std::string>());
  return s;
}

std::map<std::string, TestInfo> tests_by_name() {
  std::map<std::string, TestInfo> out;
  json j = show_only();
  for (const auto& t : j["tests"]) {
    TestInfo info;
    for (const auto& p : t.value("properties", json::array())) {
      const std::string name = p["name"];
      if (name == "LABELS") info.labels = as_set(p["value"]);
      if (name == "FIXTURES_SETUP") info.fixtures_setup = as_set(p["value"]);
      if (name == "FIXTURES_REQUIRED") info.fixtures_required = as_set(p["value"]);
      if (name == "RESOURCE_GROUPS") {
        info.resource_groups = p["value"].dump();
        for (const auto& group : p["value"])
          for (const auto& r : group["requirements"]) info.requirements.emplace_back(r[".type"], r["slots"].get<int>());
      }
      if (name == "SKIP_RETURN_CODE") info.skip77 = p["value"].get<int>() == 77;
      if (name == "RUN_SERIAL") info.run_serial = p["value"].get<bool>();
      if (name == "TIMEOUT") info.timeout = p["value"].get<double>();
      if (name == "ENVIRONMENT")
        for (const auto& e : p["value"]) {
          const std::string kv = e.get<std::string>();
          info.environment[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
        }
    }
    for (const auto& a : t.value("command", json::array())) info.command.push_back(a.get<std::string>());
    out[t["name"].get<std::string>()] = info;
  }
  return out;
}

// The suites configure generated gates for (ARENA_SUITES, comma-separated here; empty: all).
bool suite_configured(const std::string& suite) {
  const std::string list = ARENA_SUITES;
  if (list.empty()) return true;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    if (list.compare(start, end - start, suite) == 0) return true;
    start = end + 1;
  }
  return false;
}

// The tasks configure generated gates for: every task.json under ARENA_TASKS_DIR whose suite
// is configured.
std::vector<arena::TaskSpec> shipped_tasks() {
  std::vector<arena::TaskSpec> v;
  for (const auto& suite : fs::directory_iterator(fs::path(ARENA_TASKS_DIR)))
    if (suite.is_directory() && suite_configured(suite.path().filename().string()))
      for (const auto& task : fs::directory_iterator(suite.path()))
        if (fs::exists(task.path() / "task.json")) v.push_back(arena::load_task(task.path() / "task.json"));
  return v;
}

bool is_triton(const arena::TaskSpec& t) {
  return t.candidate.size() > 3 && t.candidate.compare(t.candidate.size() - 3, 3, ".py") == 0;
}

}  // namespace

TEST(CTestStructure, EveryTaskHasItsGateFamily) {
  auto tests = tests_by_name();
  auto tasks = shipped_tasks();
  ASSERT_FALSE(tasks.empty());
  for (const auto& t : tasks) {
    const std::string id = t.suite + "/" + t.name;
    for (const char* gate : {"compile", "correct_seen", "correct_unseen", "perf"}) {
      auto it = tests.find(id + "/" + gate);
      ASSERT_NE(it, tests.end()) << id << "/" << gate << " is missing";
      const TestInfo& info = it->second;
      EXPECT_TRUE(info.labels.count(t.suite)) << id << "/" << gate;
      EXPECT_TRUE(info.labels.count(t.category)) << id << "/" << gate;
      EXPECT_TRUE(info.labels.count(gate)) << id << "/" << gate;
      EXPECT_GT(info.timeout, 0) << id << "/" << gate << " needs an explicit timeout";
    }
  }
}

TEST(CTestStructure, FixturesChainCompileThenCorrectnessThenPerf) {
  auto tests = tests_by_name();
  for (const auto& t : shipped_tasks()) {
    const std::string id = t.suite + "/" + t.name;
    EXPECT_EQ(tests[id + "/compile"].fixtures_setup, std::set<std::string>{id + "/compiled"});
    EXPECT_TRUE(tests[id + "/compile"].fixtures_required.empty());
    for (const char* gate : {"correct_seen", "correct_unseen"}) {
      EXPECT_EQ(tests[id + "/" + gate].fixtures_required, std::set<std::string>{id + "/compiled"});
      EXPECT_EQ(tests[id + "/" + gate].fixtures_setup, std::set<std::string>{id + "/correct"});
    }
    EXPECT_EQ(tests[id + "/perf"].fixtures_required, (std::set<std::string>{id + "/compiled", id + "/correct"}));
  }
}

TEST(CTestStructure, GpuGatesSkipWithoutADeviceAndClaimAGpu) {
  auto tests = tests_by_name();
  for (const auto& t : shipped_tasks()) {
    const std::string id = t.suite + "/" + t.name;
    EXPECT_FALSE(tests[id + "/compile"].labels.count("gpu")) << "compile must run without a GPU";
    EXPECT_TRUE(tests[id + "/compile"].resource_groups.empty());
    for (const char* gate : {"correct_seen", "correct_unseen", "perf"}) {
      const TestInfo& info = tests[id + "/" + gate];
      EXPECT_TRUE(info.labels.count("gpu")) << id << "/" << gate;
      EXPECT_TRUE(info.skip77) << id << "/" << gate;
      EXPECT_NE(info.resource_groups.find("gpus"), std::string::npos) << id << "/" << gate;
    }
  }
}

// Scheduling (docs/DESIGN.md, "Scheduling"): every GPU offers ARENA_GPU_UNITS units of its
// memory; a correctness gate asks for the units its estimated peak needs (gate_memory.h), at
// least ARENA_GPU_SHARE so that no more than ARENA_PERF_SLOTS share a GPU, at most a GPU; a perf
// gate holds one GPU by its resource group, not the machine (no RUN_SERIAL unless
// ARENA_PERF_SCHEDULE=serial): all its units (exclusive), or its one perf slot beside the
// correctness gates (shared).
using Requirements = std::vector<std::pair<std::string, int>>;

Requirements timed_test_requirements() {
  const std::string schedule = ARENA_PERF_SCHEDULE;
  if (schedule == "shared") return {{"perf_gpus", 1}};
  return {{"gpus", ARENA_GPU_UNITS}};
}

Requirements correctness_requirements(const arena::TaskSpec& t, const std::vector<arena::Config>& configs) {
  const int64_t unit = int64_t{ARENA_GPU_MEMORY_UNIT_GB} << 30;
  const int64_t need = (arena::correctness_gate_device_bytes(t, configs) + unit - 1) / unit;
  return {{"gpus", static_cast<int>(std::min<int64_t>(std::max<int64_t>(need, ARENA_GPU_SHARE), ARENA_GPU_UNITS))}};
}

TEST(CTestStructure, PerfGatesHoldOneGpuByResourceGroupsNotTheMachine) {
  auto tests = tests_by_name();
  const bool serial = std::string(ARENA_PERF_SCHEDULE) == "serial";
  ASSERT_GE(ARENA_GPU_SHARE, 1);
  ASSERT_GE(ARENA_GPU_UNITS, ARENA_GPU_SHARE);
  for (const auto& t : shipped_tasks()) {
    const std::string id = t.suite + "/" + t.name;
    std::vector<arena::Config> unseen = t.unseen;
    if (t.fuzz.count > 0) {
      auto fuzz = arena::generate_fuzz_configs(t, std::stoull(ARENA_FUZZ_SEED));
      unseen.insert(unseen.end(), fuzz.begin(), fuzz.end());
    }
    EXPECT_EQ(tests[id + "/correct_seen"].requirements, correctness_requirements(t, t.seen)) << id << "/correct_seen";
    EXPECT_EQ(tests[id + "/correct_unseen"].requirements, correctness_requirements(t, unseen)) << id << "/correct_unseen";
    for (const char* gate : {"correct_seen", "correct_unseen"}) EXPECT_FALSE(tests[id + "/" + gate].run_serial) << id << "/" << gate;
    const TestInfo& perf = tests[id + "/perf"];
    EXPECT_EQ(perf.requirements, timed_test_requirements()) << id << "/perf: " << perf.resource_groups;
    EXPECT_EQ(perf.run_serial, serial) << id << "/perf (ARENA_PERF_SCHEDULE=" ARENA_PERF_SCHEDULE ")";
    if (ARENA_SELFTEST && tests.count("selftest/" + id + "/solution_faster")) {
      const TestInfo& timed = tests["selftest/" + id + "/solution_faster"];
      EXPECT_EQ(timed.requirements, timed_test_requirements()) << "selftest/" << id << "/solution_faster";
      EXPECT_EQ(timed.run_serial, serial) << "selftest/" << id << "/solution_faster";
    }
  }
}

// Tests that run a candidate through a task's gates one after another (label candidates, and
// exploits on a GPU) hold a whole GPU like an exclusive perf gate, not the machine: with several
// GPUs they run side by side (RUN_SERIAL only under ARENA_PERF_SCHEDULE=serial).
TEST(CTestStructure, CandidateAndExploitTestsHoldAWholeGpuNotTheMachine) {
  const bool serial = std::string(ARENA_PERF_SCHEDULE) == "serial";
  const Requirements whole{{"gpus", ARENA_GPU_UNITS}};
  int seen = 0;
  for (const auto& [name, info] : tests_by_name()) {
    const bool candidate = info.labels.count("candidates") > 0;
    const bool gpu_exploit = info.labels.count("exploits") > 0 && info.labels.count("gpu") > 0;
    if (!candidate && !gpu_exploit) continue;
    if (!info.requirements.empty() && info.requirements != whole) continue;  // a one-slot exploit
    ++seen;
    if (candidate) EXPECT_EQ(info.requirements, whole) << name << ": " << info.resource_groups;
    EXPECT_EQ(info.run_serial, serial) << name << " (ARENA_PERF_SCHEDULE=" ARENA_PERF_SCHEDULE ")";
  }
  EXPECT_GT(seen, 0) << "no candidate or exploit test holds a whole GPU";
}

// Host threads (docs/DESIGN.md, "Scheduling"): every correctness gate is told its share of the
// host's cores, every timed gate a GPU's share.
TEST(CTestStructure, GpuGatesAreToldTheirShareOfTheHostThreads) {
  auto tests = tests_by_name();
  ASSERT_GE(ARENA_GATE_HOST_THREADS, 1);
  ASSERT_GE(ARENA_TIMED_HOST_THREADS, ARENA_GATE_HOST_THREADS);
  const std::string gate = std::to_string(ARENA_GATE_HOST_THREADS), timed = std::to_string(ARENA_TIMED_HOST_THREADS);
  auto expect = [&](const std::string& name, const std::string& want) {
    auto it = tests.find(name);
    if (it == tests.end()) return;
    auto env = it->second.environment.find("ARENA_HOST_THREADS");
    ASSERT_NE(env, it->second.environment.end()) << name << " has no ARENA_HOST_THREADS in its ENVIRONMENT";
    EXPECT_EQ(env->second, want) << name;
  };
  for (const auto& t : shipped_tasks()) {
    const std::string id = t.suite + "/" + t.name;
    ASSERT_TRUE(tests.count(id + "/correct_seen")) << id;
    expect(id + "/correct_seen", gate);
    expect(id + "/correct_unseen", gate);
    expect(id + "/perf", timed);
    expect("selftest/" + id + "/baseline_correct", gate);
    expect("selftest/" + id + "/eager_correct", gate);  // torch2hip's first check
    expect("selftest/" + id + "/solution_correct", gate);
    expect("selftest/" + id + "/solution_faster", timed);
  }
}

// The resource spec configure wrote has what those groups ask for: every GPU with
// ARENA_GPU_UNITS units, and under the shared schedule one perf slot per GPU, same ids.
TEST(CTestStructure, ResourceSpecGivesEachGpuItsUnits) {
  std::ifstream is(std::string(ARENA_BINARY_DIR) + "/arena_resources.json");
  ASSERT_TRUE(is) << "no arena_resources.json in " << ARENA_BINARY_DIR;
  json spec = json::parse(is);
  const json& local = spec["local"].at(0);
  ASSERT_TRUE(local.contains("gpus"));
  std::vector<std::string> ids;
  for (const auto& g : local["gpus"]) {
    EXPECT_EQ(g["slots"].get<int>(), ARENA_GPU_UNITS) << g.dump();
    ids.push_back(g["id"]);
  }
  EXPECT_FALSE(ids.empty());
  if (std::string(ARENA_PERF_SCHEDULE) == "shared") {
    ASSERT_TRUE(local.contains("perf_gpus"));
    std::vector<std::string> perf_ids;
    for (const auto& g : local["perf_gpus"]) {
      EXPECT_EQ(g["slots"].get<int>(), 1) << g.dump();
      perf_ids.push_back(g["id"]);
    }
    EXPECT_EQ(perf_ids, ids);
  } else {
    EXPECT_FALSE(local.contains("perf_gpus")) << "perf_gpus is only for ARENA_PERF_SCHEDULE=shared";
  }
}

TEST(CTestStructure, EveryTaskHasItsValidationTests) {
  if (!ARENA_SELFTEST) GTEST_SKIP() << "configured with ARENA_SELFTEST=OFF";
  auto tests = tests_by_name();
  for (const auto& t : shipped_tasks()) {
    const std::string prefix = "selftest/" + t.suite + "/" + t.name + "/";
    // torch2hip: eager PyTorch must meet the tolerances (there is no baseline kernel).
    const char* first = t.torch.present ? "eager_correct" : "baseline_correct";
    for (const char* name : {first, "compile_solution", "solution_correct", "solution_faster"}) {
      auto it = tests.find(prefix + name);
      ASSERT_NE(it, tests.end()) << prefix << name << " is missing";
      EXPECT_TRUE(it->second.labels.count("selftest")) << prefix << name;
      EXPECT_FALSE(it->second.labels.count(t.suite)) << prefix << name << " would run with the suite";
    }
    EXPECT_EQ(tests[prefix + "solution_faster"].fixtures_required,
              (std::set<std::string>{prefix + "solution", prefix + "solution_correct"}));
    EXPECT_TRUE(tests[prefix + "solution_correct"].skip77);
  }
}

bool has_arg(const std::vector<std::string>& cmd, const std::string& arg);

// The degenerate-task filter (cmake/ArenaTaskFilter.cmake): every task with its oracle and
// solution gets selftest/<id>/filter, which runs on the CPU (no gpu label, no GPU resource: it
// runs in CI), and selftest/<id>/launch_bound, which reads solution_faster's timings and so
// requires its fixture.
TEST(CTestStructure, EveryTaskHasItsFilterTests) {
  if (!ARENA_SELFTEST) GTEST_SKIP() << "configured with ARENA_SELFTEST=OFF";
  auto tests = tests_by_name();
  for (const auto& t : shipped_tasks()) {
    const std::string id = t.suite + "/" + t.name;
    const std::string prefix = "selftest/" + id + "/";
    if (!fs::exists(t.dir / "solution.hip") && !fs::exists(t.dir / "solution.py")) continue;
    auto it = tests.find(prefix + "filter");
    ASSERT_NE(it, tests.end()) << prefix << "filter is missing";
    const TestInfo& filter = it->second;
    EXPECT_TRUE(filter.labels.count("selftest") && filter.labels.count("filter")) << prefix << "filter";
    EXPECT_FALSE(filter.labels.count(t.suite)) << prefix << "filter would run with the suite";
    EXPECT_FALSE(filter.labels.count("gpu")) << prefix << "filter must run without a GPU";
    EXPECT_TRUE(filter.resource_groups.empty()) << prefix << "filter";
    EXPECT_TRUE(filter.skip77) << prefix << "filter";
    const std::string dir = fs::absolute(t.dir).lexically_normal().string();
    if (t.torch.present) {
      ASSERT_GE(filter.command.size(), 2u);
      EXPECT_NE(filter.command[1].find("arena_task_filter.py"), std::string::npos) << prefix << "filter";
      EXPECT_TRUE(has_arg(filter.command, "py:torch:oracle:" + dir)) << prefix << "filter";
    } else {
      const std::string kdir = (fs::path(ARENA_BINARY_DIR) / "arena" / "kernels" / id).lexically_normal().string();
      EXPECT_TRUE(has_arg(filter.command, kdir + "/reference.so")) << prefix << "filter: the oracle is reference.cpp";
    }
    auto lb = tests.find(prefix + "launch_bound");
    ASSERT_NE(lb, tests.end()) << prefix << "launch_bound is missing";
    EXPECT_TRUE(lb->second.labels.count("selftest") && lb->second.labels.count("launch_bound")) << prefix;
    EXPECT_EQ(lb->second.fixtures_required, std::set<std::string>{prefix + "timed"});
    EXPECT_TRUE(tests[prefix + "solution_faster"].fixtures_setup.count(prefix + "timed")) << prefix << "solution_faster";
    EXPECT_TRUE(lb->second.skip77) << prefix << "launch_bound";
  }
}

bool has_arg(const std::vector<std::string>& cmd, const std::string& arg) {
  for (const auto& a : cmd)
    if (a == arg) return true;
  return false;
}

std::string arg_after(const std::vector<std::string>& cmd, const std::string& option) {
  for (size_t i = 0; i + 1 < cmd.size(); ++i)
    if (cmd[i] == option) return cmd[i + 1];
  return "";
}

// Every judge starts its workers from the build (arena-worker) and keeps confined workers away
// from the source tree, the build tree and the tasks.
TEST(CTestStructure, GpuGatesStartTheirWorkersConfined) {
  auto tests = tests_by_name();
  for (const auto& t : shipped_tasks())
    for (const char* gate : {"correct_seen", "correct_unseen", "perf"}) {
      const std::string id = t.suite + "/" + t.name + "/" + gate;
      const auto& cmd = tests[id].command;
      EXPECT_EQ(fs::path(arg_after(cmd, "--worker")).filename(), "arena-worker") << id;
      std::vector<std::string> protect;
      std::stringstream ss(arg_after(cmd, "--protect"));
      for (std::string p; std::getline(ss, p, ':');) protect.push_back(p);
      for (const char* dir : {ARENA_SOURCE_DIR, ARENA_BINARY_DIR})
        EXPECT_NE(std::find(protect.begin(), protect.end(), dir), protect.end()) << id << ": " << dir << " not protected";
      // The task's own folder tree is protected by the judge itself (gate_workers.cpp).
    }
}

// The correctness gates keep the oracle's outputs in a folder of the build tree, per task: a
// folder the workers may not read (it is under a --protect folder) and an agent's sandbox
// does not show; the perf gate takes no such option.
TEST(CTestStructure, CorrectnessGatesKeepTheOracleInTheBuildTree) {
  if (!ARENA_ORACLE_CACHE) GTEST_SKIP() << "configured with ARENA_ORACLE_CACHE=OFF";
  auto tests = tests_by_name();
  for (const auto& t : shipped_tasks()) {
    const std::string id = t.suite + "/" + t.name;
    for (const char* gate : {"correct_seen", "correct_unseen"}) {
      const auto& cmd = tests[id + "/" + gate].command;
      EXPECT_EQ(arg_after(cmd, "--oracle-cache"), std::string(ARENA_BINARY_DIR) + "/arena/oracle_cache") << id << "/" << gate;
      EXPECT_FALSE(arg_after(cmd, "--oracle-cache-budget-mb").empty()) << id << "/" << gate;
    }
    EXPECT_FALSE(has_arg(tests[id + "/perf"].command, "--oracle-cache")) << id << "/perf";
  }
}

// torch2hip gates run the same runners through the Python host, with the reference model as
// the oracle (float64) and eager PyTorch as the perf reference, torch.compile beside it.
TEST(CTestStructure, TorchTasksJudgeAgainstTheirReferenceModel) {
  auto tests = tests_by_name();
  int torch_tasks = 0;
  for (const auto& t : shipped_tasks()) {
    if (!t.torch.present) continue;
    ++torch_tasks;
    const std::string id = t.suite + "/" + t.name;
    const std::string dir = fs::absolute(t.dir).lexically_normal().string();
    for (const char* gate : {"correct_seen", "correct_unseen", "perf"}) {
      const auto& cmd = tests[id + "/" + gate].command;
      ASSERT_GE(cmd.size(), 3u) << id << "/" << gate;
      EXPECT_NE(cmd[1].find("arena_host.py"), std::string::npos) << id << "/" << gate << ": " << cmd[1];
      EXPECT_TRUE(has_arg(cmd, "py:torch:oracle:" + dir)) << id << "/" << gate;
      EXPECT_TRUE(has_arg(cmd, "py:torch:eager:" + dir)) << id << "/" << gate;
    }
    const auto& perf = tests[id + "/perf"].command;
    EXPECT_TRUE(has_arg(perf, "torch eager")) << id << ": the speedup must say it is over eager PyTorch";
    if (t.torch.compile)
      EXPECT_TRUE(has_arg(perf, "torch.compile=py:torch:compile:" + dir)) << id << ": torch.compile not timed";
    // The agent's start: the ABI skeleton configure generated from the spec.
    EXPECT_TRUE(fs::exists(fs::path(ARENA_BINARY_DIR) / "arena" / "kernels" / id / "skeleton.hip")) << id;
  }
  if (suite_configured("torch2hip") && fs::exists(fs::path(ARENA_TASKS_DIR) / "torch2hip")) EXPECT_GT(torch_tasks, 0);
}


// triton2triton gates are the plain runners (the judge loads no Python kernel); the modules
// (py:triton:kernel:<file>) run in Python workers started with the gate's --python and
// --py-host; the oracle is the task's reference.cpp built with the project, and the compile
// gate is the module check (arena_check_triton.py), which copies the candidate next to the
// task's other build products.
TEST(CTestStructure, TritonTasksRunTheirModulesInPythonWorkers) {
  auto tests = tests_by_name();
  int triton_tasks = 0;
  for (const auto& t : shipped_tasks()) {
    if (!is_triton(t)) continue;
    ++triton_tasks;
    const std::string id = t.suite + "/" + t.name;
    const std::string dir = fs::absolute(t.dir).lexically_normal().string();
    const std::string kdir = (fs::path(ARENA_BINARY_DIR) / "arena" / "kernels" / id).lexically_normal().string();
    EXPECT_EQ(t.candidate, "kernel.py") << id;
    EXPECT_FALSE(t.torch.present) << id << ": a Triton task has no reference model";

    const auto& compile = tests[id + "/compile"].command;
    ASSERT_GE(compile.size(), 4u) << id << "/compile";
    EXPECT_NE(compile[1].find("arena_check_triton.py"), std::string::npos) << id << "/compile: " << compile[1];
    EXPECT_EQ(compile[3], kdir + "/candidate.py") << id << "/compile";
    EXPECT_EQ(fs::path(compile[2]).extension(), ".py") << id << "/compile: " << compile[2];

    for (const char* gate : {"correct_seen", "correct_unseen", "perf"}) {
      const auto& cmd = tests[id + "/" + gate].command;
      ASSERT_GE(cmd.size(), 3u) << id << "/" << gate;
      const std::string runner = std::string(gate) == "perf" ? "arena-perf" : "arena-correct";
      EXPECT_EQ(fs::path(cmd[0]).filename(), runner) << id << "/" << gate << ": " << cmd[0];
      EXPECT_TRUE(has_arg(cmd, "--python") && has_arg(cmd, "--py-host")) << id << "/" << gate;
      EXPECT_TRUE(has_arg(cmd, "py:triton:kernel:" + kdir + "/candidate.py")) << id << "/" << gate;
      EXPECT_TRUE(has_arg(cmd, "py:triton:kernel:" + dir + "/baseline.py")) << id << "/" << gate;
      EXPECT_TRUE(has_arg(cmd, kdir + "/reference.so")) << id << "/" << gate << ": the oracle is reference.cpp";
      EXPECT_FALSE(has_arg(cmd, "torch eager")) << id << "/" << gate;
    }
    EXPECT_TRUE(fs::exists(fs::path(kdir) / "reference.so")) << id << ": reference.cpp not built";

    if (!ARENA_SELFTEST) continue;
    const std::string prefix = "selftest/" + id + "/";
    const auto& compile_solution = tests[prefix + "compile_solution"].command;
    ASSERT_GE(compile_solution.size(), 4u) << prefix << "compile_solution";
    if (has_arg(compile_solution, "-DGATE=" + id + "/compile")) {
      // The candidate is the solution (ARENA_CANDIDATE=solution): the compile gate checks that
      // very file and compile_solution takes its module (cmake/ArenaReuseCompiled.cmake).
      EXPECT_EQ(compile[2], dir + "/solution.py") << id << "/compile";
      EXPECT_TRUE(has_arg(compile_solution, "-DSOURCE=" + dir + "/solution.py")) << prefix << "compile_solution";
      EXPECT_TRUE(has_arg(compile_solution, "-DFROM=" + kdir + "/candidate.py")) << prefix << "compile_solution";
    } else {
      EXPECT_NE(compile_solution[1].find("arena_check_triton.py"), std::string::npos) << prefix << "compile_solution";
      EXPECT_EQ(compile_solution[2], dir + "/solution.py") << prefix << "compile_solution";
    }
    EXPECT_TRUE(has_arg(tests[prefix + "baseline_correct"].command, "py:triton:kernel:" + dir + "/baseline.py"))
        << prefix << "baseline_correct";
    EXPECT_TRUE(has_arg(tests[prefix + "solution_faster"].command, "py:triton:kernel:" + kdir + "/solution.py"))
        << prefix << "solution_faster";
  }
  if (suite_configured("triton2triton") && fs::exists(fs::path(ARENA_TASKS_DIR) / "triton2triton"))
    EXPECT_GT(triton_tasks, 0);
}
