"""Group normalization forward of liger-kernel 0.8.5 (BSD-2-Clause): the package's
`_group_norm_forward_kernel`, launched as `liger_kernel.ops.group_norm.group_norm_forward`
launches it for an fp32 [B, C, HW] input.

The wrapper views x as [B, G, CPG * HW] (contiguous already), allocates y, Mean and RSTD
([B, G], the input's dtype) and launches one program per (batch, group) on a (B, G) grid with
BLOCK_SIZE = min(MAX_FUSED_SIZE, next_power_of_2(CPG * HW)) and Triton's default warps.
Here the harness's y, mean and rstd take the place of those allocations; the launch
arguments are the wrapper's. Each program reads its group twice (sum and sum of squares,
then the affine with a per-element channel lookup)."""
import triton

from liger_kernel.ops.group_norm import MAX_FUSED_SIZE, _group_norm_forward_kernel


def launch(x, gamma, beta, y, mean, rstd, B, G, CPG, HW, eps):
    hidden_size = CPG * HW
    X = x.view(B, G, hidden_size)
    Y = y.view(B, G, hidden_size)
    mean = mean.view(B, G)
    rstd = rstd.view(B, G)
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(hidden_size))
    _group_norm_forward_kernel[(B, G)](
        Y, Y.stride(0), Y.stride(1),
        X, X.stride(0), X.stride(1),
        mean, mean.stride(0), mean.stride(1),
        rstd, rstd.stride(0), rstd.stride(1),
        gamma, beta, hidden_size, CPG, eps,
        BLOCK_SIZE=BLOCK_SIZE,
    )
