"""RMSNorm forward of liger-kernel 0.8.5 (BSD-2-Clause) in Llama casting mode: the package's
`_rms_norm_forward_kernel` / `_block_rms_norm_forward_kernel`, launched as
`liger_kernel.ops.rms_norm.rms_norm_forward(X, W, eps, offset=0.0, casting_mode="llama",
row_mode=None)` launches them (LigerRMSNorm's defaults for Llama) for a bf16 [M, N] input.

The wrapper takes BLOCK_SIZE and num_warps from the package's `calculate_settings(N)`,
allocates Y and an fp32 RSTD [M] (the harness's y and rstd here), and launches one program
per row, or, for rows of at most 256 values when M >= 32768, one program per 16 rows. Rows
are read once into registers: rstd in fp32, x * rstd rounded to bf16, then times the weight."""
import triton

from liger_kernel.ops.rms_norm import (
    _CASTING_MODE_LLAMA,
    _block_rms_norm_forward_kernel,
    _rms_norm_forward_kernel,
)
from liger_kernel.ops.utils import calculate_settings

OFFSET = 0.0  # Llama: y = x / rms * weight


def launch(x, weight, y, rstd, M, N, eps):
    BLOCK_SIZE, num_warps = calculate_settings(N)
    casting_mode = _CASTING_MODE_LLAMA.value
    if BLOCK_SIZE > 256 or M < 4096 * 8:
        _rms_norm_forward_kernel[(M,)](
            y, y.stride(0), x, x.stride(0), weight, weight.stride(0), rstd, rstd.stride(0),
            N, eps, OFFSET, casting_mode,
            elementwise_affine=True, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
        )
    else:
        BLOCK_ROW = 16
        _block_rms_norm_forward_kernel[(triton.cdiv(M, BLOCK_ROW),)](
            y, y.stride(0), x, x.stride(0), weight, weight.stride(0), rstd, rstd.stride(0),
            M, N, eps, OFFSET, casting_mode,
            elementwise_affine=True, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, BLOCK_ROW=BLOCK_ROW,
        )
