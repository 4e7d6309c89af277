"""Selective log-softmax: log_p[b, l] = z[id] - logsumexp(z) with z = logits[b, l, :] / T and
id = input_ids[b, l + 1], bf16 logits, fp32 result.

The package gives each row one warp, divides every logit by the temperature (a true fp32
division) and reduces each 2048-value block to its maximum before exponentiating it, so the
single warp stalls on every block. Here each row gets 8 warps and 4096-value blocks; logits
are scaled once by log2(e) / T (a multiply) and exponentiated with exp2; the running maximum
and sum are kept per group of 8 consecutive values a thread already holds (a reshape to
[BLOCK / 8, 8]), so each block needs only in-thread maxima, one exp2 per value plus one per
group, and no cross-warp reduction until the row ends."""
import triton
import triton.language as tl

BLOCK = 4096
GROUP = 8
LOG2E = 1.4426950408889634


@triton.jit
def selective_log_softmax(logits_ptr, ids_ptr, log_p_ptr, L, N, scale, BLOCK: tl.constexpr, GROUP: tl.constexpr):
    b = tl.program_id(1)
    pos = tl.program_id(0)
    row = logits_ptr + (b.to(tl.int64) * (L + 1) + pos) * N
    m = tl.full([BLOCK // GROUP], -1.0e30, tl.float32)  # finite: an all-masked group stays at 0
    s = tl.zeros([BLOCK // GROUP], tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        z = tl.load(row + cols, mask=cols < N, other=float("-inf"), eviction_policy="evict_first").to(tl.float32)
        z = tl.reshape(z * scale, (BLOCK // GROUP, GROUP))
        m_new = tl.maximum(m, tl.max(z, axis=1))
        s = s * tl.exp2(m - m_new) + tl.sum(tl.exp2(z - m_new[:, None]), axis=1)
        m = m_new
    m_row = tl.max(m, axis=0)
    lse2 = m_row + tl.log2(tl.sum(s * tl.exp2(m - m_row), axis=0))
    tok = tl.load(ids_ptr + b.to(tl.int64) * (L + 1) + pos + 1)
    z_tok = tl.load(row + tok).to(tl.float32) * scale
    tl.store(log_p_ptr + b.to(tl.int64) * L + pos, (z_tok - lse2) * 0.6931471805599453)  # back to base e


def launch(logits, input_ids, log_p, B, L, N, temperature):
    scale = LOG2E / temperature
    selective_log_softmax[(L, B)](logits, input_ids, log_p, L, N, scale, BLOCK=BLOCK, GROUP=GROUP, num_warps=8)
