"""MoE token alignment (vLLM's moe_align_block_size) for a decode step, in one launch.

The package needs five launches for this (a scratch zero fill, a per-expert count, a prefix
sum over programs, the padded offsets, the scatter) plus an (E + 1) x E count table, and in
a decode step with a few hundred token-expert pairs every one of them is almost pure launch
latency. Here a single program does it all in registers: a histogram of the T*K expert ids
gives the counts, two cumsums the padded start offsets and the padded total; sorting the
keys expert * BLOCK_N + position puts the pairs in expert-then-token order, so the i-th sorted
pair goes to i plus the padding of all earlier experts (one gather from a per-expert table).
Padding slots, the tail beyond the padded total and expert_ids are written with vector stores
over the experts; every position is written exactly once, so no barrier is needed."""
import triton
import triton.language as tl

FILL = 1024


@triton.jit
def moe_align_one_program(ids_ptr, sorted_ptr, expert_ids_ptr, total_ptr, numel, E, B,
                          n_sorted, n_blocks, BLOCK_N: tl.constexpr, BLOCK_E: tl.constexpr,
                          FILL: tl.constexpr):
    i = tl.arange(0, BLOCK_N)
    valid = i < numel
    ids = tl.load(ids_ptr + i, mask=valid, other=0)
    e = tl.arange(0, BLOCK_E)
    e_ok = e < E
    counts = tl.histogram(ids, BLOCK_E, mask=valid)
    aligned = (counts + B - 1) // B * B
    start = tl.cumsum(aligned, 0) - aligned
    lower = tl.cumsum(counts, 0) - counts
    total = tl.sum(aligned, 0)
    tl.store(total_ptr, total)

    # Token slots: the sorted (expert, position) keys, each moved past earlier experts' padding.
    keys = tl.where(valid, ids * BLOCK_N + i, BLOCK_E * BLOCK_N)
    skeys = tl.sort(keys)
    s_exp = tl.where(valid, skeys // BLOCK_N, 0)
    dest = i + tl.gather(start - lower, s_exp, 0)
    tl.store(sorted_ptr + dest, skeys % BLOCK_N, mask=valid)

    # Padding slots after each expert's tokens, then everything past the padded total.
    pad = aligned - counts
    for j in range(0, tl.max(pad, 0)):
        tl.store(sorted_ptr + start + counts + j, numel, mask=e_ok & (j < pad))
    for s in range(total, n_sorted, FILL):
        p = s + tl.arange(0, FILL)
        tl.store(sorted_ptr + p, numel, mask=p < n_sorted)

    # Each expert's blocks, then zeros for the blocks past the padded total.
    nb = aligned // B
    first = start // B
    for j in range(0, tl.max(nb, 0)):
        tl.store(expert_ids_ptr + first + j, e, mask=e_ok & (j < nb))
    for s in range(total // B, n_blocks, FILL):
        p = s + tl.arange(0, FILL)
        tl.store(expert_ids_ptr + p, 0, mask=p < n_blocks)


def launch(topk_ids, sorted_token_ids, expert_ids, num_tokens_post_pad, T, K, E, B):
    numel = T * K
    block_n = triton.next_power_of_2(numel)
    block_e = triton.next_power_of_2(E)
    num_warps = 4 if max(block_n, block_e) <= 256 else 8
    moe_align_one_program[(1,)](topk_ids, sorted_token_ids, expert_ids, num_tokens_post_pad,
                                numel, E, B, sorted_token_ids.numel(), expert_ids.numel(),
                                BLOCK_N=block_n, BLOCK_E=block_e, FILL=FILL, num_warps=num_warps)
