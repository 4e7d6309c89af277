#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "compare.h"

using namespace arena;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tolerance abs_rel(double atol, double rtol) {
  Tolerance t;
  t.kind = Tolerance::AbsRel;
  t.atol = atol;
  t.rtol = rtol;
  return t;
}

Tolerance ulps(int64_t n) {
  Tolerance t;
  t.kind = Tolerance::Ulp;
  t.ulp = n;
  return t;
}

Tolerance exact() {
  Tolerance t;
  t.kind = Tolerance::Exact;
  return t;
}

CompareResult compare_vectors(const std::vector<double>& got, const std::vector<double>& want,
                              DType dtype, const Tolerance& tol, size_t keep = 8) {
  EXPECT_EQ(got.size(), want.size());
  return compare(got.data(), want.data(), static_cast<int64_t>(got.size()), dtype, tol, keep);
}

bool one_matches(double got, double want, DType dtype, const Tolerance& tol) {
  return compare_vectors({got}, {want}, dtype, tol).passed();
}

Informativeness informative(const std::vector<double>& want, const Tolerance& tol,
                            DType dtype = DType::F64) {
  return check_informative(want.data(), static_cast<int64_t>(want.size()), tol, dtype);
}

}  // namespace

TEST(Compare, NanMatchesOnlyNan) {
  const Tolerance loose = abs_rel(1e30, 1);
  EXPECT_TRUE(one_matches(kNaN, kNaN, DType::F32, loose));
  EXPECT_TRUE(one_matches(kNaN, -kNaN, DType::F32, exact()));

  auto r = compare_vectors({kNaN, 1.0, kInf, kNaN}, {1.0, kNaN, kNaN, kInf}, DType::F32, loose);
  EXPECT_EQ(r.mismatches, 4);
  EXPECT_EQ(r.nan_mismatches, 4);
  EXPECT_EQ(r.max_abs_err, 0) << "non-finite pairs do not enter the error maxima";
  EXPECT_EQ(r.worst_index, -1);
  EXPECT_FALSE(r.passed());
}

TEST(Compare, InfinityMatchesOnlyTheSameInfinity) {
  const Tolerance loose = abs_rel(1e30, 1e30);
  EXPECT_TRUE(one_matches(kInf, kInf, DType::F16, loose));
  EXPECT_TRUE(one_matches(-kInf, -kInf, DType::F16, loose));
  EXPECT_FALSE(one_matches(-kInf, kInf, DType::F16, loose));
  EXPECT_FALSE(one_matches(1e300, kInf, DType::F64, loose));
  EXPECT_FALSE(one_matches(kInf, 1e300, DType::F64, loose));
  EXPECT_FALSE(one_matches(kInf, 0.0, DType::F64, ulps(1000000)));
  auto r = compare_vectors({-kInf, 5.0}, {kInf, 5.0}, DType::F32, loose);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.nan_mismatches, 0);
}

TEST(Compare, AbsRelBoundaries) {
  // Allowed error at want = 2 is 0.5 + 0.25 * 2 = 1, all exact in binary.
  const Tolerance tol = abs_rel(0.5, 0.25);
  EXPECT_TRUE(one_matches(3.0, 2.0, DType::F32, tol));
  EXPECT_TRUE(one_matches(1.0, 2.0, DType::F32, tol));
  EXPECT_FALSE(one_matches(std::nextafter(3.0, 4.0), 2.0, DType::F32, tol));
  EXPECT_FALSE(one_matches(1.0 - 1e-9, 2.0, DType::F32, tol));
  EXPECT_TRUE(one_matches(-3.0, -2.0, DType::F32, tol)) << "rtol scales with |want|";
  EXPECT_FALSE(one_matches(-3.25, -2.0, DType::F32, tol));
  // At want = 0 only atol remains.
  EXPECT_TRUE(one_matches(0.5, 0.0, DType::F32, tol));
  EXPECT_FALSE(one_matches(0.5000001, 0.0, DType::F32, tol));
  // Zero tolerance is exact.
  EXPECT_FALSE(one_matches(1.0 + 1e-15, 1.0, DType::F64, abs_rel(0, 0)));
}

TEST(Compare, IntegerDtypesAreAlwaysExact) {
  const Tolerance loose = abs_rel(10, 1);
  for (DType t : {DType::I32, DType::I64, DType::I8, DType::U8}) {
    EXPECT_TRUE(one_matches(6, 6, t, loose)) << dtype_name(t);
    EXPECT_FALSE(one_matches(5, 6, t, loose)) << dtype_name(t);
    EXPECT_FALSE(one_matches(5, 6, t, ulps(100))) << dtype_name(t);
  }
  EXPECT_TRUE(one_matches(5, 6, DType::F32, loose)) << "the same tolerance does apply to floats";
}

