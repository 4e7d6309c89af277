"""Sampler repetition penalty, in place on fp32 logits, as flag-gems 5.0.2 (Apache-2.0)
computes it: `flag_gems.fused.apply_repetition_penalties.apply_repetition_penalties(logits,
prompt_mask, output_mask, penalties)`.

The op checks its arguments and launches `_repetition_penalty_kernel` once with
BLOCK_SIZE 1024 over a grid of (sequences, cdiv(V, 1024)); it allocates nothing. Its masks are
torch.bool tensors; the harness's masks are uint8 tensors of 0s and 1s, the same bytes, so
this module hands the op bool views of them and calls it as vLLM's sampler does."""
import torch
from flag_gems.fused.apply_repetition_penalties import apply_repetition_penalties


def launch(logits, prompt_mask, output_mask, penalties, S, V):
    apply_repetition_penalties(logits, prompt_mask.view(torch.bool), output_mask.view(torch.bool),
                               penalties)
