#include "perf_engine.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "device_api.h"
#include "launch.h"
#include "perf_engine_state.h"

namespace arena {

using json = nlohmann::json;
using perf_detail::Clock;
using perf_detail::elapsed_s;
using perf_detail::side_name;
using perf_detail::Spent;

namespace {

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

}  // namespace

PerfEngine::PerfEngine(const TaskSpec& task, std::vector<Side*> sides, const ReferenceLibrary* reference,
                       const arena_device_info& device, PerfOptions opt, std::unique_ptr<StoppingRule> rule)
    : task_(task), sides_(std::move(sides)), reference_(reference), device_(device), opt_(opt), rule_(std::move(rule)) {
  if (!rule_) rule_ = std::make_unique<TightOrPlateauRule>(opt_.min_rounds, opt_.seed);
  std::random_device rd;
  salt_ = (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

PerfEngine::~PerfEngine() = default;

void PerfEngine::prepare() {
  stream_ = std::make_unique<Stream>();
  sweep_ = SweepPlan::for_timing(opt_.flush_bytes, opt_.flush_mode, static_cast<int64_t>(device_.l2_bytes));
  flush_buffer_ = std::make_unique<DeviceBuffer>(sweep_.bytes);
  check(arena_dev_fill(flush_buffer_->get(), 0, sweep_.bytes, stream_->get()), "clearing the flush buffer");
  if (!stream_->wait(60)) throw std::runtime_error("clearing the flush buffer did not finish within 60 s");

  const uint64_t task_key = hash_name(task_.suite + "/" + task_.name);
  for (size_t i = 0; i < task_.seen.size(); ++i) {
    auto c = std::make_unique<ConfigRun>();
    c->config = task_.seen[i];
    c->index = i;
    c->name = "seen_" + std::to_string(i);
    c->rule = rule_->fresh();
    const uint64_t first_contents = perf_first_contents_key(task_key, i);
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
              c->sets[s].push_back(std::make_unique<DeviceTensors>(task_, c->config, first_contents, ws, *stream_));
            } else {
              c->sets[s].push_back(std::make_unique<DeviceTensors>(*c->sets[s][0], ws, *stream_));
            }
          }
        }
        pushed = true;
        {  // the launch is recorded on buffers of its own, holding valid inputs
          Spent spent(spent_s_, "record_s");
          DeviceTensors scratch(task_, c->config, first_contents, ws, *stream_);
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
  // Replayed sides time by events with the tracer's kernel records off (event_clock.h); only
  // when every timed side can, so that a speedup's two times come from the same clock.
  quiet_timing_ = true;
  for (auto& c : configs_)
    for (SideRun& s : c->sides) quiet_timing_ = quiet_timing_ && s.side->can_time_quietly();
  for (auto& c : configs_)
    for (SideRun& s : c->sides) s.side->set_quiet_timing(quiet_timing_);
  // Every launch is recorded: no host code of any kernel runs from here on.
  for (Side* s : sides_) s->ask_recorder_to_exit();
  for (Side* s : sides_) s->stop_recorder();
}

bool PerfEngine::timed_round(ConfigRun& c, SideRun& s, std::vector<double>* samples_ms) {
  const int round = static_cast<int>(s.rounds.size());
  const uint64_t key = salt_ ^ hash_name(c.name + "/" + side_name(s)) ^ (static_cast<uint64_t>(round) << 32) ^
                       (samples_ms ? 0x5A5Aull : 0xA5A5ull);
  KeptSample* kept = samples_ms && s.kept ? s.kept->choose(round, opt_.samples_per_round) : nullptr;
  // The kept sample is copied here, in the judge's own memory, while the executor waits right
  // after it (kept_capture.h): from the set this round runs on.
  const DeviceTensors& set = *c.sets[c.set_for(s)][static_cast<size_t>(s.index)];
  auto keep = [&](int sample) {
    Spent copying(spent_s_, "kept_copies_s");
    for (const auto& m : capture_kept_sample(kept_capture_plan(set.binding(), key, sample), set.args().tensors, *kept,
                                             *stream_))
      c.inputs_modified.push_back(side_name(s) + ": " + m + " on " + c.config.label);
  };
  Spent spent(spent_s_, samples_ms ? "rounds_s" : "warm_up_rounds_s");
  RoundResult r = s.side->round(c.set_id(s), opt_.samples_per_round, key, *flush_buffer_, sweep_,
                                0xFEDCBA9876543210ull ^ key, kept ? kept->sample : -1, keep, opt_.kernel_timeout_s + 5);
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
  if (kept) s.kept->filled();
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
  return c.rule->done({c.a().rounds, c.b().rounds, rounds});
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
  {
    Spent spent(spent_s_, "warm_up_s");
    warm_up();
  }
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

}  // namespace arena
