"""Llama rotary position embedding (rotate-half RoPE) on q and k in place: liger-kernel 0.8.5
(BSD-2-Clause), liger_kernel.ops.rope.rope_forward, kernel _triton_rope.

The launch is the wrapper's for HuggingFace's layout, where q and k are transposed views of
contiguous [B, S, H, D] buffers and cos/sin are one [S, D] table for every batch: one program
per token (grid B*S) rotating all its q heads and k heads, heads padded to a power of two, the
rotary width from the package's own _resolve_rotary_dim (the whole head here), default warps.
The math runs in the tables' dtype (bf16), as the package does. The wrapper's transposes and
.contiguous() calls are no-ops on these buffers, so launch passes them as they are."""
import triton

from liger_kernel.ops.rope import _resolve_rotary_dim, _triton_rope


def launch(q, k, cos, sin, B, S, HQ, HKV, D):
    rotary_dim = _resolve_rotary_dim(cos, D, None)
    pad_n_q_head = triton.next_power_of_2(HQ)
    pad_n_kv_head = triton.next_power_of_2(HKV)
    _triton_rope[(B * S,)](
        q, q.stride(1), k, k.stride(1),
        cos, cos.stride(-2), sin, sin.stride(-2),
        S, B, 1, HQ, HKV, D,
        pad_n_q_head, pad_n_kv_head, triton.next_power_of_2(D), triton.next_power_of_2(rotary_dim), rotary_dim,
        BLOCK_SIZE=max(pad_n_q_head, pad_n_kv_head),
        BACKWARD_PASS=False,
    )
