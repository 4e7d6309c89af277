#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "parallel_host.h"

using namespace arena;

namespace {
// Large enough to be split over many threads and chunks.
constexpr int64_t kN = (int64_t{1} << 22) + 12345;
}  // namespace

TEST(ParallelHost, CompareMatchesTheSerialPass) {
  std::vector<double> want(kN), got(kN);
  for (int64_t i = 0; i < kN; ++i) want[i] = got[i] = std::sin(0.001 * static_cast<double>(i));
  // Mismatches in several chunks, a NaN, and two equal worst errors (the first must win).
  for (int64_t i : {int64_t{5}, int64_t{1} << 20, (int64_t{3} << 20) + 7, kN - 1}) got[i] += 0.5;
  got[(int64_t{2} << 20) + 1] = std::numeric_limits<double>::quiet_NaN();
  Tolerance tol;
  tol.atol = 1e-6;
  tol.rtol = 1e-6;
  CompareResult serial = compare(got.data(), want.data(), kN, DType::F32, tol, 3);
  CompareResult par = compare_parallel(got.data(), want.data(), kN, DType::F32, tol, 3);
  EXPECT_EQ(par.count, serial.count);
  EXPECT_EQ(par.mismatches, serial.mismatches);
  EXPECT_EQ(par.nan_mismatches, serial.nan_mismatches);
  EXPECT_DOUBLE_EQ(par.max_abs_err, serial.max_abs_err);
  EXPECT_DOUBLE_EQ(par.max_rel_err, serial.max_rel_err);
  EXPECT_EQ(par.worst_index, serial.worst_index);
  ASSERT_EQ(par.first.size(), serial.first.size());
  for (size_t i = 0; i < par.first.size(); ++i) EXPECT_EQ(par.first[i].index, serial.first[i].index);
  EXPECT_EQ(par.summary("y"), serial.summary("y"));
  EXPECT_EQ(serial.mismatches, 5);
}

TEST(ParallelHost, CompareOfRawBytesMatchesTheSerialPassOnConvertedValues) {
  // f16 bytes converted a block at a time: mismatches on both sides of block (4096) and part
  // (1 << 20) boundaries, and a NaN, must come out as one serial pass over doubles finds them.
  std::vector<double> want(kN), got(kN);
  for (int64_t i = 0; i < kN; ++i) want[i] = std::sin(0.001 * static_cast<double>(i));
  std::vector<unsigned char> raw(kN * dtype_size(DType::F16));
  parallel_from_double(DType::F16, want.data(), raw.data(), kN);
  parallel_to_double(DType::F16, raw.data(), want.data(), kN);  // want is exactly representable
  for (int64_t i : {int64_t{4095}, int64_t{4096}, (int64_t{1} << 20) - 1, int64_t{1} << 20, kN - 1}) want[i] += 0.25;
  want[(int64_t{2} << 20) + 3] = std::numeric_limits<double>::quiet_NaN();
  parallel_to_double(DType::F16, raw.data(), got.data(), kN);
  Tolerance tol;
  tol.atol = 1e-3;
  CompareResult serial = compare(got.data(), want.data(), kN, DType::F16, tol, 4);
  CompareResult raw_result = compare_parallel_raw(raw.data(), want.data(), kN, DType::F16, tol, 4);
  EXPECT_EQ(serial.mismatches, 6);
  EXPECT_EQ(raw_result.summary("y"), serial.summary("y"));
  EXPECT_EQ(raw_result.worst_index, serial.worst_index);
  EXPECT_EQ(raw_result.nan_mismatches, 1);
  ASSERT_EQ(raw_result.first.size(), 4u);
  EXPECT_EQ(raw_result.first[1].index, 4096);
  EXPECT_EQ(raw_result.first[3].index, int64_t{1} << 20);
}

TEST(ParallelHost, EmptyAndTinyInputs) {
  Tolerance tol;
  tol.kind = Tolerance::Exact;
  CompareResult empty = compare_parallel(nullptr, nullptr, 0, DType::I32, tol);
  EXPECT_EQ(empty.count, 0);
  EXPECT_TRUE(empty.passed());
  double a = 1, b = 2;
  EXPECT_EQ(compare_parallel(&a, &b, 1, DType::I32, tol).mismatches, 1);
}

TEST(ParallelHost, ConversionsMatchTheSerialOnes) {
  std::vector<double> v(kN);
  for (int64_t i = 0; i < kN; ++i) v[i] = 1e-3 * static_cast<double>(i % 100003) - 37.25;
  for (DType d : {DType::F16, DType::BF16, DType::F32, DType::I32}) {
    std::vector<unsigned char> a(kN * dtype_size(d)), b(a.size());
    parallel_from_double(d, v.data(), a.data(), kN);
    from_double(d, v.data(), b.data(), static_cast<size_t>(kN));
    ASSERT_EQ(a, b) << dtype_name(d);
    std::vector<double> back_a(kN), back_b(kN);
    parallel_to_double(d, a.data(), back_a.data(), kN);
    to_double(d, b.data(), back_b.data(), static_cast<size_t>(kN));
    ASSERT_EQ(back_a, back_b) << dtype_name(d);
  }
}

// The oracle's outputs start as NaN everywhere (what it leaves unwritten must fail), written on
// the host threads; the array itself starts unwritten (host_values.h).
TEST(ParallelHost, NanFilledIsNanEverywhere) {
  for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{1000}, kN}) {
    HostValues v = nan_filled(n);
    ASSERT_EQ(static_cast<int64_t>(v.size()), n);
    int64_t not_nan = 0;
    for (double x : v) not_nan += !std::isnan(x);
    EXPECT_EQ(not_nan, 0) << "n = " << n;
  }
}

TEST(ParallelHost, HostValuesKeepValuesAcrossResizeAndConstructWithArguments) {
  HostValues v(3, 2.5);  // a value given is still written
  EXPECT_EQ(v, HostValues({2.5, 2.5, 2.5}));
  v.resize(5);  // grows without writing the new elements; the old ones stay
  EXPECT_EQ(v[0], 2.5);
  EXPECT_EQ(v[2], 2.5);
  v.assign(4, -1.0);
  EXPECT_EQ(v, HostValues({-1.0, -1.0, -1.0, -1.0}));
  HostTensors t(2);
  t[1] = std::move(v);
  EXPECT_TRUE(t[0].empty());
  EXPECT_EQ(t[1].size(), 4u);
}
