"""MoE combine, y[t] = sum_k x[t, k] over a token's K expert rows, fp32 accumulation,
one rounding to bf16.

The package kernel loops over the K rows with K a run-time value, so each step's load waits
for the previous step, and a program covers one token's block of at most 1024 values with
4-value (8-byte) accesses per lane. Here K is a compile-time constant: the K loads of a tile
are unrolled and all in flight at once. A program takes a BLOCK_T x BLOCK_H tile (about 2048
outputs, 8 warps, so each lane moves 16-byte vectors) and packs several tokens into it when the
hidden size is small."""
import triton
import triton.language as tl

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
    block_h = min(1024, triton.next_power_of_2(H))
    block_t = max(1, min(TILE // block_h, triton.next_power_of_2(T)))
    num_warps = max(1, min(8, block_t * block_h // 256))
    grid = (triton.cdiv(T, block_t), triton.cdiv(H, block_h))
    moe_sum_tiles[grid](x, y, T, H, K=K, BLOCK_T=block_t, BLOCK_H=block_h, num_warps=num_warps)
