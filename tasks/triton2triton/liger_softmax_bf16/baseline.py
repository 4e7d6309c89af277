"""Row softmax of an M x N bf16 matrix: liger-kernel 0.8.5 (BSD-2-Clause),
liger_kernel.ops.softmax._softmax_forward (LigerSoftmaxFunction.forward), kernel
_softmax_single_block_forward_kernel.

The launch is the wrapper's: BLOCK_SIZE and num_warps from the package's calculate_settings(N)
(next power of two of N, which refuses N > 65536), one program per row (grid M) holding the row
in registers, fp32 math (the max of bf16 values is taken in fp32), y written in bf16. The
multi-block kernel is never chosen: calculate_settings makes BLOCK_SIZE >= N. The wrapper's
.contiguous() and torch.empty_like are replaced by the harness's contiguous x and y."""
from liger_kernel.ops.softmax import _softmax_single_block_forward_kernel
from liger_kernel.ops.utils import calculate_settings


def launch(x, y, M, N):
    block_size, num_warps = calculate_settings(N)
    _softmax_single_block_forward_kernel[(M,)](y, y.stride(0), x, x.stride(0), N, BLOCK_SIZE=block_size,
                                               num_warps=num_warps)
