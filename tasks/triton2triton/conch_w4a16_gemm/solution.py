"""GPTQ-style 4-bit weight-only linear layer C = x @ dequant(Wq) (x fp16 [M, K]; Wq int32 [K/8, N]
with eight 4-bit codes per word along K; fp16 scales per 128-row group and column;
w = (code - 8) * scale; fp32 accumulation, fp16 C), built for the few-token shapes of batched
decoding, where streaming the packed weight once dominates.

The package kernel uses one fixed 128 x 64 tile with 64-deep K steps and a 2-stage pipeline for
every shape, one program per tile over the whole of K, and loads every packed word eight times
(once per code it holds): at 16-128 tokens most of the 128 rows are padding, a 4096-wide layer
has 64 programs for 132 multiprocessors, and few bytes are in flight. Here:
- Tile rows follow M (16/32/64/128) with 128 columns and 128-deep K steps (exactly one scale
  group, so one row of scales per step) through a 3-4 stage pipeline.
- Each packed word is loaded once; its eight codes are unpacked in registers with a broadcast
  shift ([K/8, 8, N] -> [K, N]) and dequantized in fp16 as the package does.
- Split-K over whole groups, with S picked by a small cost model (waves x K steps per program,
  plus the partials' round trip through memory) so that the grid fills the machine; fp32
  partial tiles go to the workspace and a second kernel adds them and rounds to fp16 once.
- The packed weight is loaded evict-first so that x and the partials stay in L2; grouped tile
  order."""
import torch
import triton
import triton.language as tl

NUM_SMS = 132  # H100 SXM
MAX_SPLIT = 16
REDUCE_BLOCK = 1024
GROUP = 128  # rows of K per scale, and the K step


@triton.jit
def w4a16_kernel(x_ptr, q_ptr, s_ptr, c_ptr, part_ptr, M, N, K, k_per_split,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                 GROUP_M: tl.constexpr, DIRECT: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = tl.minimum(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % width) % group_size
    pid_n = (pid % width) // group_size

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    rw = tl.arange(0, BLOCK_K // 8)
    shifts = tl.arange(0, 8) * 4
    m_mask = rm < M
    n_mask = rn < N
    k_start = pid_k * k_per_split
    k_end = tl.minimum(K, k_start + k_per_split)
    x_ptrs = x_ptr + rm.to(tl.int64)[:, None] * K + (k_start + rk)[None, :]
    q_ptrs = q_ptr + (k_start // 8 + rw).to(tl.int64)[:, None] * N + rn[None, :]
    s_ptrs = s_ptr + (k_start // BLOCK_K).to(tl.int64) * N + rn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(k_start, k_end, BLOCK_K):
        x = tl.load(x_ptrs, mask=m_mask[:, None], other=0.0)
        q = tl.load(q_ptrs, mask=n_mask[None, :], other=0, eviction_policy="evict_first")
        s = tl.load(s_ptrs, mask=n_mask, other=0.0)
        codes = (q[:, None, :] >> shifts[None, :, None]) & 15
        codes = tl.reshape(codes, (BLOCK_K, BLOCK_N))
        w = (codes.to(tl.float16) - 8.0) * s[None, :]
        acc = tl.dot(x, w.to(tl.float16), acc, out_dtype=tl.float32)
        x_ptrs += BLOCK_K
        q_ptrs += (BLOCK_K // 8) * N
        s_ptrs += N

    c_offs = rm.to(tl.int64)[:, None] * N + rn[None, :]
    c_mask = m_mask[:, None] & n_mask[None, :]
    if DIRECT:
        tl.store(c_ptr + c_offs, acc.to(tl.float16), mask=c_mask)
    else:
        tl.store(part_ptr + pid_k.to(tl.int64) * M * N + c_offs, acc, mask=c_mask)


@triton.jit
def splitk_reduce_kernel(part_ptr, c_ptr, MN, SPLIT, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < MN
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    ptrs = part_ptr + offs
    for _ in range(0, SPLIT):
        acc += tl.load(ptrs, mask=mask, other=0.0)
        ptrs += MN  # pointer arithmetic is 64-bit
    tl.store(c_ptr + offs, acc.to(tl.float16), mask=mask)


def _tile(M):
    """(BLOCK_M, warps, stages, programs per multiprocessor); 128-column tiles. Besides the
    pipeline's buffers (x and packed-weight tiles per stage), unpacking takes about 50 KB of
    shared memory for the register shuffle of [K/8, 8, N] -> [K, N]."""
    if M <= 16:
        return 16, 4, 4, 2    # 4 x 12 KB of buffers
    if M <= 32:
        return 32, 4, 4, 2    # 4 x 16 KB
    if M <= 64:
        return 64, 4, 4, 1    # 4 x 24 KB
    return 128, 8, 3, 1       # 3 x 40 KB


def _plan(M, N, K):
    bm, warps, stages, per_sm = _tile(M)
    bn = 128
    slots = NUM_SMS * per_sm
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    k_tiles = triton.cdiv(K, GROUP)
    # Cost in units of one wave streaming one K step; the partials' round trip through memory
    # counts against a split.
    wave_step_bytes = slots * (2 * bm + bn // 2) * GROUP
    split, best = 1, None
    if tiles < slots:
        for s in range(1, min(MAX_SPLIT, k_tiles) + 1):
            if s > 1 and k_tiles < 4 * s:
                break
            steps = triton.cdiv(k_tiles, s)
            cost = triton.cdiv(tiles * s, slots) * steps * (1.0 + 0.01 * s)
            if s > 1:
                cost += 8 * s * M * N / wave_step_bytes
            if best is None or cost < best:
                split, best = s, cost
    per_split = triton.cdiv(k_tiles, split)
    split = triton.cdiv(k_tiles, per_split)
    return bm, bn, warps, stages, split, per_split * GROUP


def workspace_bytes(M, N, K):
    split = _plan(M, N, K)[4]
    return 4 * split * M * N if split > 1 else 4


def launch(x, Wq, scales, C, M, N, K, workspace):
    bm, bn, warps, stages, split, k_per_split = _plan(M, N, K)
    part = workspace.view(torch.float32)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), split)
    w4a16_kernel[grid](x, Wq, scales, C, part, M, N, K, k_per_split, BLOCK_M=bm, BLOCK_N=bn,
                       BLOCK_K=GROUP, GROUP_M=8, DIRECT=split == 1,
                       num_warps=warps, num_stages=stages)
    if split > 1:
        MN = M * N
        splitk_reduce_kernel[(triton.cdiv(MN, REDUCE_BLOCK),)](part, C, MN, split, BLOCK=REDUCE_BLOCK,
                                                               num_warps=4)
