"""Embedding lookup out[t, :] = table[ids[t], :] over a bf16 table with int64 ids:
liger-kernel 0.8.5 (BSD-2-Clause), liger_kernel.ops.experimental.embedding
(LigerEmbeddingFunction.forward), kernel embedding_forward_kernel.

The launch is the wrapper's: 2-D tiles of BLOCK_SIZE_M tokens x BLOCK_SIZE_N columns, both
next_power_of_2(min(128, D)), grid (ceil(T / BLOCK_SIZE_M), ceil(D / BLOCK_SIZE_N)), the
embedding width a compile-time constant, default warps. The wrapper's torch.empty output is
the harness's out, and its views of ids and out are no-ops on these contiguous buffers."""
import triton

from liger_kernel.ops.experimental.embedding import embedding_forward_kernel


def launch(table, ids, out, T, D, V):
    block_m = triton.next_power_of_2(min(128, D))
    block_n = triton.next_power_of_2(min(128, D))
    grid = (triton.cdiv(T, block_m), triton.cdiv(D, block_n))
    embedding_forward_kernel[grid](table, ids, out, T, embedding_dim=D, BLOCK_SIZE_M=block_m, BLOCK_SIZE_N=block_n)
