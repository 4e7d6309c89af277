"""Selective log-softmax (the log-probability of each next token under temperature-scaled
logits, as GRPO computes old/reference log-probabilities): liger-kernel 0.8.5 (BSD-2-Clause),
liger_kernel.ops.grpo_loss.fused_selective_log_softmax, kernel _selective_log_softmax_kernel.

The launch is the wrapper's without a mask: a (B, L) grid, one program per position, BLOCK_N =
2048, num_warps = 1, num_stages = 4, the temperature, L and N compile-time constants, the ids
of the L predicted tokens taken as the view input_ids[:, -L:]. The wrapper's torch.zeros
output is the harness's log_p, every entry of which the kernel writes."""
from liger_kernel.ops.grpo_loss import _selective_log_softmax_kernel


def launch(logits, input_ids, log_p, B, L, N, temperature):
    ids = input_ids[:, -L:]
    _selective_log_softmax_kernel[(B, L)](
        logits, ids, log_p, None, temperature,
        ids.stride(0), ids.stride(1), 0, 0, L, N,
        BLOCK_N=2048, num_stages=4, num_warps=1,
    )
