"""MoE combine, y[t] = sum_k x[t, k], as flag-gems 5.0.2 (Apache-2.0) computes it.

`flag_gems.fused.moe_sum.moe_sum(input, output)` reads the shapes and strides and launches
the autotuned `moe_sum_kernel` (BLOCK_SIZE 128-1024 with 2-8 warps, keyed on hidden size and
K) over a grid of (tokens, hidden blocks): each program adds the token's K expert rows of one
hidden block in fp32, one row per loop step, and stores the sum as bf16. It allocates
nothing, so this module calls it on the harness's tensors; the autotuner runs during the
harness's warm-up launches (the kernel only writes y, so its trial runs are harmless)."""
from flag_gems.fused.moe_sum import moe_sum


def launch(x, y, T, K, H):
    moe_sum(x, y)
