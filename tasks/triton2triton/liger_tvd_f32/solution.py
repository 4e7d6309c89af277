"""Total variation distance between fp32 distributions p and q, reduced as batchmean, with its
gradient.

The package runs one program of 16 warps per row and, for every 16384-value block of the row,
reduces the block's loss across all 16 warps (a shared-memory round trip and a barrier) before
loading the next one; with a few hundred rows some SMs get one row fewer than others, and with
fewer rows than SMs some SMs idle. Here each program takes a CHUNK of 4096 values of one row
(a grid of BT * ceil(V / 4096) programs, many per SM, balanced), loads p and q once with
evict-first hints (they are streamed), writes the gradient, and reduces its loss once; a
one-program kernel adds the partial sums and applies 1/BT."""
import torch
import triton
import triton.language as tl

CHUNK = 4096
FINAL_BLOCK = 1024


@triton.jit
def tvd_chunks(p_ptr, q_ptr, grads_ptr, partial_ptr, V, n_chunks, half_scale, CHUNK: tl.constexpr):
    pid = tl.program_id(0)
    row = pid // n_chunks
    cols = (pid % n_chunks) * CHUNK + tl.arange(0, CHUNK)
    mask = cols < V
    offs = row.to(tl.int64) * V + cols
    p = tl.load(p_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")
    q = tl.load(q_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_first")
    grad = tl.where(p > q, half_scale, tl.where(p < q, -half_scale, 0.0))
    tl.store(grads_ptr + offs, grad, mask=mask)
    tl.store(partial_ptr + pid, tl.sum(tl.abs(p - q), axis=0))


@triton.jit
def sum_partials(partial_ptr, loss_ptr, n, half_scale, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        acc += tl.load(partial_ptr + idx, mask=idx < n, other=0.0)
    tl.store(loss_ptr, tl.sum(acc, axis=0) * half_scale)


def workspace_bytes(BT, V):
    return 4 * BT * triton.cdiv(V, CHUNK)


def launch(p, q, loss, grads, BT, V, workspace):
    n_chunks = triton.cdiv(V, CHUNK)
    partial = workspace.view(torch.float32)
    half_scale = 0.5 / BT
    tvd_chunks[(BT * n_chunks,)](p, q, grads, partial, V, n_chunks, half_scale, CHUNK=CHUNK, num_warps=8)
    sum_partials[(1,)](partial, loss, BT * n_chunks, half_scale, BLOCK=FINAL_BLOCK, num_warps=4)
