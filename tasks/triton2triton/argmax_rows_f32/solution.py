"""Row argmax over an M x N fp32 matrix in one read of x, ties to the first index:
  - rows of up to 2048 values: each program loads a [BLOCK_M, BLOCK_N] tile of whole rows
    (about 8192 values, padded with -inf) and reduces it with tl.argmax(tie_break_left=True),
    so many short rows share a program instead of one row per program;
  - longer rows: one program per row keeps a running (value, index) per lane over chunks of
    4096 values; a lane sees its indices in increasing order and replaces only on a strictly
    larger value, so it holds its first maximum; the row's answer is the smallest index among
    the lanes holding the row maximum."""
import triton
import triton.language as tl

TILE = 8192
SHORT_MAX = 2048
LONG_BLOCK = 4096


@triton.jit
def _argmax_tile(x_ptr, idx_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    rmask = rows < M
    mask = rmask[:, None] & (cols < N)[None, :]
    ptrs = x_ptr + rows.to(tl.int64)[:, None] * N + cols[None, :]
    v = tl.load(ptrs, mask=mask, other=float("-inf"))
    best = tl.argmax(v, axis=1, tie_break_left=True)
    tl.store(idx_ptr + rows, best.to(tl.int64), mask=rmask)


@triton.jit
def _argmax_long(x_ptr, idx_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * N
    offs = tl.arange(0, BLOCK)
    best_v = tl.load(base + offs, mask=offs < N, other=float("-inf"))
    best_i = offs
    for start in range(BLOCK, N, BLOCK):
        o = start + offs
        v = tl.load(base + o, mask=o < N, other=float("-inf"))
        better = v > best_v
        best_v = tl.where(better, v, best_v)
        best_i = tl.where(better, o, best_i)
    m = tl.max(best_v, axis=0)
    first = tl.min(tl.where(best_v == m, best_i, N), axis=0)
    tl.store(idx_ptr + row, first.to(tl.int64))


def launch(x, idx, M, N):
    if N <= SHORT_MAX:
        block_n = max(16, triton.next_power_of_2(N))
        block_m = TILE // block_n
        _argmax_tile[(triton.cdiv(M, block_m),)](x, idx, M, N, BLOCK_M=block_m, BLOCK_N=block_n,
                                                 num_warps=8)
    else:
        _argmax_long[(M,)](x, idx, N, BLOCK=LONG_BLOCK, num_warps=8)
