"""Llama-4 rotary position embedding (interleaved complex pairs) on bf16 q and k in place.

The package runs one program per (token, head): 128 values of q, two stride-2 loads that each
use every other lane's bytes, and 4 warps for 64 pairs, so a quarter of a million programs do
a few hundred bytes each. Here one program rotates every q head and every k head of BLOCK_T
tokens: each head row is loaded whole and contiguous (16-byte vectors), split into its
(real, imag) pairs in registers (reshape + tl.split), rotated in fp32 with the token's
frequencies (loaded once per token for all heads), re-interleaved with tl.join and stored
whole. About 8192 values of q per program and 8 warps keep 16 KB of loads in flight each."""
import triton
import triton.language as tl

TILE = 8192


@triton.jit
def _rotate_heads(x_ptr, fr, fi, toks, tmask, H: tl.constexpr, D: tl.constexpr,
                  BLOCK_T: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_D)
    offs = toks[:, None, None] * (H * D) + heads[None, :, None] * D + cols[None, None, :]
    mask = tmask[:, None, None] & (heads < H)[None, :, None] & (cols < D)[None, None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    xr, xi = tl.split(tl.reshape(x, (BLOCK_T, BLOCK_H, BLOCK_D // 2, 2)))
    yr = xr * fr - xi * fi
    yi = xr * fi + xi * fr
    y = tl.reshape(tl.join(yr, yi), (BLOCK_T, BLOCK_H, BLOCK_D))
    tl.store(x_ptr + offs, y.to(x_ptr.dtype.element_ty), mask=mask)


@triton.jit
def llama4_rope_tokens(q_ptr, k_ptr, f_ptr, n_tok, S,
                       HQ: tl.constexpr, HKV: tl.constexpr, D: tl.constexpr, BLOCK_T: tl.constexpr,
                       BLOCK_HQ: tl.constexpr, BLOCK_HKV: tl.constexpr, BLOCK_D: tl.constexpr):
    toks = tl.program_id(0).to(tl.int64) * BLOCK_T + tl.arange(0, BLOCK_T)
    tmask = toks < n_tok
    cols = tl.arange(0, BLOCK_D)
    # freqs is [S, D/2, 2] fp32 (cos, sin) pairs, shared by every batch and head.
    f = tl.load(f_ptr + (toks % S)[:, None, None] * D + cols[None, None, :],
                mask=tmask[:, None, None] & (cols < D)[None, None, :], other=0.0)
    fr, fi = tl.split(tl.reshape(f, (BLOCK_T, 1, BLOCK_D // 2, 2)))
    _rotate_heads(q_ptr, fr, fi, toks, tmask, HQ, D, BLOCK_T, BLOCK_HQ, BLOCK_D)
    _rotate_heads(k_ptr, fr, fi, toks, tmask, HKV, D, BLOCK_T, BLOCK_HKV, BLOCK_D)


def launch(q, k, freqs, B, S, HQ, HKV, D):
    n_tok = B * S
    block_hq = triton.next_power_of_2(HQ)
    block_hkv = triton.next_power_of_2(HKV)
    block_d = triton.next_power_of_2(D)
    block_t = max(1, min(TILE // (max(block_hq, block_hkv) * block_d), triton.next_power_of_2(n_tok)))
    grid = (triton.cdiv(n_tok, block_t),)
    llama4_rope_tokens[grid](q, k, freqs, n_tok, S, HQ, HKV, D, BLOCK_T=block_t, BLOCK_HQ=block_hq,
                             BLOCK_HKV=block_hkv, BLOCK_D=block_d, num_warps=8)
