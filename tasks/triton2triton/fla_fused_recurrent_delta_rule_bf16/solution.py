"""DeltaNet (delta-rule linear attention) forward with L2-normalized queries and keys, recurrent
form, in one kernel.

One single-warp program owns one (sequence, head, 8-wide slice of V) and walks the T steps
with the K x 8 fp32 state in registers, as the package's recurrent kernel does, but with a
shorter dependent chain per step:
- q and k are normalized in registers (fp32, never rounded to bf16), so the package's two
  normalization launches and their round trip through memory disappear;
- the next step's q, k, v and beta are loaded while the current step computes, so the
  global-load latency is off the critical path (the package loads at the top of each step
  and waits);
- o_t = S_t^T q_t is taken as S_{t-1}^T q_t + u_t (k_t . q_t): both reductions of the old
  state (against k_t and against q_t) are independent and run together, instead of a second
  reduction over the updated state after the update;
- the pre-beta delta values u, which the package stores for a backward pass, are not
  written."""
import triton
import triton.language as tl

BV = 8
EPS = 1e-6


@triton.jit
def delta_rule_kernel(q_ptr, k_ptr, v_ptr, beta_ptr, o_ptr, T, H, scale, eps,
                      K: tl.constexpr, V: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr):
    i_v = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b = i_bh // H
    i_h = i_bh % H
    o_k = tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    m_k = o_k < K
    m_v = o_v < V
    row = i_b.to(tl.int64) * T * H + i_h  # token 0 of this sequence and head
    p_q = q_ptr + row * K + o_k
    p_k = k_ptr + row * K + o_k
    p_v = v_ptr + row * V + o_v
    p_b = beta_ptr + row
    p_o = o_ptr + row * V + o_v
    b_q = tl.load(p_q, mask=m_k, other=0.0).to(tl.float32)
    b_k = tl.load(p_k, mask=m_k, other=0.0).to(tl.float32)
    b_v = tl.load(p_v, mask=m_v, other=0.0).to(tl.float32)
    b_beta = tl.load(p_b).to(tl.float32)
    state = tl.zeros([BK, BV], dtype=tl.float32)
    for t in range(0, T):
        # Prefetch step t + 1 (masked off past the end).
        more = t + 1 < T
        n_q = tl.load(p_q + H * K, mask=m_k & more, other=0.0)
        n_k = tl.load(p_k + H * K, mask=m_k & more, other=0.0)
        n_v = tl.load(p_v + H * V, mask=m_v & more, other=0.0)
        n_beta = tl.load(p_b + H, mask=more, other=0.0)
        qn = b_q / tl.sqrt(tl.sum(b_q * b_q, axis=0) + eps)
        kn = b_k / tl.sqrt(tl.sum(b_k * b_k, axis=0) + eps)
        kq = tl.sum(kn * qn, axis=0)
        s_k = tl.sum(state * kn[:, None], axis=0)
        s_q = tl.sum(state * qn[:, None], axis=0)
        u = (b_v - s_k) * b_beta
        state += kn[:, None] * u[None, :]
        tl.store(p_o, ((s_q + u * kq) * scale).to(o_ptr.dtype.element_ty), mask=m_v)
        p_q += H * K
        p_k += H * K
        p_v += H * V
        p_b += H
        p_o += H * V
        b_q = n_q.to(tl.float32)
        b_k = n_k.to(tl.float32)
        b_v = n_v.to(tl.float32)
        b_beta = n_beta.to(tl.float32)


def launch(q, k, v, beta, o, B, T, H, K, V):
    BK = max(16, triton.next_power_of_2(K))
    grid = (triton.cdiv(V, BV), B * H)
    delta_rule_kernel[grid](q, k, v, beta, o, T, H, K ** -0.5, EPS, K=K, V=V, BK=BK, BV=BV,
                            num_warps=1, num_stages=1)
