"""Embedding lookup out[t, :] = table[ids[t], :] over fp16 as a tiled row copy: each program
copies a [BLOCK_T tokens, BLOCK_D columns] tile (8192 halves), reading each token's id once
instead of once per element and doing no per-element division; the row segments are
contiguous, so loads and stores are 16-byte vectors whenever D % 16 == 0. The column tiles of
a token block are consecutive programs, which together write one contiguous stretch of out."""
import triton
import triton.language as tl

TILE = 8192


@triton.jit
def _gather_tiles(table_ptr, ids_ptr, out_ptr, T, D, D_TILES,
                  BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    pid_t = pid // D_TILES
    pid_d = pid - pid_t * D_TILES
    t = pid_t.to(tl.int64) * BLOCK_T + tl.arange(0, BLOCK_T)
    c = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    tmask = t < T
    row = tl.load(ids_ptr + t, mask=tmask, other=0)
    mask = tmask[:, None] & (c < D)[None, :]
    v = tl.load(table_ptr + row.to(tl.int64)[:, None] * D + c[None, :], mask=mask)
    tl.store(out_ptr + t[:, None] * D + c[None, :], v, mask=mask)


def launch(table, ids, out, T, D, V):
    block_d = min(256, max(16, triton.next_power_of_2(D)))
    block_t = TILE // block_d
    d_tiles = triton.cdiv(D, block_d)
    grid = (triton.cdiv(T, block_t) * d_tiles,)
    _gather_tiles[grid](table, ids, out, T, D, d_tiles, BLOCK_T=block_t, BLOCK_D=block_d,
                        num_warps=4)
