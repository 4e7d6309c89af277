"""Row softmax of an M x N bf16 matrix, fp32 math, one read of x and one write of y.

The package runs one program per row with BLOCK = next_power_of_2(N) and 4 warps up to
N = 2048: a 128-value row gives each thread one 2-byte value, and a 1024-value row one 16-byte
vector, so an SM holds only a few KB of loads in flight. Here rows up to 4096 values are
packed into tiles of about 4096 values (BLOCK_M rows x BLOCK_N columns) with 16 values (two
16-byte vectors) per thread and the warps scaled with the tile; the row max and sum reduce
along the tile's row axis. Longer rows keep one row per program, also at 16 values per thread
(up to 32 warps), so that each thread's loads are few and wide."""
import triton
import triton.language as tl

TILE = 4096
VALUES_PER_THREAD = 16


@triton.jit
def softmax_rows(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=-float("inf"), eviction_policy="evict_first").to(tl.float32)
    m = tl.max(x, axis=1)
    e = tl.exp(x - m[:, None])
    y = e * (1.0 / tl.sum(e, axis=1))[:, None]
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def launch(x, y, M, N):
    block_n = triton.next_power_of_2(N)
    block_m = max(1, min(TILE // block_n, triton.next_power_of_2(M)))
    num_warps = max(1, min(32, block_m * block_n // (32 * VALUES_PER_THREAD)))
    softmax_rows[(triton.cdiv(M, block_m),)](x, y, M, N, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
