"""bf16 linear layer with bias C = A @ B + bias (A [M, K], B [K, N], bias [N] broadcast over rows,
fp32 accumulation, bf16 C), built for the few-token shapes of batched decoding, where streaming
B once dominates.

The package kernel gives each program one output tile over the whole of K with tiles of at
least 32 rows and 32-deep K steps, so a layer with 16-128 tokens has few tiles for 132
multiprocessors, wastes rows, and keeps few bytes of B in flight. Here:
- Tile shapes follow M (16/32/64-row tiles with 128 columns and 64-128-deep K steps through a
  3-4 stage pipeline, sized so that two programs fit on a multiprocessor).
- Split-K: the K range is cut into S pieces, with S picked by a small cost model (waves x
  K steps per program, plus the partials' round trip through memory) so that the grid fills the machine in whole
  waves. Each piece writes its fp32 partial tile to the workspace and a second kernel adds
  the S partials and the bias and rounds to bf16 once; without a split the main kernel adds
  the bias in fp32 and rounds.
- Masked, vectorizable loads (row and column masks are constant along the contiguous axis),
  B loaded evict-first so that A and the partials stay in L2, and a grouped tile order."""
import torch
import triton
import triton.language as tl

NUM_SMS = 132  # H100 SXM
MAX_SPLIT = 16
REDUCE_BLOCK = 1024


@triton.jit
def addmm_kernel(a_ptr, b_ptr, bias_ptr, c_ptr, part_ptr, M, N, K, k_per_split,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                 GROUP_M: tl.constexpr, EVEN_K: tl.constexpr, DIRECT: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    tiles_per_group = GROUP_M * tiles_n
    group_id = pid // tiles_per_group
    group_size = tl.minimum(tiles_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % tiles_per_group) % group_size
    pid_n = (pid % tiles_per_group) // group_size

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_mask = rm < M
    n_mask = rn < N
    k_start = pid_k * k_per_split
    k_end = tl.minimum(K, k_start + k_per_split)
    a_ptrs = a_ptr + rm.to(tl.int64)[:, None] * K + (k_start + rk)[None, :]
    b_ptrs = b_ptr + (k_start + rk).to(tl.int64)[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(k_start, k_end, BLOCK_K):
        if EVEN_K:
            a = tl.load(a_ptrs, mask=m_mask[:, None], other=0.0)
            b = tl.load(b_ptrs, mask=n_mask[None, :], other=0.0, eviction_policy="evict_first")
        else:
            k_mask = (k0 + rk) < k_end
            a = tl.load(a_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
            b = tl.load(b_ptrs, mask=k_mask[:, None] & n_mask[None, :], other=0.0,
                        eviction_policy="evict_first")
        acc = tl.dot(a, b, acc, out_dtype=tl.float32)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N

    c_offs = rm.to(tl.int64)[:, None] * N + rn[None, :]
    c_mask = m_mask[:, None] & n_mask[None, :]
    if DIRECT:
        bias = tl.load(bias_ptr + rn, mask=n_mask, other=0.0).to(tl.float32)
        tl.store(c_ptr + c_offs, (acc + bias[None, :]).to(tl.bfloat16), mask=c_mask)
    else:
        tl.store(part_ptr + pid_k.to(tl.int64) * M * N + c_offs, acc, mask=c_mask)


@triton.jit
def splitk_bias_reduce_kernel(part_ptr, bias_ptr, c_ptr, N, MN, SPLIT, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < MN
    acc = tl.load(bias_ptr + offs % N, mask=mask, other=0.0).to(tl.float32)
    ptrs = part_ptr + offs
    for _ in range(0, SPLIT):
        acc += tl.load(ptrs, mask=mask, other=0.0)
        ptrs += MN  # pointer arithmetic is 64-bit
    tl.store(c_ptr + offs, acc.to(tl.bfloat16), mask=mask)


def _tile(M):
    """(BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, programs per multiprocessor)."""
    if M <= 16:
        return 16, 128, 128, 4, 3, 2   # 108 KB of shared memory per program
    if M <= 32:
        return 32, 128, 64, 4, 4, 2    # 80 KB
    if M <= 64:
        return 64, 128, 64, 4, 4, 2    # 96 KB
    return 128, 128, 64, 8, 4, 1       # 128 KB


def _plan(M, N, K):
    bm, bn, bk, warps, stages, per_sm = _tile(M)
    slots = NUM_SMS * per_sm
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    k_tiles = triton.cdiv(K, bk)
    # Cost in units of one wave streaming one K step; the partials' round trip through memory
    # counts against a split.
    wave_step_bytes = slots * (bm + bn) * bk * 2
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
    return bm, bn, bk, warps, stages, split, per_split * bk


def workspace_bytes(M, N, K):
    split = _plan(M, N, K)[5]
    return 4 * split * M * N if split > 1 else 4


def launch(A, B, bias, C, M, N, K, workspace):
    bm, bn, bk, warps, stages, split, k_per_split = _plan(M, N, K)
    part = workspace.view(torch.float32)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), split)
    addmm_kernel[grid](A, B, bias, C, part, M, N, K, k_per_split, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                       GROUP_M=8, EVEN_K=K % bk == 0, DIRECT=split == 1,
                       num_warps=warps, num_stages=stages)
    if split > 1:
        MN = M * N
        splitk_bias_reduce_kernel[(triton.cdiv(MN, REDUCE_BLOCK),)](part, bias, C, N, MN, split,
                                                                    BLOCK=REDUCE_BLOCK, num_warps=4)
