"""vLLM's NeoX-style rotary embedding, in place on bf16 query and key, fp32 math.

The package kernel walks each token's (head, pair) positions one element per lane, in blocks
of next_power_of_2(head_size), finding each lane's head with a division: 2-byte loads and
stores, one block after another, and the cos/sin row reloaded for every block. Here a
program rotates a whole token: cos and sin are loaded once, the query as one
[heads, R] tile per half and the key as another, so every head's half-row is a contiguous run
that Triton moves in 16-byte vectors, all of a token's loads are in flight at once, and there
is no per-element division. Several tokens go to one program when a token is small;
very wide tokens (heads x R > 4096) loop over blocks of heads."""
import triton
import triton.language as tl

TILE = 4096


@triton.jit
def _rotate(ptr, t, H, R, c, s, BLOCK_T: tl.constexpr, BLOCK_H: tl.constexpr,
            BLOCK_R: tl.constexpr):
    # ptr rows are tokens of H heads x 2R values; t: [BLOCK_T] token ids (int64, -1 = none).
    j = tl.arange(0, BLOCK_R)
    for h0 in range(0, H, BLOCK_H):
        h = h0 + tl.arange(0, BLOCK_H)
        offs = t[:, None, None] * (H * 2 * R) + h[None, :, None] * (2 * R) + j[None, None, :]
        m = (t[:, None, None] >= 0) & (h < H)[None, :, None] & (j < R)[None, None, :]
        x = tl.load(ptr + offs, mask=m, other=0.0).to(tl.float32)
        y = tl.load(ptr + offs + R, mask=m, other=0.0).to(tl.float32)
        tl.store(ptr + offs, (x * c - y * s).to(tl.bfloat16), mask=m)
        tl.store(ptr + offs + R, (y * c + x * s).to(tl.bfloat16), mask=m)


@triton.jit
def rope_neox_tokens(pos_ptr, q_ptr, k_ptr, cache_ptr, T, Hq, Hk, R, BLOCK_T: tl.constexpr,
                     BLOCK_HQ: tl.constexpr, BLOCK_HK: tl.constexpr, BLOCK_R: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    t_ok = t < T
    pos = tl.load(pos_ptr + t, mask=t_ok, other=0)
    j = tl.arange(0, BLOCK_R)
    cm = t_ok[:, None] & (j < R)[None, :]
    row = cache_ptr + pos[:, None] * (2 * R) + j[None, :]
    c = tl.load(row, mask=cm, other=0.0)[:, None, :]
    s = tl.load(row + R, mask=cm, other=0.0)[:, None, :]
    t = tl.where(t_ok, t, -1).to(tl.int64)  # -1 marks a padding token: masked out below
    _rotate(q_ptr, t, Hq, R, c, s, BLOCK_T, BLOCK_HQ, BLOCK_R)
    _rotate(k_ptr, t, Hk, R, c, s, BLOCK_T, BLOCK_HK, BLOCK_R)


def launch(positions, query, key, cos_sin_cache, T, P, Hq, Hk, R):
    block_r = triton.next_power_of_2(R)
    cap = max(1, TILE // block_r)  # heads per step: wide heads loop over head blocks
    block_hq = min(triton.next_power_of_2(Hq), cap)
    block_hk = min(triton.next_power_of_2(Hk), cap)
    per_token = max(block_hq, block_hk) * block_r
    block_t = max(1, min(TILE // per_token, triton.next_power_of_2(T)))
    num_warps = max(1, min(8, block_t * per_token // 256))
    rope_neox_tokens[(triton.cdiv(T, block_t),)](
        positions, query, key, cos_sin_cache, T, Hq, Hk, R, BLOCK_T=block_t, BLOCK_HQ=block_hq,
        BLOCK_HK=block_hk, BLOCK_R=block_r, num_warps=num_warps)
