"""Total variation distance between fp32 distributions p and q, reduced as batchmean, with its
gradient: liger-kernel 0.8.5 (BSD-2-Clause), liger_kernel.ops.tvd.tv_distance_forward_triton
(LigerTVDLossFunction.forward with its defaults: reduction="batchmean", no labels), kernel
_tv_distance_kernel.

The launch is the wrapper's: one program per row (grid BT), BLOCK_SIZE = min(MAX_FUSED_SIZE,
next power of two of V), the package's get_num_warps(BLOCK_SIZE), scale = 1 / BT, writing the
gradient (the wrapper's torch.empty_like(p), here the grads output) and each row's scaled loss
into an fp32 [BT] vector (the wrapper's torch.zeros output, every entry of which the kernel
overwrites; here the workspace). The wrapper then returns output.sum() in PyTorch; since only
Triton kernels may run here, that step is one small Triton kernel of this module (one program
adding the BT row losses)."""
import torch
import triton
import triton.language as tl

from liger_kernel.ops.tvd import MAX_FUSED_SIZE, _str_to_reduction_mode, _tv_distance_kernel, get_num_warps


@triton.jit
def _sum_rows(row_loss_ptr, loss_ptr, BT, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, BT, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        acc += tl.load(row_loss_ptr + idx, mask=idx < BT, other=0.0)
    tl.store(loss_ptr, tl.sum(acc, axis=0))


def workspace_bytes(BT, V):
    return 4 * BT


def launch(p, q, loss, grads, BT, V, workspace):
    row_loss = workspace.view(torch.float32)
    block_size = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    _tv_distance_kernel[(BT,)](
        p, p.stride(0), q, q.stride(0), row_loss, row_loss.stride(0), grads, grads.stride(0),
        p,  # label_ptr: unread without labels (HAS_LABEL=False)
        -100, V, 1.0 / BT,
        BLOCK_SIZE=block_size, HAS_LABEL=False, num_warps=get_num_warps(block_size),
        reduction=_str_to_reduction_mode["batchmean"],
    )
    _sum_rows[(1,)](row_loss, loss, BT, BLOCK=1024)
