#include "inputs.h"

#include <Random123/philox.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "host_pool.h"

namespace arena {

std::string TrialPlan::describe() const {
  std::string s = "trial " + std::to_string(index) + " (";
  s += alternate_family ? "alternate family" : "declared distribution";
  if (outliers) s += ", outliers p=0.1% x50";
  return s + ")";
}

TrialPlan trial_plan(int index) {
  TrialPlan p;
  p.index = index;
  p.outliers = index % 3 == 1;
  p.alternate_family = index % 3 == 2;
  return p;
}

uint64_t perf_first_contents_key(uint64_t task_key, size_t index) {
  uint64_t z = task_key ^ (0x7065726600000000ull + index);  // "perf", then the index
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t hash_name(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

namespace {

using Philox = r123::Philox4x32;

// 53-bit uniform in (0, 1) from two 32-bit words: never 0, so log() is safe.
double unit_open(uint32_t hi, uint32_t lo) {
  uint64_t bits = (static_cast<uint64_t>(hi) << 21) ^ (lo >> 11);
  bits &= (1ull << 53) - 1;
  return (static_cast<double>(bits) + 0.5) / 9007199254740992.0;
}

struct Draw {
  Philox rng;
  Philox::key_type key;
  uint32_t config, trial, tensor;
  // Four words for counter (i, salt).
  Philox::ctr_type words(uint64_t i, uint32_t salt) {
    Philox::ctr_type c = {{static_cast<uint32_t>(i), static_cast<uint32_t>(i >> 32),
                           config ^ (tensor << 20) ^ (salt << 28), trial}};
    return rng(c, key);
  }
};

}  // namespace

void generate_values(const Distribution& declared, const TrialPlan& plan, const StreamKey& k, double* out,
                     int64_t n) {
  Distribution d = declared;
  const bool strict = declared.strict || declared.kind == Distribution::IntRange;
  if (!strict && plan.alternate_family) {
    if (d.kind == Distribution::Normal) {  // same mean and standard deviation
      double half = d.b * std::sqrt(3.0);
      d = {Distribution::Uniform, declared.a - half, declared.a + half, false};
    } else {
      d = {Distribution::Normal, 0.5 * (declared.a + declared.b), (declared.b - declared.a) / std::sqrt(12.0),
           false};
    }
  }
  const bool outliers = !strict && plan.outliers;
  Draw proto{Philox(), {{static_cast<uint32_t>(k.task), static_cast<uint32_t>(k.task >> 32)}}, k.config, k.trial,
             k.tensor};
  parallel_for((n + 1) / 2, [&](int64_t b, int64_t e) {
    Draw draw = proto;
    for (int64_t p = b; p < e; ++p) {
      auto w = draw.words(static_cast<uint64_t>(p), 0);
      double u1 = unit_open(w.v[0], w.v[1]), u2 = unit_open(w.v[2], w.v[3]);
      double v[2];
      if (d.kind == Distribution::Normal) {  // Box-Muller: two normals per counter
        double r = std::sqrt(-2.0 * std::log(u1)), th = 2.0 * M_PI * u2;
        v[0] = d.a + d.b * r * std::cos(th);
        v[1] = d.a + d.b * r * std::sin(th);
      } else if (d.kind == Distribution::Uniform) {
        v[0] = d.a + (d.b - d.a) * u1;
        v[1] = d.a + (d.b - d.a) * u2;
      } else {
        double span = d.b - d.a + 1.0;
        v[0] = std::min(d.b, d.a + std::floor(u1 * span));
        v[1] = std::min(d.b, d.a + std::floor(u2 * span));
      }
      if (outliers) {
        auto o = draw.words(static_cast<uint64_t>(p), 1);
        if (o.v[0] < kOutlierProbability * 4294967296.0) v[0] *= kOutlierScale;
        if (o.v[1] < kOutlierProbability * 4294967296.0) v[1] *= kOutlierScale;
      }
      out[2 * p] = v[0];
      if (2 * p + 1 < n) out[2 * p + 1] = v[1];
    }
  });
}

}  // namespace arena
