"""vLLM's silu_and_mul over bf16, y = silu(x[:, :N]) * x[:, N:], fp32 math rounded once.

The package kernel runs one program per row and walks the row in blocks of
min(1024, next_power_of_2(N)): for MoE expert widths (N = 768, 1408) most programs do one or
two short, partly masked iterations (N = 1408 fills 1408 of 2048 lanes), so the machine is
busy starting tiny programs. Here a program takes a BLOCK_M x BLOCK_N tile of about 8192
outputs: BLOCK_N is the power of two up to 1024 that wastes the fewest lanes on N (768 gets
256, 1408 gets 128), short rows are packed many to a tile, every load is a contiguous
16-byte vector, and no program loops, so each keeps a whole tile of loads in flight.
Columns go on grid axis 1 (at most a few thousand blocks), rows on axis 0."""
import triton
import triton.language as tl

TILE = 8192


@triton.jit
def silu_mul_tiles(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    gate_offs = rows.to(tl.int64)[:, None] * (2 * N) + cols[None, :]
    g = tl.load(x_ptr + gate_offs, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(x_ptr + gate_offs + N, mask=mask, other=0.0).to(tl.float32)
    y = g / (1.0 + tl.exp(-g)) * u
    y_offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    tl.store(y_ptr + y_offs, y.to(tl.bfloat16), mask=mask)


def _block_n(N):
    # The widest block whose masked tail wastes at most 1/16 of the lanes, else the least wasteful.
    best, best_used = 1, 0.0
    for bn in (1024, 512, 256, 128, 64, 32, 16):
        used = N / (triton.cdiv(N, bn) * bn)
        if used >= 15 / 16:
            return bn
        if used > best_used:
            best, best_used = bn, used
    return best


def launch(x, y, M, N):
    block_n = min(_block_n(N), triton.next_power_of_2(N))
    block_m = max(1, min(TILE // block_n, triton.next_power_of_2(M)))
    num_warps = max(1, min(8, block_m * block_n // 1024))
    grid = (triton.cdiv(M, block_m), triton.cdiv(N, block_n))
    silu_mul_tiles[grid](x, y, M, N, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=num_warps)