TEST(Compare, ExactKind) {
  EXPECT_TRUE(one_matches(1.0, 1.0, DType::F32, exact()));
  EXPECT_TRUE(one_matches(-0.0, 0.0, DType::F32, exact()));
  EXPECT_FALSE(one_matches(1.0 + std::ldexp(1.0, -23), 1.0, DType::F32, exact()));
}

TEST(Compare, UlpTolerance) {
  const double u = std::ldexp(1.0, -23);  // f32 ulp at 1
  EXPECT_TRUE(one_matches(1.0 + 2 * u, 1.0, DType::F32, ulps(2)));
  EXPECT_TRUE(one_matches(1.0 - 2 * u, 1.0, DType::F32, ulps(2)));
  EXPECT_FALSE(one_matches(1.0 + 3 * u, 1.0, DType::F32, ulps(2)));
  EXPECT_TRUE(one_matches(1025.0, 1024.0, DType::F16, ulps(1)));  // f16 ulp at 1024 is 1
  EXPECT_FALSE(one_matches(1026.0, 1024.0, DType::F16, ulps(1)));
  EXPECT_TRUE(one_matches(1026.0, 1024.0, DType::F16, ulps(2)));
  EXPECT_FALSE(one_matches(1.0 + u, 1.0, DType::F32, ulps(0)));
  EXPECT_TRUE(one_matches(std::ldexp(3.0, -149), std::ldexp(1.0, -149), DType::F32, ulps(2)));
}

TEST(Compare, ErrorMaximaAndRelativeFloor) {
  auto r = compare_vectors({1.0, 2.5, 3.0, 0.001}, {1.0, 2.0, 3.125, 0.0}, DType::F64,
                           abs_rel(1e-3, 1e-1));
  EXPECT_DOUBLE_EQ(r.max_abs_err, 0.5);
  EXPECT_EQ(r.worst_index, 1);
  // Relative floor is atol / rtol = 0.01, so the error 0.001 at want 0 counts as 0.1, and the
  // largest relative error is 0.5 / 2.
  EXPECT_DOUBLE_EQ(relative_error_floor(DType::F64, abs_rel(1e-3, 1e-1)), 1e-2);
  EXPECT_DOUBLE_EQ(r.max_rel_err, 0.25);
  EXPECT_EQ(r.count, 4);

  // Without both atol and rtol the floor is the smallest normal of the dtype.
  EXPECT_EQ(relative_error_floor(DType::F32, ulps(4)), std::ldexp(1.0, -126));
  EXPECT_EQ(relative_error_floor(DType::F16, abs_rel(1e-3, 0)), std::ldexp(1.0, -14));
  EXPECT_EQ(relative_error_floor(DType::I32, exact()), 1.0);
}

TEST(Compare, MismatchListKeepsTheFirstInOrder) {
  std::vector<double> want(20, 1.0), got(20, 1.0);
  for (int i = 5; i < 15; ++i) got[i] = 1.0 + i;
  auto r = compare_vectors(got, want, DType::F32, abs_rel(1e-3, 0), 3);
  EXPECT_EQ(r.mismatches, 10);
  ASSERT_EQ(r.first.size(), 3u);
  EXPECT_EQ(r.first[0].index, 5);
  EXPECT_EQ(r.first[1].index, 6);
  EXPECT_EQ(r.first[2].index, 7);
  EXPECT_EQ(r.first[2].got, 8.0);
  EXPECT_EQ(r.first[2].want, 1.0);
  EXPECT_EQ(r.worst_index, 14);
  EXPECT_NE(r.summary("x").find("... 7 more"), std::string::npos) << r.summary("x");

  auto none_kept = compare_vectors(got, want, DType::F32, abs_rel(1e-3, 0), 0);
  EXPECT_TRUE(none_kept.first.empty());
  EXPECT_EQ(none_kept.mismatches, 10);
}

