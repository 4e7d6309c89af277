"""Column sums of an M x N fp16 matrix: a first kernel zeroes y; then each program takes 128
columns and a slab of 1024 rows (a 2-D grid: column blocks x row slabs), adds the slab one
row at a time in fp32, and adds its partial sums into y with atomics."""
import triton
import triton.language as tl

BLOCK_N = 128
ROWS = 1024


@triton.jit
def _zero(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < n)


@triton.jit
def _colsum(x_ptr, y_ptr, M, N, BLOCK_N: tl.constexpr, ROWS: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    r0 = tl.program_id(1) * ROWS
    r1 = tl.minimum(r0 + ROWS, M)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for r in range(r0, r1):
        acc += tl.load(x_ptr + r.to(tl.int64) * N + cols, mask=cmask, other=0.0).to(tl.float32)
    tl.atomic_add(y_ptr + cols, acc, mask=cmask)


def launch(x, y, M, N):
    _zero[(triton.cdiv(N, 256),)](y, N, BLOCK=256)
    _colsum[(triton.cdiv(N, BLOCK_N), triton.cdiv(M, ROWS))](x, y, M, N, BLOCK_N=BLOCK_N, ROWS=ROWS)
