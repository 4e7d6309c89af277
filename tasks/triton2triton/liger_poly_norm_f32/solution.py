"""PolyNorm forward over an fp32 [M, N] matrix: with norm(u) = u / sqrt(mean(u^2) + eps) over
a row, y = w0 * norm(x^3) + w1 * norm(x^2) + w2 * norm(x) + b, and the three reciprocal RMS
values saved per row.

liger launches one program per row: each program loads the row, waits for it, reduces and
stores, and the only overlap comes from other programs on the SM (ptxas, sm_90, N = 4096: 80
registers, 3 programs and 3 rows in flight per SM). Here rows up to 8192 values go to a
persistent grid that walks tiles of BLOCK_M rows (about 4096 values, 8 warps, 16-byte
accesses), issuing the next tile's load before the current tile is reduced and stored (a
register double buffer); the grid is sized to the programs an SM holds and maxnreg keeps
them all resident (64 registers, 4 programs and 8 rows in flight per SM). The weights and
the bias are loaded once per program, the three sums of squares come from x^2 (x^2,
x^4 = (x^2)^2, x^6 = x^4 * x^2), and y is one Horner polynomial per value:
x * (c1 + x * (c2 + x * c3)) + b with per-row coefficients c_k = w * rstd_k. Longer rows keep
one row per program: a second buffer would spill."""
import triton
import triton.language as tl

TILE = 4096  # values per tile: 16 per thread at 8 warps
PREFETCH_MAX_N = 8192
NUM_SMS = 132  # H100 SXM; the grid-stride loop is correct for any count
REGS = 64  # registers per thread this kernel needs without spilling (ptxas, sm_90)
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
def _norm_store(x, w0, w1, w2, b, y_ptr, rstd_ptr, t, M, N, eps,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows, rmask, mask, offs = _tile(t, M, N, BLOCK_M, BLOCK_N)
    x2 = x * x
    x4 = x2 * x2
    r1 = tl.rsqrt(tl.sum(x2, axis=1) / N + eps)
    r2 = tl.rsqrt(tl.sum(x4, axis=1) / N + eps)
    r3 = tl.rsqrt(tl.sum(x4 * x2, axis=1) / N + eps)
    tl.store(rstd_ptr + rows * 3, r3, mask=rmask)
    tl.store(rstd_ptr + rows * 3 + 1, r2, mask=rmask)
    tl.store(rstd_ptr + rows * 3 + 2, r1, mask=rmask)
    c1 = (w2 * r1)[:, None]
    c2 = (w1 * r2)[:, None]
    c3 = (w0 * r3)[:, None]
    y = x * (c1 + x * (c2 + x * c3)) + b
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def poly_norm_persistent(x_ptr, w_ptr, b_ptr, y_ptr, rstd_ptr, M, N, eps, n_tiles,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    w0 = tl.load(w_ptr)
    w1 = tl.load(w_ptr + 1)
    w2 = tl.load(w_ptr + 2)
    b = tl.load(b_ptr)
    x = _load_tile(x_ptr, pid, M, N, BLOCK_M, BLOCK_N)
    for t in range(pid, n_tiles, step):
        # Issue the next tile's load first (fully masked past the end): it is in flight
        # while this tile is reduced and written.
        x_next = _load_tile(x_ptr, t + step, M, N, BLOCK_M, BLOCK_N)
        _norm_store(x, w0, w1, w2, b, y_ptr, rstd_ptr, t, M, N, eps, BLOCK_M, BLOCK_N)
        x = x_next


@triton.jit
def poly_norm_row(x_ptr, w_ptr, b_ptr, y_ptr, rstd_ptr, M, N, eps, BLOCK_N: tl.constexpr):
    t = tl.program_id(0)
    w0 = tl.load(w_ptr)
    w1 = tl.load(w_ptr + 1)
    w2 = tl.load(w_ptr + 2)
    b = tl.load(b_ptr)
    x = _load_tile(x_ptr, t, M, N, 1, BLOCK_N)
    _norm_store(x, w0, w1, w2, b, y_ptr, rstd_ptr, t, M, N, eps, 1, BLOCK_N)


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


def launch(x, weight, bias, y, rstd, M, N, eps):
    block_n = triton.next_power_of_2(N)
    if block_n > PREFETCH_MAX_N:
        poly_norm_row[(M,)](x, weight, bias, y, rstd, M, N, eps, BLOCK_N=block_n,
                            num_warps=min(32, block_n // 512))
        return
    block_m = max(1, min(TILE // block_n, triton.next_power_of_2(M)))
    n_tiles = triton.cdiv(M, block_m)
    num_warps = max(1, min(16, block_m * block_n // 512))
    programs_per_sm, maxnreg = _residency(num_warps, N % 16 == 0)
    # As many programs as stay resident, each given the same number of tiles.
    per_program = triton.cdiv(n_tiles, NUM_SMS * programs_per_sm)
    grid = (triton.cdiv(n_tiles, per_program),)
    poly_norm_persistent[grid](x, weight, bias, y, rstd, M, N, eps, n_tiles,
                               BLOCK_M=block_m, BLOCK_N=block_n,
                               num_warps=num_warps, num_stages=1, maxnreg=maxnreg)
