"""GEGLU forward (tanh-approximated GELU) of liger-kernel 0.8.5 (BSD-2-Clause): the package's
`_geglu_tanh_forward_kernel`, launched as `liger_kernel.ops.geglu.geglu_forward(a, b)`
launches it for bf16 [M, N] gate and up projections.

The wrapper views a and b as [M, N], allocates c (the harness's c here), takes BLOCK_SIZE
and num_warps from the package's `calculate_settings(N)` and launches one program per row:
0.5 * a * (1 + tanh(sqrt(2/pi) * (a + 0.044715 a^3))) in fp32 with libdevice tanh, rounded to
bf16, times b."""
from liger_kernel.ops.geglu import _geglu_tanh_forward_kernel
from liger_kernel.ops.utils import calculate_settings


def launch(a, b, c, M, N):
    BLOCK_SIZE, num_warps = calculate_settings(N)
    _geglu_tanh_forward_kernel[(M,)](
        a, b, c, c.stride(-2),
        n_cols=N, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
    )
