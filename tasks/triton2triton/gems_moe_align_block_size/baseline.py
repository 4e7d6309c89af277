"""MoE token alignment (vLLM's moe_align_block_size) as flag-gems 5.0.2 (Apache-2.0) computes it.

`flag_gems.fused.moe_align_block_size.moe_align_block_size_triton` (on stock Triton, without
FlagTree's `tle` extension) allocates two zeroed int32 scratch tensors, `cumsum` [E + 1] and
`tokens_cnts` [E + 1, E], and launches four kernels with grid (E,) (one for the cumsum):
stage 1 fills sorted_token_ids with T*K and expert_ids with 0 and counts each program's slice
of next_power_of_2(ceil(T*K / E)) ids per expert; stage 2 turns the counts into per-program
prefix sums (the vectorized version when E is a power of two); stage 3 pads each expert's
count to a multiple of B and writes the padded total and the experts' start offsets; stage 4
writes each block's expert and scatters every token to its start offset plus its rank, taken
with an atomic add. This module launches the same four kernels with the same arguments; the
two scratch tensors live in the workspace, zeroed by a small kernel of its own in place of the
wrapper's torch.zeros."""
import torch
import triton
import triton.language as tl
from flag_gems.fused.moe_align_block_size import (
    ceil_div,
    moe_align_block_size_stage1,
    moe_align_block_size_stage2,
    moe_align_block_size_stage2_vec,
    moe_align_block_size_stage3,
    moe_align_block_size_stage4,
)


@triton.jit
def zero_int32(ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(ptr + offs, 0, mask=offs < n)


def workspace_bytes(T, K, E, B):
    return 4 * (E + 1) * (E + 1)


def launch(topk_ids, sorted_token_ids, expert_ids, num_tokens_post_pad, T, K, E, B, workspace):
    numel = T * K
    numel_sorted_token_ids = sorted_token_ids.numel()
    numel_expert_ids = expert_ids.numel()
    scratch = workspace.view(torch.int32)
    cumsum = scratch[: E + 1]
    tokens_cnts = scratch[E + 1 : (E + 1) * (E + 1)]
    zero_int32[(triton.cdiv((E + 1) * (E + 1), 1024),)](scratch, (E + 1) * (E + 1), BLOCK=1024)

    # From here on, the wrapper's launches for these shapes.
    grid = (E,)
    tokens_per_thread = triton.next_power_of_2(ceil_div(numel, E))
    block_size_sorted = triton.next_power_of_2(ceil_div(numel_sorted_token_ids, E))
    block_size_expert = triton.next_power_of_2(ceil_div(numel_expert_ids, E))
    moe_align_block_size_stage1[grid](
        topk_ids, tokens_cnts, E, numel, tokens_per_thread, sorted_token_ids, expert_ids,
        numel_sorted_token_ids, numel_expert_ids, block_size_sorted, block_size_expert)
    if E == triton.next_power_of_2(E):
        moe_align_block_size_stage2_vec[grid](tokens_cnts, E)
    else:
        moe_align_block_size_stage2[grid](tokens_cnts, E)
    moe_align_block_size_stage3[(1,)](
        num_tokens_post_pad, tokens_cnts, cumsum, E, triton.next_power_of_2(E), B)
    moe_align_block_size_stage4[grid](
        topk_ids, sorted_token_ids, expert_ids, tokens_cnts, cumsum, E, B, numel, tokens_per_thread)