TEST(Compare, SummaryText) {
  auto bad = compare_vectors({1.0, 2.5, 3.0, kNaN}, {1.0, 2.0, 3.0, 4.0}, DType::F32,
                             abs_rel(0.1, 0));
  EXPECT_EQ(bad.summary("y"),
            "y: 2 of 4 mismatched, 1 NaN (max abs 0.5 at [1], max rel 0.25), "
            "first: [1] got 2.5 want 2, [3] got nan want 4");

  auto good = compare_vectors({1.0, 2.0}, {1.0, 2.0}, DType::F32, abs_rel(0.1, 0));
  EXPECT_TRUE(good.passed());
  EXPECT_EQ(good.summary("out"), "out: all 2 matched (max abs 0, max rel 0)");

  // Values that differ only far down print with enough digits to tell them apart.
  auto close = compare_vectors({std::nextafter(0.1, 1.0)}, {0.1}, DType::F64, exact());
  EXPECT_EQ(close.summary("z"),
            "z: 1 of 1 mismatched (max abs 1.4e-17 at [0], max rel 1.4e-16), "
            "first: [0] got 0.10000000000000002 want 0.1");
}

TEST(Informative, AllZerosIsConstantAndUninformative) {
  auto info = informative(std::vector<double>(1000, 0.0), abs_rel(1e-5, 1e-3));
  EXPECT_FALSE(info.ok);
  EXPECT_TRUE(info.constant);
  EXPECT_EQ(info.fraction_above_atol, 0.0);
  EXPECT_FALSE(info.why.empty());
}

TEST(Informative, NonzeroConstantIsUninformative) {
  auto info = informative(std::vector<double>(64, 3.0), abs_rel(1e-5, 1e-3));
  EXPECT_FALSE(info.ok);
  EXPECT_TRUE(info.constant);
  EXPECT_EQ(info.fraction_above_atol, 1.0) << "zeros would fail, but a constant 3 would not";
  EXPECT_NE(info.why.find("constant"), std::string::npos) << info.why;
}

TEST(Informative, TinyOutputsBelowAtol) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> tiny(0.0, 1e-7);
  std::vector<double> want(4096);
  for (double& w : want) w = tiny(rng);
  auto info = informative(want, abs_rel(1e-5, 1e-3));
  EXPECT_FALSE(info.ok);
  EXPECT_FALSE(info.constant);
  EXPECT_EQ(info.fraction_above_atol, 0.0);
  EXPECT_NE(info.why.find("zeros would pass"), std::string::npos) << info.why;
}

TEST(Informative, TypicalOutputIsInformative) {
  std::mt19937_64 rng(4);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> want(4096);
  for (double& w : want) w = normal(rng);
  auto info = informative(want, abs_rel(1e-5, 1e-3));
  EXPECT_TRUE(info.ok) << info.why;
  EXPECT_FALSE(info.constant);
  EXPECT_GT(info.fraction_above_atol, 0.99);
}

TEST(Informative, OnePercentThreshold) {
  std::vector<double> want(100, 0.0);
  want[7] = 1.0;  // exactly 1 % would fail a zero output
  EXPECT_TRUE(informative(want, abs_rel(1e-3, 0)).ok);
  want.push_back(0.0);  // now just below 1 %
  auto info = informative(want, abs_rel(1e-3, 0));
  EXPECT_FALSE(info.ok);
  EXPECT_NEAR(info.fraction_above_atol, 1.0 / 101, 1e-15);
}

TEST(Informative, SingleElementOnlyChecksZero) {
  EXPECT_FALSE(informative({0.0}, abs_rel(1e-5, 0)).ok);
  EXPECT_FALSE(informative({1e-6}, abs_rel(1e-5, 0)).ok);
  auto info = informative({5.0}, abs_rel(1e-5, 0));
  EXPECT_TRUE(info.ok) << info.why;
  EXPECT_FALSE(info.constant);
  EXPECT_FALSE(informative({}, abs_rel(1e-5, 0)).ok);
}

TEST(Informative, IntegerAndExactOutputsCountNonzeros) {
  std::vector<double> want(1000, 0.0);
  want[10] = 1.0;  // 0.1 %: zeros would pass almost everywhere
  EXPECT_FALSE(informative(want, exact()).ok);
  // A loose float tolerance does not apply to an integer dtype.
  EXPECT_FALSE(informative(want, abs_rel(5, 0), DType::I32).ok);
  for (int i = 0; i < 1000; i += 50) want[i] = 2.0;  // 2 %
  EXPECT_TRUE(informative(want, abs_rel(5, 0), DType::I32).ok);
  EXPECT_FALSE(informative(want, abs_rel(5, 0), DType::F32).ok) << "|2| is within atol 5";
}

TEST(Informative, UlpToleranceDependsOnDtype) {
  std::vector<double> want = {1.0, -3.0, 100.0, 0.25};
  EXPECT_TRUE(informative(want, ulps(4), DType::F16).ok);
  // 2048 f16 ulps exceed |want| itself, so zeros would pass.
  EXPECT_FALSE(informative(want, ulps(2048), DType::F16).ok);
}
