"""SwiGLU forward of liger-kernel 0.8.5 (BSD-2-Clause): the package's
`_swiglu_forward_kernel`, launched as `liger_kernel.ops.swiglu.swiglu_forward(a, b,
gate_multiplier=1.0)` launches it on an H100 for bf16 [M, N] gate and up projections.

The wrapper views a and b as [M, N], allocates c (the harness's c here), takes BLOCK_SIZE
and num_warps from the package's `calculate_settings(N)` and launches one program per row
(its column-tiled variant serves Blackwell only): silu(a) in fp32, rounded to bf16, times b."""
from liger_kernel.ops.swiglu import _swiglu_forward_kernel
from liger_kernel.ops.utils import calculate_settings

GATE_MULTIPLIER = 1.0  # LigerSiLUMulFunction's default


def launch(a, b, c, M, N):
    BLOCK_SIZE, num_warps = calculate_settings(N)
    _swiglu_forward_kernel[(M,)](
        a, b, c, c.stride(-2), GATE_MULTIPLIER,
        n_cols=N, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
    )
