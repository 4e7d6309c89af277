"""ReLU² forward of liger-kernel 0.8.5 (BSD-2-Clause): the package's
`_relu_squared_forward_kernel`, launched as `liger_kernel.ops.relu_squared.relu_squared_forward`
launches it for a bf16 [M, N] input.

The wrapper views x as [M, N], allocates y (the harness's y here), takes BLOCK_SIZE and
num_warps from the package's `calculate_settings(N)` and launches one program per row:
y = max(x, 0)^2 in bf16."""
from liger_kernel.ops.relu_squared import _relu_squared_forward_kernel
from liger_kernel.ops.utils import calculate_settings


def launch(x, y, M, N):
    BLOCK_SIZE, num_warps = calculate_settings(N)
    _relu_squared_forward_kernel[(M,)](
        y, y.stride(-2), x, x.stride(-2),
        n_cols=N, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
    )
