"""LayerNorm forward over a bf16 [M, N] matrix with bf16 weight and bias: per-row fp32 mean
and rstd (saved), y = (x - mean) * rstd * weight + bias rounded to bf16 once.

liger launches one program per row: each program loads weight and bias again, then waits for
its row's load before it can reduce and store, and the only overlap comes from other
programs on the SM. Here rows up to 8192 values go to a persistent grid that walks tiles of
BLOCK_M rows (about 4096 values, 8 warps, 16-byte accesses): weight and bias are loaded once
per program, and the next tile's load is issued before the current tile is reduced and
stored (a register double buffer), so every program keeps a load in flight while it
computes. The grid is sized to the programs an SM holds and maxnreg keeps them all resident
(ptxas, sm_90: N = 4096, 79 registers, 3 programs and 6 rows in flight per SM, liger 48
registers and 5 rows; N = 5120, 2 programs of 16 warps and 4 rows, liger 2 rows). The
variance is taken about the mean from registers, as liger does. Longer rows keep one row per
program: a second buffer would spill."""
import triton
import triton.language as tl

TILE = 4096  # values per tile: 16 per thread at 8 warps
PREFETCH_MAX_N = 8192
NUM_SMS = 132  # H100 SXM; the grid-stride loop is correct for any count
REGS = 80  # registers per thread this kernel needs without spilling (ptxas, sm_90)
REGS_PER_SM = 65536


@triton.jit
def _tile(t, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = t * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    rmask = rows < M
    mask = rmask[:, None] & (cols < N)[None, :]
    offs = rows.to(tl.int64)[:, None] * N + cols[None, :]
    return rows, rmask, mask, offs


@triton.jit
def _load_tile(x_ptr, t, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows, rmask, mask, offs = _tile(t, M, N, BLOCK_M, BLOCK_N)
    return tl.load(x_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")


@triton.jit
def _norm_store(x, w, b, y_ptr, mean_ptr, rstd_ptr, t, M, N, eps,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows, rmask, mask, offs = _tile(t, M, N, BLOCK_M, BLOCK_N)
    xf = x.to(tl.float32)
    mean = tl.sum(xf, axis=1) / N
    d = tl.where(mask, xf - mean[:, None], 0.0)
    r = tl.rsqrt(tl.sum(d * d, axis=1) / N + eps)
    tl.store(mean_ptr + rows, mean, mask=rmask)
    tl.store(rstd_ptr + rows, r, mask=rmask)
    y = d * r[:, None] * w[None, :] + b[None, :]
    tl.store(y_ptr + offs, y.to(tl.bfloat16), mask=mask)


@triton.jit
def layer_norm_persistent(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, M, N, eps, n_tiles,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < N
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    x = _load_tile(x_ptr, pid, M, N, BLOCK_M, BLOCK_N)
    for t in range(pid, n_tiles, step):
        # Issue the next tile's load first (fully masked past the end): it is in flight
        # while this tile is reduced and written.
        x_next = _load_tile(x_ptr, t + step, M, N, BLOCK_M, BLOCK_N)
        _norm_store(x, w, b, y_ptr, mean_ptr, rstd_ptr, t, M, N, eps, BLOCK_M, BLOCK_N)
        x = x_next


@triton.jit
def layer_norm_row(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, M, N, eps, BLOCK_N: tl.constexpr):
    t = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < N
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    x = _load_tile(x_ptr, t, M, N, 1, BLOCK_N)
    _norm_store(x, w, b, y_ptr, mean_ptr, rstd_ptr, t, M, N, eps, 1, BLOCK_N)


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


def launch(x, weight, bias, y, mean, rstd, M, N, eps):
    block_n = triton.next_power_of_2(N)
    if block_n > PREFETCH_MAX_N:
        layer_norm_row[(M,)](x, weight, bias, y, mean, rstd, M, N, eps, BLOCK_N=block_n,
                             num_warps=min(32, block_n // 512))
        return
    block_m = max(1, min(TILE // block_n, triton.next_power_of_2(M)))
    n_tiles = triton.cdiv(M, block_m)
    num_warps = max(1, min(16, block_m * block_n // 512))
    programs_per_sm, maxnreg = _residency(num_warps, N % 16 == 0)
    # As many programs as stay resident, each given the same number of tiles.
    per_program = triton.cdiv(n_tiles, NUM_SMS * programs_per_sm)
    grid = (triton.cdiv(n_tiles, per_program),)
    layer_norm_persistent[grid](x, weight, bias, y, mean, rstd, M, N, eps, n_tiles,
                                BLOCK_M=block_m, BLOCK_N=block_n,
                                num_warps=num_warps, num_stages=1, maxnreg=maxnreg)
