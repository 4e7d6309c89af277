"""PolyNorm forward of liger-kernel 0.8.5 (BSD-2-Clause): the package's
`_poly_norm_forward_kernel`, launched as `liger_kernel.ops.poly_norm.poly_norm_forward`
launches it for an fp32 [M, N] input with weight [3] and a scalar bias.

The wrapper takes BLOCK_SIZE and num_warps from the package's `calculate_settings(N)`,
allocates Y and an fp32 RSTD [M, 3] (the harness's y and rstd here) and launches one program
per row: the row read once into registers, x^3, x^2 and x each normalized by its own RMS,
combined with the three weights and the bias."""
from liger_kernel.ops.poly_norm import _poly_norm_forward_kernel
from liger_kernel.ops.utils import calculate_settings


def launch(x, weight, bias, y, rstd, M, N, eps):
    BLOCK_SIZE, num_warps = calculate_settings(N)
    _poly_norm_forward_kernel[(M,)](
        y, y.stride(0), x, x.stride(0), weight, bias, rstd, rstd.stride(0), N, eps,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
    )
