#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "dtype.h"

using namespace arena;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double half_value(uint16_t bits) { return half_bits_to_float(bits); }
double bf16_value(uint16_t bits) { return bf16_bits_to_float(bits); }

uint16_t half_via_from_double(double x) {
  uint16_t bits;
  from_double(DType::F16, &x, &bits, 1);
  return bits;
}

bool half_is_nan(uint16_t b) { return (b & 0x7C00) == 0x7C00 && (b & 0x03FF) != 0; }
bool bf16_is_nan(uint16_t b) { return (b & 0x7F80) == 0x7F80 && (b & 0x007F) != 0; }

template <class Int>
std::vector<Int> ints_from(const std::vector<double>& values, DType t) {
  std::vector<Int> out(values.size());
  from_double(t, values.data(), out.data(), values.size());
  return out;
}

// Checks that `bits` is a correctly rounded (nearest, ties to even) encoding of x, by comparing
// with its neighbours in the same sign. Only for finite results.
void expect_nearest_even(double x, uint16_t bits, double (*value)(uint16_t)) {
  const double got = value(bits);
  const double err = std::fabs(x - got);
  const uint16_t magnitude = bits & 0x7FFF;
  const uint16_t sign = bits & 0x8000;
  for (int step : {-1, 1}) {
    if (magnitude == 0 && step < 0) continue;
    const double neighbour = value(static_cast<uint16_t>(sign | (magnitude + step)));
    if (std::isinf(neighbour)) continue;
    const double other_err = std::fabs(x - neighbour);
    ASSERT_LE(err, other_err) << "x=" << x << " bits=" << bits;
    if (err == other_err) {
      ASSERT_EQ(bits & 1, 0) << "tie not to even: x=" << x;
    }
  }
}

}  // namespace

TEST(DType, NamesParseAndSizes) {
  const DType all[] = {DType::F32, DType::F16, DType::BF16, DType::F64,
                       DType::I32, DType::I64, DType::I8,  DType::U8};
  const size_t sizes[] = {4, 2, 2, 8, 4, 8, 1, 1};
  for (size_t i = 0; i < 8; ++i) {
    auto parsed = parse_dtype(dtype_name(all[i]));
    ASSERT_TRUE(parsed.has_value()) << dtype_name(all[i]);
    EXPECT_EQ(*parsed, all[i]);
    EXPECT_EQ(dtype_size(all[i]), sizes[i]);
    EXPECT_EQ(dtype_is_float(all[i]), i < 4);
  }
  EXPECT_STREQ(dtype_name(DType::BF16), "bf16");
  EXPECT_FALSE(parse_dtype("F32").has_value());
  EXPECT_FALSE(parse_dtype("float").has_value());
  EXPECT_FALSE(parse_dtype("").has_value());
}

