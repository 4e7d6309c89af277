"""int8 GEMM with dequantizing epilogue C = (A * W) * sa[m] * sw[n] (A int8 [M, K], W int8 [K, N],
fp32 per-row and per-column scales, fp16 C).

With tens of activation rows the kernel is dominated by streaming W once, so it is built for
bytes in flight:
- Tiles of up to 128 x 128 outputs with 128-deep K steps (16 KB of W per step) through a
  4-stage software pipeline, so several steps of W are loading while the int8 tensor cores
  work on the current one.
- Split-K: the K range is cut so that about two programs per multiprocessor run (a
  4096-wide layer has only 32 column tiles). Each program writes its exact int32 partial tile
  to the workspace; a second kernel adds the partials (integer sums: exact in any order),
  converts once to fp32, applies both scales and rounds to fp16. Without a split the
  epilogue runs in the main kernel.
- W is loaded evict-first so A and the partials stay in L2."""
import torch
import triton
import triton.language as tl

NUM_SMS = 132  # H100 SXM
MAX_SPLIT = 16
BLOCK_K = 128
REDUCE_BLOCK = 1024


@triton.jit
def w8a8_kernel(a_ptr, sa_ptr, w_ptr, sw_ptr, c_ptr, part_ptr, M, N, K, tiles_per_split,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                DIRECT: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    pid_k = tl.program_id(2)
    k_start = pid_k * tiles_per_split * BLOCK_K
    k_end = tl.minimum(K, k_start + tiles_per_split * BLOCK_K)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_mask = rm < M
    n_mask = rn < N
    a_ptrs = a_ptr + rm.to(tl.int64)[:, None] * K + (k_start + rk)[None, :]
    w_ptrs = w_ptr + (k_start + rk).to(tl.int64)[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(k_start, k_end, BLOCK_K):
        k_mask = (k0 + rk) < k_end
        a = tl.load(a_ptrs, mask=m_mask[:, None] & k_mask[None, :], other=0)
        w = tl.load(w_ptrs, mask=k_mask[:, None] & n_mask[None, :], other=0,
                    eviction_policy="evict_first")
        acc = tl.dot(a, w, acc, out_dtype=tl.int32)
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K * N
    out_mask = m_mask[:, None] & n_mask[None, :]
    if DIRECT:
        sa = tl.load(sa_ptr + rm, mask=m_mask, other=0.0)
        sw = tl.load(sw_ptr + rn, mask=n_mask, other=0.0)
        c = acc.to(tl.float32) * sa[:, None] * sw[None, :]
        tl.store(c_ptr + rm.to(tl.int64)[:, None] * N + rn[None, :], c.to(tl.float16), mask=out_mask)
    else:
        rows = (pid_k * M + rm).to(tl.int64)
        tl.store(part_ptr + rows[:, None] * N + rn[None, :], acc, mask=out_mask)


@triton.jit
def splitk_epilogue_kernel(part_ptr, sa_ptr, sw_ptr, c_ptr, M, N, SPLIT, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    offs = row.to(tl.int64) * N + cols
    acc = tl.zeros((BLOCK,), dtype=tl.int32)
    for s in range(0, SPLIT):
        acc += tl.load(part_ptr + s.to(tl.int64) * M * N + offs, mask=mask, other=0)
    sa = tl.load(sa_ptr + row)
    sw = tl.load(sw_ptr + cols, mask=mask, other=0.0)
    tl.store(c_ptr + offs, (acc.to(tl.float32) * sa * sw).to(tl.float16), mask=mask)


def _plan(M, N, K):
    bm = max(16, min(128, triton.next_power_of_2(M)))
    bn = 128 if N >= 2048 else 64
    num_warps = 8 if bm * bn >= 128 * 128 else 4
    k_tiles = triton.cdiv(K, BLOCK_K)
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    # About 8 warps per multiprocessor: two 4-warp programs or one 8-warp program.
    target = 2 * NUM_SMS if num_warps == 4 else NUM_SMS
    split = max(1, min(k_tiles, MAX_SPLIT, triton.cdiv(target, tiles)))
    per_split = triton.cdiv(k_tiles, split)
    split = triton.cdiv(k_tiles, per_split)
    return bm, bn, num_warps, split, per_split


def workspace_bytes(M, N, K):
    split = _plan(M, N, K)[3]
    return 4 * split * M * N if split > 1 else 4


def launch(A, sa, W, sw, C, M, N, K, workspace):
    bm, bn, num_warps, split, per_split = _plan(M, N, K)
    part = workspace.view(torch.int32)
    grid = (triton.cdiv(N, bn), triton.cdiv(M, bm), split)
    w8a8_kernel[grid](A, sa, W, sw, C, part, M, N, K, per_split, BLOCK_M=bm, BLOCK_N=bn,
                      BLOCK_K=BLOCK_K, DIRECT=split == 1,
                      num_warps=num_warps, num_stages=4)
    if split > 1:
        splitk_epilogue_kernel[(M, triton.cdiv(N, REDUCE_BLOCK))](part, sa, sw, C, M, N, split,
                                                                 BLOCK=REDUCE_BLOCK)
