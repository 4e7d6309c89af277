// The checks of timed launches, once timing is over (docs/DESIGN.md, "Performance"): the kept
// samples against the oracle or the baseline, the buffers' red zones, and inputs a kernel
// modified.
#include <future>

#include "compare.h"
#include "perf_engine_state.h"

namespace arena {

using json = nlohmann::json;
using perf_detail::side_name;
using perf_detail::Spent;

// The kept samples' checks (docs/DESIGN.md, "Performance"): every kept sample against the
// oracle (without one, against the baseline recomputed on its inputs). The oracle runs of all
// configurations start together once timing is over.
void PerfEngine::start_kept_checks(ConfigRun& c) {
  std::vector<KeptCheck>& pending = c.kept_checks;
  for (SideRun& s : c.sides) {
    if (!s.kept) continue;
    for (const auto& k : s.kept->kept()) {
      if (!k->filled) continue;
      const KeptSample* kp = k.get();
      if (reference_) {
        HostData in;
        {
          Spent spent(spent_s_, "kept_inputs_s");
          in = host_inputs_of(task_, *kp);
        }
        const auto policy = reference_->in_interpreter ? std::launch::deferred : std::launch::async;
        pending.push_back({&s, kp, "the oracle", std::async(policy, [this, &c, in = std::move(in)]() mutable {
                             return run_reference(task_, c.config, std::move(in), *reference_);
                           })});
      } else if (s.index != 0) {
        pending.push_back({&s, kp, "the baseline on the same inputs",
                           std::async(std::launch::deferred, [this, &c, kp] { return baseline_outputs(c, *kp); })});
      }
    }
  }
}

// The baseline recomputed on a kept sample's inputs, copied on the device.
HostTensors PerfEngine::baseline_outputs(ConfigRun& c, const KeptSample& k) {
  Side& base = *c.a().side;
  DeviceTensors d(task_, c.config, uint64_t{0}, base.workspace_size(c.config), *stream_);  // inputs replaced below
  for (size_t i = 0; i < task_.tensors.size(); ++i)
    if (task_.tensors[i].reads()) d.set_input_from_device(i, k.in[i].get(), *stream_);
  LaunchOutcome o = base.launch(c.config, d, opt_.kernel_timeout_s * 10, c.config.label + " (a kept sample)");
  if (!o.ok()) throw std::runtime_error("the baseline could not recompute a kept sample: " + o.message);
  HostTensors out(task_.tensors.size());
  for (size_t i = 0; i < task_.tensors.size(); ++i)
    if (task_.tensors[i].writes()) out[i] = d.output_values(i);
  return out;
}

void PerfEngine::finish_kept_checks(ConfigRun& c, json& checks) {
  for (KeptCheck& p : c.kept_checks) {
    const std::string who = side_name(*p.side);
    const std::string sample = "round " + std::to_string(p.k->round + 1) + ", sample " + std::to_string(p.k->sample + 1);
    HostTensors expected;
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
      Spent spent(spent_s_, "kept_compare_s");
      CompareResult r = compare_kept_output(task_, *p.k, i, expected[i].data());
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

// Red zones of every buffer set after timing (their inputs are redrawn every sample, so
// input integrity is checked on the kept samples, when the judge copies them).
void PerfEngine::check_buffers_after_timing(ConfigRun& c) {
  for (int set = 0; set < 2; ++set)
    for (const auto& view : c.sets[set])
      for (const auto& p : view->integrity_problems(*stream_, false))
        failures_.push_back("after timing: " + p + " on " + c.config.label);
  for (const auto& msg : c.inputs_modified) failures_.push_back(msg);
}

}  // namespace arena
