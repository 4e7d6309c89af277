// Host oracle: MoE token alignment. The T*K token-expert pairs (flat index t, expert
// topk_ids[t]) are grouped by expert, in increasing t within an expert; expert e's group of
// c_e pairs starts at start_e = sum over e' < e of ceil(c_e' / B) * B and is padded with the
// value T*K up to the next multiple of B; every slot past the padded total holds T*K too.
// expert_ids[b] is the expert owning block b (slots [b*B, (b+1)*B)), 0 past the total;
// num_tokens_post_pad[0] is the padded total.
#include <vector>
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  const double* ids = a->tensors[0];
  double* sorted = a->tensors[1];
  double* expert_ids = a->tensors[2];
  double* total_out = a->tensors[3];
  const int64_t T = a->ints[0], K = a->ints[1], E = a->ints[2], B = a->ints[3];
  const int64_t numel = T * K;
  std::vector<int64_t> count(E, 0), start(E, 0);
  for (int64_t t = 0; t < numel; ++t) {
    const int64_t e = static_cast<int64_t>(ids[t]);
    if (e < 0 || e >= E) return 1;
    ++count[e];
  }
  int64_t total = 0;
  for (int64_t e = 0; e < E; ++e) {
    start[e] = total;
    total += (count[e] + B - 1) / B * B;
  }
  for (int64_t p = 0; p < a->numel[1]; ++p) sorted[p] = static_cast<double>(numel);
  for (int64_t b = 0; b < a->numel[2]; ++b) expert_ids[b] = 0.0;
  std::vector<int64_t> next(start);
  for (int64_t t = 0; t < numel; ++t) sorted[next[static_cast<int64_t>(ids[t])]++] = static_cast<double>(t);
  for (int64_t e = 0; e < E; ++e)
    for (int64_t p = start[e]; p < start[e] + (count[e] + B - 1) / B * B; p += B)
      expert_ids[p / B] = static_cast<double>(e);
  total_out[0] = static_cast<double>(total);
  return 0;
}
