"""Column sums of an M x N fp16 matrix with the whole device streaming x, no atomics, and y
written once:
  - pass 1: a 2-D grid of column tiles x row chunks, sized to about 1024 programs whatever the
    shape (tall, square or wide). A program walks its chunk in [BLOCK_M, BLOCK_N] tiles of 8192
    halves (16-byte loads when N % 16 == 0), accumulates the tile in fp32 registers, reduces
    the rows once at the end and writes one partial sum per column to the workspace;
  - pass 2: one program per column block sums the chunks' partials (all of them in one tile)
    and writes y."""
import triton
import triton.language as tl

TILE = 8192           # halves per tile in pass 1
TARGET_PROGRAMS = 1024
TILE2 = 16384         # floats per tile in pass 2


def _plan(M, N):
    block_n = min(256, max(16, triton.next_power_of_2(N)))
    block_m = TILE // block_n
    tiles = triton.cdiv(N, block_n)
    row_blocks = triton.cdiv(M, block_m)
    chunks = min(row_blocks, max(1, triton.cdiv(TARGET_PROGRAMS, tiles)))
    blocks_per_chunk = triton.cdiv(row_blocks, chunks)
    chunks = triton.cdiv(row_blocks, blocks_per_chunk)
    return block_n, block_m, tiles, chunks, blocks_per_chunk


@triton.jit
def _colsum_partial(x_ptr, ws_ptr, M, N, BLOCKS_PER_CHUNK,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    part = ws_ptr.to(tl.pointer_type(tl.float32))
    chunk = tl.program_id(1)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    rows0 = chunk * BLOCKS_PER_CHUNK * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for i in range(0, BLOCKS_PER_CHUNK):
        rows = rows0 + i * BLOCK_M
        mask = (rows < M)[:, None] & cmask[None, :]
        ptrs = x_ptr + rows.to(tl.int64)[:, None] * N + cols[None, :]
        acc += tl.load(ptrs, mask=mask, other=0.0).to(tl.float32)
    tl.store(part + chunk.to(tl.int64) * N + cols, tl.sum(acc, axis=0), mask=cmask)


@triton.jit
def _colsum_final(ws_ptr, y_ptr, N, CHUNKS, BLOCK_C: tl.constexpr, BLOCK_N: tl.constexpr):
    part = ws_ptr.to(tl.pointer_type(tl.float32))
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    c = tl.arange(0, BLOCK_C)
    mask = (c < CHUNKS)[:, None] & cmask[None, :]
    p = tl.load(part + c.to(tl.int64)[:, None] * N + cols[None, :], mask=mask, other=0.0)
    tl.store(y_ptr + cols, tl.sum(p, axis=0), mask=cmask)


def workspace_bytes(M, N):
    _, _, _, chunks, _ = _plan(M, N)
    return chunks * N * 4


def launch(x, y, M, N, workspace):
    block_n, block_m, tiles, chunks, blocks_per_chunk = _plan(M, N)
    _colsum_partial[(tiles, chunks)](x, workspace, M, N, blocks_per_chunk,
                                     BLOCK_M=block_m, BLOCK_N=block_n, num_warps=8)
    block_c = max(16, triton.next_power_of_2(chunks))        # chunks <= 1024
    block_n2 = max(16, min(1024, TILE2 // block_c))
    _colsum_final[(triton.cdiv(N, block_n2),)](workspace, y, N, chunks,
                                               BLOCK_C=block_c, BLOCK_N=block_n2, num_warps=8)
