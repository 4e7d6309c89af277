"""Row variance and mean of an fp32 matrix, fp32 math.

The package runs Welford's update on every value (a division and about twenty other
operations per value), which at fp32's 4 bytes per value costs about as much time as
reading the value. Here the statistics are exact two-pass ones computed from registers:
- Rows of up to 16384 values: a tile of one or more whole rows is loaded once; the mean is its
  sum / N and the variance the sum of squared deviations from that mean, both from the same
  registers (two passes over registers, one over memory).
- Longer rows: one program per row streams it in 8192-value tiles (the next tile's load is
  issued before the current one is reduced); each tile gives its own exact mean and sum of
  squared deviations, merged into the row's by Chan's formula, a few scalar operations per tile.
Either way a value costs a subtraction and a multiply-add, not a division."""
import triton
import triton.language as tl

SHORT = 16384
TILE = 8192


@triton.jit
def var_mean_rows(x_ptr, var_ptr, mean_ptr, M, N, correction, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows < M)[:, None] & (cols < N)[None, :]
    x = tl.load(x_ptr + rows.to(tl.int64)[:, None] * N + cols[None, :], mask=mask, other=0.0)
    mean = tl.sum(x, axis=1) / N
    d = tl.where(mask, x - mean[:, None], 0.0)
    m2 = tl.sum(d * d, axis=1)
    tl.store(mean_ptr + rows, mean, mask=rows < M)
    tl.store(var_ptr + rows, m2 / (N - correction), mask=rows < M)


@triton.jit
def var_mean_long_row(x_ptr, var_ptr, mean_ptr, N, correction, TILE: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * N
    cols = tl.arange(0, TILE)
    x = tl.load(base + cols, mask=cols < N, other=0.0)
    n = 0.0
    mean = 0.0
    m2 = 0.0
    for start in range(0, N, TILE):
        nxt = start + TILE + cols
        x_next = tl.load(base + nxt, mask=nxt < N, other=0.0)
        valid = start + cols < N
        n_t = tl.minimum(N - start, TILE).to(tl.float32)
        mean_t = tl.sum(x, axis=0) / n_t
        d = tl.where(valid, x - mean_t, 0.0)
        m2_t = tl.sum(d * d, axis=0)
        # Chan et al.: merge (n, mean, m2) with the tile's (n_t, mean_t, m2_t).
        n_new = n + n_t
        delta = mean_t - mean
        mean += delta * (n_t / n_new)
        m2 += m2_t + delta * delta * (n * n_t / n_new)
        n = n_new
        x = x_next
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, m2 / (N - correction))


def launch(x, var, mean, M, N, correction):
    if N <= SHORT:
        block_n = triton.next_power_of_2(N)
        block_m = max(1, min(8192 // block_n, triton.next_power_of_2(M)))
        num_warps = max(1, min(16, block_m * block_n // 512))
        var_mean_rows[(triton.cdiv(M, block_m),)](x, var, mean, M, N, correction,
                                                  BLOCK_M=block_m, BLOCK_N=block_n,
                                                  num_warps=num_warps)
    else:
        var_mean_long_row[(M,)](x, var, mean, N, correction, TILE=TILE, num_warps=16)
