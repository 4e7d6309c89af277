// The trials' inputs and the oracle's outputs for arena-correct (arena_correct_gate.h): drawn
// and computed on other threads, the oracle's kept in the oracle cache, keyed by everything
// they depend on (docs/DESIGN.md, "Correctness").
#include "arena_correct_gate.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace arena::correct_gate {

using json = nlohmann::json;

namespace {

uint32_t config_stream_id(const Gate& g, size_t index) {
  const uint32_t base = g.set == "seen" ? 0 : g.set == "unseen" ? 1u << 16 : 1u << 17;
  return base + static_cast<uint32_t>(index);
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// Everything the oracle's outputs for (configuration `index`, `trial`) depend on. The
// inputs' digest is part of it, so a change in how inputs are drawn can never reuse outputs.
OracleKey oracle_key(const Gate& g, size_t index, int trial, const HostData& host) {
  OracleKey k = trial_key(g, "arena-correct oracle outputs", index, trial);
  k.add("oracle", g.oracle_id);
  uint64_t inputs = 0;
  for (size_t i = 0; i < g.task.tensors.size(); ++i) {
    const auto& b = host.bytes[i];
    inputs = hash_bytes(b.data(), b.size(), inputs ^ (static_cast<uint64_t>(host.numel[i]) << 8 ^ i));
  }
  k.add("inputs", inputs);
  return k;
}

TrialData prepare_trial(const Gate& g, size_t index, const StreamKey& key, const TrialPlan& plan) {
  std::optional<GatePhases::Timer> slot_wait(std::in_place, g.phases, "wait_for_host_slot_thread_s");
  HostSlots::Held slot(*g.preparing, (static_cast<uint64_t>(index) << 16) + static_cast<uint64_t>(plan.index));
  slot_wait.reset();
  TrialData d;
  const Config& c = g.configs[index];
  {
    GatePhases::Timer t(g.phases, "draw_inputs_thread_s");
    d.host = trial_inputs(g, index, key, plan);
  }
  if (g.reference) {
    d.expected = g.oracle_cache->get(oracle_key(g, index, plan.index, d.host), [&] {
      auto all = run_reference(g.task, c, d.host, *g.reference);
      for (size_t i = 0; i < g.task.tensors.size(); ++i)
        if (!g.task.tensors[i].writes()) all[i] = {};  // only outputs are needed
      return all;
    });
    if (d.expected.size() != g.task.tensors.size())
      throw std::runtime_error("the oracle's outputs have " + std::to_string(d.expected.size()) + " tensors, the task " +
                               std::to_string(g.task.tensors.size()));
  }
  return d;
}

// The oracle's identity for the cache key: the library's bytes, or for a Python oracle
// ("py:<kind>:<mode>:<task folder>") the spec, the task folder's and the Python host's sources.
std::string oracle_identity(const std::string& spec, const std::string& py_host) {
  namespace fs = std::filesystem;
  bool ok = false;
  if (!is_python_spec(spec)) {
    uint64_t h = hash_file(spec, &ok);
    if (!ok) throw std::runtime_error("cannot read the oracle " + spec);
    return "library " + hex64(h);
  }
  std::string id = spec;
  auto add_sources = [&](const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".py") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) id += " " + f.filename().string() + ":" + hex64(hash_file(f));
  };
  add_sources(spec.substr(spec.rfind(':') + 1));
  if (!py_host.empty()) add_sources(fs::path(py_host).parent_path());
  return id;
}

}  // namespace

OracleKey trial_key(const Gate& g, const std::string& entry, size_t index, int trial) {
  const Config& c = g.configs[index];
  const bool generated = index >= g.fixed_configs;
  OracleKey k;
  k.add("entry", entry)
      .add("task", g.task.suite + "/" + g.task.name)
      .add("spec", g.spec_hash)
      .add("set", g.set)
      .add("config", static_cast<uint64_t>(index))
      .add("label", c.label)
      .add("params", c.describe())
      .add("ints", hash_bytes(c.ints.data(), c.ints.size() * sizeof(int64_t)))
      .add("floats", hash_bytes(c.floats.data(), c.floats.size() * sizeof(double)))
      .add("fuzz_seed", generated && g.result.fuzz_seed ? *g.result.fuzz_seed : 0)
      .add("trial", static_cast<uint64_t>(trial));
  return k;
}

void lap(Gate& g, const char* name) {
  const auto now = std::chrono::steady_clock::now();
  g.phases.add(name, std::chrono::duration<double>(now - g.last_lap).count());
  g.last_lap = now;
}

