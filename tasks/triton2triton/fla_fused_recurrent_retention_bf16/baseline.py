"""Multi-scale retention (RetNet) forward, recurrent form, from fla-core 0.6.0
(flash-linear-attention, MIT): `fla.ops.retention.fused_recurrent_retention(q, k, v)`, which
builds the per-head log decays g_gamma[h] = log(1 - 2^(-5-h)) (fp32, with torch) and calls
`fla.ops.simple_gla.fused_recurrent_simple_gla(q, k, v, g_gamma=g_gamma)`, that is
`fla.ops.common.fused_recurrent.fused_recurrent_fwd`.

The launch mirrors those wrappers. The decays are computed by one small Triton kernel into the
workspace (the wrapper's torch arithmetic may not run inside `launch`), with the same fp32
operations: 2^(-5-h) is exact, 1 - 2^(-5-h) rounds as in torch, then log. The tiling comes
from the package's `_fused_recurrent_tiling(K, V)` (BK = min(next_pow2(K), 64), BV likewise),
the grid is NV * NK * B * H programs, and the package kernel `fused_recurrent_fwd_kernel`
(launched through its autotuner over num_warps 4 and 8, tuned during the harness's warm-up)
walks the T steps with an fp32 BK x BV state, decayed by exp(g_gamma[h]) before each step's
k v^T. As in the wrapper, the kernel always writes fp32 output, one slab per K block
([NK, B, T, H, V]), here in the workspace; a small Triton kernel then sums the slabs and
rounds, as the wrapper's `o.sum(0)` (when NK > 1) and `.to(q.dtype)` do.
No initial state, no final state, scale = K^-1/2 (the wrapper's default)."""
import torch
import triton
import triton.language as tl

from fla.ops.common.fused_recurrent import _fused_recurrent_tiling, fused_recurrent_fwd_kernel

SUM_BLOCK = 1024
DECAY_BYTES_ALIGN = 256


@triton.jit
def retention_log_decay_kernel(g_ptr, H, BLOCK: tl.constexpr):
    # g_gamma[h] = log(1 - 2^(-5 - h)) in fp32, as the wrapper computes it.
    h = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    gamma = 1.0 - tl.exp2(-5.0 - h.to(tl.float32))
    tl.store(g_ptr + h, tl.log(gamma), mask=h < H)


@triton.jit
def sum_partials_kernel(part_ptr, o_ptr, n, NK: tl.constexpr, BLOCK: tl.constexpr):
    # o = part.sum(0).to(o.dtype): the wrapper's sum over K blocks (NK > 1) and its rounding.
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(NK):
        acc += tl.load(part_ptr + i * n + offs, mask=mask, other=0.0)
    tl.store(o_ptr + offs, acc.to(o_ptr.dtype.element_ty), mask=mask)


def _decay_bytes(H):
    return triton.cdiv(4 * H, DECAY_BYTES_ALIGN) * DECAY_BYTES_ALIGN


def workspace_bytes(B, T, H, K, V):
    NK = _fused_recurrent_tiling(K, V)[2]
    # The decays, then the wrapper's fp32 output, one [B, T, H, V] slab per K block.
    return _decay_bytes(H) + 4 * NK * B * T * H * V


def launch(q, k, v, o, B, T, H, K, V, workspace):
    BK, BV, NK, NV = _fused_recurrent_tiling(K, V)
    db = _decay_bytes(H)
    g_gamma = workspace[:db].view(torch.float32)
    retention_log_decay_kernel[(triton.cdiv(H, 128),)](g_gamma, H, BLOCK=128)
    n = B * T * H * V
    out = workspace[db:].view(torch.float32)[:NK * n]
    fused_recurrent_fwd_kernel[(NV * NK * B * H,)](
        q=q, k=k, v=v, g=None, g_gamma=g_gamma, gk=None, gv=None, o=out, h0=None, ht=None,
        cu_seqlens=None, scale=K ** -0.5, T=T, B=B, H=H, K=K, V=V, BK=BK, BV=BV,
        USE_G=False, USE_G_GAMMA=True, USE_GK=False, USE_GV=False, REVERSE=False,
        STATE_V_FIRST=False)
    sum_partials_kernel[(triton.cdiv(n, SUM_BLOCK),)](out, o, n, NK=NK, BLOCK=SUM_BLOCK)
