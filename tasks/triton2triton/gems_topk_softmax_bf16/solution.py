"""MoE router top-k softmax: per token, softmax over E bf16 logits, the K largest
probabilities (ties to the lower expert id), optionally renormalized over the K.

What differs from the package kernel, and why it is faster:
- The selection runs on the logits, not on the probabilities: softmax is monotone, so the
  arg-max of a bf16 logit is the arg-max of its probability. Each logit becomes one int32
  key, (order-preserving bits of the bf16 value) * 65536 + (65535 - expert), so one integer
  max reduction per step gives the value and the lowest expert id on ties (the package
  reduces a value and an index each step).
- Only the K chosen logits need exp for the weights (plus one exp-sum per row when the
  weights are not renormalized; renormalized weights need only the K exps).
- The K results are collected in a [rows, K] register tile and written once per output as
  contiguous rows; the package writes one strided column per step and, to renormalize,
  reads its weights back and writes them again.
- Many rows per program (about 4096 logits per tile, a whole row per thread when E <= 8),
  also for E > 128, where the package runs one row per one-warp program."""
import triton
import triton.language as tl

TILE = 4096


@triton.jit
def topk_softmax_rows(x_ptr, w_ptr, id_ptr, src_ptr, T, E, K, RENORMALIZE: tl.constexpr,
                      BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    cols = tl.arange(0, BLOCK_E)
    row_ok = rows < T
    mask = row_ok[:, None] & (cols < E)[None, :]
    x = tl.load(x_ptr + rows.to(tl.int64)[:, None] * E + cols[None, :], mask=mask, other=0.0)
    xf = x.to(tl.float32)
    xf = tl.where(xf == 0.0, 0.0, xf)  # -0 and +0 are one value: equal keys, lower id wins
    # bf16 bits as a signed 16-bit value whose integer order is the float order.
    b = (xf.to(tl.int32, bitcast=True) >> 16)
    b = tl.where(b < 0, b ^ 0x7FFF, b)
    key = tl.where(mask, b * 65536 + (65535 - cols[None, :]), -2147483647 - 1)

    row_max = tl.max(tl.where(mask, xf, float("-inf")), axis=1)
    kcols = tl.arange(0, BLOCK_K)
    sel_x = tl.zeros([BLOCK_T, BLOCK_K], dtype=tl.float32)
    sel_id = tl.zeros([BLOCK_T, BLOCK_K], dtype=tl.int32)
    for k in range(K):
        best = tl.max(key, axis=1)
        e = 65535 - (best & 0xFFFF)
        hi = best >> 16
        bits = tl.where(hi < 0, hi ^ 0x7FFF, hi) << 16
        sel_x = tl.where(kcols[None, :] == k, bits.to(tl.float32, bitcast=True)[:, None], sel_x)
        sel_id = tl.where(kcols[None, :] == k, e[:, None], sel_id)
        key = tl.where(cols[None, :] == e[:, None], -2147483647 - 1, key)

    kmask = kcols[None, :] < K
    num = tl.where(kmask, tl.exp(sel_x - row_max[:, None]), 0.0)
    if RENORMALIZE:
        den = tl.sum(num, axis=1)
    else:
        den = tl.sum(tl.where(mask, tl.exp(xf - row_max[:, None]), 0.0), axis=1)
    w = num / den[:, None]

    out = rows.to(tl.int64)[:, None] * K + kcols[None, :]
    omask = row_ok[:, None] & kmask
    tl.store(w_ptr + out, w, mask=omask)
    tl.store(id_ptr + out, sel_id, mask=omask)
    tl.store(src_ptr + out, kcols[None, :] * T + rows[:, None], mask=omask)


def launch(logits, topk_weights, topk_ids, token_expert_indices, T, E, K, renormalize):
    block_e = triton.next_power_of_2(E)
    block_t = max(1, min(TILE // block_e, triton.next_power_of_2(T)))
    num_warps = max(1, min(8, block_t * block_e // 512))
    grid = (triton.cdiv(T, block_t),)
    topk_softmax_rows[grid](logits, topk_weights, topk_ids, token_expert_indices, T, E, K,
                            RENORMALIZE=bool(renormalize), BLOCK_T=block_t, BLOCK_E=block_e,
                            BLOCK_K=triton.next_power_of_2(K), num_warps=num_warps)
