"""Per-channel mean and biased variance of an fp32 [B, C, HW] tensor in one read of x:
  - pass 1: a (C, S) grid; program (c, s) owns a run of the channel's B slices and walks it in
    [BLOCK_B, BLOCK_HW] tiles (8192 values: several whole slices per tile when HW is small,
    16-byte loads when HW % 16 == 0). S is chosen so that the grid holds about 1024 programs.
    Values are shifted by K, the mean of the program's first tile, and the program accumulates
    sum(x - K) and sum((x - K)^2) in fp32 registers; since K is close to the mean, the
    variance about the mean, sum((x - K)^2) - sum(x - K)^2 / n, suffers no cancellation. The
    program writes its count, mean and sum of squared deviations to the workspace;
  - pass 2: one program per channel merges the S partials exactly:
    M2 = sum(M2_s) + sum(n_s * (mean_s - mean)^2)."""
import triton
import triton.language as tl

TILE = 8192
TARGET_PROGRAMS = 1024


def _plan(B, C, HW):
    block_hw = min(2048, max(16, triton.next_power_of_2(HW)))
    block_b = TILE // block_hw                      # 4 .. 512
    b_blocks = triton.cdiv(B, block_b)
    splits = min(b_blocks, max(1, triton.cdiv(TARGET_PROGRAMS, C)))
    per_split = triton.cdiv(b_blocks, splits)       # b blocks per program
    splits = triton.cdiv(b_blocks, per_split)
    return block_hw, block_b, splits, per_split


@triton.jit
def _stats_partial(x_ptr, ws_ptr, B, C, HW, S, PER_SPLIT,
                   BLOCK_B: tl.constexpr, BLOCK_HW: tl.constexpr):
    ws = ws_ptr.to(tl.pointer_type(tl.float32))
    c = tl.program_id(0)
    s = tl.program_id(1)
    rb = tl.arange(0, BLOCK_B)
    ri = tl.arange(0, BLOCK_HW)
    b_begin = s * PER_SPLIT * BLOCK_B
    b_end = tl.minimum(b_begin + PER_SPLIT * BLOCK_B, B)

    # Shift K: the mean of the first tile (read again by the loop, from cache).
    b_first = b_begin + rb
    m_first = (b_first < b_end)[:, None] & (ri < HW)[None, :]
    p_first = x_ptr + ((b_first.to(tl.int64) * C + c) * HW)[:, None] + ri[None, :]
    v_first = tl.load(p_first, mask=m_first, other=0.0)
    cnt = tl.sum(tl.sum(tl.where(m_first, 1.0, 0.0), axis=1), axis=0)
    k = tl.sum(tl.sum(v_first, axis=1), axis=0) / cnt

    acc1 = tl.zeros([BLOCK_B, BLOCK_HW], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK_B, BLOCK_HW], dtype=tl.float32)
    for b0 in range(b_begin, b_end, BLOCK_B):
        b = b0 + rb
        bmask = b < b_end
        rowp = x_ptr + (b.to(tl.int64) * C + c) * HW
        for i in range(0, HW, BLOCK_HW):
            cols = i + ri
            mask = bmask[:, None] & (cols < HW)[None, :]
            v = tl.load(rowp[:, None] + cols[None, :], mask=mask, other=0.0)
            d = tl.where(mask, v - k, 0.0)
            acc1 += d
            acc2 += d * d
    n = ((b_end - b_begin) * HW).to(tl.float32)
    s1 = tl.sum(tl.sum(acc1, axis=1), axis=0)
    s2 = tl.sum(tl.sum(acc2, axis=1), axis=0)
    mean_p = k + s1 / n
    m2_p = tl.maximum(s2 - s1 * (s1 / n), 0.0)
    at = c * S + s
    tl.store(ws + at, n)
    tl.store(ws + C * S + at, mean_p)
    tl.store(ws + 2 * C * S + at, m2_p)


@triton.jit
def _stats_final(ws_ptr, mean_ptr, var_ptr, C, S, BLOCK_S: tl.constexpr):
    ws = ws_ptr.to(tl.pointer_type(tl.float32))
    c = tl.program_id(0)
    o = tl.arange(0, BLOCK_S)
    m = o < S
    at = c * S + o
    n_p = tl.load(ws + at, mask=m, other=0.0)
    mu_p = tl.load(ws + C * S + at, mask=m, other=0.0)
    q_p = tl.load(ws + 2 * C * S + at, mask=m, other=0.0)
    n = tl.sum(n_p, axis=0)
    mu = tl.sum(n_p * mu_p, axis=0) / n
    d = mu_p - mu
    q = tl.sum(q_p, axis=0) + tl.sum(n_p * d * d, axis=0)  # masked partials have n_p = 0
    tl.store(mean_ptr + c, mu)
    tl.store(var_ptr + c, q / n)


def workspace_bytes(B, C, HW):
    _, _, splits, _ = _plan(B, C, HW)
    return 3 * C * splits * 4


def launch(x, mean, var, B, C, HW, workspace):
    block_hw, block_b, splits, per_split = _plan(B, C, HW)
    _stats_partial[(C, splits)](x, workspace, B, C, HW, splits, per_split,
                                BLOCK_B=block_b, BLOCK_HW=block_hw, num_warps=8)
    block_s = max(16, triton.next_power_of_2(splits))   # splits <= 1024
    _stats_final[(C,)](workspace, mean, var, C, splits, BLOCK_S=block_s, num_warps=4)
