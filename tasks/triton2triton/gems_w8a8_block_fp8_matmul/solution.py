"""Block-scaled fp8 linear layer (DeepSeek-V3 style): C[m, n] = sum over 128-wide K blocks kb of
As[m, kb] * Bs[n // 128, kb] * sum_{k in kb} A[m, k] * W[n, k] (A [M, K], W [N, K] fp8 e4m3 as
uint8 codes, fp32 scales per 1 x 128 activation group and 128 x 128 weight block, bf16 C),
built for the few-token shapes of decoding, where streaming W once dominates.

The package kernel runs 64 x 128 tiles through a 2-stage pipeline with one program per tile
over the whole of K: a 7168-wide layer has 56 programs for 132 multiprocessors, 75-98 % of the
tile rows are padding at 1-16 tokens, and few bytes of W are in flight. Here:
- Tile rows follow M (16/32/64/128), 128 columns (exactly one weight block, so its scale is a
  single scalar load per K block) and 128-deep K steps (one scale group) through a 4-stage
  pipeline, sized so that two programs fit on a multiprocessor up to 64 rows. Each K block's
  fp8 dot is scaled and added to an fp32 accumulator, as the package does.
- Split-K over whole K blocks, with S picked by a small cost model (waves x K steps per
  program, plus the partials' round trip through memory) so that the grid fills the machine;
  fp32 partial tiles go to the workspace and a second kernel adds them and rounds to bf16
  once. Without a split the main kernel rounds and stores.
- W is loaded evict-first so that A, the scales and the partials stay in L2; grouped tile
  order."""
import torch
import triton
import triton.language as tl

NUM_SMS = 132  # H100 SXM
MAX_SPLIT = 16
REDUCE_BLOCK = 1024
GROUP = 128  # activation group and weight block edge


@triton.jit
def block_fp8_kernel(a_ptr, as_ptr, w_ptr, bs_ptr, c_ptr, part_ptr, M, N, K, KB, k_per_split,
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
    # [BLOCK_K, BLOCK_N] tile of W^T: contiguous along K, the layout fp8 tensor cores want.
    w_ptrs = w_ptr + rn.to(tl.int64)[None, :] * K + (k_start + rk)[:, None]
    as_ptrs = as_ptr + rm.to(tl.int64) * KB + k_start // BLOCK_K
    bs_ptrs = bs_ptr + pid_n * KB + k_start // BLOCK_K
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(k_start, k_end, BLOCK_K):
        if EVEN_K:
            a = tl.load(a_ptrs, mask=m_mask[:, None], other=0.0)
            w = tl.load(w_ptrs, mask=n_mask[None, :], other=0.0, eviction_policy="evict_first")
        else:
            k_mask = (k0 + rk) < k_end
            a = tl.load(a_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=0.0)
            w = tl.load(w_ptrs, mask=k_mask[:, None] & n_mask[None, :], other=0.0,
                        eviction_policy="evict_first")
        sa = tl.load(as_ptrs, mask=m_mask, other=0.0)
        sb = tl.load(bs_ptrs)
        acc += tl.dot(a, w, out_dtype=tl.float32) * sa[:, None] * sb
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
        as_ptrs += 1
        bs_ptrs += 1

    c_offs = rm.to(tl.int64)[:, None] * N + rn[None, :]
    c_mask = m_mask[:, None] & n_mask[None, :]
    if DIRECT:
        tl.store(c_ptr + c_offs, acc.to(tl.bfloat16), mask=c_mask)
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
    tl.store(c_ptr + offs, acc.to(tl.bfloat16), mask=mask)


def _tile(M):
    """(BLOCK_M, warps, stages, programs per multiprocessor); 128 x 128 fp8 W tiles."""
    if M <= 16:
        return 16, 4, 4, 2    # 72 KB of shared memory per program
    if M <= 32:
        return 32, 4, 4, 2    # 80 KB
    if M <= 64:
        return 64, 4, 4, 2    # 96 KB
    return 128, 8, 4, 1       # 128 KB


def _plan(M, N, K):
    bm, warps, stages, per_sm = _tile(M)
    slots = NUM_SMS * per_sm
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, GROUP)
    k_tiles = triton.cdiv(K, GROUP)
    # Cost in units of one wave streaming one K step; the partials' round trip through memory
    # counts against a split.
    wave_step_bytes = slots * (bm + GROUP) * GROUP
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
    return bm, warps, stages, split, per_split * GROUP


def workspace_bytes(M, N, K):
    split = _plan(M, N, K)[3]
    return 4 * split * M * N if split > 1 else 4


def launch(A, As, W, Bs, C, M, N, K, workspace):
    bm, warps, stages, split, k_per_split = _plan(M, N, K)
    part = workspace.view(torch.float32)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, GROUP), split)
    block_fp8_kernel[grid](A.view(torch.float8_e4m3fn), As, W.view(torch.float8_e4m3fn), Bs, C, part,
                           M, N, K, triton.cdiv(K, GROUP), k_per_split,
                           BLOCK_M=bm, BLOCK_N=GROUP, BLOCK_K=GROUP, GROUP_M=8,
                           EVEN_K=K % GROUP == 0, DIRECT=split == 1,
                           num_warps=warps, num_stages=stages)
    if split > 1:
        MN = M * N
        splitk_reduce_kernel[(triton.cdiv(MN, REDUCE_BLOCK),)](part, C, MN, split, BLOCK=REDUCE_BLOCK,
                                                               num_warps=4)
