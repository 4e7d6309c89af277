// Host oracle: bitsandbytes NF4 blockwise dequantization in double precision. Byte i of Q holds
// two 4-bit codes, the high nibble for output 2i and the low one for output 2i + 1; output j is
// NF4[code] * absmax[j / 64]. NF4 is QLoRA's 4-bit NormalFloat code book.
#include <cstdint>

#include "arena/arena_reference.h"

namespace {

const double kNF4[16] = {-1.0,
                         -0.6961928009986877,
                         -0.5250730514526367,
                         -0.39491748809814453,
                         -0.28444138169288635,
                         -0.18477343022823334,
                         -0.09105003625154495,
                         0.0,
                         0.07958029955625534,
                         0.16093020141124725,
                         0.24611230194568634,
                         0.33791524171829224,
                         0.44070982933044434,
                         0.5626170039176941,
                         0.7229568362236023,
                         1.0};

}  // namespace

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* Q = a->tensors[0];
  const double* absmax = a->tensors[1];
  double* out = a->tensors[2];
  const int64_t n = a->ints[0] * a->ints[1];
  for (int64_t j = 0; j < n; ++j) {
    const int byte = static_cast<int>(Q[j / 2]);
    const int code = (j % 2 == 0) ? (byte >> 4) : (byte & 15);
    out[j] = kNF4[code] * absmax[j / 64];
  }
  return 0;
}
