"""Residual add + RMSNorm forward of liger-kernel 0.8.5 (BSD-2-Clause) in Llama casting mode:
the package's `_fused_add_rms_norm_forward_kernel`, launched as
`liger_kernel.ops.fused_add_rms_norm.fused_add_rms_norm_forward(X, R, W, eps, offset=0.0,
casting_mode="llama")` launches it for bf16 [M, N] inputs.

The wrapper takes BLOCK_SIZE and num_warps from the package's `calculate_settings(N)`,
num_stages = 2, allocates Y, S (the new residual) and an fp32 RSTD [M] (the harness's y,
s and rstd here) and launches one program per row: s = x + residual in bf16, stored; rstd
from s in fp32; y = (s * rstd rounded to bf16) * weight."""
from liger_kernel.ops.fused_add_rms_norm import _CASTING_MODE_LLAMA, _fused_add_rms_norm_forward_kernel
from liger_kernel.ops.utils import calculate_settings

OFFSET = 0.0  # Llama: y = s / rms * weight
NUM_STAGES = 2  # the wrapper's


def launch(x, residual, weight, y, s, rstd, M, N, eps):
    BLOCK_SIZE, num_warps = calculate_settings(N)
    _fused_add_rms_norm_forward_kernel[(M,)](
        y, y.stride(0), s, s.stride(0), x, x.stride(0), residual, residual.stride(0),
        weight, weight.stride(0), rstd, rstd.stride(0),
        N, eps, OFFSET, _CASTING_MODE_LLAMA.value,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, num_stages=NUM_STAGES,
    )
