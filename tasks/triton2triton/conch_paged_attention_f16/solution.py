"""Paged-KV-cache decode attention (FlashDecoding) with fp32 accumulation.

Same two-phase plan as the package (per-split partial softmax, then a log-sum-exp merge), with
the work cut differently:
- Each step of the split kernel gathers 64 tokens (four 16-token cache blocks) through the
  block table into one [D, 64] key tile and one [64, D] value tile: 32 KiB of KV in flight per
  step instead of 8 KiB, a quarter of the loop iterations (each one a dependent block-table ->
  KV load chain), and larger tensor-core products. The loop is software-pipelined
  (num_stages) so the next tiles load while this one is computed.
- The split count comes from the batch, not only from the longest context: enough
  (sequence, KV head, split) programs for several waves over the 132 multiprocessors, each
  covering a long run of tokens, instead of a fixed 32-64 splits of 128-256 tokens. Fewer
  splits means fewer partial rows to write and merge; with one split the kernel writes the
  output directly and the merge kernel is not launched.
- Scores, running max and sum, and the output accumulate in fp32 (exp2 with the scale folded
  in), the partials are fp32, and only the final output is rounded to fp16; the package keeps
  all of them in fp16."""
import torch
import triton
import triton.language as tl

NUM_SMS = 132  # H100 SXM
BLOCK_N = 64
LOG2E = 1.4426950408889634


@triton.jit
def paged_split_kernel(q_ptr, k_ptr, v_ptr, table_ptr, lens_ptr, out_ptr, part_ptr, lse_ptr,
                       qk_scale, HQ, HKV, D, BS, MAXBLK, split_tokens, NSPLIT,
                       GROUP: tl.constexpr, GP: tl.constexpr, DP: tl.constexpr,
                       BLOCK_N: tl.constexpr, STAGES: tl.constexpr, DIRECT: tl.constexpr):
    b = tl.program_id(0)
    sp = tl.program_id(1)
    kvh = tl.program_id(2)
    seq_len = tl.load(lens_ptr + b)
    start = sp * split_tokens
    if start < seq_len:
        end = tl.minimum(seq_len, start + split_tokens)
        rows = tl.arange(0, GP)
        m_rows = rows < GROUP
        heads = kvh * GROUP + rows
        d = tl.arange(0, DP)
        m_d = d < D
        q = tl.load(q_ptr + (b * HQ + heads)[:, None] * D + d[None, :],
                    mask=m_rows[:, None] & m_d[None, :], other=0.0)
        m_i = tl.full([GP], float("-inf"), dtype=tl.float32)
        l_i = tl.zeros([GP], dtype=tl.float32)
        acc = tl.zeros([GP, DP], dtype=tl.float32)
        offs_n = tl.arange(0, BLOCK_N)
        for t0 in tl.range(start, end, BLOCK_N, num_stages=STAGES):
            toks = t0 + offs_n
            m_t = toks < end
            blk = tl.load(table_ptr + b * MAXBLK + toks // BS, mask=m_t, other=0)
            row = ((blk.to(tl.int64) * BS + toks % BS) * HKV + kvh) * D
            kv_mask = m_t[None, :] & m_d[:, None]
            k = tl.load(k_ptr + row[None, :] + d[:, None], mask=kv_mask, other=0.0)
            s = tl.dot(q, k) * qk_scale
            s = tl.where(m_t[None, :], s, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, axis=1))
            p = tl.math.exp2(s - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, axis=1)
            v = tl.load(v_ptr + row[:, None] + d[None, :], mask=tl.trans(kv_mask), other=0.0)
            acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
            m_i = m_new
        acc = acc / l_i[:, None]
        o_mask = m_rows[:, None] & m_d[None, :]
        if DIRECT:
            tl.store(out_ptr + (b * HQ + heads)[:, None] * D + d[None, :],
                     acc.to(out_ptr.dtype.element_ty), mask=o_mask)
        else:
            prow = (b * NSPLIT + sp) * HQ + heads
            tl.store(part_ptr + prow.to(tl.int64)[:, None] * D + d[None, :], acc, mask=o_mask)
            tl.store(lse_ptr + prow, m_i + tl.math.log2(l_i), mask=m_rows)


@triton.jit
def paged_merge_kernel(part_ptr, lse_ptr, lens_ptr, out_ptr, HQ, D, split_tokens, NSPLIT,
                       SP: tl.constexpr, DP: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1)
    n = tl.cdiv(tl.load(lens_ptr + b), split_tokens)
    s = tl.arange(0, SP)
    lse = tl.load(lse_ptr + (b * NSPLIT + s) * HQ + h, mask=s < n, other=float("-inf"))
    w = tl.math.exp2(lse - tl.max(lse, axis=0))
    w = w / tl.sum(w, axis=0)
    d = tl.arange(0, DP)
    rows = ((b * NSPLIT + s) * HQ + h).to(tl.int64)
    part = tl.load(part_ptr + rows[:, None] * D + d[None, :], mask=(s < n)[:, None] & (d < D)[None, :],
                   other=0.0)
    o = tl.sum(part * w[:, None], axis=0)
    tl.store(out_ptr + (b * HQ + h) * D + d, o.to(out_ptr.dtype.element_ty), mask=d < D)


def _plan(B, HKV, BS, MAXBLK):
    max_len = MAXBLK * BS
    splits = max(1, min(triton.cdiv(8 * NUM_SMS, B * HKV), triton.cdiv(max_len, 4 * BLOCK_N), 64))
    split_tokens = triton.cdiv(triton.cdiv(max_len, splits), BLOCK_N) * BLOCK_N
    return triton.cdiv(max_len, split_tokens), split_tokens


def workspace_bytes(B, HQ, HKV, D, NB, BS, MAXBLK):
    splits = _plan(B, HKV, BS, MAXBLK)[0]
    return 4 * B * splits * HQ * (D + 1) if splits > 1 else 4


def launch(query, key_cache, value_cache, block_table, seq_lens, out,
           B, HQ, HKV, D, NB, BS, MAXBLK, workspace):
    splits, split_tokens = _plan(B, HKV, BS, MAXBLK)
    group = HQ // HKV
    dp = max(16, triton.next_power_of_2(D))
    ws = workspace.view(torch.float32)
    part = ws[:B * splits * HQ * D]
    lse = ws[B * splits * HQ * D:]
    paged_split_kernel[(B, splits, HKV)](
        query, key_cache, value_cache, block_table, seq_lens, out, part, lse,
        D ** -0.5 * LOG2E, HQ, HKV, D, BS, MAXBLK, split_tokens, splits,
        GROUP=group, GP=max(16, triton.next_power_of_2(group)), DP=dp,
        BLOCK_N=BLOCK_N, STAGES=3 if dp <= 128 else 2, DIRECT=splits == 1, num_warps=4)
    if splits > 1:
        paged_merge_kernel[(B, HQ)](part, lse, seq_lens, out, HQ, D, split_tokens, splits,
                                    SP=triton.next_power_of_2(splits),
                                    DP=triton.next_power_of_2(D))
