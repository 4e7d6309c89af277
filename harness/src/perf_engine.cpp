#include "perf_engine.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <map>
#include <random>
#include <sstream>

#include "compare.h"
#include "launch.h"
#include "parallel_host.h"

namespace arena {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct PerfEngine::SideRun {
  Side* side = nullptr;
  int index = 0;                            // 0 baseline, 1 candidate, 2... extra references
  std::vector<std::vector<double>> rounds;  // milliseconds, one vector per round
  std::vector<double> event_us;             // event times of every sample, for the record
  std::unique_ptr<SampleReservoir> kept;    // timed samples checked against the oracle
};

// One comparison of a kept sample: with the oracle, or with the baseline on its inputs.
struct PerfEngine::KeptCheck {
  SideRun* side;
  const KeptSample* k;
  std::string against;
  std::future<std::vector<std::vector<double>>> expected;
};

struct PerfEngine::ConfigRun {
  Config config;
  size_t index = 0;
  std::string name;  // benchmark prefix, e.g. "seen_0"
  HostData timed_inputs;  // the buffers' first contents; every timed sample draws its own on the device
  std::vector<SideRun> sides;  // baseline, candidate, extra references; never resized once timing starts
  // Two buffer sets seen by every kernel (each with its own workspace). Kernels alternate
  // between them round by round, so a placement effect of the buffers lands in the
  // round-to-round spread, not in the ratio.
  std::vector<std::unique_ptr<DeviceTensors>> sets[2];  // per side
  std::vector<double> half_widths;
  std::vector<std::string> inputs_modified;
  std::vector<KeptCheck> kept_checks;  // started once timing is over
  bool done = false;
  SideRun& a() { return sides[0]; }
  SideRun& b() { return sides[1]; }
  int set_for(const SideRun& s) const { return static_cast<int>((s.rounds.size() + s.index) % 2); }
  int set_id(const SideRun& s) const { return static_cast<int>(index) * 2 + set_for(s); }
};

namespace {

double elapsed_s(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Adds the wall time of a scope to one entry of a tally.
class Spent {
 public:
  Spent(std::map<std::string, double>& tally, const char* what) : slot_(tally[what]), t0_(Clock::now()) {}
  ~Spent() { slot_ += elapsed_s(t0_); }

 private:
  double& slot_;
  Clock::time_point t0_;
};

// Log-space half-width to aim for: 2 % for kernels of 20 us or less, 0.75 % at 50 us, 0.5 %
// from 100 us; linear in between.
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

// One side's samples as the result schema records them.
SideTiming side_timing(const Summary& s) {
  SideTiming t;
  t.samples = static_cast<int64_t>(s.n);
  t.median_ms = s.median;
  t.mean_ms = s.mean;
  t.min_ms = s.min;
  t.max_ms = s.max;
  t.q1_ms = s.q1;
  t.q3_ms = s.q3;
  t.stdev_rel = s.stdev_rel;
  t.iqr_rel = s.iqr_rel;
  return t;
}

SpeedupInterval interval(const SpeedupEstimate& e, double delta) {
  return {e.speedup, e.ci_low, e.ci_high, decide(e.ci_low, e.ci_high, delta)};
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

 private:
  std::ostringstream out_, err_;
};

std::string side_name(const PerfEngine::SideRun& s) {
  return s.index == 0 ? "baseline" : s.index == 1 ? "candidate" : s.side->role();
}

}  // namespace

PerfEngine::PerfEngine(const TaskSpec& task, std::vector<Side*> sides, const ReferenceLibrary* reference,
                       const arena_device_info& device, PerfOptions opt)
    : task_(task), sides_(std::move(sides)), reference_(reference), device_(device), opt_(opt) {
  std::random_device rd;
  salt_ = (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

PerfEngine::~PerfEngine() = default;

void PerfEngine::prepare() {
  stream_ = std::make_unique<Stream>();
  size_t flush = opt_.flush_bytes;
  if (flush == 0) flush = std::max<size_t>(2 * static_cast<size_t>(device_.l2_bytes), size_t{256} << 20);
  opt_.flush_bytes = (flush + 15) / 16 * 16;

  const uint64_t task_key = hash_name(task_.suite + "/" + task_.name);
  for (size_t i = 0; i < task_.seen.size(); ++i) {
    auto c = std::make_unique<ConfigRun>();
    c->config = task_.seen[i];
    c->index = i;
    c->name = "seen_" + std::to_string(i);
    {
      Spent spent(spent_s_, "host_inputs_s");
      c->timed_inputs = draw_inputs(task_, c->config, perf_inputs_key(task_key, i, true), trial_plan(0));
    }
    const std::string where = c->config.label + " (first launch)";
    for (size_t k = 0; k < sides_.size(); ++k) {
      SideRun s;
      s.side = sides_[k];
      s.index = static_cast<int>(k);
      c->sides.push_back(std::move(s));
    }
    std::vector<bool> usable(sides_.size(), true);
    for (size_t k = 0; k < sides_.size(); ++k) {
      Side& side = *sides_[k];
      if (dropped_.count(side.role())) {
        usable[k] = false;
        continue;
      }
      bool pushed = false;
      try {
        const size_t ws = side.workspace_size(c->config);
        {
          Spent spent(spent_s_, "buffers_s");
          for (int s = 0; s < 2; ++s) {
            if (k == 0) {
              c->sets[s].push_back(std::make_unique<DeviceTensors>(task_, c->config, c->timed_inputs, ws, *stream_));
            } else {
              c->sets[s].push_back(std::make_unique<DeviceTensors>(*c->sets[s][0], ws, *stream_));
            }
          }
        }
        pushed = true;
        {  // the launch is recorded on buffers of its own, holding valid inputs
          Spent spent(spent_s_, "record_s");
          DeviceTensors scratch(task_, c->config, c->timed_inputs, ws, *stream_);
          LaunchOutcome o = side.prepare(c->config, scratch, opt_.kernel_timeout_s);
          if (!o.ok()) throw std::runtime_error(o.message);
        }
        // First launch: module load, one-time setup (JIT compiles), sanity.
        const DeviceTensors& t = *c->sets[k % 2].back();
        Spent first(spent_s_, "first_launch_and_bind_s");
        LaunchOutcome o = side.launch(c->config, t, opt_.kernel_timeout_s * 10, where);
        if (!o.ok()) throw std::runtime_error(o.message);
        for (const auto& p : t.integrity_problems(*stream_))
          throw std::runtime_error(side.role() + ": " + p + " on " + where);
        for (int s = 0; s < 2; ++s) side.bind(static_cast<int>(i) * 2 + s, c->config, *c->sets[s].back());
      } catch (const std::exception& e) {
        // An extra reference that cannot run (torch.compile on an op it does not support) is
        // reported and left out; it does not fail the candidate.
        if (k < 2) throw std::runtime_error(e.what());
        dropped_[side.role()] = e.what();
        usable[k] = false;
        if (pushed)
          for (int s = 0; s < 2; ++s) c->sets[s].pop_back();
      }
    }
    for (size_t k = sides_.size(); k-- > 2;)
      if (!usable[k]) c->sides.erase(c->sides.begin() + static_cast<std::ptrdiff_t>(k));
    for (size_t k = 0; k < c->sides.size(); ++k) c->sides[k].index = static_cast<int>(k);
    // The candidate's timed outputs are checked at random; a replayed baseline's once per gate
    // (against the oracle), as a check of the checking itself.
    for (SideRun& s : c->sides) {
      const int slots = s.index == 1 ? opt_.kept_samples : s.index == 0 && i == 0 && reference_ ? 1 : 0;
      if (slots > 0 && s.side->writes_outputs())
        s.kept = std::make_unique<SampleReservoir>(task_, c->config, slots, salt_ ^ (i * 131 + s.index));
    }
    configs_.push_back(std::move(c));
  }
  // An extra reference dropped on a later configuration leaves the earlier ones too.
  for (auto& c : configs_)
    for (size_t k = c->sides.size(); k-- > 2;)
      if (dropped_.count(c->sides[k].side->role())) {
        c->sides.erase(c->sides.begin() + static_cast<std::ptrdiff_t>(k));
        for (int s = 0; s < 2; ++s) c->sets[s].erase(c->sets[s].begin() + static_cast<std::ptrdiff_t>(k));
        for (size_t j = 0; j < c->sides.size(); ++j) c->sides[j].index = static_cast<int>(j);
      }
  // Every launch is recorded: no host code of any kernel runs from here on.
  for (Side* s : sides_) s->stop_recorder();
  Spent spent(spent_s_, "warm_up_s");
  warm_up();
}

bool PerfEngine::timed_round(ConfigRun& c, SideRun& s, std::vector<double>* samples_ms) {
  const int round = static_cast<int>(s.rounds.size());
  const uint64_t key = salt_ ^ hash_name(c.name + "/" + side_name(s)) ^ (static_cast<uint64_t>(round) << 32) ^
                       (samples_ms ? 0x5A5Aull : 0xA5A5ull);
  SnapshotTarget* snap = samples_ms && s.kept ? s.kept->choose(round, opt_.samples_per_round) : nullptr;
  Spent spent(spent_s_, samples_ms ? "rounds_s" : "warm_up_rounds_s");
  RoundResult r = s.side->round(c.set_id(s), opt_.samples_per_round, key, opt_.flush_bytes, opt_.flush_mode,
                                0xFEDCBA9876543210ull ^ key, snap, opt_.kernel_timeout_s + 5);
  if (!r.outcome.ok()) {
    fatal_ = r.outcome.message;
    return false;
  }
  if (static_cast<int>(r.samples.size()) != opt_.samples_per_round) {
    fatal_ = side_name(s) + "'s worker answered " + std::to_string(r.samples.size()) + " samples for a round of " +
             std::to_string(opt_.samples_per_round);
    return false;
  }
  double sum_us = 0;
  for (const auto& x : r.samples) {
    if (!(x.gpu_us > 0) || !std::isfinite(x.gpu_us)) {
      fatal_ = side_name(s) + " on " + c.config.label + ": a timed sample recorded no GPU work";
      return false;
    }
    sum_us += x.gpu_us;
  }
  if (samples_ms) {
    spent_s_["rounds_worker_s"] += r.wall_s;
    spent_s_["rounds_kernel_gpu_s"] += sum_us / 1e6;
  }
  // The judge's own clock bounds what the worker reports.
  if (sum_us > r.wall_s * 1e6 * 1.01 + 50) {
    fatal_ = side_name(s) + "'s worker reported " + std::to_string(sum_us) + " us of GPU time for a round that took " +
             std::to_string(r.wall_s * 1e6) + " us on the judge's clock: not credible";
    return false;
  }
  for (const auto& m : r.inputs_modified) c.inputs_modified.push_back(side_name(s) + ": " + m + " on " + c.config.label);
  if (snap) s.kept->filled();
  if (samples_ms) {
    samples_ms->clear();
    for (const auto& x : r.samples) {
      samples_ms->push_back(x.gpu_us / 1e3);
      s.event_us.push_back(x.event_us);
    }
  }
  return true;
}

void PerfEngine::warm_up() {
  auto t0 = Clock::now();
  do {
    for (auto& c : configs_)
      for (SideRun& s : c->sides)
        if (!timed_round(*c, s, nullptr)) throw std::runtime_error(fatal_ + " (warm-up)");
  } while (elapsed_s(t0) < opt_.warmup_s);
}

bool PerfEngine::config_done(ConfigRun& c) {
  size_t rounds = c.a().rounds.size();
  for (const SideRun& s : c.sides) rounds = std::min(rounds, s.rounds.size());
  if (static_cast<int>(rounds) < opt_.min_rounds) return false;
  // The stopping rule follows the primary comparison; extra references get the same rounds.
  SpeedupEstimate e = estimate_speedup(c.a().rounds, c.b().rounds, opt_.seed, 500);
  c.half_widths.push_back(e.log_half_width);
  double m = std::max(median(flatten(c.a().rounds)), median(flatten(c.b().rounds)));
  return ci_is_tight(e.log_half_width, target_half_width(m)) || ci_has_plateaued(c.half_widths);
}

std::string PerfEngine::batch_filter() const {
  if (!fatal_.empty()) return "";
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
    for (SideRun& side : c->sides) {
      SideRun* s = &side;
      ConfigRun* cr = c.get();
      const std::string name = c->name + "/" + side_name(side);
      benchmark::RegisterBenchmark(name.c_str(),
                                   [this, cr, s](benchmark::State& st) {
                                     std::vector<double> ms;
                                     if (!fatal_.empty() || !timed_round(*cr, *s, &ms)) {
                                       st.SkipWithError(fatal_.c_str());
                                       return;
                                     }
                                     s->rounds.push_back(ms);
                                     size_t i = 0;
                                     for (auto _ : st) st.SetIterationTime(ms[i++ % ms.size()] / 1e3);
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
  if (!fatal_.empty()) failures_.push_back(fatal_);
}

// The kept samples' checks (docs/DESIGN.md, "Performance"): every kept sample against the
// oracle (without one, against the baseline recomputed on its inputs). The oracle runs of all
// configurations start together once timing is over.
void PerfEngine::start_kept_checks(ConfigRun& c) {
  std::vector<KeptCheck>& pending = c.kept_checks;
  for (SideRun& s : c.sides) {
    if (!s.kept) continue;
    {
      Spent spent(spent_s_, "kept_download_s");
      s.kept->download();
    }
    for (const auto& k : s.kept->kept()) {
      if (!k->filled) continue;
      const KeptSample* kp = k.get();
      if (reference_) {
        const auto policy = reference_->in_interpreter ? std::launch::deferred : std::launch::async;
        pending.push_back({&s, kp, "the oracle", std::async(policy, [this, &c, kp] {
                             return run_reference(task_, c.config, host_inputs_of(task_, *kp), *reference_);
                           })});
      } else if (s.index != 0) {
        pending.push_back({&s, kp, "the baseline on the same inputs",
                           std::async(std::launch::deferred, [this, &c, kp] { return baseline_outputs(c, *kp); })});
      }
    }
  }
}

std::vector<std::vector<double>> PerfEngine::baseline_outputs(ConfigRun& c, const KeptSample& k) {
  const HostData in = host_inputs_of(task_, k);
  Side& base = *c.a().side;
  DeviceTensors d(task_, c.config, in, base.workspace_size(c.config), *stream_);
  LaunchOutcome o = base.launch(c.config, d, opt_.kernel_timeout_s * 10, c.config.label + " (a kept sample)");
  if (!o.ok()) throw std::runtime_error("the baseline could not recompute a kept sample: " + o.message);
  std::vector<std::vector<double>> out(task_.tensors.size());
  for (size_t i = 0; i < task_.tensors.size(); ++i)
    if (task_.tensors[i].writes()) out[i] = d.output_values(i);
  return out;
}

void PerfEngine::finish_kept_checks(ConfigRun& c, json& checks) {
  for (KeptCheck& p : c.kept_checks) {
    const std::string who = side_name(*p.side);
    const std::string sample = "round " + std::to_string(p.k->round + 1) + ", sample " + std::to_string(p.k->sample + 1);
    std::vector<std::vector<double>> expected;
    try {
      Spent spent(spent_s_, "kept_expected_s");
      expected = p.expected.get();
    } catch (const std::exception& e) {
      failures_.push_back("checking a timed launch of " + c.config.label + " (" + sample + ") against " + p.against +
                          ": " + e.what());
      continue;
    }
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      const TensorSpec& ts = task_.tensors[i];
      if (!ts.writes()) continue;
      const auto& raw = p.k->out_bytes[i];
      std::vector<double> got(expected[i].size());
      parallel_to_double(ts.dtype, raw.data(), got.data(), static_cast<int64_t>(got.size()));
      Spent spent(spent_s_, "kept_compare_s");
      CompareResult r = compare_parallel(got.data(), expected[i].data(), static_cast<int64_t>(got.size()), ts.dtype, ts.tol);
      checks.push_back({{"kernel", who}, {"sample", sample}, {"against", p.against}, {"summary", r.summary(ts.name)},
                        {"passed", r.passed()}});
      if (!r.passed())
        failures_.push_back(who + " outputs are wrong on a timed launch of " + c.config.label + " (" + sample +
                            ", kept at random), against " + p.against + ": " + r.summary(ts.name) +
                            " (results kept from earlier launches, skipped work, or a race)");
    }
  }
  c.kept_checks.clear();
}

PerfReport PerfEngine::report() {
  const bool cupti = [&] {
    for (Side* s : sides_) {
      json d = s->describe();
      if (d.value("timing", "") != "GPU activity span (CUPTI)") return false;
    }
    return true;
  }();
  timing_ = cupti ? "the GPU's own start and end of the launch's work (activity trace), after a cache flush"
                  : "device events around one launch, after a cache flush";
  PerfReport out;
  PerfMethod& m = out.method;
  m.flush_bytes = static_cast<int64_t>(opt_.flush_bytes);
  m.flush_mode = opt_.flush_mode;
  m.flush = opt_.flush_mode == 1   ? "read sweep, then its lines dropped from L2, on the timing stream before every sample"
            : opt_.flush_mode == 2 ? "read-modify-write sweep on the timing stream before every sample"
                                   : "the platform's sweep (NVIDIA: read; AMD: read-modify-write) on the timing stream before every sample";
  m.inputs = "drawn afresh on the device for every sample; outputs and workspace poisoned";
  m.timing = timing_;
  m.samples_per_round = opt_.samples_per_round;
  m.min_rounds = opt_.min_rounds;
  m.warmup_s = opt_.warmup_s;
  m.budget_s = opt_.budget_s;
  m.timed_seconds = timed_seconds_;
  m.timed_out = timed_out_;
  m.batches = batches_;
  m.delta = opt_.delta;
  m.kept_samples = opt_.kept_samples;
  m.interleaving = "Google Benchmark random interleaving of repetitions (rounds)";
  {
    Spent spent(spent_s_, "kept_checks_s");
    for (auto& c : configs_) start_kept_checks(*c);
  }
  std::vector<SpeedupEstimate> estimates;
  std::map<std::string, std::vector<SpeedupEstimate>> extra_estimates;
  std::vector<double> event_overheads;
  for (auto& c : configs_) {
    PerfConfig cj;
    cj.label = c->config.label;
    cj.params = c->config.describe();
    const double bytes = task_.cost_bytes.eval_double(c->config.bindings);
    const double flops = task_.cost_flops.eval_double(c->config.bindings);
    bool complete = true;
    for (SideRun& s : c->sides) complete &= !s.rounds.empty() && s.rounds.size() == c->a().rounds.size();
    if (!complete) {
      cj.error = "not timed: " + (fatal_.empty() ? std::string("no rounds") : fatal_);
      out.configs.push_back(cj);
      continue;
    }
    SpeedupEstimate e = estimate_speedup(c->a().rounds, c->b().rounds, opt_.seed);
    estimates.push_back(e);
    cj.speedup = interval(e, opt_.delta);
    const Verdict v = cj.speedup.verdict;
    cj.speedup_median_of_rounds = e.speedup_median_of_rounds;
    cj.ci_method = e.ci_method;
    cj.rounds = e.rounds;
    cj.bytes = bytes;
    cj.flops = flops;
    for (SideRun& side : c->sides) {
      SideRun* s = &side;
      Summary sum = summarize(flatten(s->rounds));
      SideTiming sj = side_timing(sum);
      const double secs = sum.median / 1e3;
      const double bw = bytes / secs, fl = flops / secs;
      sj.bytes_per_s = bw;
      sj.flops_per_s = fl;
      sj.fraction_of_peak_bw = bw / device_.peak_bytes_per_s;
      sj.fraction_of_peak_fp32 = fl / device_.peak_fp32_flops;
      sj.fraction_of_peak = std::max(bw / device_.peak_bytes_per_s,
                                     task_.cost_compute == "fp32" ? fl / device_.peak_fp32_flops : 0.0);
      sj.samples_ms = flatten(s->rounds);
      if (!s->event_us.empty()) {
        sj.event_median_us = median(s->event_us);
        event_overheads.push_back(median(s->event_us) - sum.median * 1e3);
      }
      const std::string who = side_name(*s);
      if (bw > opt_.sol_margin * device_.peak_bytes_per_s)
        failures_.push_back(who + " on " + c->config.label + ": median " + std::to_string(sum.median * 1e3) +
                            " us moves " + std::to_string(bytes / 1e9) + " GB at " + std::to_string(bw / 1e9) +
                            " GB/s, above the device's peak " + std::to_string(device_.peak_bytes_per_s / 1e9) +
                            " GB/s: faster than the memory system allows (cached data, skipped work or a wrong cost model)");
      if (task_.cost_compute == "fp32" && fl > opt_.sol_margin * device_.peak_fp32_flops)
        failures_.push_back(who + " on " + c->config.label + ": " + std::to_string(fl / 1e12) +
                            " TFLOP/s is above the device's fp32 peak " +
                            std::to_string(device_.peak_fp32_flops / 1e12) + " TFLOP/s: not credible");
      if (s->index == 0) {
        cj.statistics[kBaselineMedianUs] = sum.median * 1e3;
        cj.baseline = sj;
        continue;
      }
      if (s->index == 1) {
        cj.statistics[kCandidateMedianUs] = sum.median * 1e3;
        cj.statistics[kFractionOfPeak] = sj.fraction_of_peak;
        cj.statistics[kCandidateIqrUs] = (sum.q3 - sum.q1) * 1e3;
        cj.candidate = sj;
        continue;
      }
      // An extra reference (torch.compile): its own speedup over the candidate, same rounds.
      SpeedupEstimate x = estimate_speedup(s->rounds, c->b().rounds, opt_.seed);
      extra_estimates[s->side->role()].push_back(x);
      sj.name = s->side->role();
      sj.vs_candidate = interval(x, opt_.delta);
      cj.references.push_back(sj);
    }
    json checks = json::array();
    {
      Spent spent(spent_s_, "kept_checks_s");
      finish_kept_checks(*c, checks);
    }
    // Red zones of every buffer set after timing (their inputs are redrawn every sample, so
    // input integrity is checked by the workers on the kept samples).
    for (int set = 0; set < 2; ++set)
      for (const auto& view : c->sets[set])
        for (const auto& p : view->integrity_problems(*stream_, false))
          failures_.push_back("after timing: " + p + " on " + c->config.label);
    for (const auto& msg : c->inputs_modified) failures_.push_back(msg);
    cj.post_timing_checks = checks;
    if (v == Verdict::Slower)
      failures_.push_back("candidate is slower on " + c->config.label + " (speedup " + std::to_string(e.speedup) +
                          ", 95% CI [" + std::to_string(e.ci_low) + ", " + std::to_string(e.ci_high) + "])");
    out.configs.push_back(cj);
  }
  out.baseline_name = sides_[0]->role();
  for (const auto& [name, why] : dropped_) out.references_dropped[name] = why;
  if (estimates.empty()) {
    out.speedup.verdict = Verdict::NotTimed;
    if (failures_.empty()) failures_.push_back("no configuration was timed");
    return out;
  }
  out.speedup = interval(combine(estimates), opt_.delta);
  out.aggregate = "geometric mean over seen configurations; log-space standard errors combined";
  m.spent_s = spent_s_;
  m.event_overhead_us = event_overheads.empty() ? 0.0 : median(event_overheads);
  for (const auto& [name, xs] : extra_estimates) out.speedup_vs[name] = interval(combine(xs), opt_.delta);
  return out;
}

}  // namespace arena
