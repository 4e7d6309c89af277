// Element types of task tensors and their host-side conversions to and from double.
// The harness generates inputs and compares outputs in double, so every buffer that crosses
// the device boundary goes through to_double / from_double.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace arena {

enum class DType { F32, F16, BF16, F64, I32, I64, I8, U8 };

// "f32", "f16", "bf16", "f64", "i32", "i64", "i8", "u8"; nullopt for anything else.
std::optional<DType> parse_dtype(std::string_view name);
const char* dtype_name(DType);
size_t dtype_size(DType);  // bytes per element
bool dtype_is_float(DType);

// Converts n elements of a raw buffer (any alignment) to double. Exact for every type except
// i64 values beyond 2^53, which round to the nearest double.
void to_double(DType, const void* src, double* dst, size_t n);

// Converts n doubles into a raw buffer (any alignment) of the given type.
// Floating types: one correct rounding straight from double, round-to-nearest-even (no double
//   rounding through float), gradual underflow to subnormals, overflow to +-inf, NaN stays a
//   quiet NaN with its sign.
// Integer types: round to nearest, ties to even, then wrap modulo 2^bits (two's complement), the
//   way static_cast from a wider integer behaves, so a reference that overflows a u8 gives the
//   value an integer kernel would produce. NaN and +-inf become 0.
void from_double(DType, const double* src, void* dst, size_t n);

// IEEE binary16 and bfloat16 bit patterns, rounding to nearest even.
uint16_t float_to_half_bits(float);
float half_bits_to_float(uint16_t);
uint16_t float_to_bf16_bits(float);
float bf16_bits_to_float(uint16_t);
// The same, rounding a double directly (correctly rounded, no intermediate float).
uint16_t double_to_half_bits(double);
uint16_t double_to_bf16_bits(double);

// One unit in the last place of `want` in this type: the spacing of representable values
// in the binade of |want| (the spacing above it at a power of two), the subnormal spacing at
// or below the smallest normal, the spacing at the largest finite value beyond it, and +inf for
// inf/NaN. Integer types: 1.
double ulp_of(DType, double want);
// The distance from 1 to the next representable value (2^-10 for f16); 1 for integer types.
double dtype_epsilon(DType);

}  // namespace arena
