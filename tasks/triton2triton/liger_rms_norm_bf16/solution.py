"""RMSNorm forward (Llama casting) over a bf16 [M, N] matrix: y = x * rstd * weight with
rstd = 1 / sqrt(mean(x^2) + eps) in fp32, saved per row.

liger launches one program per row: each program loads the weight again, then waits for its
row's load before it can reduce, scale and store, and the only overlap comes from other
programs on the SM. Here rows up to 8192 values go to a persistent grid that walks tiles of
BLOCK_M rows (about 4096 values, 8 warps, 16-byte accesses): the weight is loaded once per
program, and the next tile's load is issued before the current tile is reduced and stored (a
register double buffer), so every program keeps a load in flight while it computes. The grid
is sized to the programs an SM holds and maxnreg keeps them all resident (ptxas, sm_90,
N = 4096: 56 registers, 4 programs and 8 rows in flight per SM; liger: 40 registers, 6
programs, 6 rows). One rounding to bf16 at the end (liger rounds x * rstd to bf16 before the
weight, which the tolerance also allows). Longer rows keep one row per program: a second
buffer would spill."""
import triton
import triton.language as tl

TILE = 4096  # values per tile: 16 per thread at 8 warps
PREFETCH_MAX_N = 8192
NUM_SMS = 132  # H100 SXM; the grid-stride loop is correct for any count
REGS = 64  # registers per thread this kernel needs without spilling (ptxas, sm_90)
REGS_PER_SM = 65536


@triton.jit
def _load_tile(x_ptr, t, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = t * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    return tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")


@triton.jit
def _norm_store(x, w, y_ptr, rstd_ptr, t, M, N, eps, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = t * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    rmask = rows < M
    mask = rmask[:, None] & (cols < N)[None, :]
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    xf = x.to(tl.float32)
    r = tl.rsqrt(tl.sum(xf * xf, axis=1) / N + eps)
    tl.store(rstd_ptr + rows, r, mask=rmask)
    tl.store(y_ptr + offs, (xf * r[:, None] * w[None, :]).to(tl.bfloat16), mask=mask)


@triton.jit
def rms_norm_persistent(x_ptr, w_ptr, y_ptr, rstd_ptr, M, N, eps, n_tiles,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_N)
    w = tl.load(w_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    x = _load_tile(x_ptr, pid, M, N, BLOCK_M, BLOCK_N)
    for t in range(pid, n_tiles, step):
        # Issue the next tile's load first (fully masked past the end): it is in flight
        # while this tile is reduced and written.
        x_next = _load_tile(x_ptr, t + step, M, N, BLOCK_M, BLOCK_N)
        _norm_store(x, w, y_ptr, rstd_ptr, t, M, N, eps, BLOCK_M, BLOCK_N)
        x = x_next


@triton.jit
def rms_norm_row(x_ptr, w_ptr, y_ptr, rstd_ptr, M, N, eps, BLOCK_N: tl.constexpr):
    t = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    w = tl.load(w_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    x = _load_tile(x_ptr, t, M, N, 1, BLOCK_N)
    _norm_store(x, w, y_ptr, rstd_ptr, t, M, N, eps, 1, BLOCK_N)


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


def launch(x, weight, y, rstd, M, N, eps):
    block_n = triton.next_power_of_2(N)
    if block_n > PREFETCH_MAX_N:
        rms_norm_row[(M,)](x, weight, y, rstd, M, N, eps, BLOCK_N=block_n,
                           num_warps=min(32, block_n // 512))
        return
    block_m = max(1, min(TILE // block_n, triton.next_power_of_2(M)))
    n_tiles = triton.cdiv(M, block_m)
    num_warps = max(1, min(16, block_m * block_n // 512))
    programs_per_sm, maxnreg = _residency(num_warps, N % 16 == 0)
    # As many programs as stay resident, each given the same number of tiles.
    per_program = triton.cdiv(n_tiles, NUM_SMS * programs_per_sm)
    grid = (triton.cdiv(n_tiles, per_program),)
    rms_norm_persistent[grid](x, weight, y, rstd, M, N, eps, n_tiles, BLOCK_M=block_m, BLOCK_N=block_n,
                              num_warps=num_warps, num_stages=1, maxnreg=maxnreg)
