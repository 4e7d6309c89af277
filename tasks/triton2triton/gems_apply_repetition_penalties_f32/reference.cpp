// Host oracle: repetition penalty in double precision, in place on logits. Where either mask
// is set, a positive logit is divided by its sequence's penalty, any other multiplied by it.
#include "arena/arena_reference.h"

ARENA_REFERENCE_EXPORT int arena_reference(const arena_ref_args* a) {
  double* logits = a->tensors[0];
  const double* prompt = a->tensors[1];
  const double* output = a->tensors[2];
  const double* penalties = a->tensors[3];
  const int64_t S = a->ints[0], V = a->ints[1];
  for (int64_t s = 0; s < S; ++s)
    for (int64_t v = 0; v < V; ++v) {
      const int64_t i = s * V + v;
      if (prompt[i] == 0.0 && output[i] == 0.0) continue;
      logits[i] = logits[i] > 0.0 ? logits[i] / penalties[s] : logits[i] * penalties[s];
    }
  return 0;
}
