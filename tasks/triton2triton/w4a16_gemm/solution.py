"""Weight-only int4 GEMM y = x * W^T (x fp16 [M, K]; W int4 [N, K] packed two per byte along K,
low nibble first, zero point 8, fp16 scale per output channel and group of G inputs).

With M at most a few dozen rows the kernel streams the packed weights once, so the design is
about bytes in flight:
- Tiles of 128 output channels x 128 inputs (64 bytes per weight row, 8 KB per step) and
  split-K: the K range is cut so that about two programs per multiprocessor run (a 4096-wide
  layer has only 32 column tiles); each program writes an fp32 partial tile to the workspace
  and a second kernel adds the partials in a fixed order and rounds to fp16 (one kernel when
  no split is needed).
- A 4-stage software pipeline keeps the next weight tiles loading during the dot products;
  weights are loaded evict-first so x stays in L2.
- When G is a multiple of 32 a K tile (32 to 128 inputs) lies inside one scale group: the
  nibbles (-8..7, exact in fp16) go straight into tl.dot and the partial product is scaled
  once per output channel, instead of looking up and multiplying a scale per weight. Other
  group sizes take the per-element path.
Even and odd inputs (low and high nibbles) are two tl.dot calls over the strided columns of x."""
import torch
import triton
import triton.language as tl

NUM_SMS = 132  # H100 SXM
MAX_SPLIT = 16
REDUCE_BLOCK = 1024


@triton.jit
def w4a16_kernel(x_ptr, qw_ptr, s_ptr, y_ptr, part_ptr, M, N, K, G, tiles_per_split,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_KH: tl.constexpr,
                 GROUP_TILE: tl.constexpr, DIRECT: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    pid_k = tl.program_id(2)
    KH = K // 2
    NG = K // G
    kh_start = pid_k * tiles_per_split * BLOCK_KH
    kh_end = tl.minimum(KH, kh_start + tiles_per_split * BLOCK_KH)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    m_mask = rm < M
    n_mask = rn < N
    x_rows = x_ptr + rm.to(tl.int64)[:, None] * K
    q_rows = qw_ptr + rn.to(tl.int64)[:, None] * KH
    s_rows = s_ptr + rn.to(tl.int64) * NG
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kh0 in range(kh_start, kh_end, BLOCK_KH):
        j = kh0 + tl.arange(0, BLOCK_KH)
        j_mask = j < kh_end
        k_even = 2 * j
        q = tl.load(q_rows + j[None, :], mask=n_mask[:, None] & j_mask[None, :], other=0,
                    eviction_policy="evict_first").to(tl.int32)
        xmask = m_mask[:, None] & j_mask[None, :]
        x_even = tl.load(x_rows + k_even[None, :], mask=xmask, other=0.0)
        x_odd = tl.load(x_rows + (k_even + 1)[None, :], mask=xmask, other=0.0)
        if GROUP_TILE:
            # The tile's inputs share one group: dot the raw nibbles, scale the partial product.
            part = tl.dot(x_even, tl.trans(((q & 15) - 8).to(tl.float16)))
            part = tl.dot(x_odd, tl.trans(((q >> 4) - 8).to(tl.float16)), part)
            s = tl.load(s_rows + (2 * kh0) // G, mask=n_mask, other=0.0).to(tl.float32)
            acc += part * s[None, :]
        else:
            smask = n_mask[:, None] & j_mask[None, :]
            s_even = tl.load(s_rows[:, None] + (k_even // G)[None, :], mask=smask, other=0.0)
            s_odd = tl.load(s_rows[:, None] + ((k_even + 1) // G)[None, :], mask=smask, other=0.0)
            acc = tl.dot(x_even, tl.trans(((q & 15) - 8).to(tl.float16) * s_even), acc)
            acc = tl.dot(x_odd, tl.trans(((q >> 4) - 8).to(tl.float16) * s_odd), acc)
    out_mask = m_mask[:, None] & n_mask[None, :]
    if DIRECT:
        tl.store(y_ptr + rm.to(tl.int64)[:, None] * N + rn[None, :], acc.to(tl.float16), mask=out_mask)
    else:
        rows = (pid_k * M + rm).to(tl.int64)
        tl.store(part_ptr + rows[:, None] * N + rn[None, :], acc, mask=out_mask)


@triton.jit
def splitk_reduce_kernel(part_ptr, y_ptr, MN, SPLIT, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < MN
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in range(0, SPLIT):
        acc += tl.load(part_ptr + s.to(tl.int64) * MN + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, acc.to(tl.float16), mask=mask)


def _plan(M, N, K, G):
    bm = max(16, min(64, triton.next_power_of_2(M)))
    bn = 128 if N >= 2048 else 64
    if G % 128 == 0:
        bkh, group_tile = 64, True
    elif G % 64 == 0:
        bkh, group_tile = 32, True
    elif G % 32 == 0:
        bkh, group_tile = 16, True
    else:
        bkh, group_tile = 64, False
    k_tiles = triton.cdiv(K // 2, bkh)
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    split = max(1, min(k_tiles, MAX_SPLIT, triton.cdiv(2 * NUM_SMS, tiles)))
    per_split = triton.cdiv(k_tiles, split)
    split = triton.cdiv(k_tiles, per_split)
    return bm, bn, bkh, group_tile, split, per_split


def workspace_bytes(M, N, K, G):
    split = _plan(M, N, K, G)[4]
    return 4 * split * M * N if split > 1 else 4


def launch(x, qweight, scales, y, M, N, K, G, workspace):
    bm, bn, bkh, group_tile, split, per_split = _plan(M, N, K, G)
    part = workspace.view(torch.float32)
    grid = (triton.cdiv(N, bn), triton.cdiv(M, bm), split)
    w4a16_kernel[grid](x, qweight, scales, y, part, M, N, K, G, per_split,
                       BLOCK_M=bm, BLOCK_N=bn, BLOCK_KH=bkh, GROUP_TILE=group_tile,
                       DIRECT=split == 1, num_warps=4, num_stages=4)
    if split > 1:
        splitk_reduce_kernel[(triton.cdiv(M * N, REDUCE_BLOCK),)](part, y, M * N, split,
                                                                 BLOCK=REDUCE_BLOCK)
