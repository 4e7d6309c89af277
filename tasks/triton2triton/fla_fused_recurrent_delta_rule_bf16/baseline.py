"""DeltaNet (delta-rule linear attention) forward with L2-normalized queries and keys, recurrent
form, from fla-core 0.6.0 (flash-linear-attention, MIT):
`fla.ops.delta_rule.fused_recurrent_delta_rule(q, k, v, beta, use_qk_l2norm_in_kernel=True)`.

The launch mirrors that wrapper's forward (FusedRecurrentFunction.forward), three package
kernels in order:
1. `l2norm_fwd_kernel` on q and 2. on k (the wrapper's `l2norm_fwd`: rows of K values scaled
   by 1 / sqrt(sum x^2 + 1e-6), written in the inputs' dtype, with per-row fp32 reciprocal
   norms; D = K <= 512 path, token-count bucket NB = cdiv(rows, 65536), autotuned BT/warps);
3. `fused_recurrent_delta_rule_fwd_kernel` (the wrapper's `fused_recurrent_delta_rule_fwd`:
   BK = next_pow2(K), BV = min(next_pow2(V), 8), one warp, one stage, NV * B * H programs)
   walking the T steps with a BV x BK fp32 state and writing o and the pre-beta delta values u
   (kept by the wrapper for the backward pass).
The normalized q and k, the norms and u are the wrapper's allocations: here they live in the
workspace. Head-wise beta, no initial or final state, scale = K^-1/2 (the wrapper's default)."""
import torch
import triton

from fla.modules.norm.l2norm import l2norm_fwd_kernel
from fla.ops.delta_rule.fused_recurrent import fused_recurrent_delta_rule_fwd_kernel

EPS = 1e-6  # l2norm_fwd's default
ALIGN = 256


def _plan(B, T, H, K, V):
    rows = B * T * H
    sizes = [2 * rows * K, 2 * rows * K, 4 * rows, 4 * rows, 2 * rows * V]
    offsets, total = [], 0
    for n in sizes:
        offsets.append(total)
        total += n + (-n % ALIGN)
    return rows, sizes, offsets, total


def workspace_bytes(B, T, H, K, V):
    return _plan(B, T, H, K, V)[3]


def launch(q, k, v, beta, o, B, T, H, K, V, workspace):
    rows, sizes, offsets, _ = _plan(B, T, H, K, V)
    qn, kn, q_rstd, k_rstd, u = (workspace[off:off + n] for off, n in zip(offsets, sizes))
    BD = min(65536 // q.element_size(), triton.next_power_of_2(K))
    NB = triton.cdiv(rows, 2048 * 32)

    def grid_norm(meta):
        return (triton.cdiv(rows, meta["BT"]),)
    for x, y, rstd in ((q, qn, q_rstd), (k, kn, k_rstd)):
        l2norm_fwd_kernel[grid_norm](x=x.view(rows, K), y=y.view(q.dtype).view(rows, K),
                                     rstd=rstd.view(torch.float32), eps=EPS, T=rows, D=K, BD=BD, NB=NB)

    BK, BV = triton.next_power_of_2(K), min(triton.next_power_of_2(V), 8)
    fused_recurrent_delta_rule_fwd_kernel[(triton.cdiv(V, BV) * B * H,)](
        qn.view(q.dtype).view(B, T, H, K), kn.view(k.dtype).view(B, T, H, K), v,
        u.view(v.dtype).view(B, T, H, V), beta, o, None, None, None, K ** -0.5,
        T=T, B=B, H=H, K=K, V=V, BK=BK, BV=BV, IS_BETA_HEADWISE=False, num_warps=1, num_stages=1)
