"""KL divergence KL(y_true || exp(y_pred)) of bf16 rows, reduced as batchmean: liger-kernel
0.8.5 (BSD-2-Clause), liger_kernel.ops.kl_div.kldiv_forward_triton
(LigerKLDivLossFunction.forward with its defaults: reduction="batchmean", log_target=False,
eps=1e-10), kernel _kldiv_kernel_forward.

The launch is the wrapper's: one program per row (grid BT), BLOCK_SIZE = min(MAX_FUSED_SIZE,
next power of two of V) and the package's get_num_warps(BLOCK_SIZE), writing each row's sum
into an fp32 [BT] vector (the wrapper's torch.zeros output, every entry of which the kernel
overwrites; here the workspace). The wrapper then returns output.sum() / BT in PyTorch; since
only Triton kernels may run here, that step is one small Triton kernel of this module (one
program adding the BT row sums and dividing by BT)."""
import torch
import triton
import triton.language as tl

from liger_kernel.ops.kl_div import MAX_FUSED_SIZE, _kldiv_kernel_forward, _str_to_reduction_mode, get_num_warps

EPS = 1e-10  # LigerKLDivLossFunction's default


@triton.jit
def _batchmean(row_sums_ptr, loss_ptr, BT, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, BT, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        acc += tl.load(row_sums_ptr + idx, mask=idx < BT, other=0.0)
    tl.store(loss_ptr, tl.sum(acc, axis=0) / BT)


def workspace_bytes(BT, V):
    return 4 * BT


def launch(y_pred, y_true, loss, BT, V, workspace):
    row_sums = workspace.view(torch.float32)
    block_size = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    _kldiv_kernel_forward[(BT,)](
        y_pred, y_pred.stride(0), y_true, y_true.stride(0), row_sums, row_sums.stride(0), V,
        eps=EPS, BLOCK_SIZE=block_size, num_warps=get_num_warps(block_size), log_target=False,
        reduction=_str_to_reduction_mode["batchmean"],
    )
    _batchmean[(1,)](row_sums, loss, BT, BLOCK=1024)
