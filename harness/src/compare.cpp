#include "compare.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace arena {

namespace {

// The shortest "%.Ng" text that reads back as the same double, so that got and want never
// print alike while differing, and simple values stay short ("1", "0.1").
std::string shortest_text(double x) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::isnan(x) || std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

std::string error_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, x == 0 ? "%.0f" : "%.2g", x);
  return buf;
}

bool both_finite(double a, double b) { return std::isfinite(a) && std::isfinite(b); }

}  // namespace

bool values_match(double got, double want, DType dtype, const Tolerance& tol) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  if (!dtype_is_float(dtype)) return got == want;
  const double err = std::fabs(got - want);
  switch (tol.kind) {
    case Tolerance::Exact: return got == want;
    case Tolerance::AbsRel: return err <= tol.atol + tol.rtol * std::fabs(want);
    case Tolerance::Ulp: return err <= static_cast<double>(tol.ulp) * ulp_of(dtype, want);
  }
  throw std::invalid_argument("values_match: unknown tolerance kind");
}

double relative_error_floor(DType dtype, const Tolerance& tol) {
  if (tol.kind == Tolerance::AbsRel && tol.atol > 0 && tol.rtol > 0) return tol.atol / tol.rtol;
  // Smallest positive normal: the subnormal spacing divided by epsilon (1 for integers).
  return ulp_of(dtype, 0.0) / dtype_epsilon(dtype);
}

CompareResult compare(const double* got, const double* want, int64_t n, DType dtype,
                      const Tolerance& tol, size_t keep) {
  CompareResult r;
  r.count = n;
  const double rel_floor = relative_error_floor(dtype, tol);
  for (int64_t i = 0; i < n; ++i) {
    if (both_finite(got[i], want[i])) {
      const double err = std::fabs(got[i] - want[i]);
      if (err > r.max_abs_err) {
        r.max_abs_err = err;
        r.worst_index = i;
      }
      r.max_rel_err = std::fmax(r.max_rel_err, err / std::fmax(std::fabs(want[i]), rel_floor));
    }
    if (values_match(got[i], want[i], dtype, tol)) continue;
    ++r.mismatches;
    if (std::isnan(got[i]) != std::isnan(want[i])) ++r.nan_mismatches;
    if (r.first.size() < keep) r.first.push_back({i, got[i], want[i]});
  }
  return r;
}

void merge_compare(CompareResult& all, const CompareResult& later, int64_t offset, size_t keep) {
  all.count += later.count;
  all.mismatches += later.mismatches;
  all.nan_mismatches += later.nan_mismatches;
  if (later.max_abs_err > all.max_abs_err) {
    all.max_abs_err = later.max_abs_err;
    all.worst_index = later.worst_index + offset;
  }
  all.max_rel_err = std::fmax(all.max_rel_err, later.max_rel_err);
  for (const auto& m : later.first)
    if (all.first.size() < keep) all.first.push_back({m.index + offset, m.got, m.want});
}

std::string CompareResult::summary(const std::string& tensor_name) const {
  std::string s = tensor_name + ": ";
  if (passed())
    s += "all " + std::to_string(count) + " matched";
  else
    s += std::to_string(mismatches) + " of " + std::to_string(count) + " mismatched";
  if (nan_mismatches > 0) s += ", " + std::to_string(nan_mismatches) + " NaN";
  s += " (max abs " + error_text(max_abs_err);
  if (worst_index >= 0) s += " at [" + std::to_string(worst_index) + "]";
  s += ", max rel " + error_text(max_rel_err) + ")";
  if (first.empty()) return s;
  s += ", first:";
  for (size_t k = 0; k < first.size(); ++k) {
    const Mismatch& m = first[k];
    s += (k ? ", [" : " [") + std::to_string(m.index) + "] got " + shortest_text(m.got) +
         " want " + shortest_text(m.want);
  }
  const int64_t unlisted = mismatches - static_cast<int64_t>(first.size());
  if (unlisted > 0) s += ", ... " + std::to_string(unlisted) + " more";
  return s;
}

Informativeness check_informative(const double* want, int64_t n, const Tolerance& tol,
                                  DType dtype) {
  Informativeness info{false, "", 0.0, false};
  if (n <= 0) {
    info.why = "the expected output is empty, so no kernel can be told apart";
    return info;
  }
  int64_t zero_fails = 0;
  bool all_equal = true;
  for (int64_t i = 0; i < n; ++i) {
    if (!values_match(0.0, want[i], dtype, tol)) ++zero_fails;
    // NaN counts as equal to NaN here: an all-NaN output is as constant as any other.
    if (!(want[i] == want[0] || (std::isnan(want[i]) && std::isnan(want[0])))) all_equal = false;
  }
  info.fraction_above_atol = static_cast<double>(zero_fails) / static_cast<double>(n);
  info.constant = n > 1 && all_equal;

  char pct[32];
  std::snprintf(pct, sizeof pct, "%.3g%%", 100.0 * info.fraction_above_atol);
  if (info.constant) {
    info.why = "all " + std::to_string(n) + " expected values equal " + shortest_text(want[0]) +
               ", so a kernel writing that constant would pass";
  } else if (info.fraction_above_atol < 0.01) {
    info.why = "only " + std::to_string(zero_fails) + " of " + std::to_string(n) +
               " expected values (" + pct + ") lie outside the tolerance of zero, " +
               "so a kernel writing zeros would pass";
  } else {
    info.ok = true;
    info.why = std::string(pct) + " of expected values would fail an all-zero output";
  }
  return info;
}

}  // namespace arena
