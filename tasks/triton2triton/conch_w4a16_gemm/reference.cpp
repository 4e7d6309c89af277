// Host oracle: C[m][n] = sum_k x[m][k] * w[k][n] in double precision, with the GPTQ-style 4-bit
// weight w[k][n] = (code - 8) * scales[k / 128][n], code = bits 4*(k % 8) .. 4*(k % 8) + 3 of the
// int32 word Wq[k / 8][n] (x [M, K], Wq [K/8, N], scales [K/128, N], all row-major). The
// dequantized weights are exact in double (no fp16 rounding of the product).
#include <cstdint>
#include <vector>

#include "arena/arena_reference.h"
#include "../../_oracles/oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const int64_t M = a->ints[0];
  const int64_t N = a->ints[1];
  const int64_t K = a->ints[2];
  const double* Wq = a->tensors[1];
  const double* scales = a->tensors[2];
  std::vector<double> w(K * N);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n) {
      const uint32_t word = static_cast<uint32_t>(static_cast<int64_t>(Wq[(k / 8) * N + n]));
      const int code = static_cast<int>((word >> (4 * (k % 8))) & 15u);
      w[k * N + n] = (code - 8) * scales[(k / 128) * N + n];
    }
  oracle::gemm(a->tensors[0], w.data(), a->tensors[3], M, N, K);
  return 0;
}