std::vector<std::future<TrialData>> start_trials(const Gate& g, size_t index) {
  std::vector<std::future<TrialData>> out;
  for (int trial = 0; trial < g.trials; ++trial) {
    StreamKey key{hash_name(g.task.suite + "/" + g.task.name), config_stream_id(g, index),
                  static_cast<uint32_t>(trial), 0};
    out.push_back(std::async(std::launch::async, prepare_trial, std::cref(g), index, key, trial_plan(trial)));
  }
  return out;
}

std::vector<std::future<TrialData>> take_prepared(Gate& g, size_t index) {
  auto it = g.prefetched.find(index);
  if (it == g.prefetched.end()) return start_trials(g, index);
  auto out = std::move(it->second);
  g.prefetched.erase(it);
  return out;
}

nlohmann::json oracle_cache_facts(const Gate& g) {
  const OracleCacheStats& s = g.oracle_cache->stats();
  nlohmann::json facts = {{"dir", g.oracle_cache->dir().string()}, {"hits", s.hits.load()},
                          {"computed", s.computed.load()}, {"rejected", s.rejected.load()},
                          {"not_kept", s.not_kept.load()}, {"waited", s.waited.load()},
                          {"lock_timeouts", s.lock_timeouts.load()}};
  if (g.input_cache) {
    const OracleCacheStats& in = g.input_cache->stats();
    facts["inputs"] = {{"hits", in.hits.load()}, {"drawn", in.computed.load()}, {"rejected", in.rejected.load()},
                       {"not_kept", in.not_kept.load()}};
  }
  return facts;
}

void print_oracle_cache(const Gate& g) {
  const OracleCacheStats& s = g.oracle_cache->stats();
  std::printf("oracle cache: %d hit(s), %d computed, %d rejected, %d not kept%s%s; %d waited for another gate\n",
              s.hits.load(), s.computed.load(), s.rejected.load(), s.not_kept.load(),
              g.oracle_cache->enabled() ? " in " : " (no cache folder)", g.oracle_cache->dir().string().c_str(),
              s.waited.load());
  if (g.input_cache) {
    const OracleCacheStats& in = g.input_cache->stats();
    std::printf("input cache: %d hit(s), %d drawn, %d rejected, %d not kept\n", in.hits.load(), in.computed.load(),
                in.rejected.load(), in.not_kept.load());
  }
}

const std::vector<std::string> kPhaseOrder = {
    "process_start_s", "judge_setup_s", "start_workers_s", "configs_s", "wait_for_trials_s", "wait_for_gpu_s",
    "record_launch_s", "baseline_oracle_s", "buffers_s", "candidate_launch_s", "outputs_to_host_s", "compare_s", "finish_s", "total_s",
    "wait_for_host_slot_thread_s", "draw_inputs_thread_s", "oracle_computed_thread_s",
    "oracle_cache_read_thread_s", "oracle_cache_write_thread_s", "oracle_wait_for_other_gate_thread_s"};

void take_oracle_phases(Gate& g) {
  if (!g.oracle_cache) return;
  const OracleCacheStats& s = g.oracle_cache->stats();
  g.phases.add("oracle_computed_thread_s", s.compute_ns.load() * 1e-9);
  g.phases.add("oracle_cache_read_thread_s", s.read_ns.load() * 1e-9);
  g.phases.add("oracle_cache_write_thread_s", s.write_ns.load() * 1e-9);
  g.phases.add("oracle_wait_for_other_gate_thread_s", s.wait_ns.load() * 1e-9);
}

void setup_oracle_cache(Gate& g, const RunnerOptions& opt) {
  g.spec_hash = hex64(hash_file(g.task.file));
  g.oracle_id = oracle_identity(opt.get("reference"), opt.get("py-host"));
  OracleCachePolicy policy;
  policy.budget_bytes = static_cast<uint64_t>(opt.number("oracle-cache-budget-mb", 0)) << 20;
  const auto print_line = [](const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  };
  const std::string folder = g.task.suite + "/" + g.task.name;
  g.oracle_cache = std::make_unique<OracleCache>(opt.get("oracle-cache"), print_line, policy);
  g.oracle_cache->set_folder(folder);
  // Inputs beside the outputs, under the same budget (which covers the whole folder).
  g.input_cache = std::make_unique<OracleCache>(opt.get("oracle-cache"), print_line, policy);
  g.input_cache->set_folder(folder + "/inputs");
}

int fill_oracle_cache(Gate& g) {
  for (size_t i = 0; i < g.configs.size(); ++i)
    for (auto& f : start_trials(g, i)) f.get();
  lap(g, "configs_s");
  print_oracle_cache(g);
  take_oracle_phases(g);
  std::printf("%s\n", g.phases.line(kPhaseOrder).c_str());
  return 0;
}

}  // namespace arena::correct_gate
