#include "perf_engine.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <map>
#include <sstream>

#include "compare.h"
#include "launch.h"

namespace arena {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct PerfEngine::Side {
  const KernelLibrary* lib = nullptr;
  int index = 0;                            // 0 baseline, 1 candidate, 2... extra references
  std::vector<std::vector<double>> rounds;  // milliseconds, one vector per round
};

// One set of tensor buffers, seen by every kernel (each with its own workspace). Kernels
// alternate between two sets round by round, so a placement effect of the buffers (seen as
// a steady 1-2 % on strided kernels) lands in the round-to-round spread, not in the ratio.
struct PerfEngine::BufferSet {
  std::vector<std::unique_ptr<DeviceTensors>> view;  // per side
  int last_writer = -1;                      // side whose launch the outputs hold
};

struct PerfEngine::ConfigRun {
  Config config;
  std::string name;  // benchmark prefix, e.g. "seen_0"
  HostData warm_inputs, timed_inputs;
  std::future<std::vector<std::vector<double>>> expected;  // oracle on the timed inputs
  std::vector<Side> sides;  // baseline, candidate, extra references; never resized once timing starts
  BufferSet sets[2];
  Side& a() { return sides[0]; }
  Side& b() { return sides[1]; }
  std::vector<double> half_widths;
  bool done = false;
  BufferSet& set_for(const Side& s) { return sets[(s.rounds.size() + s.index) % 2]; }
};

namespace {

double elapsed_s(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Log-space half-width to aim for: 2 % for kernels of 20 us or less (they carry the event
// floor's jitter), 0.75 % at 50 us, 0.5 % from 100 us; linear in between.
double target_half_width(double median_ms) {
  const double us = median_ms * 1e3;
  const double pts[][2] = {{20, 0.02}, {50, 0.0075}, {100, 0.005}};
  if (us <= pts[0][0]) return std::log1p(pts[0][1]);
  for (int i = 1; i < 3; ++i)
    if (us < pts[i][0]) {
      const double f = (us - pts[i - 1][0]) / (pts[i][0] - pts[i - 1][0]);
      return std::log1p(pts[i - 1][1] * (1 - f) + pts[i][1] * f);
    }
  return std::log1p(pts[2][1]);
}

json summary_json(const Summary& s) {
  return {{"samples", s.n},       {"median_ms", s.median}, {"mean_ms", s.mean}, {"min_ms", s.min},
          {"max_ms", s.max},      {"q1_ms", s.q1},         {"q3_ms", s.q3},     {"stdev_rel", s.stdev_rel},
          {"iqr_rel", s.iqr_rel}};
}

std::vector<double> flatten(const std::vector<std::vector<double>>& rounds) {
  std::vector<double> all;
  for (const auto& r : rounds) all.insert(all.end(), r.begin(), r.end());
  return all;
}

// Collects Google Benchmark's JSON for one batch into a string.
class CapturingReporter : public benchmark::JSONReporter {
 public:
  CapturingReporter() {
    SetOutputStream(&out_);
    SetErrorStream(&err_);
  }
  std::string text() const { return out_.str(); }
  std::string errors() const { return err_.str(); }

 private:
  std::ostringstream out_, err_;
};

}  // namespace

PerfEngine::PerfEngine(const TaskSpec& task, const KernelLibrary& baseline, const KernelLibrary& candidate,
                       const ReferenceLibrary* reference, const arena_device_info& device, PerfOptions opt,
                       std::vector<const KernelLibrary*> extras)
    : task_(task), baseline_(baseline), candidate_(candidate), reference_(reference), extras_(std::move(extras)),
      device_(device), opt_(opt) {}

PerfEngine::~PerfEngine() {
  for (auto& c : configs_)
    if (c->expected.valid() && c->expected.wait_for(std::chrono::seconds(0)) != std::future_status::deferred)
      c->expected.wait();
}

double PerfEngine::sample_ms(Side& side, BufferSet& set) {
  const DeviceTensors& t = *set.view[side.index];
  t.prepare_launch(*stream_);  // before the flush, so none of it stays in the cache
  check(arena_dev_flush(flush_->get(), flush_->bytes(), stream_->get()), "flushing caches");
  start_->record(*stream_);
  set.last_writer = side.index;
  int rc = side.lib->launch(&t.args());
  stop_->record(*stream_);
  if (rc != 0) throw std::runtime_error(side.lib->role + " arena_launch returned " + std::to_string(rc) + " while timed");
  try {
    if (!stream_->wait(opt_.kernel_timeout_s))
      device_lost({LaunchOutcome::TimedOut, side.lib->role + " did not finish within its timeout while timed"});
  } catch (const DeviceError& e) {
    device_lost({LaunchOutcome::DeviceFault, side.lib->role + " crashed the device while timed: " + e.what()});
  }
  float ms = elapsed_ms(*start_, *stop_);
  return ms;
}

void PerfEngine::prepare() {
  stream_ = std::make_unique<Stream>();
  start_ = std::make_unique<Event>();
  stop_ = std::make_unique<Event>();
  check(arena_dev_reset_persisting_l2(), "resetting the L2 persisting window");
  size_t flush = opt_.flush_bytes;
  if (flush == 0) flush = std::max<size_t>(2 * static_cast<size_t>(device_.l2_bytes), size_t{256} << 20);
  flush = (flush + 15) / 16 * 16;
  opt_.flush_bytes = flush;
  flush_ = std::make_unique<DeviceBuffer>(flush);
  check(arena_dev_fill(flush_->get(), 0, flush, stream_->get()), "clearing the flush buffer");

  const uint64_t task_key = hash_name(task_.suite + "/" + task_.name);
  for (size_t i = 0; i < task_.seen.size(); ++i) {
    auto c = std::make_unique<ConfigRun>();
    c->config = task_.seen[i];
    c->name = "seen_" + std::to_string(i);
    c->warm_inputs = draw_inputs(task_, c->config, perf_inputs_key(task_key, i, false), trial_plan(0));
    c->timed_inputs = draw_inputs(task_, c->config, perf_inputs_key(task_key, i, true), trial_plan(0));
    std::vector<const KernelLibrary*> libs = {&baseline_, &candidate_};
    for (const KernelLibrary* x : extras_) libs.push_back(x);
    c->sides.resize(libs.size());
    for (size_t k = 0; k < libs.size(); ++k) {
      c->sides[k].lib = libs[k];
      c->sides[k].index = static_cast<int>(k);
    }
    for (BufferSet& set : c->sets) {
      set.view.push_back(std::make_unique<DeviceTensors>(task_, c->config, c->warm_inputs, baseline_, *stream_));
      for (size_t k = 1; k < libs.size(); ++k)
        set.view.push_back(std::make_unique<DeviceTensors>(*set.view[0], *libs[k], *stream_));
    }
    for (Side& s : c->sides) {  // first launches: module load, one-time setup (JIT compiles), sanity
      const DeviceTensors& t = *c->sets[s.index % 2].view[s.index];
      LaunchOutcome o = launch_and_wait(*s.lib, t, *stream_, opt_.kernel_timeout_s * 10,
                                        c->config.label + " (first launch)");
      if (!o.ok() && s.index >= 2 && !o.device_lost()) {
        // An extra reference that cannot run (torch.compile on an op it does not support)
        // is reported and left out; it does not fail the candidate.
        dropped_[s.lib->role] = o.message;
        continue;
      }
      if (!o.ok()) throw std::runtime_error(o.message);
      for (const auto& p : t.integrity_problems(*stream_))
        throw std::runtime_error(s.lib->role + ": " + p + " on " + c->config.label + " (first launch)");
    }
    for (BufferSet& set : c->sets) set.view[0]->reset(c->timed_inputs, 0, *stream_);
    // The oracle for the timed inputs runs on the host while the device is being timed.
    if (reference_) {
      const Config cfg = c->config;
      const HostData* in = &c->timed_inputs;
      // A Python oracle shares the interpreter (and maybe the GPU) with timed Python
      // launches: it runs after timing instead.
      const auto policy = reference_->in_interpreter ? std::launch::deferred : std::launch::async;
      c->expected = std::async(policy, [this, cfg, in] { return run_reference(task_, cfg, *in, *reference_); });
    }
    configs_.push_back(std::move(c));
  }
  // Dropped extras leave every configuration (they sit after baseline and candidate).
  for (auto& c : configs_)
    for (size_t k = c->sides.size(); k-- > 2;)
      if (dropped_.count(c->sides[k].lib->role)) {
        c->sides.erase(c->sides.begin() + static_cast<std::ptrdiff_t>(k));
        for (BufferSet& set : c->sets) set.view.erase(set.view.begin() + static_cast<std::ptrdiff_t>(k));
        for (size_t j = k; j < c->sides.size(); ++j) c->sides[j].index = static_cast<int>(j);
      }
  warm_up();
  floor_us_ = event_floor_us();
}

void PerfEngine::warm_up() {
  auto t0 = Clock::now();
  while (elapsed_s(t0) < opt_.warmup_s)
    for (auto& c : configs_)
      for (int k = 0; k < 2; ++k)
        for (Side& s : c->sides) sample_ms(s, c->sets[(k + s.index) % 2]);
}

double PerfEngine::event_floor_us() {
  std::vector<double> v;
  for (int i = 0; i < 21; ++i) {
    check(arena_dev_flush(flush_->get(), flush_->bytes(), stream_->get()), "flushing caches");
    start_->record(*stream_);
    check(arena_dev_empty_kernel(stream_->get()), "launching an empty kernel");
    stop_->record(*stream_);
    if (!stream_->wait(opt_.kernel_timeout_s)) throw DeviceError("empty kernel timed out");
    v.push_back(elapsed_ms(*start_, *stop_) * 1e3);
  }
  return median(v);
}

bool PerfEngine::config_done(ConfigRun& c) {
  size_t rounds = c.a().rounds.size();
  for (const Side& s : c.sides) rounds = std::min(rounds, s.rounds.size());
  if (static_cast<int>(rounds) < opt_.min_rounds) return false;
  // The stopping rule follows the primary comparison; extra references get the same rounds.
  SpeedupEstimate e = estimate_speedup(c.a().rounds, c.b().rounds, opt_.seed, 500);
  c.half_widths.push_back(e.log_half_width);
  double m = std::max(median(flatten(c.a().rounds)), median(flatten(c.b().rounds)));
  return ci_is_tight(e.log_half_width, target_half_width(m)) || ci_has_plateaued(c.half_widths);
}

std::string PerfEngine::batch_filter() const {
  std::string f = "^(";
  bool any = false;
  for (const auto& c : configs_)
    if (!c->done) {
      f += (any ? "|" : "") + c->name;
      any = true;
    }
  return any ? f + ")/" : "";
}

void PerfEngine::run() {
  for (auto& c : configs_)
    for (Side& side : c->sides) {
      Side* s = &side;
      const std::string name = c->name + "/" + (s->index == 0 ? "baseline" : s->index == 1 ? "candidate" : s->lib->role);
      ConfigRun* cr = c.get();
      benchmark::RegisterBenchmark(name.c_str(),
                                   [this, cr, s](benchmark::State& st) {
                                     BufferSet& set = cr->set_for(*s);
                                     s->rounds.emplace_back();
                                     for (auto _ : st) {
                                       double ms = sample_ms(*s, set);
                                       st.SetIterationTime(ms / 1e3);
                                       s->rounds.back().push_back(ms);
                                     }
                                   })
          ->UseManualTime()
          ->Iterations(opt_.samples_per_round)
          ->Repetitions(opt_.rounds_per_batch)
          ->Unit(benchmark::kMicrosecond);
    }
  gbench_["benchmarks"] = json::array();
  auto t0 = Clock::now();
  for (;;) {
    std::string filter = batch_filter();
    if (filter.empty()) break;
    if (elapsed_s(t0) > opt_.budget_s) {
      timed_out_ = true;
      break;
    }
    CapturingReporter rep;
    benchmark::RunSpecifiedBenchmarks(&rep, filter);
    ++batches_;
    json j = json::parse(rep.text(), nullptr, false);
    if (j.is_object()) {
      if (!gbench_.contains("context")) gbench_["context"] = j["context"];
      for (auto& b : j["benchmarks"]) {
        b["arena_batch"] = batches_;
        gbench_["benchmarks"].push_back(b);
      }
    }
    for (auto& c : configs_)
      if (!c->done) c->done = config_done(*c);
  }
  timed_seconds_ = elapsed_s(t0);
}

json PerfEngine::report() {
  json out = {{"method",
               {{"flush_bytes", opt_.flush_bytes},
                {"flush", "read-modify-write kernel on the timing stream before every sample"},
                {"samples_per_round", opt_.samples_per_round},
                {"min_rounds", opt_.min_rounds},
                {"warmup_s", opt_.warmup_s},
                {"budget_s", opt_.budget_s},
                {"timed_seconds", timed_seconds_},
                {"timed_out", timed_out_},
                {"batches", batches_},
                {"delta", opt_.delta},
                {"event_floor_us", floor_us_},
                {"interleaving", "Google Benchmark random interleaving of repetitions (rounds)"}}},
              {"configs", json::array()}};
  std::vector<SpeedupEstimate> estimates;
  std::map<std::string, std::vector<SpeedupEstimate>> extra_estimates;
  for (auto& c : configs_) {
    json cj = {{"label", c->config.label}, {"params", c->config.describe()}};
    const double bytes = task_.cost_bytes.eval_double(c->config.bindings);
    const double flops = task_.cost_flops.eval_double(c->config.bindings);
    SpeedupEstimate e = estimate_speedup(c->a().rounds, c->b().rounds, opt_.seed);
    estimates.push_back(e);
    Verdict v = decide(e.ci_low, e.ci_high, opt_.delta);
    cj["speedup"] = e.speedup;
    cj["speedup_median_of_rounds"] = e.speedup_median_of_rounds;
    cj["ci95_low"] = e.ci_low;
    cj["ci95_high"] = e.ci_high;
    cj["ci_method"] = e.ci_method;
    cj["rounds"] = e.rounds;
    cj["verdict"] = verdict_name(v);
    cj["bytes"] = bytes;
    cj["flops"] = flops;
    for (Side& side : c->sides) {
      Side* s = &side;
      Summary sum = summarize(flatten(s->rounds));
      json sj = summary_json(sum);
      const double secs = sum.median / 1e3;
      const double bw = bytes / secs, fl = flops / secs;
      sj["bytes_per_s"] = bw;
      sj["flops_per_s"] = fl;
      sj["fraction_of_peak_bw"] = bw / device_.peak_bytes_per_s;
      sj["fraction_of_peak_fp32"] = fl / device_.peak_fp32_flops;
      sj["fraction_of_peak"] = std::max(bw / device_.peak_bytes_per_s,
                                        task_.cost_compute == "fp32" ? fl / device_.peak_fp32_flops : 0.0);
      sj["samples_ms"] = flatten(s->rounds);
      const std::string who = s->index == 0 ? "baseline" : s->index == 1 ? "candidate" : s->lib->role;
      if (bw > opt_.sol_margin * device_.peak_bytes_per_s)
        failures_.push_back(who + " on " + c->config.label + ": median " + std::to_string(sum.median * 1e3) +
                            " us moves " + std::to_string(bytes / 1e9) + " GB at " + std::to_string(bw / 1e9) +
                            " GB/s, above the device's peak " + std::to_string(device_.peak_bytes_per_s / 1e9) +
                            " GB/s: faster than the memory system allows (cached data, skipped work or a wrong cost model)");
      if (task_.cost_compute == "fp32" && fl > opt_.sol_margin * device_.peak_fp32_flops)
        failures_.push_back(who + " on " + c->config.label + ": " + std::to_string(fl / 1e12) +
                            " TFLOP/s is above the device's fp32 peak " +
                            std::to_string(device_.peak_fp32_flops / 1e12) + " TFLOP/s: not credible");
      if (s->index < 2) {
        cj[who] = sj;
        continue;
      }
      // An extra reference (torch.compile): its own speedup over the candidate, same rounds.
      SpeedupEstimate x = estimate_speedup(s->rounds, c->b().rounds, opt_.seed);
      extra_estimates[s->lib->role].push_back(x);
      sj["name"] = s->lib->role;
      sj["speedup"] = x.speedup;
      sj["ci95_low"] = x.ci_low;
      sj["ci95_high"] = x.ci_high;
      sj["verdict"] = verdict_name(decide(x.ci_low, x.ci_high, opt_.delta));
      cj["references"].push_back(sj);
    }
    // Validation after timing: each buffer set holds the outputs of the last timed launch
    // on it (outputs are poisoned before every launch); they must still be right.
    std::vector<std::vector<double>> expected;
    if (c->expected.valid()) {
      expected = c->expected.get();
    } else {  // no host oracle: the baseline's outputs on the timed inputs
      const int s = c->sets[0].last_writer == 0 ? 0 : 1;
      if (c->sets[s].last_writer != 0) sample_ms(c->a(), c->sets[s]);
      expected.resize(task_.tensors.size());
      for (size_t i = 0; i < task_.tensors.size(); ++i)
        if (task_.tensors[i].writes()) expected[i] = c->sets[s].view[0]->output_values(i);
    }
    if (c->sets[0].last_writer != 1 && c->sets[1].last_writer != 1) sample_ms(c->b(), c->sets[0]);
    json checks = json::array();
    for (BufferSet& set : c->sets) {
      const int w = set.last_writer;
      const std::string who = w == 0 ? "baseline" : w == 1 ? "candidate" : c->sides[w].lib->role;
      for (const auto& view : set.view)
        for (const auto& p : view->integrity_problems(*stream_))
          failures_.push_back(who + " after timing: " + p + " on " + c->config.label);
      if (w == 0 && !reference_) continue;  // the baseline is the oracle here
      if (!c->sides[w].lib->writes_outputs) continue;  // a timing-only reference keeps its outputs
      for (size_t i = 0; i < task_.tensors.size(); ++i) {
        const TensorSpec& ts = task_.tensors[i];
        if (!ts.writes()) continue;
        auto got = set.view[w]->output_values(i);
        CompareResult r = compare_parallel(got.data(), expected[i].data(), static_cast<int64_t>(got.size()), ts.dtype, ts.tol);
        checks.push_back({{"kernel", who}, {"summary", r.summary(ts.name)}, {"passed", r.passed()}});
        if (!r.passed())
          failures_.push_back(who + " outputs are wrong after the timed launches on " + c->config.label + ": " +
                              r.summary(ts.name));
      }
    }
    cj["post_timing_checks"] = checks;
    if (v == Verdict::Slower)
      failures_.push_back("candidate is slower on " + c->config.label + " (speedup " + std::to_string(e.speedup) +
                          ", 95% CI [" + std::to_string(e.ci_low) + ", " + std::to_string(e.ci_high) + "])");
    out["configs"].push_back(cj);
  }
  SpeedupEstimate all = combine(estimates);
  Verdict v = decide(all.ci_low, all.ci_high, opt_.delta);
  out["speedup"] = all.speedup;
  out["ci95_low"] = all.ci_low;
  out["ci95_high"] = all.ci_high;
  out["verdict"] = verdict_name(v);
  out["aggregate"] = "geometric mean over seen configurations; log-space standard errors combined";
  out["baseline_name"] = baseline_.role;
  for (const auto& [name, why] : dropped_) out["references_dropped"][name] = why;
  for (const auto& [name, xs] : extra_estimates) {
    SpeedupEstimate x = combine(xs);
    out["speedup_vs"][name] = {{"speedup", x.speedup}, {"ci95_low", x.ci_low}, {"ci95_high", x.ci_high},
                               {"verdict", verdict_name(decide(x.ci_low, x.ci_high, opt_.delta))}};
  }
  return out;
}

}  // namespace arena
