"""Row softmax over an M x N fp32 matrix in two kernels: a statistics kernel (one program per
row) walks the row twice in blocks of 128 for its maximum and its sum of exp(x - max), and
writes both to the workspace; an elementwise kernel then computes exp(x - max) / sum."""
import torch
import triton
import triton.language as tl

BLOCK = 128
APPLY_BLOCK = 1024


@triton.jit
def row_stats_kernel(x_ptr, stats_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * N
    # Pass 1: row maximum.
    m = float("-inf")
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=float("-inf"))
        m = tl.maximum(m, tl.max(x, axis=0))
    # Pass 2: sum of exp(x - max).
    s = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < N, other=float("-inf"))
        s += tl.sum(tl.exp(x - m), axis=0)
    tl.store(stats_ptr + row * 2, m)
    tl.store(stats_ptr + row * 2 + 1, s)


@triton.jit
def softmax_apply_kernel(x_ptr, y_ptr, stats_ptr, total, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    row = offs // N
    m = tl.load(stats_ptr + row * 2, mask=mask, other=0.0)
    s = tl.load(stats_ptr + row * 2 + 1, mask=mask, other=1.0)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.exp(x - m) / s, mask=mask)


def workspace_bytes(M, N):
    return M * 2 * 4  # max and sum per row, fp32


def launch(x, y, M, N, workspace):
    stats = workspace.view(torch.float32)
    row_stats_kernel[(M,)](x, stats, N, BLOCK=BLOCK)
    total = M * N
    softmax_apply_kernel[(triton.cdiv(total, APPLY_BLOCK),)](x, y, stats, total, N, BLOCK=APPLY_BLOCK)