TEST(DType, HalfKnownEncodings) {
  EXPECT_EQ(float_to_half_bits(1.0f), 0x3C00);
  EXPECT_EQ(float_to_half_bits(-2.0f), 0xC000);
  EXPECT_EQ(float_to_half_bits(0.5f), 0x3800);
  EXPECT_EQ(float_to_half_bits(65504.0f), 0x7BFF);
  EXPECT_EQ(float_to_half_bits(0.0f), 0x0000);
  EXPECT_EQ(float_to_half_bits(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(float_to_half_bits(std::ldexp(1023.0f, -24)), 0x03FF);  // largest subnormal
  EXPECT_EQ(half_bits_to_float(0x3555), 0.333251953125f);
  EXPECT_EQ(half_bits_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(half_bits_to_float(0xFBFF), -65504.0f);
}

TEST(DType, HalfRoundsTiesToEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
  EXPECT_EQ(float_to_half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3C00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: goes to 1 + 2^-9.
  EXPECT_EQ(float_to_half_bits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
  EXPECT_EQ(half_bits_to_float(0x3C02), 1.0f + std::ldexp(1.0f, -9));
  // Just above the tie rounds up.
  EXPECT_EQ(float_to_half_bits(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -23)), 0x3C01);
  EXPECT_EQ(float_to_half_bits(-(1.0f + std::ldexp(1.0f, -11))), 0xBC00);
}

TEST(DType, HalfFromDoubleRoundsOnceNotThroughFloat) {
  // Just above a tie by 2^-40: through float this would collapse onto the tie and go down.
  const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  ASSERT_EQ(static_cast<double>(static_cast<float>(x)), 1.0 + std::ldexp(1.0, -11));
  EXPECT_EQ(double_to_half_bits(x), 0x3C01);
  EXPECT_EQ(half_via_from_double(x), 0x3C01);
  EXPECT_EQ(double_to_bf16_bits(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), 0x3F81);
}

TEST(DType, HalfSubnormalsUnderflowAndOverflow) {
  EXPECT_EQ(double_to_half_bits(std::ldexp(1.0, -25)), 0x0000);   // tie between 0 and 1 unit
  EXPECT_EQ(double_to_half_bits(-std::ldexp(1.0, -25)), 0x8000);  // keeps the sign
  EXPECT_EQ(double_to_half_bits(std::ldexp(1.0, -25) * 1.0000001), 0x0001);
  EXPECT_EQ(double_to_half_bits(3 * std::ldexp(1.0, -25)), 0x0002);  // tie 1|2 -> 2
  EXPECT_EQ(double_to_half_bits(std::ldexp(1.0, -26)), 0x0000);
  EXPECT_EQ(double_to_half_bits(std::ldexp(1.0, -1074)), 0x0000);  // double subnormal
  // Halfway between the largest subnormal and the smallest normal: even is the normal.
  EXPECT_EQ(double_to_half_bits(std::ldexp(1023.5, -24)), 0x0400);
  EXPECT_EQ(double_to_half_bits(std::ldexp(1022.5, -24)), 0x03FE);

  EXPECT_EQ(double_to_half_bits(65519.99), 0x7BFF);  // below the midpoint to 65536
  EXPECT_EQ(double_to_half_bits(65520.0), 0x7C00);   // the midpoint rounds to even: inf
  EXPECT_EQ(double_to_half_bits(1e6), 0x7C00);
  EXPECT_EQ(double_to_half_bits(-1e300), 0xFC00);
  EXPECT_EQ(double_to_half_bits(kInf), 0x7C00);
  EXPECT_EQ(double_to_half_bits(-kInf), 0xFC00);
  EXPECT_TRUE(std::isinf(half_bits_to_float(0x7C00)));
  EXPECT_TRUE(half_is_nan(double_to_half_bits(kNaN)));
  EXPECT_TRUE(std::isnan(half_bits_to_float(0x7E00)));
  EXPECT_TRUE(std::isnan(half_bits_to_float(0xFC01)));
  // A NaN whose payload lies only in low bits must not turn into inf.
  const double low_payload_nan = [] {
    uint64_t b = 0x7FF0000000000001ull;
    double d;
    std::memcpy(&d, &b, sizeof d);
    return d;
  }();
  EXPECT_TRUE(half_is_nan(double_to_half_bits(low_payload_nan)));
  EXPECT_TRUE(bf16_is_nan(double_to_bf16_bits(low_payload_nan)));
}

TEST(DType, HalfAndBf16EveryPatternRoundTrips) {
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    if (half_is_nan(bits)) {
      EXPECT_TRUE(std::isnan(half_bits_to_float(bits)));
      EXPECT_TRUE(half_is_nan(float_to_half_bits(half_bits_to_float(bits))));
    } else {
      ASSERT_EQ(float_to_half_bits(half_bits_to_float(bits)), bits) << "half " << b;
    }
    if (bf16_is_nan(bits)) {
      EXPECT_TRUE(bf16_is_nan(float_to_bf16_bits(bf16_bits_to_float(bits))));
    } else {
      ASSERT_EQ(float_to_bf16_bits(bf16_bits_to_float(bits)), bits) << "bf16 " << b;
    }
  }
}

TEST(DType, RandomValuesRoundToNearestEven) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-28, 14);  // stays below the f16 overflow
  for (int i = 0; i < 100000; ++i) {
    double x = std::ldexp(mantissa(rng), exponent(rng)) * (i % 2 ? -1 : 1);
    // Every 4th value is made an exact tie of the half grid to exercise the even rule.
    if (i % 4 == 0) x = half_value(double_to_half_bits(x)) + 0.5 * ulp_of(DType::F16, x);
    if (!std::isfinite(x)) continue;
    const uint16_t h = double_to_half_bits(x);
    if (!std::isinf(half_value(h))) expect_nearest_even(x, h, half_value);
    const uint16_t b = double_to_bf16_bits(x);
    expect_nearest_even(x, b, bf16_value);
  }
}

TEST(DType, Bf16Rounding) {
  EXPECT_EQ(float_to_bf16_bits(1.0f), 0x3F80);
  EXPECT_EQ(float_to_bf16_bits(-1.0f), 0xBF80);
  EXPECT_EQ(float_to_bf16_bits(1.0f + std::ldexp(1.0f, -8)), 0x3F80);      // tie -> even
  EXPECT_EQ(float_to_bf16_bits(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);  // tie -> even
  EXPECT_EQ(float_to_bf16_bits(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 0x3F81);
  EXPECT_EQ(bf16_bits_to_float(0x3F81), 1.0f + std::ldexp(1.0f, -7));
  EXPECT_EQ(float_to_bf16_bits(std::numeric_limits<float>::max()), 0x7F80);  // rounds up to inf
  EXPECT_EQ(bf16_bits_to_float(0x7F7F), std::ldexp(255.0f, 120));           // largest finite
  EXPECT_EQ(float_to_bf16_bits(std::ldexp(1.0f, -133)), 0x0001);             // smallest subnormal
  EXPECT_EQ(float_to_bf16_bits(std::ldexp(1.0f, -134)), 0x0000);             // tie -> 0
  EXPECT_TRUE(bf16_is_nan(float_to_bf16_bits(std::numeric_limits<float>::quiet_NaN())));
}

TEST(DType, FloatBuffersRoundTripAndRound) {
  const std::vector<double> values = {0.0, -1.5, 3.140625, 1e-3, -65504, kInf, -kInf};
  for (DType t : {DType::F32, DType::F16, DType::BF16, DType::F64}) {
    std::vector<unsigned char> raw(values.size() * dtype_size(t));
    std::vector<double> back(values.size());
    from_double(t, values.data(), raw.data(), values.size());
    to_double(t, raw.data(), back.data(), values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i] == 1e-3 && t != DType::F64) {
        EXPECT_NEAR(back[i], 1e-3, 1e-3 * dtype_epsilon(t)) << dtype_name(t);
      } else if (t == DType::BF16 && values[i] == -65504) {
        EXPECT_EQ(back[i], -65536) << "bf16 has 8 bits of precision";
      } else {
        EXPECT_EQ(back[i], values[i]) << dtype_name(t) << " [" << i << "]";
      }
    }
  }
  // f32: ties to even, overflow to inf.
  const std::vector<double> narrow = {1.0 + std::ldexp(1.0, -24), 1e300, -1e300};
  std::vector<float> f(3);
  from_double(DType::F32, narrow.data(), f.data(), 3);
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_TRUE(std::isinf(f[1]) && f[1] > 0);
  EXPECT_TRUE(std::isinf(f[2]) && f[2] < 0);
}

TEST(DType, UnalignedBuffers) {
  std::vector<unsigned char> raw(1 + 3 * sizeof(double));
  const double values[] = {1.25, -2.5, 1e100};
  from_double(DType::F64, values, raw.data() + 1, 3);
  double back[3];
  to_double(DType::F64, raw.data() + 1, back, 3);
  EXPECT_EQ(back[2], 1e100);
  from_double(DType::I32, values, raw.data() + 1, 2);
  to_double(DType::I32, raw.data() + 1, back, 2);
  EXPECT_EQ(back[0], 1);
  EXPECT_EQ(back[1], -2);
}

TEST(DType, IntegersRoundHalfEven) {
  auto r = ints_from<int32_t>({2.5, 3.5, -2.5, -0.5, 0.5, 1.4999, 1.5001, -7.6, 0.0}, DType::I32);
  EXPECT_EQ(r, (std::vector<int32_t>{2, 4, -2, 0, 0, 1, 2, -8, 0}));
}

TEST(DType, IntegersWrapModuloLikeStaticCast) {
  EXPECT_EQ(ints_from<uint8_t>({300, -1, 255.5, 254.5, 255}, DType::U8),
            (std::vector<uint8_t>{44, 255, 0, 254, 255}));
  EXPECT_EQ(ints_from<int8_t>({127, 128, -128, -129, 383}, DType::I8),
            (std::vector<int8_t>{127, -128, -128, 127, 127}));
  EXPECT_EQ(ints_from<int32_t>({2147483647.0, 2147483648.0, -2147483648.0, 4294967296.0 + 5},
                               DType::I32),
            (std::vector<int32_t>{INT32_MAX, INT32_MIN, INT32_MIN, 5}));
  EXPECT_EQ(ints_from<int64_t>({std::ldexp(1.0, 62), -std::ldexp(1.0, 63), std::ldexp(1.0, 63),
                                std::ldexp(1.0, 64) + std::ldexp(1.0, 12)},
                               DType::I64),
            (std::vector<int64_t>{int64_t{1} << 62, INT64_MIN, INT64_MIN, 4096}));
  EXPECT_EQ(ints_from<int32_t>({kNaN, kInf, -kInf}, DType::I32), (std::vector<int32_t>{0, 0, 0}));
}

TEST(DType, IntegersToDouble) {
  const int64_t i64[] = {INT64_MIN, -1, (int64_t{1} << 53) + 1};
  double d[3];
  to_double(DType::I64, i64, d, 3);
  EXPECT_EQ(d[0], -std::ldexp(1.0, 63));
  EXPECT_EQ(d[1], -1);
  EXPECT_EQ(d[2], std::ldexp(1.0, 53));  // beyond 2^53 rounds to the nearest double
  const uint8_t u8[] = {0, 200, 255};
  to_double(DType::U8, u8, d, 3);
  EXPECT_EQ(d[1], 200);
  EXPECT_EQ(d[2], 255);
  const int8_t i8[] = {-128, 5, 127};
  to_double(DType::I8, i8, d, 3);
  EXPECT_EQ(d[0], -128);
  EXPECT_EQ(d[2], 127);
  const int32_t i32[] = {INT32_MIN, INT32_MAX};
  std::vector<int32_t> back(2);
  to_double(DType::I32, i32, d, 2);
  from_double(DType::I32, d, back.data(), 2);
  EXPECT_EQ(back, (std::vector<int32_t>{INT32_MIN, INT32_MAX}));
}

TEST(DType, UlpAndEpsilon) {
  EXPECT_EQ(ulp_of(DType::F32, 1.0), std::ldexp(1.0, -23));
  EXPECT_EQ(ulp_of(DType::F32, 1.99), std::ldexp(1.0, -23));
  EXPECT_EQ(ulp_of(DType::F32, -2.0), std::ldexp(1.0, -22));
  EXPECT_EQ(ulp_of(DType::F32, 0.0), std::ldexp(1.0, -149));
  EXPECT_EQ(ulp_of(DType::F32, 1e-40), std::ldexp(1.0, -149));  // subnormal
  EXPECT_EQ(ulp_of(DType::F16, 1.0), std::ldexp(1.0, -10));
  EXPECT_EQ(ulp_of(DType::F16, 1000.0), 0.5);
  EXPECT_EQ(ulp_of(DType::F16, 65504.0), 32.0);
  EXPECT_EQ(ulp_of(DType::F16, 1e6), 32.0);  // beyond the largest finite
  EXPECT_EQ(ulp_of(DType::F16, std::ldexp(1.0, -20)), std::ldexp(1.0, -24));
  EXPECT_EQ(ulp_of(DType::BF16, 1.0), std::ldexp(1.0, -7));
  EXPECT_EQ(ulp_of(DType::BF16, 3e38), std::ldexp(1.0, 120));
  EXPECT_EQ(ulp_of(DType::F64, 1.0), std::ldexp(1.0, -52));
  EXPECT_EQ(ulp_of(DType::I32, 12345.0), 1.0);
  EXPECT_TRUE(std::isinf(ulp_of(DType::F32, kInf)));
  EXPECT_EQ(dtype_epsilon(DType::F32), static_cast<double>(std::numeric_limits<float>::epsilon()));
  EXPECT_EQ(dtype_epsilon(DType::F64), std::numeric_limits<double>::epsilon());
  EXPECT_EQ(dtype_epsilon(DType::F16), std::ldexp(1.0, -10));
  EXPECT_EQ(dtype_epsilon(DType::BF16), std::ldexp(1.0, -7));
  EXPECT_EQ(dtype_epsilon(DType::U8), 1.0);
}
