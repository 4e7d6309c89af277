"""LayerNorm forward of liger-kernel 0.8.5 (BSD-2-Clause): the package's
`_layer_norm_forward_kernel`, launched as `liger_kernel.ops.layer_norm.layer_norm_forward`
launches it for a bf16 [M, N] input with bf16 weight and bias.

The wrapper takes BLOCK_SIZE and num_warps from the package's `calculate_settings(N)`,
allocates Y and fp32 Mean and RSTD [M] (the harness's y, mean and rstd here) and launches
one program per row: weight and bias loaded, the row read once into registers, mean and
variance in fp32, y rounded to bf16 once."""
from liger_kernel.ops.layer_norm import _layer_norm_forward_kernel
from liger_kernel.ops.utils import calculate_settings


def launch(x, weight, bias, y, mean, rstd, M, N, eps):
    BLOCK_SIZE, num_warps = calculate_settings(N)
    _layer_norm_forward_kernel[(M,)](
        y, y.stride(0), x, x.stride(0), weight, weight.stride(0), bias, bias.stride(0),
        mean, mean.stride(0), rstd, rstd.stride(0), N, eps,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
    )
