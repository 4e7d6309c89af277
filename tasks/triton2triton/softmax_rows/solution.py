"""Row softmax over an M x N fp32 matrix.

Rows of up to 32768 values are done in one read: a BLOCK_M x BLOCK_N tile (BLOCK_N =
next_power_of_2(N), several short rows per tile, about 4096 values) stays in registers for
the max, the exps and their sum, and y is written once; the baseline reads each row twice in
128-value steps in a statistics kernel and a third time in a separate elementwise kernel.
Warps scale with the tile (16 values per thread up to 16384-value tiles) so the accesses are
16-byte vectors with a whole row in flight. When N is a multiple of 4, row starts are
declared 16-byte aligned so that rows such as N = 1000 still get vector accesses. Longer
rows would spill: they take three passes over 4096-value chunks."""
import triton
import triton.language as tl

TILE = 4096
MAX_FUSED = 32768
CHUNK = 4096


@triton.jit
def softmax_rows(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, ALIGN: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    row_start = tl.multiple_of(rows * N, ALIGN)
    offs = row_start[:, None] + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
    m = tl.max(x, axis=1)
    e = tl.exp(x - m[:, None])
    inv = 1.0 / tl.sum(e, axis=1)
    tl.store(y_ptr + offs, e * inv[:, None], mask=mask)


@triton.jit
def softmax_long(x_ptr, y_ptr, N, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * N
    y_row = y_ptr + row * N
    m_acc = tl.full([CHUNK], float("-inf"), dtype=tl.float32)
    for start in range(0, N, CHUNK):
        cols = start + tl.arange(0, CHUNK)
        m_acc = tl.maximum(m_acc, tl.load(x_row + cols, mask=cols < N, other=float("-inf")))
    m = tl.max(m_acc, axis=0)
    s_acc = tl.zeros([CHUNK], dtype=tl.float32)
    for start in range(0, N, CHUNK):
        cols = start + tl.arange(0, CHUNK)
        s_acc += tl.exp(tl.load(x_row + cols, mask=cols < N, other=float("-inf")) - m)
    inv = 1.0 / tl.sum(s_acc, axis=0)
    for start in range(0, N, CHUNK):
        cols = start + tl.arange(0, CHUNK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, tl.exp(x - m) * inv, mask=mask)


def launch(x, y, M, N):
    block_n = triton.next_power_of_2(N)
    if block_n > MAX_FUSED:
        softmax_long[(M,)](x, y, N, CHUNK=CHUNK, num_warps=16)
        return
    block_m = max(1, min(TILE // block_n, triton.next_power_of_2(M)))
    num_warps = max(1, min(32, block_m * block_n // 512))
    align = 4 if N % 4 == 0 else 1
    grid = (triton.cdiv(M, block_m),)
    softmax_rows[grid](x, y, M, N, BLOCK_M=block_m, BLOCK_N=block_n, ALIGN=align, num_warps=num_warps)
