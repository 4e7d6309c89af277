"""DyT (Dynamic Tanh) forward over a bf16 [M, N] matrix: y = tanh(alpha * x) * gamma + beta,
fp32 math, one rounding to bf16.

liger runs one program per (row, column block): every program loads alpha and its gamma and
beta blocks again, so for each x value read from memory two more weight values are read
from L2, and its libdevice tanh is a branchy, accurate routine. Here a persistent grid of
(column block, row stripe) programs (column blocks of up to 2048 values; tiles of 2048
values, 4 warps, 16-byte accesses) loads alpha, gamma and beta once and walks its stripe's
row tiles, issuing the next tile's load before the current tile is computed and stored (a
register double buffer); the grid is sized to the programs an SM holds and maxnreg keeps
them all resident (ptxas, sm_90: 78 registers, 6 programs per SM). tanh is taken as
sign(v) * (1 - e) / (1 + e) with e = exp(-2|v|): one exp and one division, no overflow, and
an absolute error of a few 1e-8, which the tolerance allows."""
import triton
import triton.language as tl

TILE = 2048  # values per tile: 16 per thread at 4 warps
NUM_WARPS = 4
NUM_SMS = 132  # H100 SXM; the grid-stride loop is correct for any count
REGS = 80  # registers per thread this kernel needs without spilling (ptxas, sm_90)
REGS_PER_SM = 65536


@triton.jit
def _tile(t, cols, M, N, BLOCK_M: tl.constexpr):
    rows = t * BLOCK_M + tl.arange(0, BLOCK_M)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    return mask, offs


@triton.jit
def _tanh(v):
    e = tl.exp(-2.0 * tl.abs(v))
    t = (1.0 - e) / (1.0 + e)
    return tl.where(v < 0.0, -t, t)


@triton.jit
def dyt_persistent(x_ptr, alpha_ptr, gamma_ptr, beta_ptr, y_ptr, M, N, n_row_tiles,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    stripe = tl.program_id(1)
    step = tl.num_programs(1)
    cmask = cols < N
    alpha = tl.load(alpha_ptr).to(tl.float32)
    gamma = tl.load(gamma_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    beta = tl.load(beta_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    mask, offs = _tile(stripe, cols, M, N, BLOCK_M)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")
    for t in range(stripe, n_row_tiles, step):
        # Issue the next tile's load first (fully masked past the end): it is in flight
        # while this tile is computed and written.
        mask_next, offs_next = _tile(t + step, cols, M, N, BLOCK_M)
        x_next = tl.load(x_ptr + offs_next, mask=mask_next, other=0.0, eviction_policy="evict_first")
        y = _tanh(alpha * x.to(tl.float32)) * gamma[None, :] + beta[None, :]
        tl.store(y_ptr + offs, y.to(tl.bfloat16), mask=mask)
        x = x_next
        mask = mask_next
        offs = offs_next


def _residency(num_warps, vectorized):
    """Programs per SM for the persistent grid, and the register cap (maxnreg) that keeps them
    all resident: a program that did not fit would start only when another finished its whole
    share of tiles. At least two, so that one's loads overlap the other's reduction and stores,
    even at the price of a few spilled registers (16-warp tiles). Rows whose length Triton does
    not see as a multiple of 16 get no 16-byte vectors and need a pointer per value: twice the
    registers."""
    regs = REGS if vectorized else 2 * REGS
    pps = max(2 if vectorized else 1, REGS_PER_SM // (regs * 32 * num_warps))
    return pps, min(255, REGS_PER_SM // (pps * 32 * num_warps) // 8 * 8)


def launch(x, alpha, gamma, beta, y, M, N):
    block_n = min(triton.next_power_of_2(N), TILE)
    block_m = max(1, min(TILE // block_n, triton.next_power_of_2(M)))
    n_col_blocks = triton.cdiv(N, block_n)
    n_row_tiles = triton.cdiv(M, block_m)
    num_warps = max(1, min(NUM_WARPS, block_m * block_n // 512))
    programs_per_sm, maxnreg = _residency(num_warps, N % 16 == 0)
    # As many programs as stay resident, each stripe given the same number of row tiles.
    stripes = max(1, NUM_SMS * programs_per_sm // n_col_blocks)
    per_stripe = triton.cdiv(n_row_tiles, stripes)
    grid = (n_col_blocks, triton.cdiv(n_row_tiles, per_stripe))
    dyt_persistent[grid](x, alpha, gamma, beta, y, M, N, n_row_tiles, BLOCK_M=block_m, BLOCK_N=block_n,
                         num_warps=num_warps, num_stages=1, maxnreg=maxnreg)
