"""MoE router top-k softmax as flag-gems 5.0.2 (Apache-2.0) computes it.

`flag_gems.fused.topk_softmax.topk_softmax(topk_weights, topk_ids, token_expert_indices,
logits, renormalize)` only picks the launch parameters (BLOCK_SIZE_EXPERTS =
next_power_of_2(E) rounded up to 32, 1024 // that many rows per program with 4 warps, or one
row and one warp when E > 128) and launches `topk_gating_softmax_kernel` once on the given
tensors, so this module calls it as vLLM's MoE layer does. The kernel computes the row's
softmax in fp32, then K times takes the arg-max, stores it (one column of the outputs per
step) and masks it out; with renormalize it reads the K weights back and divides by their
sum."""
from flag_gems.fused.topk_softmax import topk_softmax


def launch(logits, topk_weights, topk_ids, token_expert_indices, T, E, K, renormalize):
    topk_softmax(topk_weights, topk_ids, token_expert_indices, logits, bool(renormalize))
