// Host oracle: paged-KV-cache decode attention in double precision.
// Tensors: query [B, HQ, D], key_cache and value_cache [NB, BS, HKV, D], block_table
// [B, MAXBLK] (physical block of each logical block), seq_lens [B], out [B, HQ, D].
// Params: B, HQ, HKV, D, NB, BS, MAXBLK. Query head h reads KV head h / (HQ / HKV); token t
// of sequence b sits in slot t % BS of block block_table[b][t / BS];
// out = softmax(q . k_t / sqrt(D), t < seq_lens[b]) . v.
#include <cmath>
#include <vector>
#include "arena/arena_reference.h"
#include "../../_oracles/oracle_helpers.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* q = a->tensors[0];
  const double* kc = a->tensors[1];
  const double* vc = a->tensors[2];
  const double* table = a->tensors[3];
  const double* lens = a->tensors[4];
  double* out = a->tensors[5];
  const int64_t B = a->ints[0], HQ = a->ints[1], HKV = a->ints[2], D = a->ints[3];
  const int64_t NB = a->ints[4], BS = a->ints[5], MAXBLK = a->ints[6];
  if (HKV < 1 || HQ % HKV != 0) return 1;
  const int64_t group = HQ / HKV;
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  std::vector<double> s;
  for (int64_t b = 0; b < B; ++b) {
    const int64_t len = static_cast<int64_t>(lens[b]);
    if (len < 1 || len > MAXBLK * BS) return 2;
    s.assign(len, 0.0);
    for (int64_t h = 0; h < HQ; ++h) {
      const double* qh = q + (b * HQ + h) * D;
      const int64_t kvh = h / group;
      auto row = [&](const double* cache, int64_t t) {
        const int64_t blk = static_cast<int64_t>(table[b * MAXBLK + t / BS]);
        return cache + ((blk * BS + t % BS) * HKV + kvh) * D;
      };
      for (int64_t t = 0; t < len; ++t) {
        const int64_t blk = static_cast<int64_t>(table[b * MAXBLK + t / BS]);
        if (blk < 0 || blk >= NB) return 3;
        const double* kt = row(kc, t);
        double dot = 0.0;
        for (int64_t d = 0; d < D; ++d) dot += qh[d] * kt[d];
        s[t] = dot * scale;
      }
      const double mx = oracle::row_max(s.data(), len);
      const double denom = oracle::sum_exp(s.data(), len, mx);
      double* o = out + (b * HQ + h) * D;
      for (int64_t d = 0; d < D; ++d) o[d] = 0.0;
      for (int64_t t = 0; t < len; ++t) {
        const double p = std::exp(s[t] - mx) / denom;
        const double* vt = row(vc, t);
        for (int64_t d = 0; d < D; ++d) o[d] += p * vt[d];
      }
    }
  }
  return 0;
}
