"""GLA (gated linear attention, one forget gate per key channel) forward, chunked, from
fla-core 0.6.0 (flash-linear-attention, MIT): `fla.ops.gla.chunk_gla(q, k, v, g)` with no
initial or final state and scale = K^-1/2 (the wrapper's defaults).

The launch mirrors the wrapper's forward (ChunkGLAFunction.forward -> chunk_gla_fwd), with
its chunk size min(64, max(16, next_pow2(T))) and sub-chunks of min(16, chunk) tokens, five
package kernels in order:
1. `chunk_local_cumsum_vector_kernel`: the gates' cumulative sum inside each chunk, per key
   channel, scaled by RCP_LN2 (later kernels use exp2), into an fp32 [B, T, H, K] buffer;
2. `chunk_fwd_kernel_h` (USE_GK): each chunk's starting state into a bf16
   [B, NT, H, K, V] buffer (`states_in_fp32=False`);
3. `chunk_gla_fwd_A_kernel_intra_sub_inter`: the intra-chunk scores between different
   sub-chunks, into an fp32 [B, T, H, chunk] buffer;
4. `chunk_gla_fwd_A_kernel_intra_sub_intra` (the wrapper's path for K <= 256): the scores
   inside each sub-chunk, into the same buffer;
5. `chunk_gla_fwd_kernel_o`: the outputs from q, the gates, the states, the scores and v.
The three buffers the wrapper allocates live in the workspace (the score buffer's upper
triangle is never written and never read unmasked). All five kernels are autotuned by the
package; the harness's warm-up launches run the tuning."""
import torch
import triton

from fla.ops.common.chunk_h import chunk_fwd_kernel_h
from fla.ops.gla.chunk import (chunk_gla_fwd_A_kernel_intra_sub_inter,
                               chunk_gla_fwd_A_kernel_intra_sub_intra, chunk_gla_fwd_kernel_o)
from fla.ops.utils.constant import RCP_LN2
from fla.ops.utils.cumsum import chunk_local_cumsum_vector_kernel

ALIGN = 256


def _plan(B, T, H, K, V):
    BT = min(64, max(16, triton.next_power_of_2(T)))  # the wrapper's chunk_size
    NT = triton.cdiv(T, BT)
    sizes = [4 * B * T * H * K, 2 * B * NT * H * K * V, 4 * B * T * H * BT]
    offsets, total = [], 0
    for n in sizes:
        offsets.append(total)
        total += n + (-n % ALIGN)
    return BT, NT, sizes, offsets, total


def workspace_bytes(B, T, H, K, V):
    return _plan(B, T, H, K, V)[4]


def launch(q, k, v, g, o, B, T, H, K, V, workspace):
    BT, NT, sizes, offsets, _ = _plan(B, T, H, K, V)
    BC = min(16, BT)
    NC = triton.cdiv(BT, BC)
    scale = K ** -0.5
    g_cum, h, A = (workspace[off:off + n] for off, n in zip(offsets, sizes))
    g_cum = g_cum.view(torch.float32).view(B, T, H, K)
    h = h.view(k.dtype).view(B, NT, H, K, V)
    A = A.view(torch.float32).view(B, T, H, BT)

    def grid_cumsum(meta):
        return (triton.cdiv(meta['S'], meta['BS']) * NT, B * H)
    chunk_local_cumsum_vector_kernel[grid_cumsum](
        s=g, o=g_cum, scale=RCP_LN2, cu_seqlens=None, chunk_indices=None, T=T, B=B, H=H, S=K,
        BT=BT, REVERSE=False, USE_GRAPH=False)

    def grid_h(meta):
        return (triton.cdiv(K, meta['BK']) * triton.cdiv(V, meta['BV']) * B * H,)
    chunk_fwd_kernel_h[grid_h](
        k=k, v=v, h=h, g=None, g_gamma=None, gk=g_cum, gv=None, h0=None, ht=None,
        cu_seqlens=None, split_offsets=None, T=T, H=H, K=K, V=V, BT=BT, BS=BT,
        USE_G=False, USE_G_GAMMA=False, USE_GK=True, USE_GV=False, STATE_V_FIRST=False)

    chunk_gla_fwd_A_kernel_intra_sub_inter[(NT, NC * NC, B * H)](
        q=q, k=k, g=g_cum, A=A, cu_seqlens=None, chunk_indices=None, scale=scale, T=T, H=H,
        K=K, BT=BT, BC=BC, NC=NC)
    chunk_gla_fwd_A_kernel_intra_sub_intra[(NT, NC, B * H)](
        q=q, k=k, g=g_cum, A=A, cu_seqlens=None, chunk_indices=None, scale=scale, T=T, H=H,
        K=K, BT=BT, BC=BC, BK=max(triton.next_power_of_2(K), 16))

    def grid_o(meta):
        return (triton.cdiv(V, meta['BV']) * NT, B * H)
    chunk_gla_fwd_kernel_o[grid_o](
        q=q, v=v, g=g_cum, h=h, o=o, A=A, cu_seqlens=None, chunk_indices=None, scale=scale,
        T=T, H=H, HV=H, K=K, V=V, BT=BT, STATE_V_FIRST=False, USE_GRAPH=False)
