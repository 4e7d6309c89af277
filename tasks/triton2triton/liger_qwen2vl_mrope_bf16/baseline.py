"""Qwen2-VL multimodal rotary position embedding (M-RoPE, rotate-half with temporal, height and
width sections) on bf16 q and k in place: liger-kernel 0.8.5 (BSD-2-Clause),
liger_kernel.ops.qwen2vl_mrope.qwen2vl_mrope_forward, kernel _triton_qwen2vl_mrope.

The launch is the wrapper's for HuggingFace's layout (q and k transposed views of contiguous
[B, S, H, D] buffers, cos/sin [3, B, S, D]): one program per token (grid B*S) rotating all its
q heads and k heads, heads padded to a power of two, mrope_section = (T_SEC, H_SEC, rest),
default warps. The math runs in the tables' dtype (bf16), as the package does. The wrapper's
transposes and .contiguous() calls are no-ops on these buffers."""
import triton

from liger_kernel.ops.qwen2vl_mrope import _triton_qwen2vl_mrope


def launch(q, k, cos, sin, B, S, HQ, HKV, D, T_SEC, H_SEC):
    pad_n_q_head = triton.next_power_of_2(HQ)
    pad_n_kv_head = triton.next_power_of_2(HKV)
    _triton_qwen2vl_mrope[(B * S,)](
        q, k, cos, sin,
        S, B, HQ, HKV, D,
        pad_n_q_head, pad_n_kv_head, triton.next_power_of_2(D),
        T_SEC, H_SEC,
        BLOCK_SIZE=max(pad_n_q_head, pad_n_kv_head),
        BACKWARD_PASS=False,
    )
