"""Generalized Jensen-Shannon divergence between student and teacher log-probabilities, bf16,
with its gradient: liger-kernel 0.8.5 (BSD-2-Clause), liger_kernel.ops.jsd.jsd_forward
(LigerJSDFunction.forward without labels) through its Triton backend
(liger_kernel.ops.backends._triton.jsd.jsd_loss_and_grad_triton), kernel _jsd_kernel.

The launch mirrors that path: the kernel over a (BT,) grid with BLOCK_SIZE =
min(_JSD_TRITON_BLOCK_SIZE, next power of two of V) and default warps writes dx (the wrapper's
clone of x, here the dx output) and the per-element loss tile (fp32 [BT, V], which the wrapper
allocates with torch.zeros and the kernel overwrites entirely; here the workspace), scaled by
1 / BT. The wrapper then returns torch.sum(loss_tile).to(x.dtype); that PyTorch step is done
here by two small Triton kernels of this module (a grid of at most 1024 programs each summing
a contiguous slice of the tile, then one program adding their partial sums and rounding to
bf16), as torch.sum would read the tile once."""
import torch
import triton
import triton.language as tl

from liger_kernel.ops.backends._triton.jsd import _JSD_TRITON_BLOCK_SIZE, _next_pow2
from liger_kernel.ops.jsd import _jsd_kernel

SUM_PROGRAMS = 1024
SUM_BLOCK = 4096


@triton.jit
def _sum_slices(x_ptr, partial_ptr, n, per_program, BLOCK: tl.constexpr):
    # per_program is a multiple of BLOCK: a slice ends on a block boundary.
    pid = tl.program_id(0)
    start = pid.to(tl.int64) * per_program
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, per_program, BLOCK):
        idx = start + off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + idx, mask=idx < n, other=0.0)
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def _sum_partials(partial_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        acc += tl.load(partial_ptr + idx, mask=idx < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0).to(out_ptr.dtype.element_ty))


def workspace_bytes(BT, V, beta):
    return 4 * (BT * V + SUM_PROGRAMS)


def launch(x, y, loss, dx, BT, V, beta, workspace):
    ws = workspace.view(torch.float32)
    loss_tile = ws[:BT * V]
    partial = ws[BT * V:BT * V + SUM_PROGRAMS]
    _jsd_kernel[(BT,)](
        X_ptr=x, X_stride=x.stride(-2), Y_ptr=y, Y_stride=y.stride(-2),
        loss_ptr=loss_tile, loss_stride=V, dX_ptr=dx, dX_stride=dx.stride(-2),
        label_ptr=x,  # unread without labels (HAS_LABEL=False)
        beta=beta, n_non_ignore=BT, ignore_index=-100, n_cols=V,
        BLOCK_SIZE=min(_JSD_TRITON_BLOCK_SIZE, _next_pow2(V)), HAS_LABEL=False,
    )
    n = BT * V
    per_program = triton.cdiv(triton.cdiv(n, SUM_PROGRAMS), SUM_BLOCK) * SUM_BLOCK
    programs = triton.cdiv(n, per_program)
    _sum_slices[(programs,)](loss_tile, partial, n, per_program, BLOCK=SUM_BLOCK, num_warps=8)
    _sum_partials[(1,)](partial, loss, programs, BLOCK=1024)
