#include "dtype.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace arena {

namespace {

struct DTypeInfo {
  DType type;
  const char* name;
  size_t size;
  bool is_float;
};

constexpr DTypeInfo kDTypes[] = {
    {DType::F32, "f32", 4, true},  {DType::F16, "f16", 2, true}, {DType::BF16, "bf16", 2, true},
    {DType::F64, "f64", 8, true},  {DType::I32, "i32", 4, false}, {DType::I64, "i64", 8, false},
    {DType::I8, "i8", 1, false},   {DType::U8, "u8", 1, false},
};

const DTypeInfo& info(DType t) {
  for (const auto& i : kDTypes)
    if (i.type == t) return i;
  throw std::invalid_argument("unknown DType value " + std::to_string(static_cast<int>(t)));
}

// An IEEE-style binary floating-point layout: sign, exp_bits of biased exponent, mant_bits of
// fraction. One generic encoder/decoder serves f16, bf16 (and, for ulp_of, f32/f64).
struct FloatFormat {
  int exp_bits;
  int mant_bits;
  int bias() const { return (1 << (exp_bits - 1)) - 1; }
  int min_exp() const { return 1 - bias(); }  // unbiased exponent of the smallest normal
  int max_exp() const { return bias(); }      // unbiased exponent of the largest finite
  uint64_t exp_field_all_ones() const { return (uint64_t{1} << exp_bits) - 1; }
  uint64_t inf_bits() const { return exp_field_all_ones() << mant_bits; }
  uint64_t sign_bit() const { return uint64_t{1} << (exp_bits + mant_bits); }
};

constexpr FloatFormat kHalf{5, 10};
constexpr FloatFormat kBf16{8, 7};
constexpr FloatFormat kF32{8, 23};
constexpr FloatFormat kF64{11, 52};

const FloatFormat& float_format(DType t) {
  switch (t) {
    case DType::F16: return kHalf;
    case DType::BF16: return kBf16;
    case DType::F32: return kF32;
    case DType::F64: return kF64;
    default: throw std::invalid_argument(std::string("not a floating dtype: ") + dtype_name(t));
  }
}

// sig / 2^shift rounded to the nearest integer, ties to even.
uint64_t shift_right_round_even(uint64_t sig, int shift) {
  if (shift <= 0) return sig << -shift;
  if (shift >= 64) return 0;  // sig < 2^53, so the quotient is below one half
  uint64_t quotient = sig >> shift;
  uint64_t remainder = sig & ((uint64_t{1} << shift) - 1);
  uint64_t half = uint64_t{1} << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1))) ++quotient;
  return quotient;
}

// Rounds x once, directly from double, to the nearest value of format f (ties to even).
uint64_t encode(double x, const FloatFormat& f) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const uint64_t sign = (bits >> 63) ? f.sign_bit() : 0;
  const int dexp = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t dmant = bits & ((uint64_t{1} << 52) - 1);

  if (dexp == 0x7ff) {
    if (dmant == 0) return sign | f.inf_bits();
    // Keep the top payload bits and set the quiet bit, which also keeps the NaN from becoming inf.
    uint64_t payload = dmant >> (52 - f.mant_bits);
    return sign | f.inf_bits() | payload | (uint64_t{1} << (f.mant_bits - 1));
  }
  if (dexp == 0 && dmant == 0) return sign;

  // |x| = sig * 2^e exactly.
  const uint64_t sig = dexp ? (dmant | (uint64_t{1} << 52)) : dmant;
  const int e = dexp ? dexp - 1075 : -1074;
  // Below the smallest normal the spacing stays that of the smallest binade (gradual underflow).
  const int target_exp = std::max(std::ilogb(x), f.min_exp());
  const uint64_t units = shift_right_round_even(sig, target_exp - f.mant_bits - e);
  // The encoding is monotone in `units`: this one formula covers subnormals
  // (target_exp == min_exp, units < 2^mant_bits), a rounding carry into the next binade,
  // and overflow (caught by the comparison with the infinity pattern).
  const uint64_t magnitude =
      (static_cast<uint64_t>(target_exp + f.bias()) << f.mant_bits) + units -
      (uint64_t{1} << f.mant_bits);
  return sign | std::min(magnitude, f.inf_bits());
}

double decode(uint64_t bits, const FloatFormat& f) {
  const bool negative = (bits & f.sign_bit()) != 0;
  const uint64_t exp_field = (bits >> f.mant_bits) & f.exp_field_all_ones();
  const uint64_t mant = bits & ((uint64_t{1} << f.mant_bits) - 1);
  double magnitude;
  if (exp_field == f.exp_field_all_ones())
    magnitude = mant ? std::numeric_limits<double>::quiet_NaN()
                     : std::numeric_limits<double>::infinity();
  else if (exp_field == 0)
    magnitude = std::ldexp(static_cast<double>(mant), f.min_exp() - f.mant_bits);
  else
    magnitude = std::ldexp(static_cast<double>(mant | (uint64_t{1} << f.mant_bits)),
                           static_cast<int>(exp_field) - f.bias() - f.mant_bits);
  return negative ? -magnitude : magnitude;
}

double round_half_even(double x) {
  double r = std::round(x);  // ties away from zero
  if (std::fabs(x - std::trunc(x)) == 0.5) r = 2.0 * std::round(x / 2.0);
  return r;
}

