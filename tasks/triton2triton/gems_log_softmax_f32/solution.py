"""Log-softmax over the rows of an fp32 matrix, y = x - max - log(sum exp(x - max)).

The package gives each program 8 rows and walks them 256 columns at a time, so a batch of
256 vocabulary-sized rows runs on 32 programs (a quarter of an H100's SMs), and it spends two
exps per value on its per-lane running sums. Here:
- Rows of up to 16384 values: one read; a tile of whole rows stays in registers for the max,
  the sum of exponentials and the output.
- Longer rows, 128 or more of them: one program per row. The first pass keeps one running
  maximum and sum for the row, rescaled once per 8192-value tile, so each value costs one exp;
  the second pass writes x - (max + log(sum)). Both passes issue the next tile's load before
  working on the current one.
- Longer rows, fewer than 128: each row is split into chunks so that about 4 programs per SM
  work: a first launch writes every chunk's (max, sum), a second merges the row's chunks and
  writes the chunk's outputs. x is read twice in every long-row case, as in the package."""
import torch
import triton
import triton.language as tl

SHORT = 16384
TILE = 8192
SPLIT_BELOW = 128
TARGET_PROGRAMS = 528


@triton.jit
def log_softmax_short_rows(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
    m = tl.max(x, axis=1)
    d = x - m[:, None]
    z = tl.sum(tl.exp(d), axis=1)
    tl.store(y_ptr + offs, d - tl.log(z)[:, None], mask=mask)


@triton.jit
def _range_stats(base, lo, hi, TILE: tl.constexpr):
    # Running (max, sum of exp(x - max)) over base[lo:hi], one exp per value.
    cols = tl.arange(0, TILE)
    x = tl.load(base + lo + cols, mask=lo + cols < hi, other=float("-inf"))
    m = tl.max(x, axis=0)
    z = 0.0
    for start in range(lo, hi, TILE):
        nxt = start + TILE + cols
        x_next = tl.load(base + nxt, mask=nxt < hi, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        z = z * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
        x = x_next
    return m, z


@triton.jit
def _range_write(base, out, lo, hi, lse, TILE: tl.constexpr):
    cols = tl.arange(0, TILE)
    x = tl.load(base + lo + cols, mask=lo + cols < hi, other=0.0)
    for start in range(lo, hi, TILE):
        nxt = start + TILE + cols
        x_next = tl.load(base + nxt, mask=nxt < hi, other=0.0)
        tl.store(out + start + cols, x - lse, mask=start + cols < hi)
        x = x_next


@triton.jit
def log_softmax_long_rows(x_ptr, y_ptr, N, TILE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m, z = _range_stats(x_ptr + row * N, 0, N, TILE)
    _range_write(x_ptr + row * N, y_ptr + row * N, 0, N, m + tl.log(z), TILE)


@triton.jit
def chunk_stats(x_ptr, m_ptr, z_ptr, N, chunk, n_chunks, TILE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    c = tl.program_id(1)
    lo = c * chunk
    m, z = _range_stats(x_ptr + row * N, lo, tl.minimum(lo + chunk, N), TILE)
    tl.store(m_ptr + row * n_chunks + c, m)
    tl.store(z_ptr + row * n_chunks + c, z)


@triton.jit
def chunk_write(x_ptr, y_ptr, m_ptr, z_ptr, N, chunk, n_chunks, BLOCK_C: tl.constexpr,
                TILE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    c = tl.program_id(1)
    k = tl.arange(0, BLOCK_C)
    ms = tl.load(m_ptr + row * n_chunks + k, mask=k < n_chunks, other=float("-inf"))
    zs = tl.load(z_ptr + row * n_chunks + k, mask=k < n_chunks, other=0.0)
    m = tl.max(ms, axis=0)
    z = tl.sum(zs * tl.exp(ms - m), axis=0)
    lo = c * chunk
    _range_write(x_ptr + row * N, y_ptr + row * N, lo, tl.minimum(lo + chunk, N),
                 m + tl.log(z), TILE)


def _chunks(M, N):
    tiles = triton.cdiv(N, TILE)
    if N <= SHORT or M >= SPLIT_BELOW:
        return 1, N
    n_chunks = min(tiles, triton.cdiv(TARGET_PROGRAMS, M))
    tiles_per_chunk = triton.cdiv(tiles, n_chunks)
    return triton.cdiv(tiles, tiles_per_chunk), tiles_per_chunk * TILE


def workspace_bytes(M, N):
    n_chunks, _ = _chunks(M, N)
    return 8 * M * n_chunks if n_chunks > 1 else 16


def launch(x, y, M, N, workspace):
    if N <= SHORT:
        block_n = triton.next_power_of_2(N)
        block_m = max(1, min(4096 // block_n, triton.next_power_of_2(M)))
        num_warps = max(1, min(16, block_m * block_n // 512))
        log_softmax_short_rows[(triton.cdiv(M, block_m),)](x, y, M, N, BLOCK_M=block_m,
                                                           BLOCK_N=block_n, num_warps=num_warps)
        return
    n_chunks, chunk = _chunks(M, N)
    if n_chunks == 1:
        log_softmax_long_rows[(M,)](x, y, N, TILE=TILE, num_warps=16)
        return
    stats = workspace[: 8 * M * n_chunks].view(torch.float32)
    ms, zs = stats[: M * n_chunks], stats[M * n_chunks :]
    chunk_stats[(M, n_chunks)](x, ms, zs, N, chunk, n_chunks, TILE=TILE, num_warps=16)
    chunk_write[(M, n_chunks)](x, y, ms, zs, N, chunk, n_chunks,
                               BLOCK_C=triton.next_power_of_2(n_chunks), TILE=TILE, num_warps=16)
