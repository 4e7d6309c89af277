"""GLA (gated linear attention with one forget gate per key channel) forward, chunked and
fused into one kernel.

One program owns one (sequence, head, BV-wide slice of V) and walks the sequence in chunks of
64 tokens with the K x BV state in fp32 registers. Per chunk it loads q, k, the gates (all K
channels), and v once, scans the gates within the chunk in registers (Gc = cumsum g), and
does the chunk's work on the tensor cores (bf16 operands, tf32 for the gated scores, fp32
accumulation):
  scores A_ij = sum_c q_ic k_jc exp(Gc_ic - Gc_jc), i >= j: one product of
      q * exp(Gc - Gm) and k * exp(Gm - Gc), with Gm the gates' running sum at the chunk's
      middle token, so neither factor's exponent exceeds half a chunk of decay;
  o  = scale * ((q * exp(Gc)) @ S + A @ v)
  S <- diag(exp(G_last)) S + (k * exp(G_last - Gc))^T @ v.
The recurrent baseline takes T dependent steps of K x V outer products and state decays per
program (and a second pass summing the K blocks' fp32 outputs and rounding to bf16); here
the sequential chain is T / 64 steps of small matrix products on the tensor cores, K is not
split (no partial outputs, no reduction pass), and BV shrinks when B * H is small so that
every multiprocessor still gets a program."""
import triton
import triton.language as tl

BT = 64
NUM_SMS = 132  # H100 SXM


@triton.jit
def gla_chunk_kernel(q_ptr, k_ptr, v_ptr, g_ptr, o_ptr, T, H, scale,
                     K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr,
                     BK: tl.constexpr, BV: tl.constexpr):
    i_v = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b = i_bh // H
    i_h = i_bh % H
    rows = tl.arange(0, BT)
    o_k = tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    m_k = o_k < K
    m_v = o_v < V
    causal = rows[:, None] >= rows[None, :]
    mid = (rows == BT // 2 - 1)[:, None]
    state = tl.zeros([BK, BV], dtype=tl.float32)
    for t0 in range(0, T, BT):
        m_t = (t0 + rows) < T
        tok = (i_b.to(tl.int64) * T + t0 + rows) * H + i_h
        m_qk = m_t[:, None] & m_k[None, :]
        m_tv = m_t[:, None] & m_v[None, :]
        qk_offs = tok[:, None] * K + o_k[None, :]
        b_q = tl.load(q_ptr + qk_offs, mask=m_qk, other=0.0)
        b_k = tl.load(k_ptr + qk_offs, mask=m_qk, other=0.0)
        b_g = tl.load(g_ptr + qk_offs, mask=m_qk, other=0.0).to(tl.float32)
        b_v = tl.load(v_ptr + tok[:, None] * V + o_v[None, :], mask=m_tv, other=0.0)
        gc = tl.cumsum(b_g, axis=0)
        g_last = tl.sum(b_g, axis=0)  # padded gates are 0: gc at the last token
        g_mid = tl.sum(tl.where(mid, gc, 0.0), axis=0)
        qf = b_q.to(tl.float32)
        kf = b_k.to(tl.float32)
        # The gated scores stay in fp32 operands (tf32 products): rounding both factors to
        # bf16 would double the scores' error for no speed that matters here.
        q_rel = qf * tl.exp(gc - g_mid[None, :])
        k_rel = kf * tl.exp(g_mid[None, :] - gc)
        att = tl.where(causal, tl.dot(q_rel, tl.trans(k_rel), input_precision="tf32"), 0.0)
        b_o = tl.dot((qf * tl.exp(gc)).to(b_q.dtype), state.to(b_q.dtype))
        b_o = tl.dot(att.to(b_v.dtype), b_v, b_o)
        tl.store(o_ptr + tok[:, None] * V + o_v[None, :], (b_o * scale).to(o_ptr.dtype.element_ty),
                 mask=m_tv)
        k_dec = (kf * tl.exp(g_last[None, :] - gc)).to(b_k.dtype)
        state = tl.dot(tl.trans(k_dec), b_v, state * tl.exp(g_last)[:, None])


def _block_v(B, H, BK, V):
    # At most 8192 fp32 state values per program (64 registers a thread at 4 warps), and
    # narrower slices only while some multiprocessor would get no program: every V slice
    # recomputes the chunk's q k^T scores, so narrow slices cost work.
    bv = max(16, min(64, 8192 // BK, triton.next_power_of_2(V)))
    while bv > 16 and B * H * triton.cdiv(V, bv) < NUM_SMS:
        bv //= 2
    return bv


def launch(q, k, v, g, o, B, T, H, K, V):
    BK = max(16, triton.next_power_of_2(K))
    BV = _block_v(B, H, BK, V)
    grid = (triton.cdiv(V, BV), B * H)
    gla_chunk_kernel[grid](q, k, v, g, o, T, H, K ** -0.5, K=K, V=V, BT=BT, BK=BK, BV=BV,
                           num_warps=8 if BK >= 128 else 4, num_stages=2)
