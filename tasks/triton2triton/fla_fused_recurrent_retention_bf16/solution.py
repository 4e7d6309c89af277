"""Multi-scale retention (RetNet) forward, chunked and fused into one kernel.

One program owns one (sequence, head, BV-wide slice of V) and walks the sequence in chunks of
64 tokens with the K x BV state in fp32 registers. The head's decay is a constant,
g = log(1 - 2^(-5-h)), so every decay factor of a chunk is exp(g * distance) computed in
registers, and the chunk's work runs on the tensor cores (fp32 accumulation):
  o   = scale * (exp(g (i+1)) * (q @ S) + (mask(q @ k^T) * exp(g (i - j))) @ v)
  S  <- exp(64 g) * S + (k * exp(g (63 - j)))^T @ v
The recurrent baseline takes T dependent steps of outer products per program (and a second
pass summing the K blocks' fp32 outputs and rounding to bf16); here the chain is T / 64 steps of
matrix products and K is not split.

Accuracy: the slow heads (gamma close to 1) keep about every token, so S grows like sqrt(t),
and a plain bf16 copy of S or of the decayed keys in the products would add an error that
grows with T; the scores' rounding adds one that grows with the chunk's length. The state,
the decayed keys and the scores are each split into a bf16 high part and a bf16 remainder
(two products, about 16 bits of mantissa), and q's decay is applied to the fp32 product rows
instead of to q, so the output's one rounding to bf16 dominates the error.

Odd K: rows of q and k that start at an odd element cannot be copied in 4-byte pieces, so the
chunk kernel loads them element by element, without the asynchronous copy, and with K > 64
(a 128-wide tile) that build needs 255 registers and spills 516 bytes. On an H200 it gave wrong
outputs from the first chunk on (B=6 T=135 H=3 K=113 V=5), while its PTX, executed instruction
by instruction on the same inputs, gives the right ones: the fault lies in the PTX-to-machine-code
step or below, not in the algorithm. So for odd K one small kernel first copies q and k into the
workspace as rows of BK elements, zero past K (zero columns add nothing to q k^T or to the
state), and the chunk kernel reads those with K = BK, the build the seen configurations (K = 128)
run, with 16-byte aligned rows. Even K launches as before."""
import triton
import triton.language as tl

BT = 64
NUM_SMS = 132  # H100 SXM
PAD_ROWS = 32


@triton.jit
def retention_chunk_kernel(q_ptr, k_ptr, v_ptr, o_ptr, T, H, scale,
                           K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr,
                           BK: tl.constexpr, BV: tl.constexpr):
    i_v = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b = i_bh // H
    i_h = i_bh % H
    g = tl.log(1.0 - tl.exp2(-5.0 - i_h.to(tl.float32)))
    rows = tl.arange(0, BT)
    rows_f = rows.to(tl.float32)
    o_k = tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    m_k = o_k < K
    m_v = o_v < V
    causal = rows[:, None] >= rows[None, :]
    # Decays within a chunk: pairwise for the scores, to the chunk's end for the keys, from
    # the chunk's start for the queries, and across a whole chunk for the state.
    d_att = tl.where(causal, tl.exp(g * (rows_f[:, None] - rows_f[None, :])), 0.0)
    d_key = tl.exp(g * (BT - 1 - rows_f))
    d_qry = tl.exp(g * (rows_f + 1.0))
    d_chunk = tl.exp(g * BT)
    state = tl.zeros([BK, BV], dtype=tl.float32)
    for t0 in range(0, T, BT):
        m_t = (t0 + rows) < T
        tok = (i_b.to(tl.int64) * T + t0 + rows) * H + i_h
        m_qk = m_t[:, None] & m_k[None, :]
        m_tv = m_t[:, None] & m_v[None, :]
        b_q = tl.load(q_ptr + tok[:, None] * K + o_k[None, :], mask=m_qk, other=0.0)
        b_k = tl.load(k_ptr + tok[:, None] * K + o_k[None, :], mask=m_qk, other=0.0)
        b_v = tl.load(v_ptr + tok[:, None] * V + o_v[None, :], mask=m_tv, other=0.0)
        att = tl.dot(b_q, tl.trans(b_k)) * d_att
        a_hi = att.to(b_v.dtype)
        a_lo = (att - a_hi.to(tl.float32)).to(b_v.dtype)
        s_hi = state.to(b_q.dtype)
        s_lo = (state - s_hi.to(tl.float32)).to(b_q.dtype)
        b_o = tl.dot(b_q, s_hi)
        b_o = tl.dot(b_q, s_lo, b_o) * d_qry[:, None]
        b_o = tl.dot(a_hi, b_v, b_o)
        b_o = tl.dot(a_lo, b_v, b_o)
        tl.store(o_ptr + tok[:, None] * V + o_v[None, :], (b_o * scale).to(o_ptr.dtype.element_ty),
                 mask=m_tv)
        k_dec = b_k.to(tl.float32) * d_key[:, None]
        k_hi = k_dec.to(b_k.dtype)
        k_lo = (k_dec - k_hi.to(tl.float32)).to(b_k.dtype)
        state = tl.dot(tl.trans(k_hi), b_v, state * d_chunk)
        state = tl.dot(tl.trans(k_lo), b_v, state)


