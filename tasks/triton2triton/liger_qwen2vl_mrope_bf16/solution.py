"""Qwen2-VL multimodal rotary position embedding (M-RoPE) on bf16 q and k in place.

One launch, as the package's, but each program rotates a tile of BLOCK_T tokens (all their q
heads, then all their k heads) instead of one token, with 8 warps: about 8192 values of q per
tile, so each program has 16 KB of loads in flight and a quarter (or fewer) as many programs
run. A token's angles are gathered in one load whose row offset follows each column's section
(temporal, height or width plane of cos/sin) instead of three masked loads and two adds, are
read once per tile and broadcast over the heads, and the rotation runs in fp32 with one
rounding to bf16 at the store (the package rounds every product and difference to bf16)."""
import triton
import triton.language as tl

TILE = 8192


@triton.jit
def _rotate_heads(x_ptr, cos1, sin1, toks, tmask, H: tl.constexpr, D: tl.constexpr,
                  BLOCK_H: tl.constexpr, HALF: tl.constexpr):
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, HALF)
    offs = toks[:, None, None] * (H * D) + heads[None, :, None] * D + cols[None, None, :]
    mask = tmask[:, None, None] & (heads < H)[None, :, None] & (cols < D // 2)[None, None, :]
    x1 = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(x_ptr + offs + D // 2, mask=mask, other=0.0).to(tl.float32)
    tl.store(x_ptr + offs, (x1 * cos1 - x2 * sin1).to(x_ptr.dtype.element_ty), mask=mask)
    tl.store(x_ptr + offs + D // 2, (x2 * cos1 + x1 * sin1).to(x_ptr.dtype.element_ty), mask=mask)


@triton.jit
def mrope_tokens(q_ptr, k_ptr, cos_ptr, sin_ptr, n_tok,
                 HQ: tl.constexpr, HKV: tl.constexpr, D: tl.constexpr, T_SEC: tl.constexpr, H_SEC: tl.constexpr,
                 BLOCK_T: tl.constexpr, BLOCK_HQ: tl.constexpr, BLOCK_HKV: tl.constexpr, HALF: tl.constexpr):
    toks = tl.program_id(0).to(tl.int64) * BLOCK_T + tl.arange(0, BLOCK_T)
    tmask = toks < n_tok
    cols = tl.arange(0, HALF)
    # cos/sin are [3, B*S, D]: columns [0, T_SEC) take plane 0, the next H_SEC plane 1, the rest
    # plane 2; only the left half of a row is read (the right half repeats it).
    plane = (cols >= T_SEC).to(tl.int64) + (cols >= T_SEC + H_SEC).to(tl.int64)
    trig = plane[None, None, :] * (n_tok * D) + toks[:, None, None] * D + cols[None, None, :]
    tmask3 = tmask[:, None, None] & (cols < D // 2)[None, None, :]
    cos1 = tl.load(cos_ptr + trig, mask=tmask3, other=0.0).to(tl.float32)
    sin1 = tl.load(sin_ptr + trig, mask=tmask3, other=0.0).to(tl.float32)
    _rotate_heads(q_ptr, cos1, sin1, toks, tmask, HQ, D, BLOCK_HQ, HALF)
    _rotate_heads(k_ptr, cos1, sin1, toks, tmask, HKV, D, BLOCK_HKV, HALF)


def launch(q, k, cos, sin, B, S, HQ, HKV, D, T_SEC, H_SEC):
    n_tok = B * S
    block_hq = triton.next_power_of_2(HQ)
    block_hkv = triton.next_power_of_2(HKV)
    half = triton.next_power_of_2(D // 2)
    block_t = max(1, min(TILE // (max(block_hq, block_hkv) * half), triton.next_power_of_2(n_tok)))
    grid = (triton.cdiv(n_tok, block_t),)
    mrope_tokens[grid](q, k, cos, sin, n_tok, HQ, HKV, D, T_SEC, H_SEC, BLOCK_T=block_t, BLOCK_HQ=block_hq,
                       BLOCK_HKV=block_hkv, HALF=half, num_warps=8)
