"""MoE combine, y[t] = sum_k x[t, k] over a token's K expert rows, fp32 accumulation,
one rounding to bf16.

The package kernel loops over the K rows with K a run-time value, so each step's load waits
for the previous step, and a program covers one token's block of at most 1024 values with
4-value (8-byte) accesses per lane. Here K is a compile-time constant: the K loads of a tile
are unrolled and all in flight at once. A program takes a BLOCK_T x BLOCK_H tile (about 2048
outputs, 8 warps, so each lane moves 16-byte vectors) and packs several tokens into it when the
hidden size is small.

That wins only where each of the package's programs moves little data: with one or two
expert rows per token it measured 1.043 [1.040, 1.047] at T=16384 K=2 H=4096 on an H200. At
K=8 the package's autotuned kernel already streams x at 0.89-0.91 of peak bandwidth and the
tiles here measured 0.967-0.970, so for K above 2 the package's op is called on the harness's
tensors, as the baseline calls it (the task is at_limit, task.json)."""
import triton
import triton.language as tl
from flag_gems.fused.moe_sum import moe_sum

OWN_UP_TO_K = 2  # expert rows per token up to which the tiles here beat the package

TILE = 2048


@triton.jit
def moe_sum_tiles(x_ptr, y_ptr, T, H, K: tl.constexpr, BLOCK_T: tl.constexpr,
                  BLOCK_H: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    h = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    mask = (t < T)[:, None] & (h < H)[None, :]
    src = x_ptr + t.to(tl.int64)[:, None] * (K * H) + h[None, :]
    acc = tl.zeros([BLOCK_T, BLOCK_H], dtype=tl.float32)
    for k in tl.static_range(K):
        acc += tl.load(src + k * H, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + t.to(tl.int64)[:, None] * H + h[None, :], acc.to(tl.bfloat16), mask=mask)


def launch(x, y, T, K, H):
    if K > OWN_UP_TO_K:
        moe_sum(x, y)
        return
    block_h = min(1024, triton.next_power_of_2(H))
    block_t = max(1, min(TILE // block_h, triton.next_power_of_2(T)))
    num_warps = max(1, min(8, block_t * block_h // 256))
    grid = (triton.cdiv(T, block_t), triton.cdiv(H, block_h))
    moe_sum_tiles[grid](x, y, T, H, K=K, BLOCK_T=block_t, BLOCK_H=block_h, num_warps=num_warps)
