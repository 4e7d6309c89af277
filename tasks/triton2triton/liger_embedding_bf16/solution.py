"""Embedding lookup out[t, :] = table[ids[t], :] over a bf16 table with int64 ids.

The package copies 128 x 128 tiles with 4 warps and orders its grid tokens-first: the 32
column tiles of a 4096-wide row are read by programs launched ceil(T / 128) apart, so the
table is fetched as scattered 256-byte pieces of random rows, far apart in time. Here a
program copies BLOCK_T tokens x BLOCK_D columns (BLOCK_D up to 1024: 2 KB of a row, each warp
instruction moving 512 contiguous bytes; 16 KB per program over 8 warps) and the grid is
ordered columns-first, so the programs that copy the pieces of the same rows run next to each
other and each table row is read as one contiguous stream. The row base address is formed
once per token, and table rows and output are streamed with evict-first hints, since this
kernel reads neither again."""
import triton
import triton.language as tl

TILE = 8192
MAX_BLOCK_D = 1024


@triton.jit
def gather_rows(table_ptr, ids_ptr, out_ptr, T, D, n_col_blocks, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    # One grid axis, column blocks fastest: the pieces of the same rows are copied side by side.
    pid = tl.program_id(0)
    cols = (pid % n_col_blocks) * BLOCK_D + tl.arange(0, BLOCK_D)
    toks = (pid // n_col_blocks) * BLOCK_T + tl.arange(0, BLOCK_T)
    tmask = toks < T
    rows = tl.load(ids_ptr + toks, mask=tmask, other=0)
    mask = tmask[:, None] & (cols < D)[None, :]
    src = table_ptr + (rows.to(tl.int64) * D)[:, None] + cols[None, :]
    vals = tl.load(src, mask=mask, eviction_policy="evict_first")
    dst = out_ptr + (toks.to(tl.int64) * D)[:, None] + cols[None, :]
    tl.store(dst, vals, mask=mask, eviction_policy="evict_first")


def launch(table, ids, out, T, D, V):
    block_d = min(MAX_BLOCK_D, triton.next_power_of_2(D))
    block_t = max(1, min(TILE // block_d, triton.next_power_of_2(T)))
    num_warps = max(1, min(8, block_t * block_d // 1024))
    n_col_blocks = triton.cdiv(D, block_d)
    grid = (n_col_blocks * triton.cdiv(T, block_t),)
    gather_rows[grid](table, ids, out, T, D, n_col_blocks, BLOCK_T=block_t, BLOCK_D=block_d, num_warps=num_warps)