// x rounded to an integer and reduced modulo 2^64; the caller narrows it (two's complement).
uint64_t round_and_wrap(double x) {
  if (!std::isfinite(x)) return 0;
  const double r = round_half_even(x);
  const double two_pow_64 = 18446744073709551616.0;
  const uint64_t magnitude = static_cast<uint64_t>(std::fmod(std::fabs(r), two_pow_64));
  return r < 0 ? uint64_t{0} - magnitude : magnitude;
}

// Raw buffers may come from anywhere (file mappings, packed arenas), so go through memcpy.
template <class Stored, class Convert>
void load_each(const void* src, double* dst, size_t n, Convert convert) {
  const auto* bytes = static_cast<const unsigned char*>(src);
  for (size_t i = 0; i < n; ++i) {
    Stored v;
    std::memcpy(&v, bytes + i * sizeof(Stored), sizeof(Stored));
    dst[i] = convert(v);
  }
}

template <class Stored, class Convert>
void store_each(const double* src, void* dst, size_t n, Convert convert) {
  auto* bytes = static_cast<unsigned char*>(dst);
  for (size_t i = 0; i < n; ++i) {
    const Stored v = convert(src[i]);
    std::memcpy(bytes + i * sizeof(Stored), &v, sizeof(Stored));
  }
}

template <class Int>
void load_int(const void* src, double* dst, size_t n) {
  load_each<Int>(src, dst, n, [](Int v) { return static_cast<double>(v); });
}

template <class Int>
void store_int(const double* src, void* dst, size_t n) {
  store_each<Int>(src, dst, n, [](double x) { return static_cast<Int>(round_and_wrap(x)); });
}

}  // namespace

std::optional<DType> parse_dtype(std::string_view name) {
  for (const auto& i : kDTypes)
    if (name == i.name) return i.type;
  return std::nullopt;
}

const char* dtype_name(DType t) { return info(t).name; }
size_t dtype_size(DType t) { return info(t).size; }
bool dtype_is_float(DType t) { return info(t).is_float; }

uint16_t double_to_half_bits(double x) { return static_cast<uint16_t>(encode(x, kHalf)); }
uint16_t double_to_bf16_bits(double x) { return static_cast<uint16_t>(encode(x, kBf16)); }
// float -> double is exact, so rounding from the double is rounding from the float.
uint16_t float_to_half_bits(float x) { return double_to_half_bits(x); }
uint16_t float_to_bf16_bits(float x) { return double_to_bf16_bits(x); }
float half_bits_to_float(uint16_t bits) { return static_cast<float>(decode(bits, kHalf)); }
float bf16_bits_to_float(uint16_t bits) { return static_cast<float>(decode(bits, kBf16)); }

// static_cast<float>(double) rounds to nearest even and overflows to inf on IEEE targets.
static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "host conversions assume IEEE 754 float and double");

void to_double(DType t, const void* src, double* dst, size_t n) {
  switch (t) {
    case DType::F32: return load_each<float>(src, dst, n, [](float v) { return double{v}; });
    case DType::F64: return load_each<double>(src, dst, n, [](double v) { return v; });
    case DType::F16:
      return load_each<uint16_t>(src, dst, n, [](uint16_t b) { return decode(b, kHalf); });
    case DType::BF16:
      return load_each<uint16_t>(src, dst, n, [](uint16_t b) { return decode(b, kBf16); });
    case DType::I32: return load_int<int32_t>(src, dst, n);
    case DType::I64: return load_int<int64_t>(src, dst, n);
    case DType::I8: return load_int<int8_t>(src, dst, n);
    case DType::U8: return load_int<uint8_t>(src, dst, n);
  }
  throw std::invalid_argument("to_double: unknown dtype");
}

void from_double(DType t, const double* src, void* dst, size_t n) {
  switch (t) {
    case DType::F32:
      return store_each<float>(src, dst, n, [](double x) { return static_cast<float>(x); });
    case DType::F64: return store_each<double>(src, dst, n, [](double x) { return x; });
    case DType::F16: return store_each<uint16_t>(src, dst, n, double_to_half_bits);
    case DType::BF16: return store_each<uint16_t>(src, dst, n, double_to_bf16_bits);
    case DType::I32: return store_int<int32_t>(src, dst, n);
    case DType::I64: return store_int<int64_t>(src, dst, n);
    case DType::I8: return store_int<int8_t>(src, dst, n);
    case DType::U8: return store_int<uint8_t>(src, dst, n);
  }
  throw std::invalid_argument("from_double: unknown dtype");
}

double ulp_of(DType t, double want) {
  if (!dtype_is_float(t)) return 1.0;
  if (!std::isfinite(want)) return std::numeric_limits<double>::infinity();
  const FloatFormat& f = float_format(t);
  int exponent = want == 0 ? f.min_exp() : std::ilogb(want);
  exponent = std::clamp(exponent, f.min_exp(), f.max_exp());
  return std::ldexp(1.0, exponent - f.mant_bits);
}

double dtype_epsilon(DType t) {
  if (!dtype_is_float(t)) return 1.0;
  return std::ldexp(1.0, -float_format(t).mant_bits);
}

}  // namespace arena
