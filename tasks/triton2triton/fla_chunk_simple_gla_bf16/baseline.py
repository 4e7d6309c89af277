"""Simple GLA (scalar-gated causal linear attention) forward, chunked, from fla-core 0.6.0
(flash-linear-attention, MIT): `fla.ops.simple_gla.chunk_simple_gla(q, k, v, g)` with no
initial or final state, chunk size 64, scale = K^-1/2 (the wrapper's defaults).

The launch mirrors the wrapper's forward (ChunkSimpleGLAFunction.forward ->
chunk_local_cumsum -> chunk_simple_gla_fwd), three package kernels in order:
1. `chunk_local_cumsum_scalar_kernel`: the gates' cumulative sum inside each 64-token chunk,
   scaled by the package's RCP_LN2 (later kernels use exp2), into an fp32 [B, T, H] buffer
   (the wrapper's `torch.empty_like(g, dtype=torch.float)`), grid NT * B * H;
2. `chunk_fwd_kernel_h`: the state at the start of every chunk, [B, NT, H, K, V] in the
   inputs' dtype (bf16, as the wrapper's `states_in_fp32=False` allocates it), grid from the
   autotuned BK and BV;
3. `chunk_fwd_kernel_o`: each chunk's output from its queries, the stored state and the
   intra-chunk scores, written to o, grid cdiv(V, BV) * NT x B * H.
The two buffers the wrapper allocates live in the workspace. Kernels 1-3 are autotuned by the
package (`triton.autotune` / fla's cache-aware autotuner, cache mode off); the harness's
warm-up launches run the tuning."""
import torch
import triton

from fla.ops.common.chunk_h import chunk_fwd_kernel_h
from fla.ops.common.chunk_o import chunk_fwd_kernel_o
from fla.ops.utils.constant import RCP_LN2
from fla.ops.utils.cumsum import chunk_local_cumsum_scalar_kernel

BT = 64  # the wrapper's default chunk_size


def _sizes(B, T, H, K, V):
    NT = triton.cdiv(T, BT)
    g_bytes = 4 * B * T * H
    g_bytes += -g_bytes % 256  # keep the state buffer aligned
    return NT, g_bytes, 2 * B * NT * H * K * V


def workspace_bytes(B, T, H, K, V):
    _, g_bytes, h_bytes = _sizes(B, T, H, K, V)
    return g_bytes + h_bytes


def launch(q, k, v, g, o, B, T, H, K, V, workspace):
    NT, g_bytes, h_bytes = _sizes(B, T, H, K, V)
    g_cum = workspace[:4 * B * T * H].view(torch.float32).view(B, T, H)
    h = workspace[g_bytes:g_bytes + h_bytes].view(k.dtype).view(B, NT, H, K, V)
    chunk_local_cumsum_scalar_kernel[(NT * B * H,)](
        s=g, o=g_cum, scale=RCP_LN2, cu_seqlens=None, chunk_indices=None, T=T, B=B, H=H, BT=BT,
        REVERSE=False, USE_GRAPH=False)

    def grid_h(meta):
        return (triton.cdiv(K, meta['BK']) * triton.cdiv(V, meta['BV']) * B * H,)
    chunk_fwd_kernel_h[grid_h](
        k=k, v=v, h=h, g=g_cum, g_gamma=None, gk=None, gv=None, h0=None, ht=None,
        cu_seqlens=None, split_offsets=None, T=T, H=H, K=K, V=V, BT=BT, BS=BT,
        USE_G=True, USE_G_GAMMA=False, USE_GK=False, USE_GV=False, STATE_V_FIRST=False)

    def grid_o(meta):
        return (triton.cdiv(V, meta['BV']) * NT, B * H)
    chunk_fwd_kernel_o[grid_o](
        q=q, k=k, v=v, h=h, g=g_cum, g_gamma=None, o=o, cu_seqlens=None, chunk_indices=None,
        scale=K ** -0.5, T=T, H=H, HV=H, K=K, V=V, BT=BT, STATE_V_FIRST=False)