@triton.jit
def pad_rows_kernel(q_ptr, k_ptr, qp_ptr, kp_ptr, n_rows, K: tl.constexpr, BK: tl.constexpr,
                    ROWS: tl.constexpr):
    # q and k as [n_rows, BK] rows, zero past K.
    rows = tl.program_id(0).to(tl.int64) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BK)
    m_r = rows[:, None] < n_rows
    m_in = m_r & (cols[None, :] < K)
    src = rows[:, None] * K + cols[None, :]
    dst = rows[:, None] * BK + cols[None, :]
    tl.store(qp_ptr + dst, tl.load(q_ptr + src, mask=m_in, other=0.0), mask=m_r)
    tl.store(kp_ptr + dst, tl.load(k_ptr + src, mask=m_in, other=0.0), mask=m_r)


def _block_k(K):
    return max(16, triton.next_power_of_2(K))


def workspace_bytes(B, T, H, K, V):
    # Padded q and k (bf16) for odd K; a token amount otherwise (nothing is used).
    return 2 * 2 * B * T * H * _block_k(K) if K % 2 else 16


def _block_v(B, H, BK, V):
    # At most 8192 fp32 state values per program (64 registers a thread at 4 warps), and
    # narrower slices only while some multiprocessor would get no program: every V slice
    # recomputes the chunk's q k^T scores, so narrow slices cost work.
    bv = max(16, min(64, 8192 // BK, triton.next_power_of_2(V)))
    while bv > 16 and B * H * triton.cdiv(V, bv) < NUM_SMS:
        bv //= 2
    return bv


def launch(q, k, v, o, B, T, H, K, V, workspace):
    BK = _block_k(K)
    BV = _block_v(B, H, BK, V)
    k_row = K
    if K % 2:
        n_rows = B * T * H
        q_pad = workspace[:2 * n_rows * BK].view(q.dtype)
        k_pad = workspace[2 * n_rows * BK:4 * n_rows * BK].view(k.dtype)
        pad_rows_kernel[(triton.cdiv(n_rows, PAD_ROWS),)](q, k, q_pad, k_pad, n_rows, K=K, BK=BK,
                                                          ROWS=PAD_ROWS)
        q, k, k_row = q_pad, k_pad, BK
    grid = (triton.cdiv(V, BV), B * H)
    retention_chunk_kernel[grid](q, k, v, o, T, H, K ** -0.5, K=k_row, V=V, BT=BT, BK=BK, BV=BV,
                                 num_warps=8 if BK > 128 else 4, num_stages=2)
