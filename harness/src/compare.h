// Compares a kernel's output with the reference, element by element, in double.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dtype.h"

namespace arena {

struct Tolerance {
  enum Kind { AbsRel, Exact, Ulp } kind = AbsRel;
  double atol = 0, rtol = 0;  // AbsRel: |got - want| <= atol + rtol * |want|
  int64_t ulp = 0;            // Ulp:    |got - want| <= ulp * ulp_of(dtype, want)
};

struct Mismatch {
  int64_t index;
  double got;
  double want;
};

struct CompareResult {
  int64_t count = 0;           // elements compared
  int64_t mismatches = 0;
  int64_t nan_mismatches = 0;  // NaN where a non-NaN was expected, or a non-NaN where NaN was
  // Over pairs where both values are finite. The relative error divides by
  // max(|want|, rel_floor) so that near-zero expected values do not swamp it; see compare().
  double max_abs_err = 0, max_rel_err = 0;
  int64_t worst_index = -1;     // where max_abs_err occurs (first such); -1 if every error is 0
  std::vector<Mismatch> first;  // the first `keep` mismatches, in index order

  bool passed() const { return mismatches == 0; }
  // One line, e.g.
  // "y: 3 of 1048576 mismatched (max abs 2.1e-03 at [17], max rel 4e-02), first: [17] got 1.0021
  //  want 1, ..." or "y: all 1048576 matched (max abs 0, max rel 0)".
  std::string summary(const std::string& tensor_name) const;
};

// The per-element rule used by compare():
//   NaN matches only NaN; +inf/-inf match only the same infinity; integer dtypes are always
//   exact whatever `tol` says; otherwise by tol.kind (AbsRel, Ulp, or Exact: got == want).
bool values_match(double got, double want, DType dtype, const Tolerance& tol);

// The relative-error floor: for AbsRel with atol > 0 and rtol > 0 it is atol / rtol, the
// magnitude below which the absolute term dominates the tolerance; otherwise the smallest
// positive normal of the dtype (1 for integer dtypes), which only guards the division.
double relative_error_floor(DType dtype, const Tolerance& tol);

CompareResult compare(const double* got, const double* want, int64_t n, DType dtype,
                      const Tolerance& tol, size_t keep = 8);

// Adds the result of a later stretch that starts at element `offset` (its indices relative to
// that start) to `all`, as if both had been one pass: counts summed, the first maximum kept,
// mismatches listed in order up to `keep`.
void merge_compare(CompareResult& all, const CompareResult& later, int64_t offset, size_t keep = 8);

// Whether expected outputs can tell a real kernel from one that writes zeros or a constant.
struct Informativeness {
  bool ok;
  std::string why;             // the reason when not ok; a short description when ok
  double fraction_above_atol;  // share of elements where an all-zero output would fail
  bool constant;               // n > 1 and every expected value is the same
};

// Not ok when the output is empty, when n > 1 and all expected values are equal, or when
// fewer than 1 % of the elements would fail if the kernel wrote zeros (for n == 1 that is the
// only test). "Would fail" is values_match(0, want) == false, so integer and Exact outputs
// count exactly the nonzero elements. `dtype` matters only for Ulp tolerances and to make
// integer dtypes exact.
Informativeness check_informative(const double* want, int64_t n, const Tolerance& tol,
                                  DType dtype = DType::F64);

}  // namespace arena
